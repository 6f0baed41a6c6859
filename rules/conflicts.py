"""Conflicts of interest in a recount: who may not act on a contest's recount because it is about them.

C.R.S. 1-13.5-1306 gives the designated election official the recount's decisions — ordering it (1), deciding a
request and collecting its cost (2)(a)-(c), conducting it (3), completing it and certifying the result (6) —
and gives an affected candidate only the right "to be present during and observe the recount" (1). It says
nothing of an official who is also a candidate, or who asked for the recount.

Reading (CONFLICT_READING), the default and only one: a person recorded as a candidate in the contest (the
office's roster), and the requester (their Slack user, when known), are flagged on every card of the contest's
recount and may not decide its request, complete it or certify it (make or deliver a certificate of election);
another official must. There is no exception for an office with one official: the refusal says so, and that
another person must be made an official first.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Mapping

CONFLICT_READING = (
    "1-13.5-1306 lets an affected candidate observe the recount (1) and is silent on an official who is a candidate "
    "or who requested it; recount-bot reads that a candidate in the contest and the requester may not decide the "
    "request, complete the recount or certify it: another official must"
)


class Conflict(str, enum.Enum):
    CANDIDATE = "candidate"  # recorded as a candidate in the contest
    REQUESTER = "requester"  # made the request


class CaseStep(str, enum.Enum):
    DECIDE = "decide the recount request of"
    COMPLETE = "complete the recount of"
    CERTIFY = "certify the result of"


@dataclass(frozen=True)
class Conflicted:
    """A person with a conflict, as the cards flag them."""

    person: str  # Slack user id
    conflict: Conflict
    choice: str | None = None  # the candidate's choice

    def describe(self) -> str:
        if self.conflict is Conflict.CANDIDATE:
            return f"a candidate in this contest ({self.choice})" if self.choice else "a candidate in this contest"
        return "the requester of this recount"


def conflicts_in(*, candidates: Mapping[str, str], requester: str | None) -> tuple[Conflicted, ...]:
    """Everyone with a conflict: `candidates` maps a Slack user to their choice; `requester` is a Slack user."""
    found = [Conflicted(person, Conflict.CANDIDATE, choice) for person, choice in candidates.items()]
    if requester and requester not in candidates:
        found.append(Conflicted(requester, Conflict.REQUESTER))
    return tuple(found)


def conflict_of(person: str, *, candidates: Mapping[str, str], requester: str | None) -> Conflicted | None:
    """`person`'s conflict in the contest, None when they have none (a candidate first: it is the stronger)."""
    if person in candidates:
        return Conflicted(person, Conflict.CANDIDATE, candidates[person])
    if requester and person == requester:
        return Conflicted(person, Conflict.REQUESTER)
    return None


@dataclass(frozen=True)
class StepCheck:
    allowed: bool
    conflict: Conflicted | None
    others: tuple[str, ...]  # officials without a conflict, who may take the step instead
    reading: str = CONFLICT_READING


def check_step(person: str, *, officials: Iterable[str], candidates: Mapping[str, str],
               requester: str | None) -> StepCheck:
    """May `person` (already known to hold the role the step needs) complete or certify the recount? Not when
    they are a candidate in the contest or its requester; `others` are the officials who may instead."""
    others = tuple(o for o in officials if o != person and conflict_of(o, candidates=candidates,
                                                                       requester=requester) is None)
    conflict = conflict_of(person, candidates=candidates, requester=requester)
    return StepCheck(conflict is None, conflict, others)
