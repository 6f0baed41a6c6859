"""The form that records the refund (2)(d) or the unused deposit (2)(f) handed back to the requester. A pure
builder."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from handlers.blocks.common import context, esc, metadata, modal, section
from handlers.blocks.inputs import moment_input, select_input, text_input, word_options
from handlers.blocks.law_cites import cites
from handlers.ids import Block, View
from rules.money import format_money
from services.conduct.cases import CaseView
from services.conduct.duties import RETURN_METHODS
from services.conduct.money import NAME_LIMIT, REFERENCE_LIMIT


def money_returned_modal(case: CaseView, *, refund: bool, amount: Decimal, now: dt.datetime) -> dict:
    who = f"*{esc(case.request.requester_name)}*" if case.request else "the requester"
    what = "refund of the payment" if refund else "unused portion of the deposit"
    law = (f"{cites(case).refund}: the payment for expenses is refunded to the interested party who paid them." if refund
           else f"{cites(case).leftover}: the designated election official returns the unused portion of the deposit to the "
                "interested party who paid it.")
    blocks = [
        section(f"The {what}, *{format_money(amount)}*, handed back to {who} for the recount of "
                f"*{esc(case.contest)}*."),
        context(law),
        select_input(Block.RETURNED_METHOD, "How", word_options(RETURN_METHODS),
                     placeholder="Choose how it was paid back"),
        text_input(Block.RETURNED_REFERENCE, "Check or transaction number", optional=False, max_length=REFERENCE_LIMIT,
                   placeholder="e.g. check 2291"),
        text_input(Block.RETURNED_BY, "Returned by", optional=False, max_length=NAME_LIMIT,
                   placeholder="Name of the person who paid it back"),
        moment_input(Block.RETURNED_AT, "When", initial=now),
    ]
    return modal("Record money returned", blocks, callback_id=View.MONEY_RETURNED.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))
