"""`/recount canvass` without a date: choose the election and the day its canvass board certified. Pure."""
from __future__ import annotations

from handlers.blocks.common import context, day, esc, metadata, modal, option, section
from handlers.blocks.inputs import SELECT_OPTIONS_LIMIT, date_input, select_input
from handlers.ids import Block, View
from rules.laws import LawProfile
from rules.laws.profile import CountFrom
from services.returns.canvass import ElectionCanvass


def _label(election: ElectionCanvass) -> str:
    entered = f" · canvass {election.canvass_date:%Y-%m-%d}" if election.canvass_date else ""
    return f"{election.name} ({election.election_date:%Y-%m-%d}){entered}"


def canvass_effect(law: LawProfile, *, several: bool = False) -> str:
    """What the canvass date fixes under `law`, with its citations: under 1-13.5-1306 a requested recount is due
    the 28th day after canvassing (2)(e); the other laws count every recount deadline from the election."""
    due, requested = law.canvass, law.requested_completion
    head = f"Under {law.named}: the canvass" if several else "The canvass"
    canvass = f"{head} is due no later than day {due.days} after the election ({due.provision.citation}). "
    if requested.counted_from is CountFrom.CANVASS:
        return (canvass + f"A requested recount must be completed no later than day {requested.days} after "
                f"canvassing ({requested.provision.citation}): every requested recount of the election gets its "
                "exact deadline, no longer an estimate.")
    return (canvass + f"A requested recount is due day {requested.days} after the election "
            f"({requested.provision.citation}), whatever the canvass date; it is kept for the record.")


def canvass_modal(elections: list[ElectionCanvass], *, channel_id: str | None) -> dict:
    latest = elections[0]
    blocks: list[dict] = [section("Enter the day the canvass board certified the election's official abstract. "
                                  "Enter it once it has happened; it cannot be in the future.")]
    laws = {e.law.key: e.law for e in elections}
    blocks += [context(canvass_effect(law, several=len(laws) > 1)) for law in laws.values()]
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
