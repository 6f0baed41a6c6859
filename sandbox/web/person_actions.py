"""What a person does on the sandbox page, done as Slack's servers and client would: a typed command or message,
a click in a message, an action or a submission in a modal, closing it, opening the App Home, a global shortcut,
dismissing an ephemeral message, uploading a file into a modal's file input.

Each becomes the payload Slack would send (with a fresh `trigger_id` and `response_url`, the view's
`private_metadata` and `hash` from the stand-in, never from the page), signed and posted to the bot; the
answer is applied (a modal's `response_action`, a command's acknowledgement) and the bot is waited for.
`PersonActions` is mixed into `SandboxApi`, which holds the sandbox, what each person dismissed, and
`_bump` and `_notice` (what Slack itself tells a person).
"""
from __future__ import annotations

import base64
import binascii
import re
import time
from pathlib import PurePath
from typing import Any, Callable

from sandbox.office import Button, Reply, Sandbox
from sandbox.people import Person
from sandbox.slack_standin.errors import SlackError

from . import inputs
from .app_info import app_info
from .errors import ApiError
from .interactive_elements import find_element

SLACK_ACK_SECONDS = 3.0  # Slack's limit for an app's answer (commands, clicks, submissions)
FILE_INPUT_MAX_BYTES = 10 * 1024 * 1024  # Slack's limit for a file attached in a modal's file_input
_MENTION = re.compile(r"(?<![\w<@])@([a-z0-9][a-z0-9._-]*)", re.IGNORECASE)
_CHANNEL = re.compile(r"(?<![\w<#])#([a-z0-9][a-z0-9_-]*)", re.IGNORECASE)


def escape(text: str) -> str:
    """What Slack does to what a person types in a message: &, < and > become entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class PersonActions:
    """What a person does: each action takes the person and the page's JSON body and returns what to add to
    the answer. Needs `sandbox`, `_dismissed`, `_bump()` and `_notice()` from the class it is mixed into."""

    sandbox: Sandbox
    _dismissed: dict[str, set[str]]  # ephemeral messages a person dismissed

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
        element = find_element(message.get("blocks") or [], str(body.get("block_id") or ""),
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
        element = find_element(view.get("blocks") or [], block_id, action_id, body.get("value"))
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
            values = inputs.check(view, given, tz=tz, files=self._file_lookup(person)).values
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
        checked = inputs.check(view, body.get("values") or {}, tz=self._tz(person), files=self._file_lookup(person))
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

    def upload(self, person: Person, body: dict[str, Any]) -> dict[str, Any]:
        """A file chosen in a modal's file input: Slack's client uploads it at once, and the form holds its id
        until the modal is submitted. `data` is the file's bytes in base64."""
        name = PurePath(str(body.get("name") or "").replace("\\", "/")).name.strip()
        if not name:
            raise ApiError(400, "The file has no name.")
        try:
            data = base64.b64decode(str(body.get("data") or ""), validate=True)
        except (binascii.Error, ValueError):
            raise ApiError(400, "The file did not arrive whole (not base64); choose it again.") from None
        if not data:
            raise ApiError(400, f"{name} is empty.")
        if len(data) > FILE_INPUT_MAX_BYTES:
            raise ApiError(413, f"{name} is {len(data) / 1048576:,.1f} MB; Slack takes files up to "
                                f"{FILE_INPUT_MAX_BYTES // 1048576} MB in a form.")
        file = self.sandbox.standin.state.add_user_file(person.user_id, name[:255], data)
        return {"file": {k: file[k] for k in ("id", "name", "size", "filetype")}}

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

    def _file_lookup(self, person: Person) -> Callable[[str], dict[str, Any] | None]:
        """A file this person uploaded, as Slack puts it in a view's state (someone else's is not theirs to send)."""
        def find(file_id: str) -> dict[str, Any] | None:
            try:
                file = self.sandbox.standin.state.file_info(file_id)
            except SlackError:
                return None
            return file if file.get("user") == person.user_id else None
        return find

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
                state.post_message(channel, as_reply=True, **content)
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
