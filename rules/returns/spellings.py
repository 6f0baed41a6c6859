"""One contest, one name: titles (and choices) that differ only by spacing, punctuation or case are one.

Real files spell one contest several ways: OpenElections' Dolores County 2008 file writes "U. S. House" in
two precincts and "U.S. House" in three. Read as two contests, each would be judged on part of its votes
(Salazar 263 vs Wolf 144, and 387 vs 371, instead of 650 vs 515): a close race judged on half the file.
So drafts whose names are equal once case, spacing and punctuation are ignored (`spelling_key`) are one
contest, named by the spelling with the most units, with a note naming every spelling. Within a contest,
choices are merged the same way. Drafts of one name from several tables or worksheets are merged here too.

Merging never adds a unit's count twice: a unit with a count for the same choice under two spellings is a
problem of the contest (undecided, both places named), since the file then holds two counts for one cell.
"""
from __future__ import annotations

import re

from rules.contest import Bound
from rules.returns.draft import Draft
from rules.returns.problems import Report

# Spaces, tabs and ASCII punctuation: "U. S. House" and "U.S. House", "Smith, Jr." and "Smith Jr". Letters of
# any script, digits and every other character (a control character, a line separator) stay: "Román" is not
# "Roman", and "Ann\x0by" is not "Ann y".
_SPACING_AND_PUNCTUATION = re.compile(r"[ \t\u00a0!-/:-@\[-`{-~]+")


def spelling_key(name: str) -> str:
    return _SPACING_AND_PUNCTUATION.sub(" ", name.casefold()).strip()


def merge_spellings(drafts: list[Draft], report: Report) -> list[Draft]:
    groups: dict[str, list[Draft]] = {}
    for draft in drafts:
        groups.setdefault(spelling_key(draft.name), []).append(draft)
    out: list[Draft] = []
    for draft in drafts:
        group = groups.get(spelling_key(draft.name))
        if group is None:
            continue  # already merged into the group's first
        del groups[spelling_key(draft.name)]
        if len(group) == 1:
            _merge_choice_spellings(draft, report)
            out.append(draft)
            continue
        out.append(_merge(group, report))
    return out


def _merge(group: list[Draft], report: Report) -> Draft:
    keep = max(group, key=lambda d: len(d.votes_by_unit))  # the first of the most used spellings
    names = list(dict.fromkeys(d.name for d in group))
    units = {n: sum(len(d.votes_by_unit) for d in group if d.name == n) for n in names}
    for other in group:
        if other is keep:
            continue
        _absorb(keep, other, report)
    if len(names) > 1:
        uses = ", ".join(f"{n!r} ({_units(units[n])})" for n in names)
        report.note(f"one contest under {len(names)} spellings, {uses}: read as one, {keep.name!r} (the names differ "
                    "only in spacing, punctuation or case)", kind="spellings merged")
    _merge_choice_spellings(keep, report)
    return keep


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def _absorb(keep: Draft, other: Draft, report: Report) -> None:
    _absorb_kind_and_seats(keep, other, report)
    problems = report.contest_problems.pop(other.name, None) if other.name != keep.name else None
    if problems:
        report.contest_problems.setdefault(keep.name, []).extend(problems)
    for choice in other.choices:
        keep.choices.setdefault(choice, None)
    for choice, details in other.details.items():
        keep.details.setdefault(choice, details)
    keep.unit_parent.update({u: p for u, p in other.unit_parent.items() if u not in keep.unit_parent})
    keep.kind_stated = keep.kind_stated or other.kind_stated
    keep.readings.extend(r for r in other.readings if r not in keep.readings)
    for unit, counts in other.votes_by_unit.items():
        mine = keep.votes_by_unit.setdefault(unit, {})
        for choice, votes in counts.items():
            if choice in mine:
                report.row_problem(f"contest {keep.name!r}", f"unit {unit!r} has a count for {choice!r} under "
                                   f"{keep.name!r} and again under {other.name!r}", keep.name)
                continue
            mine[choice] = votes
            if (unit, choice) in other.uncertain:
                keep.uncertain[(unit, choice)] = other.uncertain[(unit, choice)]


def _absorb_kind_and_seats(keep: Draft, other: Draft, report: Report) -> None:
    if other.kind is not keep.kind and (other.kind_stated or keep.kind_stated):
        report.row_problem(f"contest {keep.name!r}", f"is a {keep.kind.value} contest, but {other.name!r} (the same "
                           f"name spelled otherwise) is a {other.kind.value}", keep.name)
    if other.seats is None:
        return
    if keep.seats is None:
        keep.seats, keep.seats_location = other.seats, other.seats_location
    elif keep.seats != other.seats:
        report.row_problem(other.seats_location or f"contest {other.name!r}",
                           f"says {other.seats} seats for {other.name!r}, but {keep.seats_location} says "
                           f"{keep.seats} for {keep.name!r}", keep.name)


def _merge_choice_spellings(draft: Draft, report: Report) -> None:
    groups: dict[str, list[str]] = {}
    for choice in draft.choices:
        groups.setdefault(spelling_key(choice), []).append(choice)
    for spellings in groups.values():
        if len(spellings) < 2:
            continue
        units_of = {c: {u for u, counts in draft.votes_by_unit.items() if c in counts} for c in spellings}
        keep = max(spellings, key=lambda c: len(units_of[c]))
        clash = [u for c in spellings if c != keep for u in units_of[c] & units_of[keep]]
        if clash:
            report.row_problem(f"contest {draft.name!r}", f"{' and '.join(map(repr, spellings))} (one name spelled "
                               f"two ways) both have a count in unit {clash[0]!r}: one choice or two?", draft.name)
            continue
        for choice in spellings:
            if choice == keep:
                continue
            for unit in units_of[choice]:
                draft.votes_by_unit[unit][keep] = draft.votes_by_unit[unit].pop(choice)
                bound: Bound | None = draft.uncertain.pop((unit, choice), None)
                if bound is not None:
                    draft.uncertain[(unit, keep)] = bound
            del draft.choices[choice]
            if choice in draft.details:
                draft.details.setdefault(keep, draft.details.pop(choice))
        report.note(f"{draft.name!r}: the choice {keep!r} is also written {', '.join(repr(c) for c in spellings if c != keep)}"
                    "; read as one (the names differ only in spacing, punctuation or case)", kind="spellings merged")
