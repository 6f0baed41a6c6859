"""From what a parser gathered to `Returns`: the steps every format shares.

Each parser fills `Draft`s (plain mutable dicts, cheap to update per row); `finish` applies the
caller's seat numbers, builds the immutable `Contest`s and raises every problem found at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from rules.contest import Contest, ContestKind, Returns
from rules.returns.problems import Report

REPLACEMENT_CHARACTER = "\ufffd"


@dataclass(eq=False)
class Draft:
    """One contest while it is being read.

    seats is None when the file does not say (the caller's `seats=` or 1 then applies);
    seats_location says where the file said it, for messages about a disagreement.
    choices is an ordered set (a dict with None values) so source order is kept.
    """

    name: str
    kind: ContestKind = ContestKind.CANDIDATE
    seats: int | None = None
    seats_location: str = ""
    choices: dict[str, None] = field(default_factory=dict)
    votes_by_unit: dict[str, dict[str, int]] = field(default_factory=dict)
    details: dict[str, dict[str, str]] = field(default_factory=dict)


def seats_location(name: str) -> str:
    return f"seats[{name!r}]"


def finish(
    drafts: Iterable[Draft], seats: Mapping[str, int] | None, report: Report, source_format: str, *,
    text_has_replacement_character: bool = True,
) -> Returns:
    """Build the Returns, or raise ReturnsError listing every problem (the parser's and ours)."""
    drafts = list(drafts)
    if seats:
        _apply_seats(drafts, seats, report)
    if not drafts and not report.problems:
        report.problem("file", "contains no contests")
    contests = []
    for draft in drafts:
        try:
            contests.append(Contest(
                name=draft.name, choices=tuple(draft.choices), votes_by_unit=draft.votes_by_unit,
                seats=draft.seats if draft.seats is not None else 1, kind=draft.kind,
                choice_details=draft.details,
            ))
        except ValueError as exc:  # the parsers should prevent these; never leak them as non-ReturnsError
            report.problem(f"contest {draft.name!r}", str(exc))
    report.raise_if_problems()
    if text_has_replacement_character:  # the caller knows cheaply whether the scan can find anything
        _note_replacement_characters(contests, report)
    return Returns(contests=tuple(contests), source_format=source_format, notes=report.notes)


def _apply_seats(drafts: list[Draft], seats: Mapping[str, int], report: Report) -> None:
    # A contest whose rows were all refused is missing from `drafts`; saying that `seats` names no
    # contest would then only echo those problems.
    rows_were_refused = bool(report.problems)
    by_name = {d.name: d for d in drafts}
    by_folded: dict[str, list[Draft]] = {}
    for d in drafts:
        by_folded.setdefault(d.name.casefold().strip(), []).append(d)
    for name, number in seats.items():
        where = seats_location(name)
        if type(number) is not int or number < 1:
            report.problem(where, f"must be a whole number of seats, at least 1 (got {number!r})")
            continue
        draft = by_name.get(name)
        if draft is None and isinstance(name, str):
            # Same forgiving match as Returns.contest(): case and outer spaces do not matter if unique.
            matches = by_folded.get(name.casefold().strip(), [])
            draft = matches[0] if len(matches) == 1 else None
        if draft is None:
            if not rows_were_refused:
                report.problem(where, "names no contest in the file")
            continue
        if draft.kind is ContestKind.QUESTION and number != 1:
            report.problem(where, f"{draft.name!r} is a question; it has no seats to fill")
            continue
        if draft.seats is not None and draft.seats != number:
            report.problem(where, f"says {number} seats, but the file says {draft.seats} ({draft.seats_location})")
            continue
        draft.seats = number


def _note_replacement_characters(contests: list[Contest], report: Report) -> None:
    """A U+FFFD in a name means a character was lost before the file reached us (e.g. "Rom\ufffdn").

    We keep the name as written (changing it could merge or split choices) but tell the clerk.
    """
    damaged: dict[str, None] = {}
    for contest in contests:
        for text in (contest.name, *contest.choices, *contest.votes_by_unit):
            if REPLACEMENT_CHARACTER in text:
                damaged[text] = None
    for text in damaged:
        report.note(f"{text!r} contains {REPLACEMENT_CHARACTER!r}: a character was lost before this file was made; "
                    "kept as written", kind="damaged characters")
