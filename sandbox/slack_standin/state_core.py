"""The core of the stand-in's memory of a Slack workspace: the clock, ids, notifications, users and channels.
Messages, views and files build on it (state_messages.py, state_views.py, state_files.py), and state.py puts
them together as `StandInState`.

Everything lives behind one re-entrant lock. Public mutators take the lock, queue a `StateChange`, release the
lock and only then call subscribers, so a subscriber may read the state (or even call the API) without
deadlocking. Readers return deep copies; nothing handed out aliases internal data.
"""
from __future__ import annotations

import copy
import itertools
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from ._sync import mutator
from .errors import SlackError

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
DEFAULT_TZ = "America/Denver"
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class StateChange:
    """What changed: `kind` like "message.posted", "view.opened", "file.uploaded"; `data` names the objects."""

    kind: str
    data: dict[str, Any]
    at: datetime


@dataclass
class Workspace:
    """The identity the stand-in answers with (auth.test, message authorship, permalinks)."""

    team_id: str = "T0STANDIN1"
    team_name: str = "Recount Sandbox"
    team_domain: str = "recount-sandbox"
    bot_user_id: str = "U0BOTUSER1"
    bot_id: str = "B0STANDIN1"
    bot_name: str = "recount-bot"
    app_id: str = "A0STANDIN1"
    extra: dict[str, Any] = field(default_factory=dict)


