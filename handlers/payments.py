"""Recording payments (2)(b)(IV), (2)(c) from a requested recount's card: each payment posted in the case's
thread with what is paid against the cost, what is still due, and what is left before counting may start."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from handlers.blocks.common import esc
from handlers.blocks.law_cites import cites
from handlers.blocks.payment_modal import payment_modal
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.case_money import clicked_case
from handlers.conduct_common import after_modal
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import case_form, date_picked, selected, typed
from rules.money import format_money, money
from services.conduct import cases
from services.conduct import money as case_money
from services.conduct.cases import CaseView
from services.errors import UserError
from storage.models import Role

PAYMENT_FIELDS = {"amount": Block.PAYMENT_AMOUNT, "method": Block.PAYMENT_METHOD,
                  "reference": Block.PAYMENT_REFERENCE, "received_by": Block.PAYMENT_RECEIVED_BY,
                  "received_on": Block.PAYMENT_RECEIVED_ON}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_PAYMENT.value, needs=Role.STAFF, changes_state=False)(open_payment)
    registry.view(View.PAYMENT.value, needs=Role.STAFF)(submit_payment)


def open_payment(ix: Interaction) -> None:
    case = clicked_case(ix)
    if case is None:
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=payment_modal(case, today=ix.services.today()))


@as_one_unit
def submit_payment(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    raw_amount = typed(state, Block.PAYMENT_AMOUNT)
    method = selected(state, Block.PAYMENT_METHOD)
    reference = typed(state, Block.PAYMENT_REFERENCE)
    received_by = typed(state, Block.PAYMENT_RECEIVED_BY)
    received_on = date_picked(state, Block.PAYMENT_RECEIVED_ON)
    errors = {}
    amount = None
    try:
        amount = case_money.within_limit(money(raw_amount, field="Amount"), label="Amount", field="amount")
    except ValueError as exc:
        errors[Block.PAYMENT_AMOUNT.value] = "Enter the amount paid." if not raw_amount else str(exc)
    except UserError as exc:  # more than the ledger holds: said with the other fields' problems
        errors[Block.PAYMENT_AMOUNT.value] = exc.message
    if amount is not None and amount == 0:
        errors[Block.PAYMENT_AMOUNT.value] = "Amount: a payment of $0.00 moves no money."
    if not method:
        errors[Block.PAYMENT_METHOD.value] = "Choose how it was paid."
    if not reference:
        errors[Block.PAYMENT_REFERENCE.value] = "Give the receipt, check or transaction number."
    if not received_by:
        errors[Block.PAYMENT_RECEIVED_BY.value] = "Say who received the payment."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        case_money.record_payment(ix.services, workspace_id=workspace_id, case_id=case_id, amount=amount,
                                  method=method, reference=reference, received_by=received_by, actor=ix.user_id,
                                  received_on=received_on)
    except UserError as exc:
        field_errors(ix, exc, PAYMENT_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, _payment_message(case, amount, method, reference, received_by,
                                                       received_on or ix.services.today(), ix.user_id))


def _payment_message(case: CaseView, amount: Decimal, method: str, reference: str, received_by: str,
                     received_on: dt.date, actor: str) -> str:
    money_view = case.money
    text = (f":moneybag: Payment of *{format_money(amount)}* recorded by {mention(actor)}: {esc(method)}, ref. "
            f"{esc(reference)}, received by {esc(received_by)} on {received_on:%a %Y-%m-%d} ({cites(case).payment}).")
    cost, paid = money_view.cost_determined, money_view.paid
    if cost is None:
        return text + f" No cost is determined yet; {format_money(paid)} paid is held ({cites(case).payment})."
    if paid < cost:
        return text + (f" Paid {format_money(paid)} of {format_money(cost)}: *{format_money(money_view.due)} still "
                       f"due*. Counting waits until the cost is collected in full ({cites(case).collection}).")
    text += f" Paid {format_money(paid)} of {format_money(cost)}: the cost is collected ({cites(case).collection})."
    if paid > cost:
        text += (f" {format_money(paid - cost)} more than the cost is held with it ({cites(case).payment}); what the "
                 f"recount does not use is returned afterwards ({cites(case).leftover}).")
    missing = (case.checklist.numbers.get("missing") if case.checklist else None) or []
    if missing:
        text += " Still to do before counting: " + "; ".join(f"{m['item']} {esc(m['what'])}" for m in missing) + "."
    else:
        text += " Everything (2)(b) requires is done: counting may start."
    return text
