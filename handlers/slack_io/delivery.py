"""Delivering the outbox (handlers/slack_io/outbox.py): claim rows, make their Web API calls, record what Slack said.

Never twice. Slack has no idempotency key, so a post whose answer never came may be in the channel. A
chat.postMessage carries its row's id in message metadata, and a row is marked "maybe posted" when an
attempt may have reached Slack: its lease ran out (a worker died or hung mid-call), the call timed out or the
connection dropped, or Slack answered 5xx. Before any later attempt the row is looked for
(handlers/slack_io/lookup.py: newest first, paged, bounded by the row's first attempt) and only posted if Slack does
not have it; a lookup that cannot decide holds the post back and tries again later. A call that got no
answer at all waits at least `SETTLE` before that look, so a Slack still working on it has finished.

Bookkeeping lives in the row's `result` until it is sent: {"first_attempt_at": ISO time, "maybe_posted":
bool}; once sent, `result` is {"channel", "ts"}.

A row may belong in the thread of another row's post (`THREAD_OF` in its payload: the first part of a
verdict was left to the outbox, the rest follows under it): it waits until that row is sent, takes its ts,
and is given up with it.
"""
from __future__ import annotations

import datetime as dt
import logging
import socket
import time
import urllib.error
from dataclasses import dataclass
from typing import Callable

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from sqlalchemy import or_, select

from handlers.slack_io.clients import Clients, NotInstalled
from handlers.slack_io.lookup import LookupInconclusive, find_post, metadata_matches
from handlers.slack_io.outbox import (
    CHANNEL_REFUSED,
    FALLBACK,
    LEASE,
    MAX_ATTEMPTS,
    MAX_BACKOFF,
    METADATA_TYPE,
    PERMANENT,
    enqueue,
)
from storage.db import Database
from storage.models import OutboxMessage, OutboxStatus
from storage.types import utcnow

log = logging.getLogger("recount_bot.outbox")
# A call that got no answer may still be under way at Slack: look for it (and try again) no sooner than this.
SETTLE = dt.timedelta(seconds=60)
# A payload key the worker strips before the call: the id of the outbox row whose post this one threads under.
THREAD_OF = "recount_bot_thread_of"
# Slack answered, but with a failure of its own: the call may have been carried out.
SLACK_TROUBLE = {"internal_error", "service_unavailable", "fatal_error", "request_timeout"}


@dataclass
class DeliveryReport:
    sent: int = 0
    retried: int = 0
    dead: int = 0
    recovered: int = 0  # found already posted (after a crash or an unanswered call); not posted again
    waiting: int = 0  # in the thread of a post not made yet


@dataclass
class Attempt:
    """What one delivery of a row came to."""

    outcome: str  # sent, recovered, retry, dead, waiting
    result: dict | None = None
    error: str | None = None
    code: str | None = None  # Slack's error code, when it gave one
    retry_at: dt.datetime | None = None
    uncertain: bool = False  # the call may have been carried out although it failed
    unanswered: bool = False  # no answer at all: a timeout or a dropped connection
    exc: BaseException | None = None
    # The row's `attempts` when this worker claimed it: if the row's count has moved on (or it is no longer being
    # sent), its lease ran out meanwhile and another worker took it over, so what this attempt came to is not
    # written over that worker's record (see `finish`).
    claim: int | None = None


def slack_code(exc: BaseException) -> str | None:
    """Slack's error code in a failed call's answer, if it answered with one."""
    if isinstance(exc, SlackApiError) and isinstance(exc.response.data, dict):
        return exc.response.data.get("error")
    return None


def unanswered(exc: BaseException) -> bool:
    """The call got no answer at all (a timeout, a dropped connection): Slack may still be carrying it out."""
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, (ConnectionRefusedError, socket.gaierror)):  # never reached Slack
        return False
    return isinstance(exc, (OSError, socket.timeout, TimeoutError, ConnectionError))


def may_have_posted(exc: BaseException) -> bool:
    """Whether a failed chat.postMessage may have been carried out all the same: no answer, or a failure
    Slack's own side reported (5xx, internal_error). A 429 or a refusal (not_in_channel, invalid_blocks) was
    not carried out."""
    if isinstance(exc, SlackApiError):
        status = exc.response.status_code
        return (status >= 500 or slack_code(exc) in SLACK_TROUBLE) and status != 429
    return unanswered(exc)


