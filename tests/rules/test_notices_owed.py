"""C.R.S. 1-13.5-1306(1): "The designated election official shall give notice of the recount to the governing body,
to all candidates and, in the case of a ballot issue or question, to any issue committee that are affected by the
result of the election. ... An affected candidate or issue committee is allowed to be present during and observe
the recount." Read (notice-first, the default): the notices come before the recount is completed; the official
may complete with notices owed only with a reason (owed-with-reason), which is recorded."""
from __future__ import annotations

import pytest

from rules.notices_owed import OwedNotice, notices_before_completion

S1 = "C.R.S. 1-13.5-1306(1)"
BOARD = OwedNotice("governing_body", "Board of Directors of Cherry Creek Valley")
REED = OwedNotice("candidate", "Thomas Reed")


def test_every_notice_given_completion_is_clear() -> None:
    decision = notices_before_completion([])
    assert decision.outcome == "clear" and decision.citation == S1
    assert decision.reading.startswith("notice-first (the default)")


def test_a_notice_owed_refuses_completion_naming_each_one() -> None:
    decision = notices_before_completion([BOARD, REED])
    assert decision.outcome == "refused" and decision.citation == S1
    assert decision.reason == (f"2 notices of the recount still owed ({S1}): the governing body Board of Directors "
                               "of Cherry Creek Valley; candidate Thomas Reed")
    assert [n["recipient"] for n in decision.numbers["owed"]] == [BOARD.recipient, REED.recipient]


def test_a_blank_reason_is_no_reason() -> None:
    assert notices_before_completion([REED], reason="  \n ").outcome == "refused"


def test_with_a_reason_the_official_may_complete_and_the_reading_is_named() -> None:
    decision = notices_before_completion([REED], reason="Candidate unreachable:\nphone and mail returned")
    assert decision.outcome == "overridden" and decision.citation == S1
    assert decision.reading.startswith("owed-with-reason")
    assert decision.numbers["reason"] == "Candidate unreachable: phone and mail returned"
    assert decision.reason.endswith("candidate Thomas Reed; the official's reason: Candidate unreachable: phone and "
                                    "mail returned")


def test_a_reason_is_bounded() -> None:
    with pytest.raises(ValueError, match="at most 1000"):
        notices_before_completion([REED], reason="x" * 1001)
