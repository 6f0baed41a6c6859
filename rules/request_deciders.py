"""Who decides a recount request: a designated election official, or a delegated approver; never the requester,
and never whoever entered the request on the requester's behalf (a clerk who types in a letter could otherwise
approve it, the requester's own Slack user being an optional field). The one exception is the reading
ONE_PERSON_READING: an official who entered the request may decide it when no one else in the office may, and only
by recording why. Never, either, a candidate in the request's contest (rules.conflicts).

The same under every law: each has the request filed with its official ("the designated election official",
1-13.5-1306(2)(a); "the clerk", 31-10-1207(2); the official that certified the item, 1-10.5-106(2)).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Mapping

from rules.conflicts import CONFLICT_READING

ONE_OFFICE_ONE_PERSON = "one office, one person"
ONE_PERSON_READING = (
    "one office, one person: (2)(a) has the request submitted to the designated election official, and no one "
    "decides a request they made or entered on the requester's behalf; when the official entered it and no one "
    "else in the office may decide it, the official decides it and records why"
)


class DeciderStanding(str, enum.Enum):
    MAY_DECIDE = "may_decide"
    NOT_A_DECIDER = "not_a_decider"  # neither an official nor a delegated approver
    OWN_REQUEST = "own_request"  # the requester's own Slack user
    ENTERED_IT = "entered_it"  # entered it on the requester's behalf, and someone else may decide
    CANDIDATE = "candidate"  # a candidate in the request's contest (rules.conflicts)
    ONE_PERSON_OFFICE = "one_person_office"  # an official who entered it, and no one else may: only with a reason


@dataclass(frozen=True)
class DeciderCheck:
    standing: DeciderStanding
    others: tuple[str, ...]  # who else may decide (neither the requester nor whoever entered it), as listed
    reading: str | None = None

    @property
    def allowed(self) -> bool:
        return self.standing in (DeciderStanding.MAY_DECIDE, DeciderStanding.ONE_PERSON_OFFICE)

    @property
    def needs_reason(self) -> bool:
        return self.standing is DeciderStanding.ONE_PERSON_OFFICE


def check_decider(decider: str, *, deciders: Mapping[str, bool], requester: str | None,
                  entered_by: str, candidates: Mapping[str, str] | None = None) -> DeciderCheck:
    """May `decider` decide a request `entered_by` entered for `requester` (their Slack user, when known)?
    `deciders`: everyone in the office who may decide requests (officials and delegated approvers), each
    mapped to whether they are an official. `candidates`: the Slack users recorded as candidates in the
    request's contest (and their choice); none of them decides it (rules.conflicts.CONFLICT_READING), not even
    as the only one in the office."""
    candidates = candidates or {}
    excluded = {decider, entered_by} | ({requester} if requester else set()) | set(candidates)
    others = tuple(person for person in deciders if person not in excluded)
    if decider not in deciders:
        return DeciderCheck(DeciderStanding.NOT_A_DECIDER, others)
    if requester and decider == requester:
        return DeciderCheck(DeciderStanding.OWN_REQUEST, others)
    if decider in candidates:
        return DeciderCheck(DeciderStanding.CANDIDATE, others, CONFLICT_READING)
    if decider == entered_by:
        if not others and deciders[decider]:
            return DeciderCheck(DeciderStanding.ONE_PERSON_OFFICE, others, ONE_PERSON_READING)
        return DeciderCheck(DeciderStanding.ENTERED_IT, others)
    return DeciderCheck(DeciderStanding.MAY_DECIDE, others)