def since_of(row: OutboxMessage) -> dt.datetime:
    """When the row was first tried (its creation, for a row claimed before that was recorded)."""
    stamp = (row.result or {}).get("first_attempt_at") if row.status != OutboxStatus.SENT.value else None
    return dt.datetime.fromisoformat(stamp) if stamp else row.created_at


class OutboxDelivery:
    def __init__(self, db: Database, client: WebClient | Clients, *, clock: Callable[[], dt.datetime] = utcnow,
                 worker_id: str = "worker", lease: dt.timedelta = LEASE, max_attempts: int = MAX_ATTEMPTS) -> None:
        # Each row is delivered with the token of the workspace it belongs to (handlers/slack_io/clients.py).
        self.clients = client if isinstance(client, Clients) else Clients.single(client)
        self.db, self.clock = db, clock
        self.worker_id, self.lease, self.max_attempts = worker_id, lease, max_attempts

    # ------------------------------------------------------------------ claiming
    def claim(self, limit: int = 20) -> list[tuple[int, bool]]:
        """Claim rows ready to send; returns (id, look_first): look first when an earlier attempt may have
        reached Slack (its lease ran out mid-call, or it ended without an answer)."""
        now = self.clock()
        with self.db.transaction() as session:
            query = (select(OutboxMessage)
                     .where(or_(
                         (OutboxMessage.status == OutboxStatus.PENDING.value) & (OutboxMessage.next_attempt_at <= now),
                         (OutboxMessage.status == OutboxStatus.SENDING.value) & (OutboxMessage.lease_until < now)))
                     .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id).limit(limit))
            if session.get_bind().dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            claimed = []
            for row in session.scalars(query):
                track = dict(row.result or {})
                if row.status == OutboxStatus.SENDING.value:
                    track["maybe_posted"] = True  # a worker died or hung in the middle of this row
                track.setdefault("first_attempt_at", now.isoformat())
                claimed.append((row.id, bool(track.get("maybe_posted"))))
                row.result = track
                row.status, row.lease_until, row.claimed_by = OutboxStatus.SENDING.value, now + self.lease, self.worker_id
                row.attempts += 1
            return claimed

    # ------------------------------------------------------------------ sending
    def _channel(self, client: WebClient, row: OutboxMessage) -> str | None:
        if row.dm_user:
            return client.conversations_open(users=row.dm_user)["channel"]["id"]
        return row.payload.get("channel")

    def _send(self, row: OutboxMessage, look_first: bool, *, post: bool = True,
              client: WebClient | None = None) -> tuple[dict | None, bool]:
        """Deliver `row` (its payload's thread already resolved): (result, found) — found when an earlier
        attempt is in Slack already. With `post` False only look. `client`: the row's workspace's (looked up
        when not given). Raises what the calls raise, NotInstalled, and LookupInconclusive when it cannot tell
        whether an earlier attempt landed."""
        client = client or self.clients.for_workspace(row.workspace_id)
        payload = {k: v for k, v in row.payload.items() if k not in (FALLBACK, THREAD_OF)}
        channel = self._channel(client, row)
        if channel:
            payload["channel"] = channel
        if row.method == "chat.postMessage":
            if look_first and channel:
                try:
                    found = find_post(client, channel=channel, thread_ts=payload.get("thread_ts"),
                                      since=since_of(row), match=metadata_matches(METADATA_TYPE, outbox_id=row.id))
                except LookupInconclusive as exc:
                    if not exc.cannot_read:
                        raise
                    log.error("outbox row %s: cannot look for an earlier attempt (%s): the bot needs the "
                              "history scopes; posting it, perhaps a second time", row.id, exc.reason)
                    found = None
                if found:
                    return {"channel": found.channel, "ts": found.ts}, True
            payload["metadata"] = {"event_type": METADATA_TYPE, "event_payload": {"outbox_id": row.id}}
        if not post:
            return None, False
        response = self._call(client, row.method, payload)
        return {"channel": response.get("channel", channel), "ts": response.get("ts")}, False

    def _call(self, client: WebClient, method: str, payload: dict):
        # The methods the outbox may carry, named one by one (the manifest test checks each one's scope).
        calls = {
            "chat.postMessage": client.chat_postMessage,
            "chat.update": client.chat_update,
            "chat.postEphemeral": client.chat_postEphemeral,
            "views.publish": client.views_publish,
        }
        if method not in calls:
            raise ValueError(f"the outbox does not carry {method}")
        return calls[method](**payload)

    def _backoff(self, attempts: int) -> dt.timedelta:
        return min(dt.timedelta(seconds=5 * 2 ** max(attempts - 1, 0)), MAX_BACKOFF)

    def _snapshot(self, row_id: int) -> OutboxMessage | Attempt:
        """The row to send, detached, with the thread it belongs in resolved; or what to do instead."""
        with self.db.transaction() as session:
            row = session.get(OutboxMessage, row_id)
            payload = dict(row.payload)
            parent_id = payload.get(THREAD_OF)
            if parent_id is not None:
                parent = session.get(OutboxMessage, parent_id)
                if parent is None or parent.status == OutboxStatus.DEAD.value:
                    return Attempt("dead", error=f"the post it belongs under (outbox row {parent_id}) was never made",
                                   claim=row.attempts)
                if parent.status != OutboxStatus.SENT.value:
                    after = max(parent.lease_until or parent.next_attempt_at, parent.next_attempt_at, self.clock())
                    return Attempt("waiting", retry_at=after + dt.timedelta(seconds=1), claim=row.attempts)
                payload["thread_ts"] = parent.result["ts"]
            return OutboxMessage(id=row.id, method=row.method, payload=payload, dm_user=row.dm_user,
                                 workspace_id=row.workspace_id,
                                 attempts=row.attempts, status=row.status, result=dict(row.result or {}),
                                 created_at=row.created_at)

    def attempt(self, row_id: int, look_first: bool, *, post: bool = True) -> Attempt:
        """One delivery of a claimed row, nothing recorded (see `finish`)."""
        snapshot = self._snapshot(row_id)
        if isinstance(snapshot, Attempt):
            return snapshot
        attempt = self._attempt(snapshot, look_first, post)
        attempt.claim = snapshot.attempts
        return attempt

    def _attempt(self, snapshot: OutboxMessage, look_first: bool, post: bool) -> Attempt:
        try:
            client = self.clients.for_workspace(snapshot.workspace_id)
        except NotInstalled as exc:  # uninstalled, or never: kept (backing off) in case the office installs again
            return Attempt("retry", error=str(exc))
        try:
            result, found = self._send(snapshot, look_first, post=post, client=client)
            if result is None:
                return Attempt("retry", error="not found")
            return Attempt("recovered" if found else "sent", result=result)
        except LookupInconclusive as exc:
            wait = dt.timedelta(seconds=exc.retry_after) if exc.retry_after else None
            return Attempt("retry", error=f"could not tell whether an earlier attempt reached Slack: {exc.reason}",
                           retry_at=self.clock() + wait if wait else None, uncertain=True)
        except Exception as exc:  # noqa: BLE001 - Slack's and the network's failures are recorded on the row
            return self._failure(exc, posting=snapshot.method == "chat.postMessage")

    def _failure(self, exc: Exception, posting: bool) -> Attempt:
        """What a failed call means: retry or give up, and whether the post may have been made regardless."""
        code = slack_code(exc)
        if isinstance(exc, SlackApiError):
            status = exc.response.status_code
            error = f"HTTP {status}: {code or exc}"
            if status == 429 or code == "ratelimited":  # refused, not carried out
                headers = exc.response.headers
                wait = int(headers.get("Retry-After", headers.get("retry-after", 30)) or 30)
                return Attempt("retry", error=error, code=code, exc=exc,
                               retry_at=self.clock() + dt.timedelta(seconds=wait))
            if not may_have_posted(exc) and (code in PERMANENT or 400 <= status < 500 or code):
                return Attempt("dead", error=error, code=code, exc=exc)
            return Attempt("retry", error=error, code=code, exc=exc, uncertain=posting)
        if not isinstance(exc, (OSError, socket.timeout, TimeoutError, ConnectionError)):
            raise exc  # a bug of ours, not Slack's: let the worker's tick log it (the lease brings the row back)
        return Attempt("retry", error=f"{type(exc).__name__}: {exc}", exc=exc,
                       uncertain=posting and may_have_posted(exc), unanswered=unanswered(exc))

    def finish(self, row_id: int, attempt: Attempt) -> str:
        """Record what an attempt came to; returns the outcome (a retry past the last attempt is "dead")."""
        now = self.clock()
        with self.db.transaction() as session:
            row = session.get(OutboxMessage, row_id, with_for_update=True)
            outcome = attempt.outcome
            taken_over = row.status != OutboxStatus.SENDING.value or row.attempts != attempt.claim
            if attempt.claim is not None and taken_over:
                # This worker's lease ran out mid-call and another took the row over (it looks in Slack before
                # posting, so a post this attempt made is found there, not made again): its record stands.
                log.warning("outbox row %s: taken over by %s while this worker (%s) was still at it; this attempt "
                            "(%s) is not recorded", row.id, row.claimed_by, self.worker_id, outcome)
                return outcome
            if outcome in ("sent", "recovered"):
                row.status, row.result, row.sent_at, row.lease_until = OutboxStatus.SENT.value, attempt.result, now, None
                row.last_error = None
            elif outcome == "waiting":  # not an attempt: the post it threads under is not made yet
                row.status, row.lease_until, row.next_attempt_at = OutboxStatus.PENDING.value, None, attempt.retry_at
                row.attempts = max(row.attempts - 1, 0)
            elif outcome == "retry" and row.attempts < self.max_attempts:
                row.status, row.lease_until, row.last_error = OutboxStatus.PENDING.value, None, attempt.error
                retry_at = attempt.retry_at or now + self._backoff(row.attempts)
                if attempt.unanswered and attempt.uncertain:
                    retry_at = max(retry_at, now + SETTLE)
                row.next_attempt_at = retry_at
                if attempt.uncertain:  # from now on every attempt looks first
                    row.result = {**(row.result or {}), "maybe_posted": True}
            else:
                row.status, row.lease_until, row.last_error = OutboxStatus.DEAD.value, None, attempt.error
                outcome = "dead"
                log.error("outbox row %s (%s) given up after %s attempts: %s", row.id, row.method, row.attempts,
                          attempt.error)
                fallback = row.payload.get(FALLBACK)
                if attempt.code in CHANNEL_REFUSED and fallback:
                    enqueue(session, method="chat.postMessage", workspace_id=row.workspace_id,
                            dm_user=fallback["user"], dedupe_key=f"fallback:{row.id}", now=now,
                            payload={k: v for k, v in fallback.items() if k in ("text", "blocks")})
        return outcome

    def deliver(self, row_id: int, look_first: bool) -> str:
        return self.finish(row_id, self.attempt(row_id, look_first))

    def deliver_inline(self, row_id: int, *, answered_retries: int = 2) -> Attempt:
        """Deliver a row this process has just written, leased to itself, while a person waits: as `deliver`,
        and a 5xx is tried again at once (looking first); a call that got no answer is looked for once at once
        (Slack may have done it all the same), else left to the worker. Returns the final attempt."""
        attempt = self.attempt(row_id, look_first=False)
        for n in range(answered_retries):
            if not (attempt.outcome == "retry" and attempt.uncertain and not attempt.unanswered):
                break
            time.sleep(0.5 * (n + 1))
            attempt = self.attempt(row_id, look_first=True)
        if attempt.outcome == "retry" and attempt.unanswered:
            look = self.attempt(row_id, look_first=True, post=False)
            if look.outcome == "recovered":
                attempt = look
        attempt.outcome = self.finish(row_id, attempt)
        return attempt

    def run_once(self, limit: int = 20) -> DeliveryReport:
        report = DeliveryReport()
        for row_id, look_first in self.claim(limit):
            outcome = self.deliver(row_id, look_first)
            name = {"retry": "retried"}.get(outcome, outcome)
            setattr(report, name, getattr(report, name) + 1)
        return report
