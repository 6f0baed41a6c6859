"""The modal that records the drawing of lots for a tie the recount did not break (1-13.5-1304): when, where, by
whom, who witnessed, the method, each tied candidate's notice of the drawing, and who won. Pure builder.

Options and block ids carry a tied candidate's position in the tie, never the name: a name may be longer than
an option's value allows, and nothing a person typed goes into an id."""
from __future__ import annotations

import datetime as dt
import json

from handlers.blocks.common import context, esc, modal, option, plain, section
from handlers.blocks.completion_section import names
from handlers.blocks.cost_modal import text_input
from handlers.ids import Block, View
from rules.lot import LOT_CITATION, LotMethod, TieForLot
from services.conduct.cases import CaseView, NoticeMethod

TIED_SHOWN = 20  # 2 blocks per tied candidate's notice; a modal holds 100 blocks


def _select(block_id: str, label: str, placeholder: str, options: list[dict]) -> dict:
    return {"type": "input", "block_id": block_id, "label": plain(label, 2000),
            "element": {"type": "static_select", "action_id": block_id, "placeholder": plain(placeholder, 150),
                        "options": options}}


def _when(block_id: str, label: str, now: dt.datetime) -> dict:
    return {"type": "input", "block_id": block_id, "label": plain(label, 2000),
            "element": {"type": "datetimepicker", "action_id": block_id, "initial_date_time": int(now.timestamp())}}


def lot_modal(case: CaseView, tie: TieForLot, *, now: dt.datetime) -> dict:
    tied = tie.tied[:TIED_SHOWN]
    choices = [option(name, str(index)) for index, name in enumerate(tied)]
    if tie.seats_by_lot == 1:
        winners = _select(Block.LOT_WINNERS.value, "Who won the lot", "The candidate the lot elects", choices)
    else:
        winners = {"type": "input", "block_id": Block.LOT_WINNERS.value,
                   "label": plain(f"Who won the lot ({tie.seats_by_lot} seats)"),
                   "element": {"type": "multi_static_select", "action_id": Block.LOT_WINNERS.value,
                               "placeholder": plain(f"The {tie.seats_by_lot} candidates the lot elects", 150),
                               "options": choices, "max_selected_items": tie.seats_by_lot}}
    blocks = [
        section(f"The drawing of lots for *{tie.what}* of *{esc(case.contest)}*: {esc(names(tie.tied))}, tied at "
                f"{tie.votes:,} votes each after the recount."),
        context(f"{LOT_CITATION}: a tie the recount did not break is decided by lot by the canvass board, the tied "
                "candidates given notice of the drawing. The certificate of election for the seat is made for the "
                "winner of the lot (C.R.S. 1-13.5-1306(6)). This cannot be undone."),
        _when(Block.LOT_DRAWN_AT.value, "When the lot was drawn", now),
        text_input(Block.LOT_PLACE, "Where", optional=False, max_length=300,
                   placeholder="e.g. District office, 120 Main St, board room"),
        text_input(Block.LOT_CONDUCTED_BY, "Drawn by (the canvass board)", optional=False, max_length=1000,
                   placeholder="Names of the canvass board members who drew it"),
        text_input(Block.LOT_WITNESSES, "Witnessed by", optional=False, max_length=1000, multiline=True,
                   placeholder="Everyone who watched: candidates, their representatives, the public"),
        _select(Block.LOT_METHOD.value, "Method", "How the lot was drawn",
                [option(m.value.capitalize(), m.value) for m in LotMethod]),
        text_input(Block.LOT_METHOD_DETAILS, "How, in detail (required for “Other”)", max_length=1000,
                   multiline=True, placeholder="e.g. names on identical slips in a closed box, drawn by the chair"),
        winners,
    ]
    for index, name in enumerate(tied):
        blocks.append(_when(f"{Block.LOT_NOTICE_AT_PREFIX.value}{index}", f"Notice of the drawing to {name}: when",
                            now))
        blocks.append(_select(f"{Block.LOT_NOTICE_METHOD_PREFIX.value}{index}", f"Notice to {name}: how",
                              "How the notice was given", [option(m.value.capitalize(), m.value)
                                                           for m in NoticeMethod]))
    metadata = json.dumps({"case_id": case.id})
    return modal("Record the lot", blocks, callback_id=View.LOT.value, submit="Record", private_metadata=metadata)
