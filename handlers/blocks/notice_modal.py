"""The modal that records a notice given under (1): by whom, how, when."""
from __future__ import annotations

import datetime as dt
import json

from handlers.blocks.case_card import RECIPIENT_LABEL
from handlers.blocks.common import context, esc, modal, option, plain, section
from handlers.ids import Block, View
from services.conduct.cases import CaseView, NoticeMethod, NoticeView


def notice_modal(notice: NoticeView, case: CaseView, *, now: dt.datetime) -> dict:
    who = f"{RECIPIENT_LABEL.get(notice.recipient_kind, notice.recipient_kind)}: {notice.recipient_name}"
    blocks = [
        section(f"Notice of the recount of *{esc(case.contest)}* to *{esc(who)}*."),
        context(f"{notice.citation}: notice by any means reasonably expected to notify the recipient."),
        {"type": "input", "block_id": Block.NOTICE_GIVEN_BY.value, "label": plain("Given by"),
         "element": {"type": "plain_text_input", "action_id": Block.NOTICE_GIVEN_BY.value, "max_length": 200,
                     "placeholder": plain("Name of the person who gave the notice")}},
        {"type": "input", "block_id": Block.NOTICE_METHOD.value, "label": plain("How"),
         "element": {"type": "static_select", "action_id": Block.NOTICE_METHOD.value,
                     "placeholder": plain("Choose how the notice was given"),
                     "options": [option(m.value.capitalize(), m.value) for m in NoticeMethod]}},
        {"type": "input", "block_id": Block.NOTICE_GIVEN_AT.value, "label": plain("When"),
         "element": {"type": "datetimepicker", "action_id": Block.NOTICE_GIVEN_AT.value,
                     "initial_date_time": int(now.timestamp())}},
        {"type": "input", "block_id": Block.NOTICE_DETAILS.value, "optional": True,
         "label": plain("Details (address, number, reference)"),
         "element": {"type": "plain_text_input", "action_id": Block.NOTICE_DETAILS.value, "multiline": True,
                     "max_length": 1000}},
    ]
    metadata = json.dumps({"notice_id": notice.id, "case_id": case.id})
    return modal("Record notice", blocks, callback_id=View.RECORD_NOTICE.value, submit="Record",
                 private_metadata=metadata)
