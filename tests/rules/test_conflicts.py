"""rules.conflicts and rules.requests.check_decider: a candidate in the contest, or its requester, may not decide
the request, complete or certify the recount; the check names who may instead."""
from __future__ import annotations

from rules.conflicts import CONFLICT_READING, Conflict, check_step, conflicts_in
from rules.requests import DeciderStanding, check_decider

CANDIDATES = {"U0DANA": "Dana Whitfield"}


def test_a_candidate_official_may_not_complete_and_the_other_official_is_named() -> None:
    check = check_step("U0DANA", officials=["U0DANA", "U0LEE"], candidates=CANDIDATES, requester=None)
    assert not check.allowed and check.conflict.conflict is Conflict.CANDIDATE and check.others == ("U0LEE",)
    assert check.conflict.describe() == "a candidate in this contest (Dana Whitfield)"
    assert check_step("U0LEE", officials=["U0DANA", "U0LEE"], candidates=CANDIDATES, requester=None).allowed


def test_the_requester_may_not_complete_their_own_recount_even_as_the_only_official() -> None:
    check = check_step("U0SAM", officials=["U0SAM"], candidates={}, requester="U0SAM")
    assert not check.allowed and check.conflict.conflict is Conflict.REQUESTER and check.others == ()
    assert check.reading == CONFLICT_READING


def test_a_candidate_may_not_decide_the_request_not_even_alone_and_is_no_one_elses_alternative() -> None:
    check = check_decider("U0DANA", deciders={"U0DANA": True, "U0LEE": True}, requester=None, entered_by="U0CLERK",
                          candidates=CANDIDATES)
    assert check.standing is DeciderStanding.CANDIDATE and not check.allowed and check.others == ("U0LEE",)
    alone = check_decider("U0DANA", deciders={"U0DANA": True}, requester=None, entered_by="U0DANA",
                          candidates=CANDIDATES)
    assert alone.standing is DeciderStanding.CANDIDATE  # "one office, one person" does not reach a candidate
    other = check_decider("U0LEE", deciders={"U0DANA": True, "U0LEE": True}, requester=None, entered_by="U0LEE",
                          candidates=CANDIDATES)
    assert other.standing is DeciderStanding.ONE_PERSON_OFFICE  # the candidate is not someone else who may decide


def test_every_conflicted_person_is_listed_once() -> None:
    found = conflicts_in(candidates=CANDIDATES, requester="U0SAM")
    assert [(c.person, c.conflict) for c in found] == [("U0DANA", Conflict.CANDIDATE), ("U0SAM", Conflict.REQUESTER)]
    assert len(conflicts_in(candidates=CANDIDATES, requester="U0DANA")) == 1
