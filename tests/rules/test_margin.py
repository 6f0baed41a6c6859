"""Subsection (1), case by case: "the difference between the highest number of votes cast ... and the
next highest number of votes cast ... is less than or equal to one-half of one percent of the highest"."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.contest import Contest, ContestKind
from rules.margin import (
    MultiSeatRule,
    check_all,
    check_automatic_recount,
    is_within_recount_margin,
    largest_margin_that_triggers,
)

CITATION = "C.R.S. 1-13.5-1306(1)"


@pytest.mark.parametrize(
    ("highest", "next_highest", "automatic", "largest"),
    [
        # 1/2 of 1% of 500 is 2.5 votes: a 2-vote margin triggers, a 3-vote margin does not.
        (500, 498, True, 2),
        (500, 497, False, 2),
        # Exactly at the line: 1/200 of 200 is 1 vote.
        (200, 199, True, 1),
        (200, 198, False, 1),
        (1000, 995, True, 5),
        (1000, 994, False, 5),
        # Fewer than 200 votes: only a tie is within 1/2 of 1%.
        (199, 198, False, 0),
        (199, 199, True, 0),
        # A large contest decided by exact integers, no rounding: 1/200 of 1,338,870 is 6,694.35.
        (1_338_870, 1_332_176, True, 6_694),
        (1_338_870, 1_332_175, False, 6_694),
    ],
)
def test_recount_is_automatic_when_the_margin_is_within_one_half_of_one_percent(
    highest: int, next_highest: int, automatic: bool, largest: int,
) -> None:
    decision = check_automatic_recount(Contest.from_totals("Director", {"Avery": highest, "Blake": next_highest}))

    assert decision.automatic_recount is automatic
    assert decision.outcome == ("automatic_recount" if automatic else "no_recount")
    assert decision.margin == highest - next_highest
    assert decision.max_margin_for_recount == largest
    assert decision.citation == CITATION
    assert is_within_recount_margin(highest, next_highest) is automatic
    assert largest_margin_that_triggers(highest) == largest


def test_the_reason_reads_aloud_with_the_numbers() -> None:
    decision = check_automatic_recount(Contest.from_totals("Fire Board", {"Avery": 500, "Blake": 498}))
    assert decision.reason == (
        "Fire Board: margin 2 between highest and next highest is within 1/2 of 1% of 500 (at most 2) "
        "— automatic recount.")
    assert decision.highest.choice == "Avery" and decision.next_highest.choice == "Blake"


def test_a_tie_for_first_triggers_and_is_flagged_for_lot() -> None:
    decision = check_automatic_recount(Contest.from_totals("Water Board", {"Avery": 812, "Blake": 812, "Casey": 3}))
    assert decision.automatic_recount
    assert decision.margin == 0
    assert decision.tie_for_last_seat
    assert "1-13.5-1304" in decision.tie_note
    assert "tied at 812" in decision.reason


def test_an_uncontested_contest_does_not_trigger_and_says_why() -> None:
    decision = check_automatic_recount(Contest.from_totals("Treasurer", {"Avery": 1200}))
    assert decision.automatic_recount is False
    assert decision.outcome == "uncontested"
    assert decision.next_highest is None and decision.margin is None
    assert "uncontested" in decision.reason and "no next highest" in decision.reason
    assert decision.citation == CITATION


def test_ballot_questions_are_contests_like_any_other() -> None:
    question = Contest.from_totals("Ballot Issue 5A", {"Yes": 4020, "No": 4001}, kind=ContestKind.QUESTION)
    decision = check_automatic_recount(question)
    # 19 * 200 = 3,800 <= 4,020
    assert decision.automatic_recount
    assert decision.highest.choice == "Yes"
    assert decision.kind is ContestKind.QUESTION


THREE_SEAT_BOARD = Contest.from_totals(
    "Board of Directors", {"Avery": 3000, "Blake": 2990, "Casey": 1500, "Drew": 1496, "Emery": 900}, seats=3)


def test_multi_seat_default_compares_last_winner_with_first_loser() -> None:
    decision = check_automatic_recount(THREE_SEAT_BOARD)
    # Casey (last winner, 1,500) against Drew (first loser, 1,496): 4 * 200 = 800 <= 1,500.
    assert decision.highest.choice == "Casey" and decision.next_highest.choice == "Drew"
    assert decision.automatic_recount
    assert decision.max_margin_for_recount == 7
    assert "last winner" in decision.rule and "1-10.5-101(1)(b)" in decision.rule
    assert [w.choice for w in decision.winners] == ["Avery", "Blake", "Casey"]


def test_multi_seat_top_two_reading_compares_the_two_highest() -> None:
    decision = check_automatic_recount(THREE_SEAT_BOARD, MultiSeatRule.TOP_TWO)
    # Avery 3,000 against Blake 2,990: 10 * 200 = 2,000 <= 3,000 — also within, but for another pair.
    assert decision.highest.choice == "Avery" and decision.next_highest.choice == "Blake"
    assert "two highest" in decision.rule
    far_apart = Contest.from_totals("Board", {"A": 3000, "B": 2000, "C": 1000, "D": 999}, seats=3)
    assert check_automatic_recount(far_apart, MultiSeatRule.TOP_TWO).automatic_recount is False
    assert check_automatic_recount(far_apart).automatic_recount is True


def test_a_tie_at_the_last_seat_is_flagged_under_either_reading() -> None:
    board = Contest.from_totals("Board", {"A": 3000, "B": 1000, "C": 1000}, seats=2)
    for rule in MultiSeatRule:
        decision = check_automatic_recount(board, rule)
        assert decision.tie_for_last_seat, rule
        assert "decided by lot" in decision.tie_note


def test_single_seat_verdicts_name_the_single_seat_reading() -> None:
    decision = check_automatic_recount(Contest.from_totals("Mayor", {"A": 10, "B": 9}))
    assert "single seat" in decision.rule and decision.reading == decision.rule


def test_check_all_puts_the_closest_contests_first() -> None:
    contests = [
        Contest.from_totals("Far", {"A": 1000, "B": 500}),
        Contest.from_totals("Uncontested", {"A": 10}),
        Contest.from_totals("Inside", {"A": 1000, "B": 999}),
        Contest.from_totals("Close but outside", {"A": 1000, "B": 990}),
    ]
    assert [d.contest for d in check_all(contests)] == ["Inside", "Close but outside", "Far", "Uncontested"]


votes = st.integers(min_value=0, max_value=10**9)


@given(st.lists(votes, min_size=2, max_size=8), st.randoms(use_true_random=False))
def test_the_verdict_does_not_depend_on_the_order_of_choices(tallies: list[int], rnd) -> None:
    names = [f"C{i}" for i in range(len(tallies))]
    pairs = list(zip(names, tallies))
    shuffled = pairs[:]
    rnd.shuffle(shuffled)
    a = check_automatic_recount(Contest.from_totals("X", pairs))
    b = check_automatic_recount(Contest.from_totals("X", shuffled))
    assert (a.automatic_recount, a.margin, a.max_margin_for_recount) == (
        b.automatic_recount, b.margin, b.max_margin_for_recount)


@given(votes, votes, st.integers(min_value=0, max_value=10**9))
def test_adding_the_same_votes_to_the_top_two_only_moves_toward_a_recount(x: int, y: int, extra: int) -> None:
    highest, next_highest = max(x, y), min(x, y)
    before = is_within_recount_margin(highest, next_highest)
    after = is_within_recount_margin(highest + extra, next_highest + extra)
    assert after or not before


@given(votes, votes)
def test_integer_test_matches_exact_rational_arithmetic(x: int, y: int) -> None:
    from fractions import Fraction

    highest, next_highest = max(x, y), min(x, y)
    assert is_within_recount_margin(highest, next_highest) == (
        Fraction(highest - next_highest) <= Fraction(highest, 200))
