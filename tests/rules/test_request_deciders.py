"""(2)(a): who may decide a recount request, case by case (rules.requests.check_decider)."""
from __future__ import annotations

from rules.requests import ONE_PERSON_READING, DeciderStanding, check_decider

DEO, OTHER_DEO, APPROVER, CLERK = "U0DEO", "U0DEO2", "U0APPROVER", "U0CLERK"


def standing(decider, *, deciders, requester=None, entered_by=CLERK):
    return check_decider(decider, deciders=deciders, requester=requester, entered_by=entered_by)


def test_an_official_decides_a_request_a_clerk_entered() -> None:
    check = standing(DEO, deciders={DEO: True, APPROVER: False})
    assert check.standing is DeciderStanding.MAY_DECIDE and check.allowed and not check.needs_reason
    assert check.others == (APPROVER,) and check.reading is None


def test_someone_who_may_not_decide_is_told_who_may() -> None:
    check = standing(CLERK, deciders={DEO: True, APPROVER: False}, entered_by=APPROVER)
    assert check.standing is DeciderStanding.NOT_A_DECIDER and not check.allowed
    assert check.others == (DEO,)  # never the one who entered it


def test_never_the_requester_even_an_official() -> None:
    check = standing(DEO, deciders={DEO: True, OTHER_DEO: True}, requester=DEO)
    assert check.standing is DeciderStanding.OWN_REQUEST and check.others == (OTHER_DEO,)


def test_never_whoever_entered_it_for_the_requester_when_someone_else_may() -> None:
    # The requester's Slack user left empty: the one who typed the request in is the one excluded.
    check = standing(APPROVER, deciders={DEO: True, APPROVER: False}, entered_by=APPROVER)
    assert check.standing is DeciderStanding.ENTERED_IT and check.others == (DEO,)
    check = standing(DEO, deciders={DEO: True, OTHER_DEO: True}, entered_by=DEO)
    assert check.standing is DeciderStanding.ENTERED_IT and check.others == (OTHER_DEO,)


def test_one_office_one_person_the_official_who_entered_it_decides_with_a_reason() -> None:
    check = standing(DEO, deciders={DEO: True}, entered_by=DEO)
    assert check.standing is DeciderStanding.ONE_PERSON_OFFICE and check.allowed and check.needs_reason
    assert check.reading == ONE_PERSON_READING and check.reading.startswith("one office, one person: ")
    # The only other decider is the requester: the official who entered it is still the only one who may.
    check = standing(DEO, deciders={DEO: True, APPROVER: False}, requester=APPROVER, entered_by=DEO)
    assert check.standing is DeciderStanding.ONE_PERSON_OFFICE and check.others == ()


def test_an_approver_who_entered_it_never_decides_alone() -> None:
    # The only official is the requester: nobody else may decide until another approver is named.
    check = standing(APPROVER, deciders={DEO: True, APPROVER: False}, requester=DEO, entered_by=APPROVER)
    assert check.standing is DeciderStanding.ENTERED_IT and check.others == () and not check.allowed
