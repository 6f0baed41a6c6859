"""Trigger ids, modal stacks and App Home views (a layer of `StandInState`; see state.py)."""
from __future__ import annotations

import copy
import itertools
import secrets
import zlib
from typing import Any

from ._sync import mutator
from .errors import SlackError, arguments_error
from .state_messages import MessagesMixin

UNKNOWN_USER = "U_UNKNOWN"  # owner of a modal opened with a trigger_id the stand-in did not issue
MAX_VIEW_STACK = 3


class ViewsMixin(MessagesMixin):
    def _init_views(self) -> None:
        self._views: dict[str, dict[str, Any]] = {}  # view_id -> {"view", "user", "surface"}
        self._modal_stacks: dict[str, list[str]] = {}  # user -> view ids, root first
        self._home: dict[str, str] = {}  # user -> view id
        self._external_ids: dict[str, str] = {}  # external_id -> view id
        self._triggers: dict[str, dict[str, Any]] = {}
        self._trigger_seq = itertools.count(1)

    # ----------------------------------------------------------------- trigger ids
    @mutator
    def issue_trigger_id(self, user_id: str) -> str:
        """A trigger_id as an interaction payload would carry it: single-use, valid for `trigger_ttl`."""
        uid = self._user(user_id)["id"]
        now = self.now()
        tid = f"{int(now.timestamp())}{next(self._trigger_seq):04d}.{zlib.crc32(self.workspace.team_id.encode())}" \
              f".{secrets.token_hex(16)}"
        self._triggers[tid] = {"user": uid, "issued": now, "used": False}
        return tid

    def _exchange_trigger(self, trigger_id: Any) -> str:
        if not isinstance(trigger_id, str) or not trigger_id:
            raise arguments_error("missing required field: trigger_id [json-pointer:/trigger_id]")
        issued = self._triggers.get(trigger_id)
        if issued is None:
            if self.strict_triggers:
                raise arguments_error("invalid `trigger_id` [json-pointer:/trigger_id]")
            return UNKNOWN_USER
        if self.strict_triggers:
            if issued["used"]:
                raise SlackError("exchanged_trigger_id")
            if self.now() - issued["issued"] > self.trigger_ttl:
                raise SlackError("expired_trigger_id")
        issued["used"] = True
        return issued["user"]

    # ----------------------------------------------------------------- views
    def _hash(self) -> str:
        return f"{int(self.now().timestamp())}.{secrets.token_hex(4)}"

    def _build_view(self, spec: dict[str, Any], vid: str, *, root: str | None,
                    previous: str | None, external_id: str) -> dict[str, Any]:
        ws = self.workspace
        view: dict[str, Any] = {
            "id": vid, "team_id": ws.team_id, "type": spec["type"],
            "blocks": self._with_block_ids(spec.get("blocks") or []),
            "private_metadata": spec.get("private_metadata", ""), "callback_id": spec.get("callback_id", ""),
            "state": {"values": {}}, "hash": self._hash(),
            "clear_on_close": bool(spec.get("clear_on_close", False)),
            "notify_on_close": bool(spec.get("notify_on_close", False)),
            "root_view_id": root or vid, "previous_view_id": previous, "app_id": ws.app_id,
            "external_id": external_id, "app_installed_team_id": ws.team_id, "bot_id": ws.bot_id,
        }
        for key in ("title", "submit", "close"):
            if key in spec:
                view[key] = copy.deepcopy(spec[key])
        return view

    def _claim_external_id(self, spec: dict[str, Any], vid: str) -> str:
        external_id = spec.get("external_id") or ""
        if external_id and self._external_ids.get(external_id, vid) != vid:
            raise SlackError("duplicate_external_id")
        if external_id:
            self._external_ids[external_id] = vid
        return external_id

    def _forget(self, vid: str) -> None:
        record = self._views.pop(vid, None)
        if record and record["view"]["external_id"]:
            self._external_ids.pop(record["view"]["external_id"], None)

    @mutator
    def open_view(self, trigger_id: Any, spec: dict[str, Any]) -> dict[str, Any]:
        """views.open: a new modal stack for the user the trigger belongs to (replacing any open one)."""
        uid = self._exchange_trigger(trigger_id)
        vid = self._new_id("V", self._views)
        external_id = self._claim_external_id(spec, vid)
        for old in self._modal_stacks.pop(uid, []):
            self._forget(old)
        view = self._build_view(spec, vid, root=None, previous=None, external_id=external_id)
        self._views[vid] = {"view": view, "user": uid, "surface": "modal"}
        self._modal_stacks[uid] = [vid]
        self._emit("view.opened", user=uid, view_id=vid)
        return copy.deepcopy(view)

    @mutator
    def push_view(self, trigger_id: Any, spec: dict[str, Any]) -> dict[str, Any]:
        uid = self._exchange_trigger(trigger_id)
        stack = self._modal_stacks.setdefault(uid, [])
        if len(stack) >= MAX_VIEW_STACK:
            raise SlackError("push_limit_reached")
        vid = self._new_id("V", self._views)
        external_id = self._claim_external_id(spec, vid)
        view = self._build_view(spec, vid, root=stack[0] if stack else None,
                                previous=stack[-1] if stack else None, external_id=external_id)
        self._views[vid] = {"view": view, "user": uid, "surface": "modal"}
        stack.append(vid)
        self._emit("view.pushed", user=uid, view_id=vid)
        return copy.deepcopy(view)

    def surface_of(self, view_id: Any = None, external_id: Any = None) -> str:
        """"modal" or "home" for an existing view; SlackError not_found otherwise."""
        with self._lock:
            return self._view_record(view_id, external_id)["surface"]

    def _view_record(self, view_id: Any, external_id: Any) -> dict[str, Any]:
        if not view_id and not external_id:
            raise arguments_error("missing required field: view_id or external_id [json-pointer:/]")
        vid = view_id if view_id else self._external_ids.get(external_id)
        record = self._views.get(vid) if isinstance(vid, str) else None
        if record is None:
            raise SlackError("not_found")
        return record

    @mutator
    def update_view(self, spec: dict[str, Any], *, view_id: Any = None, external_id: Any = None,
                    hash: Any = None) -> dict[str, Any]:  # noqa: A002 - Slack's argument name
        record = self._view_record(view_id, external_id)
        old = record["view"]
        if hash and hash != old["hash"]:
            raise SlackError("hash_conflict")
        vid = old["id"]
        if spec.get("external_id") and spec["external_id"] != old["external_id"]:
            new_external = self._claim_external_id(spec, vid)
            self._external_ids.pop(old["external_id"], None)
        else:
            new_external = old["external_id"]
        record["view"] = self._build_view(spec, vid, root=old["root_view_id"], previous=old["previous_view_id"],
                                          external_id=new_external)
        self._emit("view.updated", user=record["user"], view_id=vid, surface=record["surface"])
        return copy.deepcopy(record["view"])

    @mutator
    def publish_home(self, user_id: Any, spec: dict[str, Any], hash: Any = None) -> dict[str, Any]:
        uid = self._user(user_id)["id"]
        vid = self._home.get(uid)
        if vid and hash and hash != self._views[vid]["view"]["hash"]:
            raise SlackError("hash_conflict")
        vid = vid or self._new_id("V", self._views)
        old_external = self._views[vid]["view"]["external_id"] if vid in self._views else ""
        external_id = self._claim_external_id(spec, vid) if spec.get("external_id") else old_external
        view = self._build_view(spec, vid, root=None, previous=None, external_id=external_id)
        self._views[vid] = {"view": view, "user": uid, "surface": "home"}
        self._home[uid] = vid
        self._emit("home.published", user=uid, view_id=vid)
        return copy.deepcopy(view)

    @mutator
    def close_views(self, user_id: str, view_id: str | None = None) -> list[str]:
        """What a user closing a modal does: pop `view_id` and those above it (all when None). For sandboxes."""
        stack = self._modal_stacks.get(user_id, [])
        cut = stack.index(view_id) if view_id in stack else 0
        closed, self._modal_stacks[user_id] = stack[cut:], stack[:cut]
        for vid in closed:
            self._forget(vid)
        if closed:
            self._emit("view.closed", user=user_id, view_ids=closed)
        return closed

    # ----------------------------------------------------------------- readers
    def open_views(self, user_id: str) -> list[dict[str, Any]]:
        """The user's modal stack, root first."""
        with self._lock:
            return [copy.deepcopy(self._views[v]["view"]) for v in self._modal_stacks.get(user_id, [])]

    def home_view(self, user_id: str) -> dict[str, Any] | None:
        with self._lock:
            vid = self._home.get(user_id)
            return copy.deepcopy(self._views[vid]["view"]) if vid else None

    def view(self, view_id: str) -> dict[str, Any] | None:
        with self._lock:
            record = self._views.get(view_id)
            return copy.deepcopy(record["view"]) if record else None
