"""What the bot posted, in order: new messages, thread replies, edits, deletions and ephemerals, captured from
the Slack stand-in as they happen (the message as it was at that moment)."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from sandbox.slack_standin import SlackStandIn, StateChange


@dataclass(frozen=True)
class Entry:
    kind: str  # "posted", "reply", "edited", "deleted", "ephemeral"
    channel: str
    ts: str
    message: dict[str, Any] | None  # None for "deleted"
    recipient: str | None = None  # for "ephemeral"


class Feed:
    def __init__(self, standin: SlackStandIn) -> None:
        self.standin = standin
        self._entries: list[Entry] = []
        self._lock = threading.Lock()
        self._unsubscribe = standin.subscribe(self._on_change)

    def close(self) -> None:
        self._unsubscribe()

    def _on_change(self, change: StateChange) -> None:
        entry = self._entry(change)
        if entry is not None:
            with self._lock:
                self._entries.append(entry)

    def _entry(self, change: StateChange) -> Entry | None:
        data, state = change.data, self.standin.state
        if change.kind in ("message.posted", "message.updated"):
            message = state.message(data["channel"], data["ts"])
            if message is None:
                return None
            if change.kind == "message.updated":
                kind = "edited"
            else:
                thread = data.get("thread_ts")
                kind = "reply" if thread and thread != data["ts"] else "posted"
            return Entry(kind, data["channel"], data["ts"], message)
        if change.kind == "message.deleted":
            return Entry("deleted", data["channel"], data["ts"], None)
        if change.kind == "ephemeral.posted":
            found = [m for m in state.ephemeral_messages(data["user"]) if m["ts"] == data["ts"]]
            return Entry("ephemeral", data["channel"], data["ts"], found[0] if found else None, data["user"])
        return None

    def drain(self) -> list[Entry]:
        with self._lock:
            entries, self._entries = self._entries, []
        return entries
