"""Posting now what is already recorded, with the outbox behind the post.

A handler that reports a committed change in the channel while the person waits (a check's verdict) posts it
at once, but as an outbox row (handlers/slack_io/outbox.py) written first and leased to this process: the post carries the
row's id in its metadata, so whatever happens to the call it is made once.

- Slack answers: the row is marked sent and the caller has the message's channel and ts.
- Slack refuses it (not in the channel, invalid blocks): the row is dead and the SlackApiError is raised, as a
  direct call would raise it.
- Slack does not confirm it (a timeout, a dropped connection, a 5xx after two tries, a 429 after three): the
  row is looked for at once (Slack often took a post whose answer never came) and, not found, left to the
  worker, which looks again before any retry. `PostQueued` is raised: the record stands, the post will come.
  If this process dies in the middle, the row's lease runs out and the worker takes it over the same way.

`post_once` is the same promise for a post whose ts the caller must remember itself (a case's card): no row,
its own metadata, looked for by it before any second try. A post it cannot confirm raises `Unconfirmed`,
and the caller keeps whatever says "being posted" until the next try looks for it first.
"""
from __future__ import annotations

import datetime as dt
import os
import time

from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from handlers.slack_io.delivery import THREAD_OF, OutboxDelivery, may_have_posted, unanswered
from handlers.slack_io.lookup import LookupInconclusive, find_post, metadata_matches
from handlers.slack_io.outbox import enqueue, wake_on_commit
from services.services import Services
from storage.models import OutboxStatus


class Unconfirmed(Exception):
    """Slack did not confirm a post, and it could not be found: it may be in the channel, or appear there."""


class PostQueued(Unconfirmed):
    """Slack did not confirm the post; outbox row `row_id` carries it on and never posts it twice."""

    def __init__(self, row_id: int, error: str | None) -> None:
        super().__init__(f"outbox row {row_id}: {error}")
        self.row_id, self.error = row_id, error


def inline_client(client: WebClient) -> WebClient:
    """`client` without the retry handlers that could post twice: a 429 (refused, so never carried out) is
    still waited out, up to three times; a 5xx or a dropped connection is the outbox's to retry, after a look."""
    return WebClient(token=client.token, base_url=client.base_url, timeout=client.timeout, ssl=client.ssl,
                     proxy=client.proxy, headers=client.headers,
                     retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=3)])


def post_now(services: Services, client: WebClient, payload: dict, *, workspace_id: int | None = None) -> dict:
    """chat.postMessage `payload` now, through an outbox row; {"channel", "ts"} once Slack has it. Call it only
    after the change it reports has committed (never inside a `transaction()`): the row commits first, alone.
    Raises SlackApiError when Slack refuses the post, PostQueued when the outbox carries it on."""
    now = services.now()
    delivery = OutboxDelivery(services.db, inline_client(client), clock=services.clock,
                              worker_id=f"inline:{os.getpid()}")
    with services.db.transaction() as session:
        if session.in_nested_transaction():
            raise RuntimeError("post_now runs after the change it reports has committed, not inside it")
        row = enqueue(session, method="chat.postMessage", payload=payload, workspace_id=workspace_id, now=now)
        # Leased to this process, so no worker takes it while it is being posted; if this process dies, the lease
        # runs out and a worker looks for it before posting it.
        row.status, row.claimed_by, row.attempts = OutboxStatus.SENDING.value, delivery.worker_id, 1
        row.lease_until, row.result = now + delivery.lease, {"first_attempt_at": now.isoformat()}
        session.flush()
        row_id = row.id
    attempt = delivery.deliver_inline(row_id)
    if attempt.outcome in ("sent", "recovered"):
        return attempt.result
    if attempt.outcome == "dead" and attempt.exc is not None:
        raise attempt.exc
    services.outbox_wake.set()
    raise PostQueued(row_id, attempt.error)


def queue_in_thread_of(services: Services, row_id: int, payload: dict, *, workspace_id: int | None = None) -> None:
    """chat.postMessage `payload` in the thread of the post outbox row `row_id` makes, once it is made."""
    with services.db.transaction() as session:
        enqueue(session, method="chat.postMessage", payload={**payload, THREAD_OF: row_id},
                workspace_id=workspace_id, now=services.now())
        wake_on_commit(session, services.outbox_wake)


def post_once(client: WebClient, payload: dict, *, metadata: dict, since: dt.datetime, look_first: bool = False,
              tries: int = 3) -> dict:
    """chat.postMessage `payload` carrying `metadata` ({"event_type", "event_payload"}), never twice: a failed try
    that may have reached Slack is looked for by its metadata (from `since`) before the next, and a try that got
    no answer is looked for once, then given up. `look_first`: an earlier call (another process's) may have
    posted it. {"channel", "ts"} of the message; raises Unconfirmed, or SlackApiError when Slack refuses it."""
    plain = inline_client(client)
    match = metadata_matches(metadata["event_type"], **metadata["event_payload"])

    def look() -> dict | None:
        try:
            found = find_post(plain, channel=payload["channel"], thread_ts=payload.get("thread_ts"), since=since,
                              match=match)
        except LookupInconclusive as exc:
            raise Unconfirmed(exc.reason) from None
        return {"channel": found.channel, "ts": found.ts} if found else None

    error: Exception | None = None
    for n in range(tries):
        if look_first and (found := look()):
            return found
        try:
            response = plain.chat_postMessage(**payload, metadata=metadata)
            return {"channel": response["channel"], "ts": response["ts"]}
        except Exception as exc:  # noqa: BLE001 - sorted here: a refusal or a bug of ours goes up as it is
            if not may_have_posted(exc):
                raise
            error, look_first = exc, True
            if unanswered(exc):
                break  # Slack may still be at it: one look, and no second post from here
            time.sleep(0.5 * (n + 1))
    if found := look():
        return found
    raise Unconfirmed(f"{type(error).__name__}: {error}")
