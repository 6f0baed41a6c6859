"""The browser sandbox's JSON API: what the page may ask for, and what it may do as one of the people.

The page never talks to the bot. It tells this API what a person did (typed a command, clicked a button,
changed a select, submitted or closed a modal, opened the App Home) and the API does what Slack's servers
and client do: it builds the payload Slack would send (with a fresh `trigger_id` and `response_url`, the
view's `private_metadata` and `hash` from the stand-in, never from the page), signs it, posts it to the
bot, applies the answer (a modal's `response_action`, a command's acknowledgement) and waits until the
bot has finished. What the bot did is read back from the Slack stand-in: `state(person)` is the workspace
as that person's Slack client would show it.

Every action returns `{"ok": true, ...}` with the person's new state; a mistake (an unknown person, a
button no longer on its message) is an `ApiError` with an HTTP status and a sentence.

The actions themselves are `person_actions.PersonActions`; this class adds live updates, who is acting, and
what each person's client shows.
"""
from __future__ import annotations

import secrets
import threading
from typing import Any, Callable
from urllib.parse import quote

from sandbox.observe import shared_links
from sandbox.office import Sandbox
from sandbox.people import Person
from sandbox.slack_standin import StateChange

from .app_info import app_info
from .errors import ApiError
from .person_actions import PersonActions

SLACKBOT = "USLACKBOT"
OFFICE = ("official", "staff")  # the sandbox people who work in the office; the others observe
HINT = "Type /recount check to check the example election's survey of returns."


