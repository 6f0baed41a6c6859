"""What the conduct handlers (the tally, assistants, evidence) share: the case a clerk typed or clicked,
opening a modal within its trigger, where later messages go, a direct message, and the tally on a case's card.
(Reading a modal's fields: handlers/view_state.py; a refusal on its field: handlers.interaction.field_errors.)"""
from __future__ import annotations

import re

from slack_sdk.errors import SlackApiError

from handlers.cards import post_in_thread, refresh_card
from handlers.interaction import Interaction
from handlers.slack_io.outbox import enqueue, wake_on_commit
from handlers.view_state import metadata_of
from services.conduct.cases import CaseView
from services.conduct.tally_forms import TallySummary
from services.errors import UserError
from services.wording import echoed

EXPIRED = {"expired_trigger_id", "exchanged_trigger_id", "invalid_trigger_id"}


def case_number(args: str, usage: str) -> int | None:
    """The case number a clerk typed ("12", "#12"), or None when nothing was typed."""
    text = args.strip().lstrip("#").strip()
    if not text:
        return None
    if not re.fullmatch(r"\d{1,9}", text):
        raise UserError(f"“{echoed(args.strip())}” is not a case number: `{usage}` (the number is on the case card, "
                        "“Case #12”).")
    return int(text)


def open_modal(ix: Interaction, view: dict, again: str) -> None:
    """Open a modal with the trigger; a trigger that expired is told as such, not as a failure."""
    try:
        ix.client.views_open(trigger_id=ix.trigger_id, view=view)
    except SlackApiError as exc:
        if exc.response.get("error") not in EXPIRED:
            raise
        raise UserError(f"Slack's moment to open the form passed before I could; {again} again.") from None


def clicked_case(ix: Interaction) -> int:
    return int(ix.body["actions"][0]["value"].split(":")[0])


def metadata_case(ix: Interaction) -> int:
    return int(metadata_of(ix.body["view"])["k"])


def after_modal(ix: Interaction, case: CaseView) -> None:
    """A modal has no channel: later messages to the person go beside the card."""
    ix.channel_id = case.channel_id


def report_recorded(ix: Interaction, case: CaseView, *, newly: bool, already: str, posted: str) -> None:
    """After a case's modal recorded something: beside the card, `already` to the person when the record was
    there before (a double submit), else the card refreshed and `posted` in the case's thread."""
    ix.channel_id = case.channel_id or ix.channel_id
    if not newly:
        ix.tell(already)
        return
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, posted)


def dm(ix: Interaction, user: str, text: str, blocks: list[dict] | None, key: str) -> None:
    """A direct message through the outbox (not lost to a Slack outage; sent once per key)."""
    payload: dict = {"text": text}
    if blocks:
        payload["blocks"] = blocks
    services = ix.services
    with services.db.transaction() as session:
        enqueue(session, method="chat.postMessage", payload=payload, workspace_id=ix.member.workspace_id,
                dm_user=user, dedupe_key=key, now=services.now())
        wake_on_commit(session, services.outbox_wake)


def tally_of(case: CaseView) -> TallySummary | None:
    return case.conduct.tally if case.conduct else None
