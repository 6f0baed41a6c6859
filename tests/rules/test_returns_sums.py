"""A contest's totals and the subtotal rule are computed a choice at a time, and the totals are kept from the subtotal
step (rules/returns/subtotals.py, rules/contest.py): the same as summing cell by cell and applying the rule as
written, on random files, with and without a unit that is the sum of the others."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.returns import read_returns


def _rule_as_written(votes_by_unit: dict[str, dict[str, int]]) -> list[str]:
    """The subtotals of one group of units, cell by cell (subtotals.py's docstring)."""
    units = list(votes_by_unit)
    if len(units) < 3:
        return []
    sums: dict[str, int] = {}
    for counts in votes_by_unit.values():
        for choice, votes in counts.items():
            sums[choice] = sums.get(choice, 0) + votes
    if sum(1 for total in sums.values() if total) < 2:
        return []
    with_votes = {unit for unit in units if any(votes_by_unit[unit].values())}
    return [unit for unit in units
            if len(with_votes) - (unit in with_votes) >= 2
            and all(votes_by_unit[unit].get(choice, 0) * 2 == total for choice, total in sums.items())]


@st.composite
def _files(draw):
    choices = draw(st.lists(st.sampled_from(["Ada", "Ben", "Cy", "Di"]), min_size=1, max_size=4, unique=True))
    units = [f"Precinct {n}" for n in range(draw(st.integers(min_value=1, max_value=7)))]
    counts = {unit: {choice: draw(st.integers(min_value=0, max_value=40)) for choice in choices
                     if unit == units[0] or draw(st.integers(min_value=0, max_value=5))}  # some lack a choice
              for unit in units}
    if draw(st.booleans()):  # a unit holding the sum of the others, under a name nobody lists
        counts["All Precincts"] = {choice: sum(c.get(choice, 0) for c in counts.values()) for choice in choices}
    return counts


@settings(max_examples=200, deadline=None)
@given(counts=_files())
def test_totals_and_subtotals_are_those_summed_cell_by_cell(counts) -> None:
    rows = ["contest,choice,votes,unit"]
    rows += [f"Mayor,{choice},{votes},{unit}" for unit, cells in counts.items() for choice, votes in cells.items()]
    returns = read_returns("\n".join(rows) + "\n")
    contest = returns.contest("Mayor")
    expected_gone = _rule_as_written({u: c for u, c in counts.items() if c})
    assert sorted(set(counts) - set(contest.votes_by_unit) - {u for u, c in counts.items() if not c}) == \
        sorted(expected_gone)
    summed = dict.fromkeys(contest.choices, 0)
    for cells in contest.votes_by_unit.values():
        for choice, votes in cells.items():
            summed[choice] += votes
    assert dict(contest.totals) == summed
