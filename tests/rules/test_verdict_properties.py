"""Properties a clerk relies on, over many generated files.

- Hidden counts: `rules.verdicts` decides a contest with hidden counts only when every value the
  counts could hold gives that verdict; checked against brute force over every value.
- Rows that are not votes (contest totals, turnout, over/under votes, county subtotals) and the order
  of the rows never change a verdict.
"""
from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.contest import Bound, Contest, Undecided
from rules.margin import MultiSeatRule, check_automatic_recount
from rules.returns import read_returns
from rules.verdicts import decide_contest, decide_returns

NAMES = ["Ann", "Bob", "Cy", "Di"]


@st.composite
def contests_with_hidden_counts(draw):
    choices = NAMES[: draw(st.integers(2, 4))]
    seats = draw(st.integers(1, len(choices) - 1))
    units = ["P1", "P2"]
    votes = {u: {c: draw(st.integers(0, 60)) for c in choices} for u in units}
    hidden = draw(st.lists(st.tuples(st.sampled_from(units), st.sampled_from(choices)), max_size=3, unique=True))
    uncertain = {}
    for unit, choice in hidden:
        high = draw(st.integers(0, 6))
        votes[unit][choice] = 0
        uncertain[(unit, choice)] = Bound(0, high, f"(< {high + 1})", f"{unit}/{choice}")
    return Contest(name="X", choices=tuple(choices), votes_by_unit=votes, seats=seats, uncertain=uncertain)


def _every_value(contest: Contest):
    """Each contest the hidden counts could make, with exact counts."""
    cells = list(contest.uncertain.items())
    for values in itertools.product(*(range(b.low, b.high + 1) for _, b in cells)):
        votes = {u: dict(c) for u, c in contest.votes_by_unit.items()}
        for ((unit, choice), _), value in zip(cells, values):
            votes[unit][choice] = value
        yield Contest(name=contest.name, choices=contest.choices, votes_by_unit=votes, seats=contest.seats)


@settings(max_examples=400, deadline=None)
@given(contests_with_hidden_counts(), st.sampled_from(list(MultiSeatRule)))
def test_hidden_counts_decide_only_what_every_value_decides(contest: Contest, rule: MultiSeatRule) -> None:
    outcomes = {check_automatic_recount(c, rule).automatic_recount for c in _every_value(contest)
                if c.total_votes}
    result = decide_contest(contest, rule)
    if not contest.uncertain and not contest.total_votes:
        assert isinstance(result, Undecided)
        return
    if len(outcomes) == 2:
        assert isinstance(result, Undecided), result
    elif isinstance(result, Undecided):
        # Only a contest whose every count could be 0 may be undecided with one outcome: 0-0 is no verdict.
        assert any(not c.total_votes for c in _every_value(contest)) or not outcomes, result
    else:
        assert {result.automatic_recount} == outcomes


@st.composite
def precinct_returns(draw):
    """Exact returns of two contests over a few precincts of two counties, as (county, precinct, office, candidate, votes)."""
    rows = []
    for office, candidates in (("Mayor", ["Ann", "Bob", "Cy"]), ("Issue 1", ["Yes", "No"])):
        for county, precincts in (("Adams", ["101", "102", "103"]), ("Baca", ["1", "2"])):
            for precinct in precincts:
                for candidate in candidates:
                    rows.append((county, precinct, office, candidate, draw(st.integers(0, 400))))
    return rows


def _csv(rows) -> str:
    return "county,precinct,office,district,party,candidate,votes\n" + "".join(
        f"{county},{precinct},{office},,,{candidate},{votes}\n" for county, precinct, office, candidate, votes in rows)


def _verdicts(text: str):
    result = decide_returns(read_returns(text))
    # Names of choices tied with others follow the order of the rows: compare the figures, and the winners.
    return ({d.contest: (d.outcome, d.highest and d.highest.votes, d.next_highest and d.next_highest.votes,
                         frozenset(w.choice for w in d.winners) if not d.tie_for_last_seat else None)
             for d in result.decisions},
            {u.contest for u in result.undecided})


@settings(max_examples=150, deadline=None)
@given(precinct_returns(), st.integers(0, 2**32 - 1))
def test_rows_that_are_not_votes_and_row_order_never_change_a_verdict(rows, seed: int) -> None:
    plain = _verdicts(_csv(rows))
    noise = []
    for office in ("Mayor", "Issue 1"):
        by_choice: dict[tuple[str, str], int] = {}
        for county, _, row_office, candidate, votes in rows:
            if row_office == office:
                by_choice[(county, candidate)] = by_choice.get((county, candidate), 0) + votes
        for (county, candidate), votes in by_choice.items():
            noise.append((county, f"{county.upper()} CO", office, candidate, votes))  # a county subtotal
        for county, precinct in (("Adams", "101"), ("Baca", "2")):
            total = sum(v for c, p, o, _, v in rows if (c, p, o) == (county, precinct, office))
            noise += [(county, precinct, office, "Total", total), (county, precinct, office, "Over Votes", 3),
                      (county, precinct, office, "Under Votes", 17)]
    noise += [("Adams", "101", "Registered Voters", "", 2000), ("Baca", "1", "Voters", "Cast", 900)]
    noisy = rows + noise
    random.Random(seed).shuffle(noisy)
    assert _verdicts(_csv(noisy)) == plain
