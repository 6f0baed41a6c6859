"""`/recount canvass` without a date: choose the election and the day its canvass board certified. Pure."""
from __future__ import annotations

from handlers.blocks.common import context, day, esc, metadata, modal, option, section
from handlers.blocks.inputs import SELECT_OPTIONS_LIMIT, date_input, select_input
from handlers.ids import Block, View
from rules.statute import cite
from services.returns.canvass import ElectionCanvass


def _label(election: ElectionCanvass) -> str:
    entered = f" · canvass {election.canvass_date:%Y-%m-%d}" if election.canvass_date else ""
    return f"{election.name} ({election.election_date:%Y-%m-%d}){entered}"


def canvass_modal(elections: list[ElectionCanvass], *, channel_id: str | None) -> dict:
    latest = elections[0]
    blocks: list[dict] = [
        section("Enter the day the canvass board certified the election's official abstract. A requested recount "
                f"must be completed no later than the 28th day after canvassing ({cite('(2)(e)')}): every "
                "requested recount of the election gets its exact deadline, no longer an estimate."),
        context(f"The canvass is due no later than the 14th day after the election ({cite(section='1-13.5-1305')}). "
                "Enter it once it has happened; it cannot be in the future."),
    ]
    if len(elections) > 1:
        options = [option(_label(e), str(e.id)) for e in elections[:SELECT_OPTIONS_LIMIT]]
        blocks.append(select_input(Block.CANVASS_ELECTION, "Election", options, placeholder="Choose the election",
                                   initial=str(latest.id)))
    else:
        entered = f"; canvass entered as {day(latest.canvass_date)}" if latest.canvass_date else ""
        blocks.append(section(f"*Election:* {esc(latest.name)} of {day(latest.election_date)} "
                              f"({esc(latest.local_government)}){entered}"))
    blocks.append(date_input(Block.CANVASS_DATE, "Canvass date", initial=latest.canvass_date,
                             placeholder="Canvass date"))
    return modal("Canvass date", blocks, callback_id=View.CANVASS.value, submit="Record",
                 private_metadata=metadata({"election_id": latest.id, "channel_id": channel_id}))
