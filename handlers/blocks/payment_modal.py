"""The "Record payment" modal, (2)(b)(IV) and (2)(c): an amount from the requester, how, its receipt. Pure."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import context, esc, metadata, modal, section
from handlers.blocks.cost_modal import amount_input, received_on_input
from handlers.blocks.inputs import select_input, text_input, word_options
from handlers.blocks.law_cites import cites
from handlers.ids import Block, View
from rules.money import format_money
from services.conduct.cases import CaseView
from services.conduct.money import NAME_LIMIT, PAYMENT_METHODS, REFERENCE_LIMIT


def payment_modal(case: CaseView, *, today: dt.date) -> dict:
    money, request = case.money, case.request
    who = f"*{esc(request.requester_name)}*" if request else "the requester"
    if money is not None and money.cost_determined is not None:
        standing = (f"Cost determined *{format_money(money.cost_determined)}* · paid *{format_money(money.paid)}* · "
                    f"due *{format_money(money.due)}*")
    elif money is not None:
        standing = f"No cost determined yet · paid *{format_money(money.paid)}*"
    else:
        standing = ""
    blocks = [
        section(f"A payment from {who} for the recount of *{esc(case.contest)}*.\n{standing}"),
        context(f"{cites(case).payment}: the requester pays the cost on demand; the funds are held and used for the "
                f"recount's expenses. Counting waits until the cost is collected in full {cites(case).collection}; "
                "more than the cost is held too, and what is unused is returned after the recount (2)(f)."),
        amount_input(Block.PAYMENT_AMOUNT, "Amount ($)", optional=False),
        select_input(Block.PAYMENT_METHOD, "Method", word_options(PAYMENT_METHODS),
                     placeholder="Choose how it was paid"),
        text_input(Block.PAYMENT_REFERENCE, "Receipt or check number", optional=False,
                   max_length=REFERENCE_LIMIT, placeholder="e.g. check 1042 / receipt R-2026-118"),
        text_input(Block.PAYMENT_RECEIVED_BY, "Received by", optional=False, max_length=NAME_LIMIT,
                   placeholder="Name of the person who received it"),
        received_on_input(Block.PAYMENT_RECEIVED_ON, "Received on", today),
    ]
    return modal("Record payment", blocks, callback_id=View.PAYMENT.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))
