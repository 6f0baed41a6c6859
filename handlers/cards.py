"""Posting and refreshing a case's card; later updates go into its thread.

Card edits and thread posts are queued in the outbox (handlers/slack_io/outbox.py) and delivered by the worker
thread, woken at once: a Slack outage or a 429 delays them but loses none, and a modal's answer
never waits for them.
"""
from __future__ import annotations

import functools
import logging
from typing import Callable

from slack_sdk import WebClient
from sqlalchemy import select

from handlers.blocks.case_card import case_card, case_text
from handlers.blocks.common import MESSAGE_BLOCKS_LIMIT, context
from handlers.slack_io.outbox import FALLBACK, enqueue, enqueue_latest, wake_on_commit
from handlers.slack_io.posting import Unconfirmed, post_once
from handlers.slack_text import channel_link, fallback
from services.conduct import cases
from services.conduct.card_claims import claimed_at
from services.conduct.cases import CaseView
from services.services import Services
from storage.models import Workspace

log = logging.getLogger("recount_bot.cards")
CARD_METADATA = "recount_bot_case_card"  # a card's message metadata: {"case_id": N}, to find it again


class CardUnconfirmed(Unconfirmed):
    """Slack did not confirm a case's card, and it could not be found yet (the case itself is recorded)."""

    def __init__(self, case_id: int) -> None:
        super().__init__(f"the card of recount case #{case_id} was not confirmed by Slack")
        self.case_id = case_id


def post_case_card(client: WebClient, services: Services, case_id: int, *, channel_id: str,
                   actor: str) -> CaseView | None:
    """Post the case's card once. Returns None when it was already posted (or another check is posting
    it right now): the existing card stays where the team's thread is."""
    claim = cases.case_view(services, case_id).card_ts  # "posting:<time>": a post not confirmed, or under way
    if not cases.claim_card(services, case_id):
        return None
    # A claim taken over was left by a post Slack never confirmed: it may be in the channel, so look first.
    taken_over = claim is not None and claim.startswith(cases.CLAIM)
    try:
        case = cases.case_view(services, case_id)
        response = post_once(client, {"channel": channel_id, "text": fallback(case_text(case)),
                                      "blocks": case_card(case), "unfurl_links": False},
                             metadata={"event_type": CARD_METADATA, "event_payload": {"case_id": case_id}},
                             since=claimed_at(claim) if taken_over else services.now(), look_first=taken_over)
    except Unconfirmed:
        # Slack may have the card: the claim stays, so no check posts a second one; one after CLAIM_STALE finds
        # it (or posts it) and records where it is.
        log.warning("the card of case %s was not confirmed by Slack; the next check looks for it", case_id)
        raise CardUnconfirmed(case_id) from None
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
               dm_user: str | None = None, team_id: str | None = None) -> None:
    """A Web API call for the worker to deliver. Inside a listener run `as_one_unit`, the row commits with the
    change it reports; rows queued one after another are delivered in that order. The row names its workspace
    (`workspace_id`, or the one of Slack team `team_id`): with many offices, it is sent with that one's token."""
    with services.db.transaction() as session:
        if workspace_id is None and team_id is not None:
            workspace_id = session.scalar(select(Workspace.id).where(Workspace.slack_team_id == team_id))
        if workspace_id is None:
            raise ValueError(f"an outbox row for {method} must name its workspace")
        enqueue(session, method=method, payload=payload, workspace_id=workspace_id, dm_user=dm_user,
                now=services.now())
        wake_on_commit(session, services.outbox_wake)


def post_where_typed(services: Services, *, team_id: str, user_id: str, channel_id: str | None, text: str,
                     blocks: list[dict]) -> None:
    """A confirmation posted in the channel where the command was typed (to the person when there was none),
    through the outbox. If that channel will not take it, the worker sends it to the person with the reason."""
    if not channel_id:
        queue_call(services, "chat.postMessage", {"text": text, "blocks": blocks}, dm_user=user_id, team_id=team_id)
        return
    hint = context(f":warning: I could not post this in {channel_link(channel_id)}: invite me there with "
                   "`/invite @recount-bot`.")
    fallback_post = {"user": user_id, "text": text, "blocks": [hint, *blocks][:MESSAGE_BLOCKS_LIMIT]}
    queue_call(services, "chat.postMessage",
               {"channel": channel_id, "text": text, "blocks": blocks, FALLBACK: fallback_post}, team_id=team_id)


def _has_card(case: CaseView) -> bool:
    return bool(case.card_ts and case.channel_id and not case.card_ts.startswith(cases.CLAIM))


def refresh_card(services: Services, case: CaseView) -> None:
    """Edit the case's card to show its current state."""
    if _has_card(case):
        queue_call(services, "chat.update", {"channel": case.channel_id, "ts": case.card_ts, "text": case_text(case),
                                         "blocks": case_card(case)}, team_id=case.team_id)


def refresh_card_views(services: Services, case_id: int) -> None:
    """An observers' page was loaded: the card shows the links' view counts as the database has them. Loads are
    not Slack actions and can come in bursts (an observer reloading), so one edit of the card waits at a time:
    a waiting one takes the newer card rather than a second edit being queued."""
    case = cases.case_view(services, case_id)
    if not _has_card(case):
        return
    payload = {"channel": case.channel_id, "ts": case.card_ts, "text": case_text(case), "blocks": case_card(case)}
    with services.db.transaction() as session:
        workspace_id = session.scalar(select(Workspace.id).where(Workspace.slack_team_id == case.team_id))
        if workspace_id is None:
            return
        enqueue_latest(session, method="chat.update", payload=payload, workspace_id=workspace_id,
                       same=("channel", "ts"), now=services.now())
        wake_on_commit(session, services.outbox_wake)


def post_in_thread(services: Services, case: CaseView, text: str, blocks: list[dict] | None = None) -> None:
    """A message in the case's thread."""
    if _has_card(case):
        payload = {"channel": case.channel_id, "thread_ts": case.card_ts, "text": text}
        if blocks:
            payload["blocks"] = blocks
        queue_call(services, "chat.postMessage", payload, team_id=case.team_id)
