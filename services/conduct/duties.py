"""What is still owed for a recount case, read from what is recorded and decided by rules.duties — the one list
App Home's "Waiting on you", the case card and the reminders show (read for many cases at once, and the mark of a
case owing nothing: services/conduct/owed.py) — and recording the one duty that had no record of its own: the
refund (2)(d) or unused deposit (2)(f) handed back to the requester."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy.orm import Session

from rules.duties import CaseFacts, Duty, duties_of, money_to_return
from rules.money import ZERO
from services.completion.view import CompletionView
from services.conduct.money import NAME_LIMIT, PAYMENT_METHODS, REFERENCE_LIMIT
from services.conduct.owed import facts_of_cases, note_duties
from services.conduct.tally import case_for_update
from services.election_law import cites_of, law_of
from services.errors import UserError
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import RecountCase

# How money goes back to the requester: the ways it comes in (a refund by check is the common one).
RETURN_METHODS = PAYMENT_METHODS


def facts_of(session: Session, case: RecountCase, view: CompletionView | None = None) -> CaseFacts:
    """`view`: the case's completion view, when the caller has it already (a card builds it anyway)."""
    return facts_of_cases(session, [case], {case.id: view} if view is not None else None)[case.id]


def duties_of_case(session: Session, case: RecountCase, view: CompletionView | None = None) -> tuple[Duty, ...]:
    return duties_of(facts_of(session, case, view), law=law_of(case.contest.election))


def subject_of(case: RecountCase) -> str:
    return f"case #{case.id} ({case.contest.name})"


@dataclass(frozen=True)
class MoneyReturned:
    amount: Decimal
    citation: str
    newly_recorded: bool


def record_money_returned(services: Services, *, workspace_id: int, case_id: int, returned_at: dt.datetime,
                          returned_by: str, method: str, reference: str, actor: str) -> MoneyReturned:
    """(2)(d) / (2)(f): the refund or the unused deposit went back to the requester: when, how, by whom. The
    settlement at completion wrote the amount to the ledger; this records the money leaving the office.
    Recording twice changes nothing."""
    returned_by, reference = (returned_by or "").strip(), (reference or "").strip()
    if not returned_by:
        raise UserError("Say who returned the money.", field="returned_by")
    if len(returned_by) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="returned_by")
    if method not in RETURN_METHODS:
        raise UserError(f"“{echoed(method)}” is not a way of paying this office records.", field="method")
    if not reference:
        raise UserError("Give the check or transaction number.", field="reference")
    if len(reference) > REFERENCE_LIMIT:
        raise UserError(f"At most {REFERENCE_LIMIT} characters here.", field="reference")
    if returned_at.tzinfo is None:
        raise ValueError("returned_at must be timezone-aware")
    now = services.now()
    if returned_at > now + dt.timedelta(minutes=5):
        raise UserError("The money cannot have been returned in the future.", field="returned_at")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        facts = facts_of(session, case)
        amount = money_to_return(facts)
        cited = cites_of(case)
        citation = cited.refund if facts.settlement_outcome == "refund" else cited.leftover
        completed_at = case.completed_at
        if not facts.completed or completed_at is None or amount <= ZERO:
            raise UserError("Nothing is owed back to the requester for this recount "
                            f"({cited.joined(cited.refund, cited.leftover)}).")
        if case.money_returned_at is not None:
            return MoneyReturned(amount, citation, False)
        if returned_at < completed_at - dt.timedelta(minutes=5):
            raise UserError("The money cannot have been returned before the recount was completed and settled.",
                            field="returned_at")
        case.money_returned_at, case.money_returned_by = returned_at, returned_by
        case.money_returned_method, case.money_returned_reference = method, reference
        note_duties(session, case)
        audit.append(session, actor=actor, action="money.returned", entity="recount_case", entity_id=case.id,
                     after={"amount": amount, "outcome": facts.settlement_outcome, "returned_at": returned_at,
                            "returned_by": returned_by, "method": method, "reference": reference,
                            "citation": citation}, workspace_id=workspace_id, at=now)
        return MoneyReturned(amount, citation, True)
