"""1-10.5-103: "A political subdivision that referred a ballot issue or ballot question to the electors may waive
the automatic recount provisions of this section if the ballot issue or ballot question fails by giving written
notice to the county clerk and recorder within twenty-three days after any election." """
from __future__ import annotations

import datetime as dt

import pytest

from rules.contest import ContestKind
from rules.laws import LAWS
from rules.waiver import FIELD_RECEIVED, WaiverFacts, may_waive, measure_failed

LAW = LAWS["1-10.5"]
DEADLINE = dt.date(2026, 11, 27)  # election Tue 2026-11-03 + 23 days = Thu 11-26, Thanksgiving: rolled to Fri 11-27


def facts(**changes) -> WaiverFacts:
    base = dict(automatic=True, kind=ContestKind.QUESTION, standings=(("Yes", 2_000), ("No", 2_010)),
                counting_started=False, received_on=dt.date(2026, 11, 20), deadline=DEADLINE,
                today=dt.date(2026, 11, 20))
    return WaiverFacts(**{**base, **changes})


def test_a_failed_referred_measure_may_be_waived_in_writing_by_the_deadline() -> None:
    decision = may_waive(facts(received_on=DEADLINE, today=DEADLINE), law=LAW)
    assert decision.outcome == "waived" and decision.citation == "C.R.S. 1-10.5-103"
    assert "within 23 days after the election" in decision.reason


def test_received_after_the_deadline_is_refused_on_its_field() -> None:
    late = DEADLINE + dt.timedelta(days=1)
    decision = may_waive(facts(received_on=late, today=late), law=LAW)
    assert decision.outcome == "refused" and decision.numbers["field"] == FIELD_RECEIVED
    assert "by 2026-11-27" in decision.reason and decision.citation == "C.R.S. 1-10.5-103"


@pytest.mark.parametrize("changes, words", [
    ({"automatic": False}, "only an automatic recount"),
    ({"kind": ContestKind.CANDIDATE}, "this contest is an office"),
    ({"standings": (("Yes", 2_010), ("No", 2_000))}, "the measure passed"),
    ({"standings": (("Smith", 2_010), ("Jones", 2_000))}, "cannot be read"),
    ({"counting_started": True}, "counting has started"),
])
def test_what_the_section_does_not_allow_is_refused(changes, words) -> None:
    decision = may_waive(facts(**changes), law=LAW)
    assert decision.outcome == "refused" and words in decision.reason


def test_a_law_without_a_waiver_refuses_it() -> None:
    decision = may_waive(facts(), law=LAWS["1-13.5-1306"])
    assert decision.outcome == "refused" and "only C.R.S. 1-10.5-103 provides one" in decision.reason


def test_a_tie_fails_and_for_against_are_read_like_yes_no() -> None:
    assert measure_failed((("Yes", 5), ("No", 5))) is True
    assert measure_failed((("FOR", 6), ("against", 5))) is False
