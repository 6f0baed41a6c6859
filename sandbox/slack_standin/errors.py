"""Slack-shaped API errors raised inside the stand-in and turned into `{"ok": false, ...}` bodies."""
from __future__ import annotations

from typing import Any


class SlackError(Exception):
    """An error Slack would report as `{"ok": false, "error": <code>}` (HTTP 200 unless `status` says otherwise)."""

    def __init__(self, error: str, *, status: int = 200, **extra: Any) -> None:
        super().__init__(error)
        self.error = error
        self.status = status
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"ok": False, "error": self.error, **self.extra}


def arguments_error(*messages: str, error: str = "invalid_arguments") -> SlackError:
    """Slack's schema-validation error: the lines go to `response_metadata.messages`, prefixed with [ERROR]."""
    lines = [m if m.startswith("[") else f"[ERROR] {m}" for m in messages]
    return SlackError(error, response_metadata={"messages": lines})


def blocks_error(messages: list[str]) -> SlackError:
    """`invalid_blocks` as chat.* methods return it: bare `errors` plus `[ERROR]` lines in response_metadata."""
    return SlackError(
        "invalid_blocks",
        errors=list(messages),
        response_metadata={"messages": [f"[ERROR] {m}" for m in messages]},
    )
