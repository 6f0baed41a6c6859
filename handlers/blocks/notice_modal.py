"""The modal that records a notice given under (1): by whom, how, when."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.case_card import RECIPIENT_LABEL
from handlers.blocks.common import context, esc, metadata, modal, section
from handlers.blocks.inputs import moment_input, select_input, text_input, word_options
from handlers.ids import Block, View
from services.conduct.cases import CaseView, NoticeMethod, NoticeView


def notice_modal(notice: NoticeView, case: CaseView, *, now: dt.datetime) -> dict:
    who = f"{RECIPIENT_LABEL.get(notice.recipient_kind, notice.recipient_kind)}: {notice.recipient_name}"
    blocks = [
        section(f"Notice of the recount of *{esc(case.contest)}* to *{esc(who)}*."),
        context(f"{notice.citation}: notice by any means reasonably expected to notify the recipient."),
        text_input(Block.NOTICE_GIVEN_BY, "Given by", max_length=200,
                   placeholder="Name of the person who gave the notice"),
        select_input(Block.NOTICE_METHOD, "How", word_options(m.value for m in NoticeMethod),
                     placeholder="Choose how the notice was given"),
        moment_input(Block.NOTICE_GIVEN_AT, "When", initial=now),
        text_input(Block.NOTICE_DETAILS, "Details (address, number, reference)", max_length=1000, multiline=True,
                   optional=True),
    ]
    return modal("Record notice", blocks, callback_id=View.RECORD_NOTICE.value, submit="Record",
                 private_metadata=metadata({"notice_id": notice.id, "case_id": case.id}))
