"""What the Dominion statement-of-votes readers share: header names, contest titles, counts, records.

Dominion's Results Tally & Reporting writes its headers as a printed report lays them out: a name
broken over lines inside one cell ("Registered \\nVoters", "Yes\\n "), a footnote star ("Active
Voters*"). `header_key` reads them all as one spelling. A contest title may carry the number of
seats, "(Vote for  2)" (the statement of votes) or "(Vote For=2)" (the cast-vote-record export),
and a privacy footnote after it ("**** - Insufficient Turnout to Protect Voter Privacy").
"""
from __future__ import annotations

import csv
import re
from typing import Iterator

from rules.contest import Bound
from rules.returns.draft import Draft
from rules.returns.numbers import CountError, hidden_count, is_plain_count, parse_count
from rules.returns.problems import Report
from rules.returns.source import Source
from rules.row_kinds import is_question, is_write_in_bucket

_VOTE_FOR = re.compile(r"\(\s*vote\s+for\s*=?\s*(\d+)\s*\)", re.I)
# "**** - Insufficient Turnout to Protect Voter Privacy": a footnote on the title, not part of the name.
_TITLE_FOOTNOTE = re.compile(r"\s*\*{2,}\s*-\s.*$")


def header_key(cell: str) -> str:
    """A header cell as one spelling: line breaks and runs of spaces one space, lower case, no footnote star."""
    return " ".join(cell.split()).casefold().rstrip("*").strip()


def clean(cell: str) -> str:
    """A name as written, its line breaks and runs of spaces made one space ("Yes\\n " -> "Yes")."""
    return " ".join(cell.split())


def contest_title(text: str) -> tuple[str, int | None]:
    """(name, seats) of a title such as "PROPOSITION 50 (Vote for  1)   **** - Insufficient Turnout ...".

    seats is None when the title does not say; 0 when it says a number below 1 (the caller refuses it).
    """
    text = clean(text)
    match = _VOTE_FOR.search(text)
    if match is None:
        return _TITLE_FOOTNOTE.sub("", text).strip(), None
    before, after = text[:match.start()].strip(), _TITLE_FOOTNOTE.sub("", text[match.end():]).strip()
    # Clear Creek's primary titles repeat the party on a second line: "Attorney General - DEM (Vote for  1) \nDEM".
    if after and before.casefold().endswith(after.casefold()):
        after = ""
    return clean(f"{before} {after}"), int(match[1]) if len(match[1]) <= 3 else 0


def records(source: Source, report: Report) -> Iterator[tuple[int, list[str]]]:
    """(row, cells) for every CSV record, blank ones included in the numbering (a spreadsheet's rows)."""
    row = 0
    try:
        for cells in csv.reader(source.lines()):
            row += 1
            yield row, cells
    except csv.Error as exc:  # e.g. a cell over the csv module's size limit: the rest cannot be trusted
        report.problem(f"row {row + 1}", f"cannot be read as CSV ({exc})")


def read_count(cell: str, location: str, report: Report, contest: str | None) -> "int | Bound | None":
    """A count, the range of a hidden one ("****", empty), or None when the cell is refused (reported)."""
    if is_plain_count(cell):
        return int(cell)
    try:
        votes, note = parse_count(cell)
    except CountError as exc:
        hidden = hidden_count(cell, location)
        if hidden is not None:
            return hidden
        report.row_problem(location, str(exc), contest)
        return None
    if note:
        report.note(f"{location}: {note}", kind="counts normalised")
    return votes


def add(a: "int | Bound", b: "int | Bound") -> "int | Bound":
    """The sum of two figures; a range when either is one."""
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    low = (a.low if isinstance(a, Bound) else a) + (b.low if isinstance(b, Bound) else b)
    high_a = a.high if isinstance(a, Bound) else a
    high_b = b.high if isinstance(b, Bound) else b
    return Bound(low, None if high_a is None or high_b is None else high_a + high_b, "a sum with hidden counts")


def can_be(total: int, figure: "int | Bound") -> bool:
    """True when `total` is `figure`, or lies in its range."""
    if isinstance(figure, int):
        return total == figure
    return figure.low <= total and (figure.high is None or total <= figure.high)


def shown(figure: "int | Bound") -> str:
    if isinstance(figure, int):
        return f"{figure:,}"
    return f"{figure.low:,} or more" if figure.high is None else f"{figure.low:,} to {figure.high:,}"


def put(draft: Draft, unit: str, choice: str, figure: "int | Bound") -> None:
    """Store one figure of a unit (a range through `add_uncertain`, so its low counts until resolved)."""
    if isinstance(figure, Bound):
        draft.add_uncertain(unit, choice, figure)
    else:
        draft.choices.setdefault(choice, None)
        draft.votes_by_unit.setdefault(unit, {})[choice] = figure


def drop_empty_write_ins_of_questions(draft: Draft, report: Report) -> None:
    """A Yes/No measure still gets Dominion's "Unresolved Write-In" column, always 0. Kept, it would stop
    the contest being read as a question, so a bucket holding only zeros beside one yes and one no is
    dropped (noted); a bucket with votes is kept, for the clerk to see."""
    buckets = [c for c in draft.choices if is_write_in_bucket(c)]
    answers = [c for c in draft.choices if c not in buckets]
    if not buckets or not is_question(answers):
        return
    for bucket in buckets:
        if any(choice == bucket for _, choice in draft.uncertain):
            return
        if any(units.get(bucket, 0) for units in draft.votes_by_unit.values()):
            return
    for bucket in buckets:
        del draft.choices[bucket]
        for units in draft.votes_by_unit.values():
            units.pop(bucket, None)
    report.note(f"{draft.name!r}: {', '.join(map(repr, buckets))} holds only zeros beside the answers of a "
                "question; not read", kind="empty write-in columns")


def settle_seats(draft: Draft, seats: int | None, where: str, report: Report) -> None:
    """The seats a title gives ("(Vote for  2)"); every title of a contest must give the same."""
    if seats is None:
        return
    if seats < 1:
        report.row_problem(where, f"says to vote for {seats}; a contest fills at least one seat", draft.name)
    elif draft.seats is not None and draft.seats != seats:
        report.row_problem(where, f"says {seats} seats for {draft.name!r}, but {draft.seats_location} says "
                                  f"{draft.seats}", draft.name)
    else:
        draft.seats, draft.seats_location = seats, where
