"""Dominion's flat statement of votes: one row per precinct, contest and choice.

    "Precinct Code","Precinct Number","Active Voters","Contest Title","Choice Name","Total Ballots",
    "Total Votes","Total Undervotes","Total Overvotes"

Boulder County publishes its Statement of Votes (and, without the precinct columns but with
"Precinct Count", its Summary of Votes) in this form, as CSV and XLSX. Quirks of the real files
(2023-2025, see tests/rules/test_returns_dominion.py):
- columns are found by name, in any order (2024 moved Active Voters after Choice Name); a name may be
  broken over lines inside its cell ("Precinct \\nCode", the 2023 recount file) or carry a footnote star
  ("Active Voters*", 2025);
- the unit is the Precinct Code as written: "002", "100,700" (two precincts reported together),
  "Property Owner" (ballots of property owners who live outside the district), "Property Owner, 627";
- Total Votes is the choice's votes. Active Voters, Total Ballots, Total Undervotes and Total
  Overvotes are about the precinct or the contest, not votes for the choice: not read (a note says so);
- counts may have thousands separators ("1,200"); "N/A" appears only in Precinct Number and Active Voters;
- a footnote after the rows ("* Active Voters are total voters in the precinct ...") is set aside;
- the ranked-choice statement ("Candidate Name", "Round 1 Votes", "Round 2 Votes", ..., "Total Votes",
  "Total Exhausted") gives each round's transfers, not one plurality count: its contests are left undecided;
- "(Vote For=N)" in a contest title, if a county writes it, gives the seats; Boulder's titles do not.
"""
from __future__ import annotations

import re

from rules.contest import Bound
from rules.returns.dominion_common import (
    add,
    can_be,
    clean,
    contest_title,
    drop_empty_write_ins_of_questions,
    header_key,
    put,
    read_count,
    records,
    settle_seats,
    shown,
)
from rules.returns.draft import Draft
from rules.returns.problems import Report
from rules.returns.seats_from_counts import BallotCounts
from rules.returns.source import Source
from rules.row_kinds import RowKind, choice_row_kind, is_subtotal_unit, normalise

CONTEST = ("contest title",)
CHOICE = ("choice name", "candidate name")
VOTES = ("total votes",)
UNIT = ("precinct code", "precinct", "precinct name", "precinct number")
_ROUND = re.compile(r"round \d+ votes")


def is_flat_header(cells: list[str]) -> bool:
    names = {header_key(c) for c in cells}
    return bool(names & set(CONTEST)) and bool(names & set(CHOICE)) and bool(names & set(VOTES))