class SandboxApi(PersonActions):
    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.version = 0
        self._changed = threading.Condition()
        self._notices: dict[str, list[dict[str, Any]]] = {}  # what Slack's client itself tells a person
        self._dismissed: dict[str, set[str]] = {}  # ephemeral messages a person dismissed
        self._closed = False
        # Which page (a browser tab: its client id) opened each modal, so a reload of that tab closes them.
        self._opened_by: dict[str, str] = {}
        self.session = secrets.token_hex(8)  # this run of the sandbox: a page sees a restart by its change
        self._unsubscribe = sandbox.standin.subscribe(self._on_change)
        self.actions: dict[str, Callable[[Person, dict[str, Any]], dict[str, Any]]] = {
            "command": self.command, "act": self.act, "view_act": self.view_act, "submit": self.submit,
            "close": self.close_view, "home": self.open_home, "shortcut": self.shortcut, "dismiss": self.dismiss,
            "upload": self.upload, "reload": self.reload,
        }

    # ----------------------------------------------------------------- changes, for live updates
    def _on_change(self, change: StateChange) -> None:
        self._bump()

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def wait_change(self, since: int, timeout: float) -> int:
        """The version once it is past `since` (or when `timeout` passes, or the API closes)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > since or self._closed, timeout=timeout)
            return self.version

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._unsubscribe()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    # ----------------------------------------------------------------- who
    def person(self, key: Any) -> Person:
        for person in self.sandbox.people:
            if key in (person.key, person.user_id, person.name):
                return person
        raise ApiError(400, f"nobody called {key!r} in this sandbox: "
                            f"{', '.join(p.key for p in self.sandbox.people)}")

    def perform(self, action: str, body: dict[str, Any]) -> dict[str, Any]:
        handler = self.actions.get(action)
        if handler is None:
            raise ApiError(404, f"no action {action!r}; the actions are {', '.join(sorted(self.actions))}")
        person = self.person(body.get("as"))
        client = body.get("client") if isinstance(body.get("client"), str) else None
        before = self._open_view_ids()
        result = handler(person, body)
        if client:
            for view_id in self._open_view_ids() - before:
                self._opened_by[view_id] = client
        return {"ok": True, **result, "state": self.state(person.key)}

    def _open_view_ids(self) -> set[str]:
        state = self.sandbox.standin.state
        return {v["id"] for p in self.sandbox.people for v in state.open_views(p.user_id)}

    def reload(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """The page was loaded again in a tab: a new Slack client. Slack does not bring a modal back after its
        client reloads, so the modals that tab had opened (for anyone it acted as) are closed, as their X
        closes them (the bot is told when the view asked to be, `notify_on_close`). Modals another tab opened
        stay open there."""
        previous = body.get("previous")
        closed = 0
        if isinstance(previous, str) and previous:
            state = self.sandbox.standin.state
            for someone in self.sandbox.people:
                stack = state.open_views(someone.user_id)
                mine = [v for v in stack if self._opened_by.get(v["id"]) == previous]
                if mine:
                    # The lowest of them, and everything stacked on it (a pushed view belongs to its stack).
                    self.sandbox.close_view(someone, mine[0], cleared=mine[0] is stack[0])
                    closed += len(stack) - stack.index(mine[0])
            self._opened_by = {v: c for v, c in self._opened_by.items() if c != previous}
            if closed:
                self.sandbox.wait_idle()
                self._bump()
        return {"closed": closed}

    # ----------------------------------------------------------------- what a person's client shows
    def state(self, key: Any) -> dict[str, Any]:
        person = self.person(key)
        uid = person.user_id
        with self._changed:
            version = self.version
        snapshot = self.sandbox.standin.state.snapshot()
        dismissed = self._dismissed.get(uid, set())
        ephemerals = [m for m in snapshot["ephemeral"].get(uid, []) if m["ts"] not in dismissed]
        ephemerals += [m for m in self._notices.get(uid, []) if m["ts"] not in dismissed]
        conversations = []
        for cid, channel in snapshot["channels"].items():
            if channel.get("is_im") and channel.get("user") != uid:
                continue
            if channel.get("is_mpim") and uid not in channel.get("members", []):
                continue
            messages = [_with_file_links(m) for m in channel["messages"]]
            threads = {ts: [_with_file_links(m) for m in replies] for ts, replies in channel["threads"].items()}
            for message in ephemerals:
                if message.get("channel") != cid:
                    continue
                parent = message.get("thread_ts")
                if parent and parent != message["ts"] and parent in threads:
                    threads[parent].append(message)
                else:
                    messages.append(message)
            conversations.append({
                "id": cid, "name": channel.get("name", ""), "is_im": bool(channel.get("is_im")),
                "is_mpim": bool(channel.get("is_mpim")), "user": channel.get("user"),
                "topic": (channel.get("topic") or {}).get("value", ""),
                "messages": sorted(messages, key=lambda m: float(m["ts"])),
                "threads": {ts: sorted(r, key=lambda m: float(m["ts"])) for ts, r in threads.items() if r},
            })
        users = {u["id"]: {"name": u["name"], "real_name": u.get("real_name") or u["name"],
                           "is_bot": bool(u.get("is_bot")), "tz": u.get("tz")}
                 for u in snapshot["users"].values()}
        users[SLACKBOT] = {"name": "slackbot", "real_name": "Slackbot", "is_bot": True, "tz": None}
        workspace = self.sandbox.standin.state.workspace
        info = app_info()
        return {
            "version": version,
            "me": {"key": person.key, "user_id": uid, "name": person.name, "real_name": person.real_name,
                   "tz": users.get(uid, {}).get("tz") or "America/Denver"},
            "people": [{"key": p.key, "user_id": p.user_id, "name": p.name, "real_name": p.real_name}
                       for p in self.sandbox.people],
            "team": snapshot["team"], "bot": {"user_id": workspace.bot_user_id, "name": workspace.bot_name},
            "default_channel": self.sandbox.channel.id, "users": users, "conversations": conversations,
            "modals": snapshot["views"].get(uid, []), "home": snapshot["home"].get(uid),
            "commands": info["commands"], "shortcuts": info["shortcuts"], "subcommands": info["subcommands"],
            "hint": HINT, "now": self.sandbox.services.now().isoformat(), "session": self.session,
            # Someone outside the office gets the observers' links the office passes on (in life, by email).
            "observer_links": ([{"label": link.label, "url": link.url} for link in shared_links(self.sandbox)]
                               if person.key not in OFFICE else []),
        }

    def _notice(self, person: Person, channel: str, text: str) -> None:
        """A message from Slack itself (Slackbot), only visible to the person."""
        now = self.sandbox.services.now().timestamp()
        notices = self._notices.setdefault(person.user_id, [])
        ts = f"{max(now, float(notices[-1]['ts']) + 1e-6 if notices else now):.6f}"
        notices.append({"type": "message", "ts": ts, "text": text, "user": SLACKBOT, "channel": channel,
                        "recipient": person.user_id, "is_ephemeral": True, "from_slack": True})
        self._bump()


def _with_file_links(message: dict[str, Any]) -> dict[str, Any]:
    """Files the bot shared, downloadable from the page (Slack's url_private needs the bot's token)."""
    for item in message.get("files") or []:
        item["sandbox_url"] = f"/files/{quote(item['id'])}/{quote(item.get('name') or 'file')}"
    return message
