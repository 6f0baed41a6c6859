"""The outbox: Slack posts that must not be lost are rows first, written in the same transaction as the
change they report, and delivered afterwards by `OutboxDelivery` (in `recount-bot worker`, and in the
server process too so one command runs everything).

Delivery guarantees:
- a Slack outage loses nothing: a row stays pending and is retried (429 after its Retry-After; 5xx,
  timeouts and dropped connections with back-off) until it is sent or, after many attempts, marked dead
  with its last error for a person to look at;
- a crash in the middle of a delivery does not post twice: every chat.postMessage carries the row's id
  in Slack message metadata; a row whose lease expired while it was being sent is first looked for in
  the channel (conversations.history / conversations.replies) and only posted if Slack does not have it;
- a post the channel refuses (the bot is not a member, the channel is archived) may carry a fallback: a
  direct message to the person who acted, queued in the same transaction that marks the row dead, so
  they learn both what was recorded and why the channel did not hear it;
- two workers never deliver the same row: rows are claimed with FOR UPDATE SKIP LOCKED on PostgreSQL
  (and by SQLite's single writer).
"""
from __future__ import annotations

import datetime as dt
import logging
import socket
import threading
import urllib.error
from dataclasses import dataclass
from typing import Callable

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy import event, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

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
    row = OutboxMessage(workspace_id=workspace_id, method=method, payload=payload, dm_user=dm_user,
                        dedupe_key=dedupe_key, next_attempt_at=now or utcnow(), created_at=now or utcnow())
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:  # the same key enqueued concurrently
        return None
    return row


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


@dataclass
class DeliveryReport:
    sent: int = 0
    retried: int = 0
    dead: int = 0
    recovered: int = 0  # found already posted after a crash; not posted again


