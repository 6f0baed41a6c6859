"""C.R.S. 1-13.5-1304: a tie the recount did not break is decided by lot, the tied candidates given notice of the
drawing; then 1306(6): "a certificate of election for each candidate who received the highest number of votes"
is made for the winner of the lot.

Each case reads like the statute: who is tied (for the last seat, or for first), how many seats the lot decides,
who may win it, and the notice each tied candidate is owed. Every decision asserts its citation.
"""
from __future__ import annotations

import datetime as dt

import pytest

from rules.completion import complete_recount
from rules.contest import Contest, ContestKind
from rules.lot import CandidateNotice, LotInvalid, decide_lot, tie_to_draw
from rules.serialize import to_jsonable

LOT = "C.R.S. 1-13.5-1304"
UTC = dt.timezone.utc
DRAWN = dt.datetime(2026, 11, 20, 17, 0, tzinfo=UTC)
DAY_BEFORE = DRAWN - dt.timedelta(days=1)


def completed(seats: int, kind: ContestKind = ContestKind.CANDIDATE, **after: int) -> dict:
    """A recount completed with `after` as its amended totals (the survey one vote off), JSON-ready as stored."""
    before = dict(after)
    first = next(iter(before))
    before[first] += 1
    contest = lambda totals: Contest.from_totals("Board of Directors", totals, seats=seats, kind=kind)  # noqa: E731
    return to_jsonable(complete_recount(contest(before), contest(after)))


def noticed(*names: str, at: dt.datetime = DAY_BEFORE) -> list[CandidateNotice]:
    return [CandidateNotice(name, at, "email") for name in names]


# ---------------------------------------------------------------- who the tie is between
def test_two_seats_two_tied_for_the_last_the_lot_decides_one_seat_between_them() -> None:
    tie = tie_to_draw(completed(2, Ames=2710, Reed=2667, Natarajan=2667, Kowalski=1178))
    assert set(tie.tied) == {"Reed", "Natarajan"}
    assert tie.seats_by_lot == 1 and tie.votes == 2667 and tie.clear_winners == ("Ames",)
    assert not tie.for_first and tie.what == "the last seat"


def test_a_tie_for_first_in_a_one_seat_contest_is_a_tie_for_the_only_seat() -> None:
    tie = tie_to_draw(completed(1, Ames=1000, Bell=1000, Cole=10))
    assert set(tie.tied) == {"Ames", "Bell"} and tie.seats_by_lot == 1 and tie.for_first
    assert tie.what == "the seat" and tie.clear_winners == ()


def test_three_tied_for_first_in_a_two_seat_contest_the_lot_decides_both_seats() -> None:
    tie = tie_to_draw(completed(2, Ames=900, Bell=900, Cole=900, Diaz=100))
    assert len(tie.tied) == 3 and tie.seats_by_lot == 2 and tie.for_first and tie.what == "the 2 seats"


def test_no_tie_and_a_ballot_question_owe_no_lot() -> None:
    assert tie_to_draw(completed(1, Ames=1000, Bell=990)) is None
    assert tie_to_draw(completed(2, Ames=1000, Bell=990, Cole=990, Diaz=5)) is not None  # 1 seat for 2
    assert tie_to_draw(completed(3, Ames=1000, Bell=990, Cole=990, Diaz=5)) is None  # both elected: seats enough
    assert tie_to_draw(completed(1, ContestKind.QUESTION, Yes=500, No=500)) is None  # a question elects no one
    assert tie_to_draw(None) is None


# ---------------------------------------------------------------- the drawing
def test_the_winner_of_the_lot_is_elected_and_gets_the_certificate_with_the_citation() -> None:
    tie = tie_to_draw(completed(2, Ames=2710, Reed=2667, Natarajan=2667, Kowalski=1178))
    decision = decide_lot(tie, winners=["Reed"], notices=noticed("Reed", "Natarajan"), drawn_at=DRAWN)
    assert decision.citation == LOT and decision.outcome == "decided_by_lot"
    assert decision.winners == ("Reed",) and decision.not_elected == ("Natarajan",)
    assert "Reed wins the last seat by lot over Natarajan, tied at 2,667 votes" in decision.reason
    assert "the certificate of election is made for Reed (C.R.S. 1-13.5-1306(6))" in decision.reason
    assert decision.numbers["notices"]["Natarajan"]["before_drawing"] == "24 hours before"
    assert "notice of the drawing to each tied candidate" in decision.reading


def test_the_lot_for_first_of_a_one_seat_contest() -> None:
    tie = tie_to_draw(completed(1, Ames=1000, Bell=1000))
    decision = decide_lot(tie, winners=["Bell"], notices=noticed("Ames", "Bell"), drawn_at=DRAWN)
    assert decision.winners == ("Bell",) and "Bell wins the seat by lot over Ames" in decision.reason
    assert decision.citation == LOT and decision.numbers["for_first"] is True


def test_the_lot_for_two_seats_among_three_elects_two() -> None:
    tie = tie_to_draw(completed(2, Ames=900, Bell=900, Cole=900))
    decision = decide_lot(tie, winners=["Cole", "Ames"], notices=noticed("Ames", "Bell", "Cole"), drawn_at=DRAWN)
    assert set(decision.winners) == {"Ames", "Cole"} and decision.not_elected == ("Bell",)
    assert "win the 2 seats by lot over Bell" in decision.reason


@pytest.mark.parametrize("winners, field, message", [
    (["Kowalski"], "winners", r"Kowalski is not tied for the last seat: the lot is between .* \(C.R.S. 1-13.5-1304\)"),
    (["Ames"], "winners", "Ames is not tied for the last seat"),  # elected by the recount, not in the lot
    ([], "winners", "Choose who won the lot"),
    (["Reed", "Natarajan"], "winners", "The lot decides the last seat: choose exactly 1"),
    (["Reed", "Reed"], "winners", "named twice"),
])
def test_the_winner_of_the_lot_must_be_one_of_the_tied_and_as_many_as_the_seats(winners, field, message) -> None:
    tie = tie_to_draw(completed(2, Ames=2710, Reed=2667, Natarajan=2667, Kowalski=1178))
    with pytest.raises(LotInvalid, match=message) as refused:
        decide_lot(tie, winners=winners, notices=noticed("Reed", "Natarajan"), drawn_at=DRAWN)
    assert refused.value.field == field


def test_each_tied_candidate_is_given_notice_before_the_drawing() -> None:
    tie = tie_to_draw(completed(2, Ames=2710, Reed=2667, Natarajan=2667, Kowalski=1178))
    with pytest.raises(LotInvalid, match=r"Record the notice of the drawing given to Natarajan \(C.R.S. 1-13.5-1304\)"):
        decide_lot(tie, winners=["Reed"], notices=noticed("Reed"), drawn_at=DRAWN)
    late = noticed("Reed") + noticed("Natarajan", at=DRAWN + dt.timedelta(hours=1))
    with pytest.raises(LotInvalid, match="The notice to Natarajan is after the drawing") as refused:
        decide_lot(tie, winners=["Reed"], notices=late, drawn_at=DRAWN)
    assert refused.value.field == "notices"
    with pytest.raises(LotInvalid, match="Kowalski, who is not tied"):
        decide_lot(tie, winners=["Reed"], notices=noticed("Reed", "Natarajan", "Kowalski"), drawn_at=DRAWN)
