"""`/recount canvass [YYYY-MM-DD]`: the day the canvass board certified, which fixes (2)(e)'s deadline.

With a date it records it for the latest election; without one it opens a form (the election, a date
picker). Either way every requested recount of the election gets its exact completion deadline: its
card is edited and its thread says from when to when the deadline moved.

Official only: the canvass date is the canvass board's act (the DEO sits on it, 1-13.5-1301) and entering
it moves the legal deadline of every requested recount of the election at once.
"""
from __future__ import annotations

import datetime as dt
import logging

from slack_sdk.errors import SlackApiError

from handlers.blocks.canvass_modal import canvass_modal
from handlers.blocks.common import day, esc
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.ids import Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.subcommands import SUBCOMMANDS
from handlers.view_state import date_picked, metadata_of, selected
from rules.statute import cite
from services.conduct import cases
from services.errors import UserError
from services.returns import canvass
from services.returns.canvass import CanvassRecorded
from services.wording import echoed
from storage.models import Role

log = logging.getLogger("recount_bot.canvass")
EXPIRED = {"expired_trigger_id", "exchanged_trigger_id", "invalid_trigger_id"}


def register(registry: Registry) -> None:
    registry.view(View.CANVASS.value, needs=Role.OFFICIAL)(submit_canvass)


def _parse(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UserError(f"“{echoed(text.strip())}” is not a date: write the canvass date as YYYY-MM-DD, e.g. "
                        "`/recount canvass 2026-11-09`.") from None


@SUBCOMMANDS.add("canvass", needs=Role.OFFICIAL, usage="/recount canvass [YYYY-MM-DD]",
                 summary="Enter the date of the canvass of the latest election (a form without a date, and when "
                         "several elections share the latest day); under C.R.S. 1-13.5-1306 every requested "
                         "recount is then due 28 days after it ((2)(e)), under the other laws the date is kept for "
                         "the record.")
@as_one_unit
def canvass_command(ix: Interaction, args: str) -> None:
    if args.strip():
        result = canvass.set_canvass_date(ix.services, team_id=ix.team_id, canvass_date=_parse(args),
                                          actor=ix.user_id, settings=ix.member.settings)
        _announce(ix, result)
        return
    found = canvass.elections(ix.services, team_id=ix.team_id)
    if not found:
        raise UserError("No election yet: import or enter its returns first (`/recount returns`).")
    try:
        ix.client.views_open(trigger_id=ix.trigger_id, view=canvass_modal(found, channel_id=ix.channel_id))
    except SlackApiError as exc:
        if exc.response.get("error") not in EXPIRED:
            raise
        raise UserError("Slack's moment to open the form passed; type `/recount canvass` again, or give the "
                        "date: `/recount canvass YYYY-MM-DD`.") from None


@as_one_unit
def submit_canvass(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    chosen = selected(state, Block.CANVASS_ELECTION)
    election_id = int(chosen) if chosen and chosen.isdigit() else int(meta["election_id"])
    picked = date_picked(state, Block.CANVASS_DATE)
    if picked is None:
        ix.ack(response_action="errors", errors={Block.CANVASS_DATE.value: "Choose the canvass date."})
        return
    try:
        result = canvass.set_canvass_date(ix.services, team_id=ix.team_id, canvass_date=picked,
                                          actor=ix.user_id, settings=ix.member.settings, election_id=election_id)
    except UserError as exc:
        field_errors(ix, exc, {"canvass_date": Block.CANVASS_DATE})
        return
    ix.ack()
    ix.channel_id = meta.get("channel_id")
    _announce(ix, result)


def _announce(ix: Interaction, result: CanvassRecorded) -> None:
    """Edit each moved case's card, say in its thread how its deadline moved, and tell the official."""
    citation = cite("(2)(e)")
    if result.previous == result.canvass_date:
        ix.tell(f"The canvass of {esc(result.election)} was already entered as {day(result.canvass_date)}; nothing "
                "changed.")
        return
    entered = (f"corrected from {day(result.previous)} to *{day(result.canvass_date)}*" if result.previous
               else f"entered as *{day(result.canvass_date)}*")
    warning = f"\n:warning: {esc(result.note.split('. Warning: ', 1)[1])}" if ". Warning: " in result.note else ""
    lines = []
    for case_id, before, after in result.moved:
        case = cases.case_view(ix.services, case_id, workspace_id=ix.member.workspace_id)
        was = f"{day(before)}" + (" (estimate)" if result.previous is None else "")
        if before == after:
            change = f"stays *{day(after)}*, now exact rather than an estimate" if result.previous is None \
                else f"stays *{day(after)}*"
        else:
            change = f"moved from {was} to *{day(after)}*"
        refresh_card(ix.services, case)
        try:
            post_in_thread(ix.services, case, f":calendar: The canvass of {esc(result.election)} was {entered} by "
                                            f"{mention(ix.user_id)}. This recount's completion deadline {change}: 28 "
                                            f"days after canvassing ({citation}).{warning}")
        except SlackApiError as exc:  # the record is committed; one unreachable thread must not hide the others
            log.warning("could not post the canvass date in the thread of case %s: %s", case_id,
                        exc.response.get("error"))
        lines.append(f"• {esc(case.contest)} (case #{case_id}): {change.replace('*', '')}")
    summary = f":calendar: The canvass of {esc(result.election)} was {entered} ({citation}: 28 days after it).{warning}"
    if lines:
        summary += "\nRequested recount deadlines:\n" + "\n".join(lines)
    else:
        summary += "\nNo requested recount is open in this election; any opened later is due 28 days after it."
    ix.tell(summary)
