"""The outbox: Slack posts that must not be lost are rows first, written in the same transaction as the
change they report, and delivered afterwards by `OutboxDelivery` (handlers/slack_io/delivery.py: in `recount-bot
worker`, and in the server process too so one command runs everything; a post a person waits for may be
delivered at once by handlers/slack_io/posting.py, with its row behind it).

Delivery guarantees:
- a Slack outage loses nothing: a row stays pending and is retried (429 after its Retry-After; 5xx,
  timeouts and dropped connections with back-off) until it is sent or, after many attempts, marked dead
  with its last error for a person to look at;
- never twice: every chat.postMessage carries the row's id in Slack message metadata; a row that may
  already be in Slack (its lease ran out mid-call, the call timed out, Slack answered 5xx) is first
  looked for in the channel, newest first and bounded by its first attempt (handlers/slack_io/lookup.py), and
  only posted if Slack does not have it;
- a post the channel refuses (the bot is not a member, the channel is archived) may carry a fallback: a
  direct message to the person who acted, queued in the same transaction that marks the row dead, so
  they learn both what was recorded and why the channel did not hear it;
- two workers never deliver the same row: rows are claimed with FOR UPDATE SKIP LOCKED on PostgreSQL
  (and by SQLite's single writer).
"""
from __future__ import annotations

import datetime as dt
import logging
import threading

from sqlalchemy import event, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from handlers.slack_text import fallback, outgoing
from storage.db import Database
from storage.models import OutboxMessage, OutboxStatus
from storage.types import utcnow

log = logging.getLogger("recount_bot.outbox")
METADATA_TYPE = "recount_bot_outbox"
LEASE = dt.timedelta(seconds=60)
MAX_ATTEMPTS = 10
MAX_BACKOFF = dt.timedelta(minutes=15)
# Errors that retrying cannot fix: the row is marked dead at once.
PERMANENT = {"channel_not_found", "not_in_channel", "is_archived", "invalid_blocks", "invalid_arguments",
             "msg_too_long", "no_text", "invalid_auth", "account_inactive", "token_revoked", "message_not_found",
             "cant_update_message", "user_not_found", "missing_scope"}
# The channel will not take the bot's post (it is not a member, or the channel is gone). The outbox sends a row's
# fallback to a person instead; handlers posting directly say how to invite the bot.
CHANNEL_REFUSED = {"not_in_channel", "channel_not_found", "is_archived"}
# A payload key the worker strips before the call: {"user": U, "text": ..., "blocks": [...]}, sent to U by
# direct message when the channel refuses the post.
FALLBACK = "recount_bot_fallback"


def enqueue(session: Session, *, method: str, payload: dict, workspace_id: int | None = None,
            dm_user: str | None = None, dedupe_key: str | None = None,
            now: dt.datetime | None = None) -> OutboxMessage | None:
    """Add a Web API call to deliver, in the caller's transaction. With a `dedupe_key` already used, nothing
    is added (None is returned): a retried use case never posts twice."""
    if dedupe_key is not None and session.scalar(
            select(OutboxMessage.id).where(OutboxMessage.dedupe_key == dedupe_key)) is not None:
        return None
    payload = _escaped(payload)
    row = OutboxMessage(workspace_id=workspace_id, method=method, payload=payload, dm_user=dm_user,
                        dedupe_key=dedupe_key, next_attempt_at=now or utcnow(), created_at=now or utcnow())
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:  # the same key enqueued concurrently
        return None
    return row


def enqueue_latest(session: Session, *, method: str, payload: dict, workspace_id: int,
                   same: tuple[str, ...], now: dt.datetime | None = None) -> None:
    """Queue a call whose newer payload makes a waiting older one pointless (an edit of the same message: `same`
    names the payload keys that say so). A row still pending takes the new payload instead of a second row being
    added, so a burst of changes is one call to Slack, carrying the latest. Rows a worker has claimed are skipped
    (FOR UPDATE SKIP LOCKED on PostgreSQL): their call may be under way, so the new one is queued after them."""
    query = select(OutboxMessage).where(OutboxMessage.method == method, OutboxMessage.workspace_id == workspace_id,
                                        OutboxMessage.status == OutboxStatus.PENDING.value,
                                        OutboxMessage.dedupe_key.is_(None)).order_by(OutboxMessage.id)
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    for row in session.scalars(query):
        if all(row.payload.get(key) == payload.get(key) for key in same):
            row.payload = _escaped(dict(payload))
            return
    enqueue(session, method=method, payload=payload, workspace_id=workspace_id, now=now)


def _escaped(payload: dict) -> dict:
    """The message text of a queued call (and of its fallback) through the escaping rule's gate
    (handlers/slack_text.py): every post the worker makes is made of text that has passed it."""
    def gated(message: dict) -> dict:
        if not isinstance(message.get("text"), str):
            return message
        text = message["text"]
        return {**message, "text": fallback(text) if message.get("blocks") else outgoing(text)}

    payload = gated(payload)
    if isinstance(payload.get(FALLBACK), dict):
        payload[FALLBACK] = gated(payload[FALLBACK])
    return payload


def wake_on_commit(session: Session, wake: threading.Event) -> None:
    """Wake the worker once the caller's transaction commits: woken earlier, it would find the rows not yet
    visible and go back to sleep for its whole poll interval."""
    event.listen(session, "after_commit", lambda _session: wake.set(), once=True)


def idle(db: Database, now: dt.datetime) -> bool:
    """Nothing ready to deliver and nothing being delivered (rows waiting for a retry later do not count)."""
    with db.transaction() as session:
        busy = session.scalar(select(OutboxMessage.id).where(or_(
            OutboxMessage.status == OutboxStatus.SENDING.value,
            (OutboxMessage.status == OutboxStatus.PENDING.value) & (OutboxMessage.next_attempt_at <= now))).limit(1))
    return busy is None
