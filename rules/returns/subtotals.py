"""Subtotal units that no name gives away: a unit whose votes are the sum of the others'.

Readers set aside the subtotals they can recognise by name ("Total", "CO", "EL PASO CO"). A file may
still carry one under a name nobody listed ("All Precincts", "Colorado"): adding it would double
every total. A unit is such a subtotal when, for every choice of the contest, its votes equal the
sum of the other units' votes of its group (the precincts of one county, or all units), at least
two other units have votes (two equal units are a repeat, not a total), and at least two choices
have votes: with one choice, one county equalling the sum of the others is a
coincidence that happens (2016, District Attorney 11), and the verdict is "uncontested" anyway.

Setting one aside can never change a verdict, even if two real precincts happened to qualify: the
totals left are then exactly half of what they were, and the (1) test is the same at any scale,
(h - n) * 200 <= h  <=>  (2h - 2n) * 200 <= 2h. Only the numbers shown change, and the summary says
which unit was set aside.
"""
from __future__ import annotations

from itertools import chain, compress, repeat
from operator import eq
from typing import TYPE_CHECKING, cast

from rules.returns.draft import Draft
from rules.row_kinds import RowKind
from rules.unit_counts import UnitCounts

if TYPE_CHECKING:
    from rules.returns.problems import Report


def set_aside_sum_subtotals(draft: Draft, report: "Report") -> None:
    if draft.unit_parent:
        groups: dict[str, list[str]] = {}
        for unit in draft.votes_by_unit:
            groups.setdefault(draft.unit_parent.get(unit, ""), []).append(unit)
    else:
        groups = {"": list(draft.votes_by_unit)}
    removed: dict[str, None] = {}  # an ordered set: membership is tested for every unit of a contest
    sums: dict[str, int] | None = None
    for units in groups.values():
        found, sums = _subtotals_of(draft, units)
        removed.update(dict.fromkeys(found))
    # Top-level units (no parent) are compared against every unit of the contest too: a state total
    # row in a file of precincts grouped by county.
    if len(groups) > 1 and "" in groups:
        rest = [u for u in draft.votes_by_unit if u not in removed]
        removed.update(dict.fromkeys(_subtotals_of(draft, rest, candidates=groups[""])[0]))
    if len(groups) == 1 and sums is not None:
        # The sums of every unit of the contest: its totals, kept for `Contest.totals` (summing again costs as
        # much). A unit set aside held half of every choice's sum, so half is left.
        draft.totals = {choice: total // 2 for choice, total in sums.items()} if removed else sums
    for unit in removed:
        cells = len(draft.votes_by_unit.pop(unit))
        draft.unit_parent.pop(unit, None)
        report.set_aside(RowKind.SUBTOTAL, f"{draft.name}: unit {unit!r} (its votes are the sum of the others)",
                         count=cells)


def _subtotals_of(draft: Draft, units: list[str], candidates: list[str] | None = None
                  ) -> tuple[list[str], dict[str, int] | None]:
    """The subtotals among `candidates` (default: `units`), and the sums of `units` per choice when computed."""
    if len(units) < 3:  # two units equal in every choice are a repeat, not one the total of the other
        return [], None
    if draft.uncertain and not {unit for unit, _ in draft.uncertain}.isdisjoint(units):
        return [], None
    by_unit = draft.votes_by_unit
    if isinstance(by_unit, UnitCounts) and candidates is None and len(units) == len(by_unit):
        return _subtotals_in_columns(by_unit)
    tables = cast(list[dict[str, int]], [by_unit[unit] for unit in units])
    sums = column_sums(tables)
    if sum(1 for total in sums.values() if total) < 2:
        return [], sums
    # A subtotal holds half of every choice's sum. Only the units holding half of one choice's (with votes) can,
    # and those are found without a Python step per unit; each is then checked in full as the rule says.
    choice, total = next((choice, total) for choice, total in sums.items() if total)
    if total % 2:
        return [], sums
    members = set(units)
    if candidates is None:
        pool, pool_tables = units, tables
    else:
        pool = [unit for unit in candidates if unit in members]
        pool_tables = cast(list[dict[str, int]], [by_unit[unit] for unit in pool])
    cells = (map(dict.get, pool_tables, repeat(choice), repeat(0)) if isinstance(by_unit, dict)
             else (table.get(choice, 0) for table in pool_tables))  # a UnitCounts' rows are views, not dicts
    halves = map((total // 2).__eq__, cells)
    found = []
    with_votes: set[str] | None = None
    for unit in compress(pool, halves):
        counts = draft.votes_by_unit[unit]
        if with_votes is None:
            with_votes = {unit for unit, table in zip(units, tables) if any(table.values())}
        others = len(with_votes) - (unit in with_votes)
        if others >= 2 and all(counts.get(choice, 0) * 2 == total for choice, total in sums.items()):
            found.append(unit)
    return found, sums


def _subtotals_in_columns(counts: UnitCounts) -> tuple[list[str], dict[str, int]]:
    """`_subtotals_of` for every unit of a contest kept a column per choice: the same test, a column at a time."""
    sums = counts.sums()
    if sum(1 for total in sums.values() if total) < 2:
        return [], sums
    choice, total = next((choice, total) for choice, total in sums.items() if total)
    if total % 2:
        return [], sums
    column = counts.columns[choice]
    found = []
    with_votes: set[str] | None = None
    for row in compress(range(len(column)), map(eq, column, repeat(total // 2))):  # (no count, None or -1, is not half)
        unit = counts.unit_at(row)
        assert unit is not None  # a removed unit's slots are empty, never half of a sum
        if with_votes is None:
            with_votes = counts.units_with_votes()
        others = len(with_votes) - (unit in with_votes)
        mine = counts[unit]
        if others >= 2 and all(mine.get(choice, 0) * 2 == total for choice, total in sums.items()):
            found.append(unit)
    return found, sums


def column_sums(tables: list[dict[str, int]]) -> dict[str, int]:
    """Votes per choice summed over `tables` (unit -> choice -> votes), every choice any of them names. A choice at
    a time in C (`map(dict.get, ...)`) where that is not much more work than the cells themselves: a statewide file
    has thousands of units and a few choices per contest."""
    choices = list(dict.fromkeys(chain.from_iterable(tables)))
    cells = sum(map(len, tables))
    if set(map(type, tables)) <= {dict} and len(choices) * len(tables) <= 2 * cells:
        return {choice: sum(map(dict.get, tables, repeat(choice), repeat(0))) for choice in choices}
    sums: dict[str, int] = {}
    for table in tables:
        for choice, votes in table.items():
            sums[choice] = sums.get(choice, 0) + votes
    return sums
