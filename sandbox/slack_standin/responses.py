"""`response_url`s, as Slack hands them out with slash commands and interactions.

A response URL posts into the channel the interaction came from: ephemeral to the user by default,
`"response_type": "in_channel"` for everyone, `replace_original` / `delete_original` for the message
that carried the button. Slack allows five uses within thirty minutes; so does the stand-in.
"""
from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .errors import SlackError
from .state import StandInState

MAX_USES = 5
LIFETIME = timedelta(minutes=30)


@dataclass
class _Target:
    channel: str
    user: str
    message_ts: str | None
    issued: datetime
    uses: int = 0


class ResponseUrls:
    def __init__(self, state: StandInState) -> None:
        self.state = state
        self._targets: dict[str, _Target] = {}
        self._lock = threading.Lock()

    def issue(self, root_url: str, *, channel: str, user: str, message_ts: str | None = None) -> str:
        token = secrets.token_urlsafe(12)
        with self._lock:
            self._targets[token] = _Target(channel, user, message_ts, self.state.now())
        return f"{root_url}/response/{token}"

    def use(self, token: str, payload: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            target = self._targets.get(token)
            if target is None:
                raise SlackError("no_such_url", status=404)
            if target.uses >= MAX_USES or self.state.now() - target.issued > LIFETIME:
                raise SlackError("used_url", status=404)
            target.uses += 1
        content = {k: payload[k] for k in ("text", "blocks", "attachments") if payload.get(k) is not None}
        if payload.get("delete_original"):
            if target.message_ts:
                self.state.delete_message(target.channel, target.message_ts)
            return {"ok": True}
        if payload.get("replace_original") and target.message_ts:
            self.state.update_message(target.channel, target.message_ts, **content)
            return {"ok": True}
        if not content:
            raise SlackError("no_text")
        if payload.get("response_type") == "in_channel":
            self.state.post_message(target.channel, thread_ts=payload.get("thread_ts"), as_reply=True, **content)
        else:
            self.state.post_ephemeral(target.channel, target.user, **content)
        return {"ok": True}
