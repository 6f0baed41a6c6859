"""Who may decide a recount request, (2)(a), as the statute core reads it (rules.requests.check_decider): an
official or a delegated approver; never the requester, nor whoever entered the request on the requester's
behalf, unless an official who entered it is the only one in the office who may decide ("one office, one
person") and records why. Every refusal names who may decide instead.
"""
from __future__ import annotations

from sqlalchemy import case, select
from sqlalchemy.orm import Session

from rules.requests import DeciderCheck, DeciderStanding, check_decider
from services.errors import Denied, UserError
from services.office.conflicts import candidates_of
from services.wording import Message, Words, either_of, words
from storage.models import Membership, RecountRequestRow, Role

REASON_LIMIT = 2000
OWN_REASON_FIELD = "own_reason"
DELEGATE = "an official names an approver with `/recount admin approver @person on`"


def deciders(session: Session, workspace_id: int) -> dict[str, bool]:
    """Everyone in the office who may decide requests, officials first: {Slack user: is an official}. A
    delegation outlives a lowered role in the row, but a viewer may not decide."""
    rows = session.execute(
        select(Membership.slack_user_id, Membership.role).where(
            Membership.workspace_id == workspace_id,
            (Membership.role == Role.OFFICIAL.value)
            | ((Membership.role == Role.STAFF.value) & Membership.can_approve.is_(True)))
        .order_by(case((Membership.role == Role.OFFICIAL.value, 0), else_=1), Membership.slack_user_id)).all()
    return {user: role == Role.OFFICIAL.value for user, role in rows}


def standing(session: Session, row: RecountRequestRow, actor: str) -> DeciderCheck:
    return check_decider(actor, deciders=deciders(session, row.workspace_id), requester=row.requester_slack_user,
                         entered_by=row.entered_by, candidates=candidates_of(session, row.contest_id))


def may_decide_request(session: Session, row: RecountRequestRow, actor: str) -> bool:
    """For lists of what waits on a person: would `actor` be let decide `row` (with a reason, if need be)?"""
    return standing(session, row, actor).allowed


def _instead(check: DeciderCheck) -> Message:
    if not check.others:
        return f"No one else in this office may decide it yet: {DELEGATE}."
    return words(either_of(check.others), " may decide it instead.")


def refusal(check: DeciderCheck) -> Words:
    """What a person who may not decide is told: why, and who may decide instead."""
    why = {
        DeciderStanding.NOT_A_DECIDER: "Only a designated election official or a delegated approver may decide a "
                                       "recount request.",
        DeciderStanding.OWN_REQUEST: "You made this request; someone else must decide it.",
        DeciderStanding.ENTERED_IT: "You entered this request on the requester's behalf; someone else must "
                                    "decide it.",
        DeciderStanding.CANDIDATE: "You are a candidate in this contest: someone else must decide its recount "
                                   "request (conflict of interest).",
    }[check.standing]
    return words(why, " ", _instead(check))


def authorize(session: Session, row: RecountRequestRow, actor: str) -> DeciderCheck:
    """`actor`'s standing to decide `row`; Denied (saying who may decide instead) when they may not."""
    check = standing(session, row, actor)
    if not check.allowed:
        raise Denied(refusal(check))
    return check


def own_entry_reason(check: DeciderCheck, reason: str | None) -> str | None:
    """None for an ordinary decision (a reason given anyway, from a stale form, is not the decision's); for an
    official deciding a request they entered, their reason, required (UserError on its field)."""
    if not check.needs_reason:
        return None
    reason = (reason or "").strip()
    if not reason:
        raise UserError("You entered this request and no one else in this office may decide it: say why you decide "
                        "it yourself (it is kept with the decision and in the audit log), or "
                        f"{DELEGATE}.", field=OWN_REASON_FIELD)
    if len(reason) > REASON_LIMIT:
        raise UserError(f"At most {REASON_LIMIT:,} characters here.", field=OWN_REASON_FIELD)
    return reason