def parse(source: Source, report: Report) -> list[Draft]:
    rows = records(source, report)
    for header_row, header in rows:  # noqa: B007  (the row found is used after the loop)
        if any(c.strip() for c in header):
            break
    else:
        report.problem("file", "is empty")
        return []
    columns = _columns(header, header_row, report)
    if columns is None:
        return []
    i_contest, i_choice, i_votes, i_unit = columns
    width = len(header)
    keys = [header_key(c) for c in header]
    votes_name = clean(header[i_votes])
    ranked = [clean(header[i]) for i, key in enumerate(keys) if _ROUND.fullmatch(key)]
    ignored = [clean(header[i]) for i in range(width)
               if i not in columns and header[i].strip() and not _ROUND.fullmatch(keys[i])]
    drafts: dict[str, Draft] = {}
    ballots = BallotCounts.of(header)  # Total Ballots, Undervotes and Overvotes: the seats, where titles are silent
    first_row: dict[str, int] = {}
    titles: dict[str, tuple[str, int | None]] = {}  # Contest Title as written -> (name, seats)
    seen: dict[tuple[str, str, str], int] = {}
    subtotals: dict[str, list[tuple[str, str, "int | Bound", int]]] = {}  # contest -> (unit, choice, votes, row)
    data_rows = 0
    for row, cells in rows:
        if len(cells) != width:
            if not cells:
                continue
            if len(cells) > width and any(c.strip() for c in cells[width:]):
                contest_cell = cells[i_contest].strip() if i_contest < len(cells) else ""
                report.row_problem(f"row {row}", f"has {len(cells)} cells but the header has {width} columns",
                                   contest_title(contest_cell)[0] or None)
                continue
            cells = (cells + [""] * width)[:width]
        if not any(c.strip() for c in cells):
            continue
        data_rows += 1
        if not any(c.strip() for c in cells[1:]):
            # "* Active Voters are total voters in the precinct. ...": a footnote below the rows, in the first
            # column whichever it is (Contest Title in the Summary of Votes)
            report.set_aside(RowKind.NOT_RESULTS, f"row {row}")
            continue
        contest_cell, choice, cell = cells[i_contest].strip(), clean(cells[i_choice]), cells[i_votes]
        kind = choice_row_kind(choice) if choice else None
        if kind is not None:
            report.set_aside(kind, f"row {row}")
            continue
        if not contest_cell:
            report.row_problem(f"row {row}, column {clean(header[i_contest])}", "is empty; every row needs a contest",
                               None)
            continue
        title = titles.get(contest_cell)
        if title is None:  # a title is read once, though every row repeats it
            title = titles[contest_cell] = contest_title(contest_cell)
            name = title[0]
            if name not in drafts:
                drafts[name], first_row[name] = Draft(name=name), row
            settle_seats(drafts[name], title[1], f"row {row}, column {clean(header[i_contest])}", report)
        name = title[0]
        draft = drafts[name]
        if not choice:
            report.nameless(f"row {row}, column {clean(header[i_choice])}", name, cell)
            continue
        unit = clean(cells[i_unit]) if i_unit is not None else ""
        location = f"row {row}, column {votes_name}"
        votes = read_count(cell, location, report, name)
        if votes is None:
            continue
        key = (name, unit, choice)
        if key in seen:
            report.row_problem(f"row {row}", f"repeats row {seen[key]}: {name!r}, {choice!r}"
                               + (f", precinct {unit!r}" if i_unit is not None else ""), name)
            continue
        seen[key] = row
        # A precinct cell naming a total ("Total", "County Total"), or left blank among precincts, is a subtotal;
        # Dominion's "Cumulative" (votes counted with no precinct) is not.
        blank_among_precincts = i_unit is not None and not unit
        if blank_among_precincts or (is_subtotal_unit(unit) and not normalise(unit).startswith("cumulative")):
            subtotals.setdefault(name, []).append((unit, choice, votes, row))
            continue
        put(draft, unit, choice, votes)
        ballots.add(name, unit, cells)
    if data_rows == 0 and not report.problems:
        report.problem("file", "has a header but no rows of returns")
    for name, figures in subtotals.items():
        settle_subtotals(drafts[name], figures, report)
    if ranked:
        for name in drafts:
            report.row_problem(f"row {first_row[name]}",
                               f"{name!r} is a ranked-choice tabulation ({', '.join(ranked[:3])}, ...): its "
                               f"{votes_name} are the last round's, after transfers, not one count of first "
                               "choices; the recount test here is for plurality contests, so decide it by hand",
                               name)
    if ignored:
        report.note(f"columns {', '.join(ignored)} are not votes for a choice; only {votes_name} is read")
    for draft in drafts.values():
        drop_empty_write_ins_of_questions(draft, report)
        ballots.settle(draft)
    return list(drafts.values())


def _columns(header: list[str], row: int, report: Report) -> tuple[int, int, int, int | None] | None:
    found: dict[str, int] = {}
    for i, cell in enumerate(header):
        key = header_key(cell)
        if key and key not in found:
            found[key] = i
    picked = []
    for names, what in ((CONTEST, "Contest Title"), (CHOICE, "Choice Name"), (VOTES, "Total Votes")):
        index = next((found[n] for n in names if n in found), None)
        if index is None:
            report.problem(f"row {row}", f"missing column {what!r}; expected Contest Title, Choice Name (or "
                                         "Candidate Name), Total Votes and optionally Precinct Code")
        picked.append(index)
    contest, choice, votes = picked
    if contest is None or choice is None or votes is None:
        return None
    unit = next((found[n] for n in UNIT if n in found), None)
    return contest, choice, votes, unit


def settle_subtotals(draft: Draft, figures: list, report: Report) -> None:
    """A subtotal row: cross-checked against the precinct rows of its choice and set aside; used as the count
    where the choice has no precinct rows."""
    below: dict[str, "int | Bound"] = {}
    for unit, counts in draft.votes_by_unit.items():
        for choice, votes in counts.items():
            below[choice] = add(below.get(choice, 0), draft.uncertain.get((unit, choice), votes))
    for unit, choice, votes, row in figures:
        if choice not in below:
            put(draft, unit, choice, votes)
            continue
        report.set_aside(RowKind.SUBTOTAL, f"row {row}")
        if isinstance(votes, int) and not can_be(votes, below[choice]):
            report.row_problem(f"row {row}", f"the total row ({unit or 'no precinct'}) says {votes:,} for {choice!r} "
                               f"in {draft.name!r}, but its precinct rows add up to {shown(below[choice])}", draft.name)
