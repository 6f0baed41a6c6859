"""Messages, threads, ephemerals, reactions and permalinks (a layer of `StandInState`; see state.py)."""
from __future__ import annotations

import base64
import copy
from decimal import Decimal, InvalidOperation
from typing import Any

from ._sync import mutator
from .errors import SlackError
from .state_core import StateCore

TOMBSTONE_TEXT = "This message was deleted."


def _ts_key(ts: Any) -> Decimal | None:
    try:
        return Decimal(str(ts))
    except (InvalidOperation, ValueError):
        return None


# Slack's cursors name where the next page starts ("next_ts:<ts>", base64), so a page boundary stays put when
# messages are posted between two calls; an offset would shift and skip or repeat messages.
_CURSOR_PREFIX = "next_ts:"


def _cursor(ts: str) -> str:
    return base64.b64encode(f"{_CURSOR_PREFIX}{ts}".encode()).decode()


def _cursor_ts(cursor: Any) -> Decimal:
    try:
        text = base64.b64decode(str(cursor), validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        raise SlackError("invalid_cursor") from None
    key = _ts_key(text[len(_CURSOR_PREFIX):]) if text.startswith(_CURSOR_PREFIX) else None
    if key is None:
        raise SlackError("invalid_cursor")
    return key


def _page(items: list[dict[str, Any]], limit: Any, cursor: Any, default: int, maximum: int,
          newest_first: bool) -> tuple[list, bool, str]:
    """One page of `items` (already in the order Slack returns them) starting at `cursor`."""
    try:
        size = max(1, min(int(limit), maximum)) if limit not in (None, "", 0, "0") else default
    except (TypeError, ValueError):
        raise SlackError("invalid_limit") from None
    if cursor:
        start = _cursor_ts(cursor)
        items = [m for m in items if (Decimal(m["ts"]) <= start if newest_first else Decimal(m["ts"]) >= start)]
    page, rest = items[:size], items[size:]
    return page, bool(rest), _cursor(rest[0]["ts"]) if rest else ""


def _window(items: list[dict], oldest: Any, latest: Any, inclusive: bool) -> list[dict]:
    """Messages between `oldest` and `latest` (Slack: both excluded unless `inclusive`)."""
    lo, hi = _ts_key(oldest) if oldest else None, _ts_key(latest) if latest else None
    if (oldest and lo is None) or (latest and hi is None):
        raise SlackError("invalid_ts_oldest" if oldest and lo is None else "invalid_ts_latest")
    out = []
    for msg in items:
        key = Decimal(msg["ts"])
        if lo is not None and (key < lo or (key == lo and not inclusive)):
            continue
        if hi is not None and (key > hi or (key == hi and not inclusive)):
            continue
        out.append(msg)
    return out


def _without_metadata(page: list[dict[str, Any]], include: bool) -> list[dict[str, Any]]:
    """Slack returns message metadata only to a reader that asks for it (`include_all_metadata`)."""
    if not include:
        for msg in page:
            msg.pop("metadata", None)
    return page


class MessagesMixin(StateCore):
    def _init_messages(self) -> None:
        self._ephemeral: dict[str, list[dict[str, Any]]] = {}

    def _with_block_ids(self, blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Slack gives every block without a block_id a short generated one."""
        out = copy.deepcopy(blocks)
        for block in out:
            if "block_id" not in block:
                block["block_id"] = self._new_id("", width=5)
        return out

    def _make_message(self, ts: str, user: str | None, content: dict[str, Any]) -> dict[str, Any]:
        ws = self.workspace
        msg: dict[str, Any] = {"type": "message", "text": content.get("text") or "", "ts": ts, "team": ws.team_id}
        if user is None or user == ws.bot_user_id:
            msg.update({
                "user": ws.bot_user_id, "bot_id": ws.bot_id, "app_id": ws.app_id,
                "bot_profile": {"id": ws.bot_id, "app_id": ws.app_id, "name": ws.bot_name, "deleted": False,
                                "team_id": ws.team_id, "icons": {}, "updated": int(self.now().timestamp())},
            })
        else:
            msg["user"] = self._user(user)["id"]
        if content.get("blocks") is not None:
            msg["blocks"] = self._with_block_ids(content["blocks"])
        for key in ("attachments", "metadata", "files", "username", "icon_emoji", "icon_url", "subtype", "upload"):
            if content.get(key) is not None:
                msg[key] = copy.deepcopy(content[key])
        return msg

    def _find(self, channel: Any, ts: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        chan = self._channel(channel)
        msg = chan["by_ts"].get(ts) if isinstance(ts, str) else None
        if msg is None:
            raise SlackError("message_not_found")
        return chan, msg

    def _refresh_thread(self, chan: dict[str, Any], parent_ts: str) -> None:
        parent = chan["by_ts"].get(parent_ts)
        if parent is None:
            return
        replies = chan["threads"].get(parent_ts, [])
        if not replies:
            for key in ("reply_count", "reply_users_count", "latest_reply", "reply_users", "is_locked"):
                parent.pop(key, None)
            return
        users = list(dict.fromkeys(r["user"] for r in replies if "user" in r))
        parent.update({"thread_ts": parent_ts, "reply_count": len(replies), "reply_users_count": len(users),
                       "latest_reply": replies[-1]["ts"], "reply_users": users, "is_locked": False})

    @mutator
    def post_message(self, channel: Any, *, user: str | None = None, thread_ts: Any = None,
                     reply_broadcast: bool = False, as_reply: bool = False,
                     **content: Any) -> tuple[str, dict[str, Any]]:
        """Post as the bot (or as `user`, for a sandbox's simulated humans). Returns (channel_id, message).
        `as_reply`: an answer to a command or click (its response_url or acknowledgement), which Slack shows in
        the channel whether or not the bot is a member; chat.postMessage there needs membership."""
        chan = self._channel(channel) if user or as_reply else self._bot_channel(channel)
        cid = chan["info"]["id"]
        msg = self._make_message(self._next_ts(), user, content)
        if thread_ts:
            root = chan["by_ts"].get(thread_ts)
            parent_ts = root["thread_ts"] if root and root.get("thread_ts", root["ts"]) != root["ts"] else thread_ts
            msg["thread_ts"] = parent_ts
            if parent_ts in chan["by_ts"]:
                msg["parent_user_id"] = chan["by_ts"][parent_ts].get("user")
            chan["threads"].setdefault(parent_ts, []).append(msg)
            if reply_broadcast:
                msg["subtype"] = "thread_broadcast"
                chan["messages"].append(msg)
            self._refresh_thread(chan, parent_ts)
        else:
            chan["messages"].append(msg)
        chan["by_ts"][msg["ts"]] = msg
        self._emit("message.posted", channel=cid, ts=msg["ts"], thread_ts=msg.get("thread_ts"))
        return cid, copy.deepcopy(msg)

    @mutator
    def update_message(self, channel: Any, ts: Any, **content: Any) -> tuple[str, dict[str, Any]]:
        chan, msg = self._find(channel, ts)
        if msg.get("bot_id") != self.workspace.bot_id:
            raise SlackError("cant_update_message")
        if content.get("text") is not None:
            msg["text"] = content["text"]
        for key in ("blocks", "attachments", "metadata"):
            value = content.get(key)
            if value is not None:
                if value:
                    msg[key] = self._with_block_ids(value) if key == "blocks" else copy.deepcopy(value)
                else:
                    msg.pop(key, None)  # an empty array removes them; absent keeps them
        msg["edited"] = {"user": self.workspace.bot_user_id, "ts": self._next_ts()}
        cid = chan["info"]["id"]
        self._emit("message.updated", channel=cid, ts=ts, thread_ts=msg.get("thread_ts"))
        return cid, copy.deepcopy(msg)

    @mutator
    def delete_message(self, channel: Any, ts: Any) -> str:
        chan, msg = self._find(channel, ts)
        if msg.get("bot_id") != self.workspace.bot_id:
            raise SlackError("cant_delete_message")
        cid, parent_ts = chan["info"]["id"], msg.get("thread_ts")
        if parent_ts == ts and chan["threads"].get(ts):
            # A parent with replies stays behind as a tombstone so the thread keeps its anchor.
            keep = {k: msg[k] for k in ("ts", "thread_ts", "reply_count", "reply_users_count",
                                         "latest_reply", "reply_users") if k in msg}
            msg.clear()
            msg.update({"type": "message", "subtype": "tombstone", "text": TOMBSTONE_TEXT,
                        "user": "USLACKBOT", "hidden": True, **keep})
        else:
            del chan["by_ts"][ts]
            chan["messages"][:] = [m for m in chan["messages"] if m is not msg]
            if parent_ts and parent_ts != ts:
                chan["threads"][parent_ts] = [m for m in chan["threads"][parent_ts] if m is not msg]
                self._refresh_thread(chan, parent_ts)
        self._emit("message.deleted", channel=cid, ts=ts, thread_ts=parent_ts)
        return cid

    @mutator
    def post_ephemeral(self, channel: Any, user: Any, *, thread_ts: Any = None,
                       **content: Any) -> tuple[str, dict[str, Any]]:
        chan = self._channel(channel)
        uid = self._user(user)["id"]
        msg = self._make_message(self._next_ts(), None, content)
        msg.update({"channel": chan["info"]["id"], "recipient": uid, "is_ephemeral": True})
        if thread_ts:
            msg["thread_ts"] = thread_ts
        self._ephemeral.setdefault(uid, []).append(msg)
        self._emit("ephemeral.posted", channel=msg["channel"], user=uid, ts=msg["ts"])
        return msg["channel"], copy.deepcopy(msg)

    @mutator
    def add_reaction(self, channel: Any, ts: Any, name: Any, user: str | None = None) -> None:
        name = str(name or "").strip(":")
        if not name:
            raise SlackError("invalid_name")
        chan, msg = self._find(channel, ts)
        uid = user or self.workspace.bot_user_id
        reactions = msg.setdefault("reactions", [])
        entry = next((r for r in reactions if r["name"] == name), None)
        if entry is None:
            entry = {"name": name, "users": [], "count": 0}
            reactions.append(entry)
        if uid in entry["users"]:
            raise SlackError("already_reacted")
        entry["users"].append(uid)
        entry["count"] = len(entry["users"])
        self._emit("reaction.added", channel=chan["info"]["id"], ts=ts, name=name, user=uid)

    @mutator  # lenient channel resolution may create the channel
    def permalink(self, channel: Any, ts: Any) -> tuple[str, str]:
        with self._lock:
            chan, msg = self._find(channel, ts)
            cid = chan["info"]["id"]
        link = f"https://{self.workspace.team_domain}.slack.com/archives/{cid}/p{str(ts).replace('.', '')}"
        parent = msg.get("thread_ts")
        if parent and parent != ts:
            link += f"?thread_ts={parent}&cid={cid}"
        return cid, link

    @mutator  # lenient channel resolution may create the channel
    def history(self, channel: Any, *, oldest: Any = None, latest: Any = None,
                inclusive: bool = False, limit: Any = None, cursor: Any = None,
                include_all_metadata: bool = False) -> dict[str, Any]:
        """conversations.history: top-level messages (and thread broadcasts), newest first, 100 a page unless
        `limit` says otherwise (at most 999)."""
        with self._lock:
            chan = self._bot_channel(channel)
            items = _window(list(reversed(chan["messages"])), oldest, latest, inclusive)
            page, more, next_cursor = _page(items, limit, cursor, default=100, maximum=999, newest_first=True)
            page = _without_metadata(copy.deepcopy(page), include_all_metadata)
        return {"messages": page, "has_more": more, "pin_count": 0, "channel_actions_updated": 0,
                "channel_actions_count": 0, "response_metadata": {"next_cursor": next_cursor}}

    @mutator  # lenient channel resolution may create the channel
    def replies(self, channel: Any, ts: Any, *, oldest: Any = None, latest: Any = None,
                inclusive: bool = False, limit: Any = None, cursor: Any = None,
                include_all_metadata: bool = False) -> dict[str, Any]:
        """conversations.replies: as Slack, the thread's parent first, then its replies oldest first (the
        parent whatever the window; `oldest`/`latest` bound the replies), 1000 a page at most."""
        with self._lock:
            chan = self._bot_channel(channel)
            msg = chan["by_ts"].get(ts) if isinstance(ts, str) else None
            if msg is None:
                raise SlackError("thread_not_found")
            root_ts = msg.get("thread_ts") or msg["ts"]
            root = chan["by_ts"].get(root_ts)
            if root is None:
                raise SlackError("thread_not_found")
            items = [root, *_window(chan["threads"].get(root_ts, []), oldest, latest, inclusive)]
            page, more, next_cursor = _page(items, limit, cursor, default=1000, maximum=1000, newest_first=False)
            page = _without_metadata(copy.deepcopy(page), include_all_metadata)
        return {"messages": page, "has_more": more, "response_metadata": {"next_cursor": next_cursor}}

    # ----------------------------------------------------------------- readers
    def messages(self, channel: str) -> list[dict[str, Any]]:
        """Top-level messages of a channel, oldest first (thread replies are under `thread`)."""
        with self._lock:
            chan = self._channels.get(channel)
            return copy.deepcopy(chan["messages"]) if chan else []

    def thread(self, channel: str, parent_ts: str) -> list[dict[str, Any]]:
        """Replies under `parent_ts`, oldest first (the parent itself excluded)."""
        with self._lock:
            chan = self._channels.get(channel)
            return copy.deepcopy(chan["threads"].get(parent_ts, [])) if chan else []

    def message(self, channel: str, ts: str) -> dict[str, Any] | None:
        with self._lock:
            chan = self._channels.get(channel)
            msg = chan["by_ts"].get(ts) if chan else None
            return copy.deepcopy(msg) if msg else None

    def ephemeral_messages(self, user: str) -> list[dict[str, Any]]:
        with self._lock:
            return copy.deepcopy(self._ephemeral.get(user, []))