class OutboxDelivery:
    def __init__(self, db: Database, client: WebClient, *, clock: Callable[[], dt.datetime] = utcnow,
                 worker_id: str = "worker", lease: dt.timedelta = LEASE, max_attempts: int = MAX_ATTEMPTS) -> None:
        self.db, self.client, self.clock = db, client, clock
        self.worker_id, self.lease, self.max_attempts = worker_id, lease, max_attempts

    # ------------------------------------------------------------------ claiming
    def claim(self, limit: int = 20) -> list[tuple[int, bool]]:
        """Claim rows ready to send; returns (id, was_in_flight) — in flight means a previous attempt's
        lease ran out (a crash or a hang), so it may already be in Slack."""
        now = self.clock()
        with self.db.transaction() as session:
            query = (select(OutboxMessage)
                     .where(or_(
                         (OutboxMessage.status == OutboxStatus.PENDING.value) & (OutboxMessage.next_attempt_at <= now),
                         (OutboxMessage.status == OutboxStatus.SENDING.value) & (OutboxMessage.lease_until < now)))
                     .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit))
            if session.get_bind().dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            rows = list(session.scalars(query))
            claimed = []
            for row in rows:
                claimed.append((row.id, row.status == OutboxStatus.SENDING.value))
                row.status, row.lease_until, row.claimed_by = OutboxStatus.SENDING.value, now + self.lease, self.worker_id
                row.attempts += 1
            return claimed

    # ------------------------------------------------------------------ sending
    def _channel(self, row: OutboxMessage) -> str | None:
        if row.dm_user:
            return self.client.conversations_open(users=row.dm_user)["channel"]["id"]
        return row.payload.get("channel")

    def _already_posted(self, row: OutboxMessage, channel: str) -> dict | None:
        """Look for a message carrying this row's id (a previous attempt that reached Slack)."""
        thread = row.payload.get("thread_ts")
        try:
            if thread:
                messages = self.client.conversations_replies(channel=channel, ts=thread, include_all_metadata=True,
                                                             limit=200)["messages"]
            else:
                messages = self.client.conversations_history(channel=channel, include_all_metadata=True,
                                                             limit=200)["messages"]
        except SlackApiError:
            return None
        for message in messages:
            meta = message.get("metadata") or {}
            if meta.get("event_type") == METADATA_TYPE and meta.get("event_payload", {}).get("outbox_id") == row.id:
                return {"channel": channel, "ts": message["ts"]}
        return None

    def _send(self, row: OutboxMessage, in_flight: bool) -> tuple[dict, bool]:
        payload = dict(row.payload)
        payload.pop(FALLBACK, None)
        channel = self._channel(row)
        if channel:
            payload["channel"] = channel
        if row.method == "chat.postMessage":
            if in_flight and channel:
                found = self._already_posted(row, channel)
                if found:
                    return found, True
            payload["metadata"] = {"event_type": METADATA_TYPE, "event_payload": {"outbox_id": row.id}}
        response = self._call(row.method, payload)
        return {"channel": response.get("channel", channel), "ts": response.get("ts")}, False

    def _call(self, method: str, payload: dict):
        # The methods the outbox may carry, named one by one (the manifest test checks each one's scope).
        calls = {
            "chat.postMessage": self.client.chat_postMessage,
            "chat.update": self.client.chat_update,
            "chat.postEphemeral": self.client.chat_postEphemeral,
            "views.publish": self.client.views_publish,
        }
        if method not in calls:
            raise ValueError(f"the outbox does not carry {method}")
        return calls[method](**payload)

    def _backoff(self, attempts: int) -> dt.timedelta:
        return min(dt.timedelta(seconds=5 * 2 ** max(attempts - 1, 0)), MAX_BACKOFF)

    def deliver(self, row_id: int, in_flight: bool) -> str:
        with self.db.transaction() as session:
            row = session.get(OutboxMessage, row_id)
            snapshot = OutboxMessage(id=row.id, method=row.method, payload=dict(row.payload), dm_user=row.dm_user,
                                     attempts=row.attempts)
        outcome, result, error, retry_at, code = "sent", None, None, None, None
        try:
            result, recovered = self._send(snapshot, in_flight)
            outcome = "recovered" if recovered else "sent"
        except SlackApiError as exc:
            status = exc.response.status_code
            code = exc.response.get("error") if isinstance(exc.response.data, dict) else None
            error = f"HTTP {status}: {code or exc}"
            if status == 429:
                wait = int(exc.response.headers.get("Retry-After", exc.response.headers.get("retry-after", 30)) or 30)
                retry_at, outcome = self.clock() + dt.timedelta(seconds=wait), "retry"
            elif status >= 500 or code in ("internal_error", "service_unavailable", "fatal_error", "ratelimited"):
                outcome = "retry"
            elif code in PERMANENT or 400 <= status < 500 or code:
                outcome = "dead"
            else:
                outcome = "retry"
        except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as exc:
            error, outcome = f"{type(exc).__name__}: {exc}", "retry"
        return self._finish(row_id, outcome, result, error, retry_at, refused=code in CHANNEL_REFUSED)

    def _finish(self, row_id: int, outcome: str, result: dict | None, error: str | None,
                retry_at: dt.datetime | None, *, refused: bool = False) -> str:
        now = self.clock()
        with self.db.transaction() as session:
            row = session.get(OutboxMessage, row_id)
            if outcome in ("sent", "recovered"):
                row.status, row.result, row.sent_at, row.lease_until = OutboxStatus.SENT.value, result, now, None
                row.last_error = None
            elif outcome == "retry" and row.attempts < self.max_attempts:
                row.status, row.lease_until, row.last_error = OutboxStatus.PENDING.value, None, error
                row.next_attempt_at = retry_at or now + self._backoff(row.attempts)
            else:
                row.status, row.lease_until, row.last_error = OutboxStatus.DEAD.value, None, error
                outcome = "dead"
                log.error("outbox row %s (%s) given up after %s attempts: %s", row.id, row.method, row.attempts, error)
                fallback = row.payload.get(FALLBACK)
                if refused and fallback:
                    enqueue(session, method="chat.postMessage", workspace_id=row.workspace_id,
                            dm_user=fallback["user"], dedupe_key=f"fallback:{row.id}", now=now,
                            payload={k: v for k, v in fallback.items() if k in ("text", "blocks")})
        return outcome

    def run_once(self, limit: int = 20) -> DeliveryReport:
        report = DeliveryReport()
        for row_id, in_flight in self.claim(limit):
            outcome = self.deliver(row_id, in_flight)
            if outcome == "sent":
                report.sent += 1
            elif outcome == "recovered":
                report.recovered += 1
            elif outcome == "retry":
                report.retried += 1
            else:
                report.dead += 1
        return report