class StateCore:
    def __init__(
        self,
        *,
        clock: Clock | None = None,
        workspace: Workspace | None = None,
        users: Mapping[str, Mapping[str, Any]] | Iterable[Mapping[str, Any]] | None = None,
        channels: Mapping[str, Any] | Iterable[Mapping[str, Any]] | None = None,
        strict: bool = False,
        strict_triggers: bool | None = None,
        trigger_ttl: float = 3.0,
    ) -> None:
        self._lock = threading.RLock()
        self._depth = 0  # mutator nesting (see _sync.py)
        self._clock = clock or utc_now
        self.workspace = workspace or Workspace()
        self.strict = strict
        self.strict_triggers = strict if strict_triggers is None else strict_triggers
        self.trigger_ttl = timedelta(seconds=trigger_ttl)
        self._subscribers: list[Callable[[StateChange], None]] = []
        self._pending: list[StateChange] = []
        self._last_micros = 0
        self._counters: dict[str, itertools.count] = {}
        self._users: dict[str, dict[str, Any]] = {}
        self._channels: dict[str, dict[str, Any]] = {}
        self._dms: dict[str, str] = {}
        self._init_parts()
        ws = self.workspace
        self._add_user(ws.bot_user_id, {"name": ws.bot_name, "is_bot": True, "real_name": ws.bot_name})
        for uid, spec in _normalise(users):
            self._add_user(uid, spec)
        for cid, spec in _normalise(channels, scalar_key="name"):
            self._add_channel(cid, spec)
        self._pending.clear()  # nobody can have subscribed yet

    def _init_parts(self) -> None:
        """Where the parts built on this core (messages, views, files) set up their own memory."""

    # ----------------------------------------------------------------- clock, ids, notifications
    def now(self) -> datetime:
        value = self._clock()
        if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"the stand-in clock must return an aware datetime, got {value!r}")
        return value

    def _next_ts(self) -> str:
        micros = (self.now() - _EPOCH) // timedelta(microseconds=1)
        micros = max(micros, self._last_micros + 1)
        self._last_micros = micros
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _new_id(self, prefix: str, taken: Mapping[str, Any] | None = None, width: int = 10) -> str:
        counter = self._counters.setdefault(prefix, itertools.count(1))
        while True:
            n, digits = next(counter), []
            while n:
                n, r = divmod(n, 36)
                digits.append(_ALPHABET[r])
            candidate = prefix + "".join(reversed(digits)).rjust(width, "0")
            if taken is None or candidate not in taken:
                return candidate

    def _emit(self, kind: str, **data: Any) -> None:
        self._pending.append(StateChange(kind, copy.deepcopy(data), self.now()))

    def _deliver(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
            subscribers = list(self._subscribers)
        for change in pending:
            for callback in subscribers:
                try:
                    callback(change)
                except Exception:  # a broken UI must not break the API
                    log.exception("stand-in subscriber %r failed on %s", callback, change.kind)

    def subscribe(self, callback: Callable[[StateChange], None]) -> Callable[[], None]:
        """Call `callback(change)` after every state change (from server threads). Returns an unsubscribe."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    # ----------------------------------------------------------------- users
    def _add_user(self, uid: str, spec: Mapping[str, Any]) -> dict[str, Any]:
        name = spec.get("name") or uid.lower()
        real_name = spec.get("real_name") or name
        user = {
            "id": uid, "team_id": self.workspace.team_id, "name": name, "deleted": False,
            "real_name": real_name, "tz": spec.get("tz", DEFAULT_TZ),
            "is_admin": bool(spec.get("is_admin", False)), "is_owner": bool(spec.get("is_owner", False)),
            "is_bot": bool(spec.get("is_bot", False)), "is_app_user": False, "updated": 0,
            "profile": {
                "real_name": real_name, "display_name": spec.get("display_name", name),
                "email": spec.get("email", f"{name}@example.invalid"), "team": self.workspace.team_id,
                **({"bot_id": self.workspace.bot_id} if uid == self.workspace.bot_user_id else {}),
            },
        }
        user.update({k: v for k, v in spec.items() if k not in user and k not in ("display_name", "email")})
        self._users[uid] = user
        return user

    @mutator
    def add_user(self, uid: str, **spec: Any) -> dict[str, Any]:
        user = self._add_user(uid, spec)
        self._emit("user.added", user_id=uid)
        return copy.deepcopy(user)

    def _user(self, uid: Any) -> dict[str, Any]:
        if isinstance(uid, str) and uid in self._users:
            return self._users[uid]
        if not self.strict and isinstance(uid, str) and uid[:1] in ("U", "W") and len(uid) > 1:
            return self._add_user(uid, {})
        raise SlackError("user_not_found")

    @mutator
    def user_info(self, uid: Any) -> dict[str, Any]:
        user = copy.deepcopy(self._user(uid))
        zone = ZoneInfo(user["tz"])
        local = self.now().astimezone(zone)
        offset = local.utcoffset() or timedelta(0)
        user["tz_offset"] = int(offset.total_seconds())
        dst = bool(local.dst())
        user["tz_label"] = {"America/Denver": f"Mountain {'Daylight' if dst else 'Standard'} Time"}.get(
            user["tz"], local.tzname())
        return user

    # ----------------------------------------------------------------- channels
    def _add_channel(self, cid: str, spec: Mapping[str, Any]) -> dict[str, Any]:
        is_im, is_mpim = cid.startswith("D"), bool(spec.get("is_mpim", False))
        created = int(self.now().timestamp())
        if is_im:
            info: dict[str, Any] = {"id": cid, "created": created, "is_im": True, "is_org_shared": False,
                                    "user": spec["user"], "is_user_deleted": False, "priority": 0}
        else:
            name = spec.get("name") or f"channel-{cid.lower()}"
            private = bool(spec.get("is_private", cid.startswith("G") or is_mpim))
            info = {
                "id": cid, "name": name, "name_normalized": name, "is_channel": not private and not is_mpim,
                "is_group": private and not is_mpim, "is_im": False, "is_mpim": is_mpim, "is_private": private,
                "created": created, "is_archived": False, "is_general": bool(spec.get("is_general", False)),
                "is_shared": False, "is_ext_shared": False, "is_org_shared": False,
                "is_member": bool(spec.get("is_member", True)),
                "creator": spec.get("creator", self.workspace.bot_user_id), "unlinked": 0,
                "context_team_id": self.workspace.team_id, "shared_team_ids": [self.workspace.team_id],
                "topic": {"value": spec.get("topic", ""), "creator": "", "last_set": 0},
                "purpose": {"value": spec.get("purpose", ""), "creator": "", "last_set": 0},
                "previous_names": [],
            }
            if "members" in spec:
                info["members"] = list(spec["members"])
        self._channels[cid] = {"info": info, "messages": [], "threads": {}, "by_ts": {}}
        self._emit("channel.created", channel=cid)
        return self._channels[cid]

    @mutator
    def add_channel(self, cid: str, name: str | None = None, **spec: Any) -> dict[str, Any]:
        return copy.deepcopy(self._add_channel(cid, {"name": name, **spec})["info"])

    def _channel(self, ref: Any) -> dict[str, Any]:
        """Resolve a channel argument the way chat.postMessage does: ID, "#name", or a user ID (their DM)."""
        if not isinstance(ref, str) or not ref:
            raise SlackError("channel_not_found")
        if ref in self._channels:
            return self._channels[ref]
        if ref.startswith("#"):
            for chan in self._channels.values():
                if chan["info"].get("name") == ref[1:]:
                    return chan
            raise SlackError("channel_not_found")
        if ref[0] in ("U", "W"):
            return self._open_dm(self._user(ref)["id"])[0]
        if not self.strict and ref[0] in ("C", "G") and len(ref) > 1:
            return self._add_channel(ref, {})
        raise SlackError("channel_not_found")

    def _open_dm(self, uid: str) -> tuple[dict[str, Any], bool]:
        if uid in self._dms:
            return self._channels[self._dms[uid]], True
        cid = self._new_id("D", self._channels)
        self._dms[uid] = cid
        return self._add_channel(cid, {"user": uid}), False

    @mutator
    def open_conversation(self, user_ids: list[str]) -> tuple[dict[str, Any], bool]:
        """conversations.open: the stable DM for one user, an MPIM for several. Returns (info, already_open)."""
        users = [self._user(uid)["id"] for uid in user_ids]
        if len(users) == 1:
            chan, existed = self._open_dm(users[0])
            return copy.deepcopy(chan["info"]), existed
        members = sorted({self.workspace.bot_user_id, *users})
        for chan in self._channels.values():
            if chan["info"].get("is_mpim") and chan["info"].get("members") == members:
                return copy.deepcopy(chan["info"]), True
        cid = self._new_id("G", self._channels)
        name = "mpdm-" + "--".join(self._users[u]["name"] for u in members) + "-1"
        chan = self._add_channel(cid, {"name": name, "is_mpim": True, "members": members})
        return copy.deepcopy(chan["info"]), False

    def _bot_channel(self, ref: Any) -> dict[str, Any]:
        """A channel the bot itself posts to or reads: as Slack answers a bot that is not a member (and has no
        chat:write.public), `not_in_channel` for a public channel and `channel_not_found` for a private one."""
        chan = self._channel(ref)
        info = chan["info"]
        if not info.get("is_im") and not info.get("is_member", True):
            raise SlackError("channel_not_found" if info.get("is_private") else "not_in_channel")
        return chan

    @mutator
    def set_bot_membership(self, ref: Any, member: bool) -> None:
        """Invite the bot to a channel (`/invite @bot`) or remove it."""
        self._channel(ref)["info"]["is_member"] = bool(member)

    @mutator  # lenient resolution may create the channel
    def channel_info(self, ref: Any) -> dict[str, Any]:
        return copy.deepcopy(self._channel(ref)["info"])

    # ----------------------------------------------------------------- readers for UIs and tests
    def snapshot(self) -> dict[str, Any]:
        """A deep, JSON-ready copy of everything (file bytes excluded; see `file_content`)."""
        with self._lock:
            ws = self.workspace
            return copy.deepcopy({
                "team": {"id": ws.team_id, "name": ws.team_name, "domain": ws.team_domain},
                "bot": {"user_id": ws.bot_user_id, "bot_id": ws.bot_id, "app_id": ws.app_id},
                "users": self._users,
                "channels": {
                    cid: {**chan["info"], "messages": chan["messages"], "threads": chan["threads"]}
                    for cid, chan in self._channels.items()
                },
                "views": {uid: [self._views[v]["view"] for v in stack]
                          for uid, stack in self._modal_stacks.items() if stack},
                "home": {uid: self._views[vid]["view"] for uid, vid in self._home.items()},
                "ephemeral": self._ephemeral,
                "files": self._files,
            })

    def channels(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {cid: copy.deepcopy(chan["info"]) for cid, chan in self._channels.items()}

    def dm_channel(self, uid: str) -> str | None:
        with self._lock:
            return self._dms.get(uid)


def _normalise(specs: Any, scalar_key: str = "name") -> list[tuple[str, dict[str, Any]]]:
    if not specs:
        return []
    if isinstance(specs, Mapping):
        return [(key, dict(v) if isinstance(v, Mapping) else {scalar_key: v}) for key, v in specs.items()]
    return [(spec["id"], {k: v for k, v in spec.items() if k != "id"}) for spec in specs]
