"""What the statute audit found, fixed under every law (issue 22, item 4): a tied ballot question is never sent to
the lot and `winners` never names one of two tied choices; a contest with no votes says so of the contest, not of
the file."""
from __future__ import annotations

import pytest

from rules.completion import complete_recount
from rules.contest import Contest, ContestKind, Returns
from rules.laws import LAW_KEYS, LAWS
from rules.lot import tie_to_draw
from rules.margin import check_automatic_recount
from rules.serialize import to_jsonable
from rules.verdicts import decide_returns


@pytest.mark.parametrize("key", LAW_KEYS)
def test_a_tied_ballot_question_is_never_sent_to_the_lot(key) -> None:
    law = LAWS[key]
    question = Contest.from_totals("Ballot Issue 2A", {"Yes": 1200, "No": 1200}, kind=ContestKind.QUESTION)
    verdict = check_automatic_recount(question, law=law)
    assert verdict.automatic_recount is True and verdict.winners == ()
    assert "not decided by lot" in verdict.tie_note and "decided by lot by" not in verdict.tie_note
    assert any("a tied ballot question is not decided by lot" in r for r in verdict.readings)
    done = complete_recount(question, question, law=law)
    assert done.tie_for_last_seat is False and done.tie_citation is None and done.winners_after == ()
    assert tie_to_draw(to_jsonable(done)) is None


@pytest.mark.parametrize("key", LAW_KEYS)
def test_winners_never_names_one_of_two_tied_choices(key) -> None:
    law = LAWS[key]
    one_seat = Contest.from_totals("Mayor", {"Lee": 800, "Ray": 800, "Kim": 20})
    assert check_automatic_recount(one_seat, law=law).winners == ()
    two_seats = Contest.from_totals("Board", {"Ann": 900, "Lee": 800, "Ray": 800}, seats=2)
    verdict = check_automatic_recount(two_seats, law=law)
    assert [w.choice for w in verdict.winners] == ["Ann"]
    assert law.tie.provision.citation in verdict.tie_note and law.tie.drawn_by in verdict.tie_note
    clear = Contest.from_totals("Board", {"Ann": 900, "Lee": 800, "Ray": 700}, seats=2)
    assert [w.choice for w in check_automatic_recount(clear, law=law).winners] == ["Ann", "Lee"]


def test_a_contest_with_no_votes_says_so_of_the_contest_not_of_the_file() -> None:
    counted = Contest.from_totals("Mayor", {"Lee": 800, "Ray": 700})
    empty = Contest.from_totals("Fire Board", {"Ann": 0, "Bo": 0})
    verdicts = decide_returns(Returns(contests=(counted, empty), source_format="template"))
    [undecided] = verdicts.undecided
    assert undecided.contest == "Fire Board"
    assert undecided.reason.startswith("no votes counted: every count of this contest is 0")
    assert "in the file" not in undecided.reason
    assert [d.contest for d in verdicts.decisions] == ["Mayor"]
