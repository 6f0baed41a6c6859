"""The modal that records the drawing of lots for a tie the recount did not break (1-13.5-1304): when, where, by
whom, who witnessed, the method, each tied candidate's notice of the drawing, and who won. Pure builder.

Options and block ids carry a tied candidate's position in the tie, never the name: a name may be longer than
an option's value allows, and nothing a person typed goes into an id."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import context, esc, metadata, modal, option, plain, section
from handlers.blocks.completion_section import names
from handlers.blocks.inputs import PLACEHOLDER_LIMIT, input_block, moment_input, select_input, text_input, word_options
from handlers.blocks.law_cites import cites
from handlers.ids import Block, View
from rules.lot import LotMethod, TieForLot
from services.conduct.cases import CaseView, NoticeMethod

TIED_SHOWN = 20  # 2 blocks per tied candidate's notice; a modal holds 100 blocks


def lot_modal(case: CaseView, tie: TieForLot, *, now: dt.datetime) -> dict:
    tied = tie.tied[:TIED_SHOWN]
    choices = [option(name, str(index)) for index, name in enumerate(tied)]
    if tie.seats_by_lot == 1:
        winners = select_input(Block.LOT_WINNERS, "Who won the lot", choices,
                               placeholder="The candidate the lot elects")
    else:
        winners = input_block(Block.LOT_WINNERS, f"Who won the lot ({tie.seats_by_lot} seats)", {
            "type": "multi_static_select", "options": choices, "max_selected_items": tie.seats_by_lot,
            "placeholder": plain(f"The {tie.seats_by_lot} candidates the lot elects", PLACEHOLDER_LIMIT)})
    blocks = [
        section(f"The drawing of lots for *{tie.what}* of *{esc(case.contest)}*: {esc(names(tie.tied))}, tied at "
                f"{tie.votes:,} votes each after the recount."),
        context(f"{cites(case).tie}: a tie the recount did not break is decided by lot by "
                f"{cites(case).law.tie.drawn_by}, the tied "
                "candidates given notice of the drawing. The certificate of election for the seat is made for the "
                f"winner of the lot ({cites(case).certificate}). This cannot be undone."),
        moment_input(Block.LOT_DRAWN_AT, "When the lot was drawn", initial=now),
        text_input(Block.LOT_PLACE, "Where", optional=False, max_length=300,
                   placeholder="e.g. District office, 120 Main St, board room"),
        text_input(Block.LOT_CONDUCTED_BY, f"Drawn by ({cites(case).law.tie.drawn_by})", optional=False, max_length=1000,
                   placeholder="Names of those who drew it"),
        text_input(Block.LOT_WITNESSES, "Witnessed by", optional=False, max_length=1000, multiline=True,
                   placeholder="Everyone who watched: candidates, their representatives, the public"),
        select_input(Block.LOT_METHOD, "Method", word_options(m.value for m in LotMethod),
                     placeholder="How the lot was drawn"),
        text_input(Block.LOT_METHOD_DETAILS, "How, in detail (required for “Other”)", max_length=1000,
                   multiline=True, optional=True,
                   placeholder="e.g. names on identical slips in a closed box, drawn by the chair"),
        winners,
    ]
    for index, name in enumerate(tied):
        blocks.append(moment_input(f"{Block.LOT_NOTICE_AT_PREFIX.value}{index}",
                                   f"Notice of the drawing to {name}: when", initial=now))
        blocks.append(select_input(f"{Block.LOT_NOTICE_METHOD_PREFIX.value}{index}", f"Notice to {name}: how",
                                   word_options(m.value for m in NoticeMethod), placeholder="How the notice was given"))
    return modal("Record the lot", blocks, callback_id=View.LOT.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))
