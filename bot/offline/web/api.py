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
"""
from __future__ import annotations

import re
import threading
import time
from typing import Any, Callable
from urllib.parse import quote

from bot.offline.people import Person
from bot.offline.sandbox import Button, Reply, Sandbox
from bot.slack_standin import StateChange

from . import inputs
from .app_info import app_info

SLACK_ACK_SECONDS = 3.0  # Slack's limit for an app's answer (commands, clicks, submissions)
SLACKBOT = "USLACKBOT"
HINT = "Type /recount check to check the example election's survey of returns."
INTERACTIVE = {"button", "static_select", "external_select", "multi_static_select", "users_select",
               "multi_users_select", "conversations_select", "channels_select", "overflow", "datepicker",
               "timepicker", "datetimepicker", "checkboxes", "radio_buttons", "plain_text_input", "number_input",
               "email_text_input", "url_text_input"}
_MENTION = re.compile(r"(?<![\w<@])@([a-z0-9][a-z0-9._-]*)", re.IGNORECASE)
_CHANNEL = re.compile(r"(?<![\w<#])#([a-z0-9][a-z0-9_-]*)", re.IGNORECASE)


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def escape(text: str) -> str:
    """What Slack does to what a person types in a message: &, < and > become entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _elements(blocks: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(block_id, element) for every interactive element: in actions blocks, section accessories, inputs."""
    found = []
    for block in blocks or []:
        kind, block_id = block.get("type"), block.get("block_id", "")
        if kind == "actions":
            found += [(block_id, e) for e in block.get("elements") or []]
        elif kind == "section" and block.get("accessory"):
            found.append((block_id, block["accessory"]))
        elif kind == "input" and block.get("element"):
            found.append((block_id, {**block["element"], "action_id": inputs.action_id_of(block)}))
    return [(b, e) for b, e in found if e.get("type") in INTERACTIVE]


def _find_element(blocks: list[dict[str, Any]], block_id: str, action_id: str,
                  value: str | None = None) -> dict[str, Any] | None:
    for found_block, element in _elements(blocks):
        if found_block == block_id and element.get("action_id") == action_id and (
                value is None or element.get("type") != "button" or element.get("value") == value):
            return element
    return None


class SandboxApi:
    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.version = 0
        self._changed = threading.Condition()
        self._notices: dict[str, list[dict[str, Any]]] = {}  # what Slack's client itself tells a person
        self._dismissed: dict[str, set[str]] = {}  # ephemeral messages a person dismissed
        self._closed = False
        self._unsubscribe = sandbox.standin.subscribe(self._on_change)
        self.actions: dict[str, Callable[[Person, dict[str, Any]], dict[str, Any]]] = {
            "command": self.command, "act": self.act, "view_act": self.view_act, "submit": self.submit,
            "close": self.close_view, "home": self.open_home, "shortcut": self.shortcut, "dismiss": self.dismiss,
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
        result = handler(person, body)
        return {"ok": True, **result, "state": self.state(person.key)}

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
            "hint": HINT, "now": self.sandbox.services.now().isoformat(),
        }

    # ----------------------------------------------------------------- what a person does
    def command(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """The composer: a slash command goes to its app; anything else is posted as the person's message."""
        channel = self._channel(person, body.get("channel"))
        text = str(body.get("text") or "").strip()
        if not text:
            raise ApiError(400, "nothing to send")
        if not text.startswith("/"):
            state = self.sandbox.standin.state
            thread_ts = body.get("thread_ts")
            if thread_ts and state.message(channel, str(thread_ts)) is None:
                raise ApiError(404, "That thread is gone.")
            # The bot does not subscribe to message events (manifest: bot_events), so Slack would not tell it.
            state.post_message(channel, user=person.user_id, text=escape(text), thread_ts=thread_ts or None)
            return {"sent": "message"}
        name, _, rest = text.partition(" ")
        commands = {c["command"] for c in app_info()["commands"]}
        if name not in commands:
            self._notice(person, channel, (
                f"`{name}` is not a valid command. In Slack, all messages that start with the \"/\" character "
                "are interpreted as commands. This workspace's commands: "
                + ", ".join(f"`{c}`" for c in sorted(commands)) + "."))
            return {"sent": None}
        reply, elapsed = self._timed(lambda: self.sandbox.command(person, self._escape_mentions(rest.strip()),
                                                                  command=name, channel=channel))
        if reply.status != 200:
            self._notice(person, channel, f"`{name}` failed with the error \"dispatch_failed\" "
                                          f"(recount-bot answered HTTP {reply.status}).")
        else:
            self._show_ack(person, channel, reply)
        self._late(person, channel, name, elapsed)
        return {"sent": "command", **self._settle()}

    def act(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """A click on a button (or a change of a select, an overflow menu...) in a message."""
        channel, ts = str(body.get("channel") or ""), str(body.get("ts") or "")
        ephemeral = bool(body.get("ephemeral"))
        state = self.sandbox.standin.state
        if ephemeral:
            message = next((m for m in state.ephemeral_messages(person.user_id) if m["ts"] == ts), None)
        else:
            message = state.message(channel, ts)
            if message is not None and channel not in {c["id"] for c in self._visible(person)}:
                message = None
        if message is None:
            raise ApiError(404, "That message is gone.")
        element = _find_element(message.get("blocks") or [], str(body.get("block_id") or ""),
                                str(body.get("action_id") or ""), body.get("value"))
        if element is None:
            raise ApiError(409, "That is no longer on the message (the message was edited).")
        button = Button(channel, ts, str(body.get("block_id")), element, person.user_id if ephemeral else None)
        action_state = None if element.get("type") == "button" else self._element_state(
            element, body.get("state"), self._tz(person))
        reply, elapsed = self._timed(lambda: self.sandbox.click(person, button, message, state=action_state))
        if reply.status != 200:
            self._notice(person, channel, f"recount-bot did not handle that (HTTP {reply.status}); Slack shows "
                                          "a warning next to the button.")
        self._late(person, channel, "That click", elapsed)
        return self._settle()

    def view_act(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """A button or a `dispatch_action` input in a modal or the App Home: block_actions with the view."""
        view = self._view(person, body.get("view_id"), home_too=True)
        block_id, action_id = str(body.get("block_id") or ""), str(body.get("action_id") or "")
        element = _find_element(view.get("blocks") or [], block_id, action_id, body.get("value"))
        if element is None:
            raise ApiError(409, "That is no longer in the view (it was updated).")
        tz = self._tz(person)
        if element.get("type") == "button":
            action_state = {"type": "button", "text": element.get("text"), "value": element.get("value")}
            if element.get("style"):
                action_state["style"] = element["style"]
        else:
            action_state = self._element_state(element, body.get("state"), tz)
        values = {}
        if view.get("type") == "modal":
            given = dict(body.get("values") or {})
            if any(b.get("block_id") == block_id for b in inputs.input_blocks(view)):
                given[block_id] = {action_id: action_state}
            values = inputs.check(view, given, tz=tz).values
        reply, _ = self._timed(lambda: self.sandbox.dispatch(person, view, values, block_id, action_id,
                                                             action_state))
        return {"status": reply.status, **self._settle()}

    def submit(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """The modal's submit button: Slack's client checks the inputs; the bot answers; Slack applies it."""
        view = self._view(person, body.get("view_id"))
        stack = self.sandbox.standin.state.open_views(person.user_id)
        if stack[-1]["id"] != view["id"]:
            raise ApiError(409, "Only the top modal can be submitted.")
        if not view.get("submit"):
            raise ApiError(409, "This modal has no submit button.")
        checked = inputs.check(view, body.get("values") or {}, tz=self._tz(person))
        if checked.errors:
            return {"action": "errors", "errors": checked.errors, "by": "slack"}
        reply, elapsed = self._timed(lambda: self.sandbox.submit(person, view, checked.values))
        followed = self.sandbox.follow(person, view, reply, close_on_failure=False)
        settled = self._settle()
        if followed.action == "failed" or elapsed > SLACK_ACK_SECONDS:
            why = (f"recount-bot answered HTTP {reply.status}" if followed.action == "failed" else
                   f"recount-bot took {elapsed:.1f} s to answer; Slack waits {SLACK_ACK_SECONDS:.0f} s")
            return {"action": "failed" if followed.action == "failed" else followed.action,
                    "message": f"We had some trouble connecting. Try again? ({why})", **settled}
        stray = sorted(set(followed.errors) - {b.get("block_id") for b in inputs.input_blocks(view)})
        if stray:  # Slack cannot show an error on a field the modal does not have; say so rather than hide it
            return {"action": "errors", "errors": followed.errors, "by": "bot", **settled,
                    "message": f"recount-bot reported errors on fields this modal does not have: {', '.join(stray)}"}
        return {"action": followed.action, "errors": followed.errors, "by": "bot", **settled}

    def close_view(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """Cancel (this view; a pushed one goes back to the one below) or the X (`all`: the whole stack)."""
        view = self._view(person, body.get("view_id"))
        if body.get("all"):
            view = self.sandbox.standin.state.open_views(person.user_id)[0]
        reply = self.sandbox.close_view(person, view, cleared=bool(body.get("all")))
        return {"notified": reply is not None, **self._settle()}

    def open_home(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """Opening the app's Home (or Messages) tab: Slack sends app_home_opened each time."""
        tab = "messages" if body.get("tab") == "messages" else "home"
        reply, _ = self._timed(lambda: self.sandbox.home_opened(person, tab=tab))
        return {"status": reply.status, **self._settle()}

    def shortcut(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        callback_id = str(body.get("callback_id") or "")
        if callback_id not in {s["callback_id"] for s in app_info()["shortcuts"]}:
            raise ApiError(404, f"no global shortcut {callback_id!r}")
        reply, _ = self._timed(lambda: self.sandbox.shortcut(person, callback_id))
        if reply.status != 200:
            channel = self._channel(person, body.get("channel"))
            self._notice(person, channel, f"The shortcut failed: recount-bot answered HTTP {reply.status}.")
        return self._settle()

    def dismiss(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """"Dismiss message" under an ephemeral message: gone from this person's view."""
        self._dismissed.setdefault(person.user_id, set()).add(str(body.get("ts") or ""))
        self._bump()
        return {}

    # ----------------------------------------------------------------- helpers
    def _visible(self, person: Person) -> list[dict[str, Any]]:
        channels = self.sandbox.standin.state.channels()
        return [c for c in channels.values() if not c.get("is_im") or c.get("user") == person.user_id]

    def _channel(self, person: Person, channel: Any) -> str:
        """The conversation the person acts in: a channel they see, "dm" for their DM with the bot."""
        if channel in (None, ""):
            return self.sandbox.channel.id
        if channel == "dm":
            return self.sandbox.dm_channel(person)
        if channel not in {c["id"] for c in self._visible(person)}:
            raise ApiError(404, f"no conversation {channel!r} for {person.name}")
        return str(channel)

    def _view(self, person: Person, view_id: Any, home_too: bool = False) -> dict[str, Any]:
        state = self.sandbox.standin.state
        for view in state.open_views(person.user_id):
            if view["id"] == view_id:
                return view
        home = state.home_view(person.user_id) if home_too else None
        if home is not None and home["id"] == view_id:
            return home
        raise ApiError(404, "That view is closed.")

    def _tz(self, person: Person) -> str:
        return self.sandbox.standin.state.user_info(person.user_id).get("tz") or "America/Denver"

    @staticmethod
    def _element_state(element: dict[str, Any], state: Any, tz: str) -> dict[str, Any]:
        try:
            return inputs.normalise_element(element, dict(state or {}), tz=tz)
        except (ValueError, TypeError, AttributeError) as problem:
            raise ApiError(400, f"not a state of a {element.get('type')}: {problem}") from None

    def _escape_mentions(self, text: str) -> str:
        """The command's `should_escape`: @name and #channel reach the app as <@U…|name> and <#C…|name>."""
        users = {u["name"].casefold(): u["id"] for u in self.sandbox.standin.state.snapshot()["users"].values()}
        channels = {c.get("name", "").casefold(): cid for cid, c in self.sandbox.standin.state.channels().items()
                    if c.get("name")}

        def user(match: re.Match) -> str:
            uid = users.get(match.group(1).casefold())
            return f"<@{uid}|{match.group(1)}>" if uid else match.group(0)

        def channel(match: re.Match) -> str:
            cid = channels.get(match.group(1).casefold())
            return f"<#{cid}|{match.group(1)}>" if cid else match.group(0)

        return _CHANNEL.sub(channel, _MENTION.sub(user, text))

    def _timed(self, send: Callable[[], Reply]) -> tuple[Reply, float]:
        started = time.monotonic()
        reply = send()
        return reply, time.monotonic() - started

    def _settle(self) -> dict[str, Any]:
        return {"idle": self.sandbox.wait_idle()}

    def _show_ack(self, person: Person, channel: str, reply: Reply) -> None:
        """A command's acknowledgement may carry a message: Slack shows it to the sender (or to everyone)."""
        body = reply.json()
        state = self.sandbox.standin.state
        if isinstance(body, dict) and (body.get("text") or body.get("blocks")):
            content = {k: body[k] for k in ("text", "blocks") if body.get(k)}
            if body.get("response_type") == "in_channel":
                state.post_message(channel, **content)
            else:
                state.post_ephemeral(channel, person.user_id, **content)
        elif body is None and reply.body.strip():
            state.post_ephemeral(channel, person.user_id, text=reply.body.decode("utf-8", "replace"))

    def _late(self, person: Person, channel: str, what: str, elapsed: float) -> None:
        if elapsed > SLACK_ACK_SECONDS:
            self._notice(person, channel, (
                f":warning: {what} took recount-bot {elapsed:.1f} s to answer. Slack waits "
                f"{SLACK_ACK_SECONDS:.0f} s and then shows an error (`operation_timeout`), though the bot "
                "goes on with its work."))

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
