"""Recording, from the case card, that the refund (2)(d) or the unused deposit (2)(f) went back to the requester:
the last duty of a requested recount's money (rules.duties), which until now had no record of its own."""
from __future__ import annotations

from decimal import Decimal

from handlers.blocks.common import denver, esc
from handlers.blocks.law_cites import cites
from handlers.blocks.money_returned_modal import money_returned_modal
from handlers.cards import as_one_unit
from handlers.conduct_common import report_recorded
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import case_form, moment_picked, selected, typed
from rules.money import format_money
from services.conduct import cases, duties
from services.errors import UserError
from storage.models import Role

FIELDS = {"returned_by": Block.RETURNED_BY, "method": Block.RETURNED_METHOD, "reference": Block.RETURNED_REFERENCE,
          "returned_at": Block.RETURNED_AT}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_MONEY_RETURNED.value, needs=Role.STAFF, changes_state=False)(open_money_returned)
    registry.view(View.MONEY_RETURNED.value, needs=Role.STAFF)(submit_money_returned)


def _owed(case: cases.CaseView) -> tuple[bool, Decimal]:
    """(refund?, amount) the requester is owed back; amount 0 when nothing is."""
    settlement = (case.completion.settlement if case.completion else None) or {}
    outcome = settlement.get("outcome")
    if outcome == "refund":
        return True, Decimal(settlement.get("refund") or "0")
    if outcome == "return_unused_deposit":
        return False, Decimal(settlement.get("deposit_return") or "0")
    return False, Decimal("0")


def open_money_returned(ix: Interaction) -> None:
    case = cases.case_view(ix.services, int(ix.body["actions"][0]["value"]), workspace_id=ix.member.workspace_id)
    refund, amount = _owed(case)
    if amount <= 0:
        ix.tell(f"Nothing is owed back to the requester for this recount ({cites(case).refund}, {cites(case).leftover}).")
        return
    if case.money_returned is not None:
        at, by, method, reference = case.money_returned
        ix.tell(f"The {format_money(amount)} was already recorded as returned: {denver(at)} by {esc(by)} "
                f"({esc(method)}, ref. {esc(reference)}).")
        return
    ix.client.views_open(trigger_id=ix.trigger_id,
                         view=money_returned_modal(case, refund=refund, amount=amount, now=ix.services.now()))


@as_one_unit
def submit_money_returned(ix: Interaction) -> None:
    view = ix.body["view"]
    state, case_id = case_form(view)
    returned_by = typed(state, Block.RETURNED_BY)
    reference = typed(state, Block.RETURNED_REFERENCE)
    method = selected(state, Block.RETURNED_METHOD) or ""
    returned_at = moment_picked(state, Block.RETURNED_AT)
    errors = {}
    if not returned_by:
        errors[Block.RETURNED_BY.value] = "Say who returned the money."
    if not method:
        errors[Block.RETURNED_METHOD.value] = "Choose how it was paid back."
    if not reference:
        errors[Block.RETURNED_REFERENCE.value] = "Give the check or transaction number."
    if returned_at is None:
        errors[Block.RETURNED_AT.value] = "Say when it was returned."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        recorded = duties.record_money_returned(
            ix.services, workspace_id=workspace_id, case_id=case_id,
            returned_at=returned_at, returned_by=returned_by,
            method=method, reference=reference, actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, FIELDS)
        return
    ix.ack()
    report_recorded(ix, cases.case_view(ix.services, case_id, workspace_id=workspace_id),
                    newly=recorded.newly_recorded,
                    already="The money was already recorded as returned; nothing was changed.",
                    posted=f":moneybag: {format_money(recorded.amount)} returned to the requester, recorded by "
                           f"{mention(ix.user_id)}: {esc(method)}, ref. {esc(reference)}, by {esc(returned_by)} "
                           f"({recorded.citation}).")
