"""Posting and refreshing a case's card; later updates go into its thread.

Card edits and thread posts are queued in the outbox (bot/outbox.py) and delivered by the worker
thread, woken at once: a Slack outage or a 429 delays them but loses none, and a modal's answer
never waits for them.
"""
from __future__ import annotations

import functools
import logging
from typing import Callable

from slack_sdk import WebClient

from bot.outbox import enqueue, wake_on_commit
from bot.services import cases
from bot.services.cases import CaseView
from bot.services.context import Services
from handlers.blocks.case_card import case_card, case_text

log = logging.getLogger("recount_bot.cards")


def post_case_card(client: WebClient, services: Services, case_id: int, *, channel_id: str,
                   actor: str) -> CaseView | None:
    """Post the case's card once. Returns None when it was already posted (or another check is posting
    it right now): the existing card stays where the team's thread is."""
    if not cases.claim_card(services, case_id):
        return None
    try:
        case = cases.case_view(services, case_id)
        response = client.chat_postMessage(channel=channel_id, text=case_text(case), blocks=case_card(case),
                                           unfurl_links=False)
    except BaseException:
        cases.release_card(services, case_id)
        raise
    cases.set_card(services, case_id, channel_id=response["channel"], ts=response["ts"], actor=actor)
    return cases.case_view(services, case_id)


def as_one_unit(listener: Callable[..., None]) -> Callable[..., None]:
    """Run a listener as one transaction: its use case and the outbox rows of the card edits, thread posts and
    direct messages that report it commit together, or neither does. A crash between the two can no longer
    leave a recorded change the channel never hears of, and a failure after the change undoes it (the error
    handler's "nothing was saved" is then true). Work handed to `ix.later` runs after, on its own."""
    @functools.wraps(listener)
    def run(ix, *args, **kwargs) -> None:
        with ix.services.db.transaction():
            listener(ix, *args, **kwargs)
    return run


def queue_call(services: Services, method: str, payload: dict, workspace_id: int | None = None, *,
               dm_user: str | None = None) -> None:
    """A Web API call for the worker to deliver. Inside a listener run `as_one_unit`, the row commits with the
    change it reports; rows queued one after another are delivered in that order."""
    with services.db.transaction() as session:
        enqueue(session, method=method, payload=payload, workspace_id=workspace_id, dm_user=dm_user,
                now=services.now())
        wake_on_commit(session, services.outbox_wake)


def _has_card(case: CaseView) -> bool:
    return bool(case.card_ts and case.channel_id and not case.card_ts.startswith(cases.CLAIM))


def refresh_card(services: Services, case: CaseView) -> None:
    """Edit the case's card to show its current state."""
    if _has_card(case):
        queue_call(services, "chat.update", {"channel": case.channel_id, "ts": case.card_ts, "text": case_text(case),
                                         "blocks": case_card(case)})


def post_in_thread(services: Services, case: CaseView, text: str, blocks: list[dict] | None = None) -> None:
    """A message in the case's thread."""
    if _has_card(case):
        payload = {"channel": case.channel_id, "thread_ts": case.card_ts, "text": text}
        if blocks:
            payload["blocks"] = blocks
        queue_call(services, "chat.postMessage", payload)
