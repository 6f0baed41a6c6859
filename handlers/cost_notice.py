"""Recording the notice of the cost (2)(b)(III) from a requested recount's card: when, how and by whom the
requester was notified of the cost determined; once per cost (a new cost needs a new notice)."""
from __future__ import annotations

from handlers.blocks.common import denver, esc
from handlers.blocks.cost_notice import cost_notice_modal, cost_notice_recorded
from handlers.blocks.law_cites import case_law, cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.case_money import clicked_case
from handlers.conduct_common import after_modal
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import case_form, moment_picked, selected, typed
from rules.laws.profile import PaymentTiming
from rules.money import format_money
from services.conduct import cases
from services.conduct import money as case_money
from services.errors import UserError
from storage.models import Role

COST_NOTICE_FIELDS = {"method": Block.COST_NOTICE_METHOD, "notified_at": Block.COST_NOTICE_AT,
                      "notified_by": Block.COST_NOTICE_BY}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_COST_NOTICE.value, needs=Role.STAFF, changes_state=False)(open_cost_notice)
    registry.view(View.COST_NOTICE.value, needs=Role.STAFF)(submit_cost_notice)


def open_cost_notice(ix: Interaction) -> None:
    case = clicked_case(ix)
    if case is None:
        return
    money_view = case.money
    if money_view.cost_determined is None:
        ix.tell(f"Determine the cost first ({cites(case).cost}); then notify the requester of it.")
        return
    if money_view.requester_notified_of_current_cost:
        latest = money_view.cost_notices[-1]
        ix.tell(f"The requester was already notified of {format_money(latest.cost)}: {denver(latest.notified_at)} "
                f"by {esc(latest.notified_by)} by {esc(latest.method)} (recorded by {mention(latest.recorded_by)}). "
                "Nothing to record until the cost changes.")
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=cost_notice_modal(case, now=ix.services.now()))


@as_one_unit
def submit_cost_notice(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    method = selected(state, Block.COST_NOTICE_METHOD)
    at = moment_picked(state, Block.COST_NOTICE_AT)
    by = typed(state, Block.COST_NOTICE_BY)
    errors = {}
    if not method:
        errors[Block.COST_NOTICE_METHOD.value] = "Choose how the requester was notified."
    if at is None:
        errors[Block.COST_NOTICE_AT.value] = "Say when the requester was notified."
    if not by:
        errors[Block.COST_NOTICE_BY.value] = "Say who notified the requester."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        notice = case_money.record_cost_notice(ix.services, workspace_id=workspace_id, case_id=case_id,
                                               notified_at=at, method=method, notified_by=by,
                                               details=typed(state, Block.COST_NOTICE_DETAILS) or None,
                                               actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, COST_NOTICE_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    refresh_card(ix.services, case)
    text = cost_notice_recorded(case, cost=notice.cost, method=notice.method, by=notice.notified_by,
                                at=notice.notified_at, actor=ix.user_id)
    money_view = case.money
    if money_view.due:
        text += f" {format_money(money_view.due)} is now due from the requester {_when_due(case)} ({cites(case).payment})."
    post_in_thread(ix.services, case, text)


def _when_due(case: cases.CaseView) -> str:
    """"on demand" (1306(2)(c), 31-10-1207(2)); "in certified funds within one day of the cost determination"
    (1-10.5-106(2))."""
    payment = case_law(case).payment
    if payment.timing is PaymentTiming.ON_DEMAND:
        return "on demand"
    days = payment.within_days or 1
    funds = "in certified funds " if payment.certified_funds else ""
    return f"{funds}within {days} day{'s' if days != 1 else ''} of the cost determination"
