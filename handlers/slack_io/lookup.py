"""Finding a post the bot may already have made, by its message metadata, before posting it again.

Slack has no idempotency key for chat.postMessage: a post whose answer never came (a timeout, a dropped
connection, a 5xx, a worker killed mid-call) may or may not be in the channel. Before such a post is tried
again, it is looked for:

- a top-level post in conversations.history, which Slack returns newest first: the post, if there, is on
  the first page unless the channel got busy since; pages follow by cursor;
- a reply in conversations.replies, which Slack returns oldest first (after the thread's parent) whatever
  is asked: the `oldest` bound keeps the read to the replies since the first attempt, so a thread of 250
  or 25,000 replies costs the same one or two pages.

Both reads are bounded below by when the post was first attempted, less `SKEW` (our clock and Slack's
need not agree to the second), so a lookup never walks a channel's whole history. A read Slack refuses
or fails, or one that runs past `MAX_PAGES`, is inconclusive (`LookupInconclusive`): the caller must not
post, but try again later. One Slack will never allow (the token lacks a history scope) is `cannot_read`:
the caller posts anyway and says so in the log, because holding every such post back forever would lose
it, and a missing scope is a mistake in the app's installation for a person to fix.

What the reads need: channels:history, groups:history and im:history (and include_all_metadata, or Slack
leaves the metadata out). Without those scopes the only way to learn that a post landed is to be told:
subscribe to the `message_metadata_posted` event (scope metadata.message:read, the event type named in the
manifest's metadata_subscriptions) and record each post's channel and ts as the event arrives. That needs a
reachable Events API endpoint (serve or socket), and a retry waiting for events that Slack may deliver late
or retry itself.
"""
from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

log = logging.getLogger("recount_bot.outbox")

SKEW = dt.timedelta(minutes=5)
PAGE = 200  # Slack recommends no more than 200 a page
MAX_PAGES = 50  # 10,000 messages since the first attempt: a lookup that reads more gives up, undecided
# Refusals that say the post cannot be in that conversation (or the conversation is gone): nothing to find.
NOT_THERE = {"channel_not_found", "thread_not_found", "not_in_channel", "is_archived", "message_not_found"}
# Refusals no retry changes: the installation does not let the bot read this conversation.
CANNOT_READ = {"missing_scope", "not_allowed_token_type", "no_permission", "access_denied"}


class LookupInconclusive(Exception):
    """Whether the post is in Slack could not be told now (Slack refused or failed the read)."""

    def __init__(self, reason: str, retry_after: int | None = None, *, cannot_read: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.retry_after, self.cannot_read = reason, retry_after, cannot_read


@dataclass(frozen=True)
class Found:
    channel: str
    ts: str


def metadata_matches(event_type: str, **wanted: object) -> Callable[[dict], bool]:
    """A test of a message's metadata: its event_type and these event_payload values."""
    def match(message: dict) -> bool:
        meta = message.get("metadata") or {}
        payload = meta.get("event_payload") or {}
        return meta.get("event_type") == event_type and all(payload.get(k) == v for k, v in wanted.items())
    return match


def find_post(client: WebClient, *, channel: str, thread_ts: str | None, since: dt.datetime,
              match: Callable[[dict], bool], page_size: int = PAGE) -> Found | None:
    """The bot's message in `channel` (in the thread of `thread_ts`, if given) posted no earlier than `since`
    (less SKEW) for which `match` holds; None when Slack has none. Raises LookupInconclusive."""
    oldest = f"{max((since - SKEW).timestamp(), 0.0):.6f}"
    cursor = None
    for _ in range(MAX_PAGES):
        try:
            if thread_ts:
                page = client.conversations_replies(channel=channel, ts=thread_ts, oldest=oldest, inclusive=True,
                                                    limit=page_size, cursor=cursor, include_all_metadata=True)
            else:
                page = client.conversations_history(channel=channel, oldest=oldest, inclusive=True,
                                                    limit=page_size, cursor=cursor, include_all_metadata=True)
        except SlackApiError as exc:
            code = exc.response.get("error") if isinstance(exc.response.data, dict) else None
            if code in NOT_THERE:
                return None
            retry_after = exc.response.headers.get("Retry-After") or exc.response.headers.get("retry-after")
            raise LookupInconclusive(f"HTTP {exc.response.status_code}: {code or exc}",
                                     int(retry_after) if str(retry_after or "").isdigit() else None,
                                     cannot_read=code in CANNOT_READ) from None
        except OSError as exc:  # timeouts, refused and dropped connections (URLError is an OSError)
            raise LookupInconclusive(f"{type(exc).__name__}: {exc}") from None
        for message in page.get("messages") or []:
            if message.get("ts") != thread_ts and match(message):
                return Found(channel, message["ts"])
        cursor = (page.get("response_metadata") or {}).get("next_cursor")
        if not page.get("has_more") or not cursor:
            return None
    log.warning("looking for an earlier post in %s read %s pages without reaching %s; undecided", channel,
                MAX_PAGES, oldest)
    raise LookupInconclusive(f"more than {MAX_PAGES * page_size} messages since the first attempt")
