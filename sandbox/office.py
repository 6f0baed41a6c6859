"""The offline sandbox: the real bot, behind its real HTTP server, talking to a local Slack stand-in.

    sandbox = Sandbox(db, port=3000).start()      # stand-in, app, server; seeds the example once
    sandbox.command(official, "check")            # a signed /recount check, as Slack sends it
    sandbox.wait_idle()                           # until the bot has finished with it
    sandbox.standin.state.messages(CHANNEL.id)    # what it posted

Nothing here prints or reads a terminal: the console (console.py) and the browser sandbox sit on top.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import secrets
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable

from bot.app_factory import build_app
from bot.web.server import EVENTS_PATH, RunningServer, WebApp
from sandbox.slack_standin import SlackStandIn
from services.services import Services
from storage.db import Database
from storage.types import utcnow

from . import payloads
from .activity import Activity
from .people import CHANNEL, PEOPLE, Channel, Person
from .seed import Seeded, seed

log = logging.getLogger("recount_bot.offline")
COMMAND = "/recount"


@dataclass
class Reply:
    status: int
    body: bytes

    def json(self) -> Any:
        try:
            return json.loads(self.body) if self.body.strip() else None
        except ValueError:
            return None


@dataclass(frozen=True)
class Followed:
    """What became of a submitted modal: "errors" (with them), "update", "push", "clear", "closed" or "failed"."""

    action: str
    errors: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Button:
    """A button in a message, enough to click it."""

    channel: str
    message_ts: str
    block_id: str
    element: dict[str, Any]
    ephemeral_for: str | None = None  # the recipient, for an ephemeral message

    @property
    def label(self) -> str:
        return (self.element.get("text") or {}).get("text") or self.element.get("action_id") or "button"

    @property
    def key(self) -> tuple:
        return (self.channel, self.message_ts, self.block_id, self.element.get("action_id"),
                self.element.get("value"))


def buttons_of(message: dict[str, Any], channel: str, ephemeral_for: str | None = None) -> list[Button]:
    """Every button in a message: in actions blocks and as section accessories, in order."""
    found = []
    for block in message.get("blocks") or []:
        elements = block.get("elements", []) if block.get("type") == "actions" else [block.get("accessory") or {}]
        for element in elements:
            if element.get("type") == "button":
                found.append(Button(channel, message["ts"], block.get("block_id", ""), element, ephemeral_for))
    return found


class Sandbox:
    def __init__(self, db: Database, *, host: str = "127.0.0.1", port: int = 3000,
                 clock: Callable[[], dt.datetime] = utcnow, people: tuple[Person, ...] = PEOPLE,
                 channel: Channel = CHANNEL, seed_example: bool = True) -> None:
        self.db, self.host, self.wanted_port = db, host, port
        self.people, self.channel = people, channel
        self.services = Services(db, clock=clock)
        self.signing_secret = secrets.token_hex(16)  # a new one every run
        self.bot_token = "xoxb-offline-" + secrets.token_hex(8)
        self.seed_example = seed_example
        self.seeded: Seeded | None = None
        self.port_note: str | None = None  # set when the wanted port was taken
        self.standin: SlackStandIn | None = None
        self.server: RunningServer | None = None
        self.activity: Activity | None = None
        self.worker_stop = None  # set while the in-process worker (reminders, outbox) runs

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> "Sandbox":
        # The stand-in keeps the bot's time, so a message's time agrees with the bot's "now" (see clock.py).
        self.standin = SlackStandIn(users=[p.slack_user() for p in self.people],
                                    channels=[{"id": self.channel.id, "name": self.channel.name}],
                                    clock=self.services.clock).start()
        try:
            workspace = self.standin.state.workspace
            if self.seed_example:
                staff = next((p for p in self.people if p.key == "staff"), None)
                self.seeded = seed(self.services, workspace.team_id, workspace.team_name, staff)
            app = build_app(services=self.services, bot_token=self.bot_token, signing_secret=self.signing_secret,
                            api_base_url=self.standin.base_url)
            from handlers.slack_io import outbox
            self.activity = Activity(app, lambda: len(self.standin.calls),
                                     outbox_idle=lambda: outbox.idle(self.db, self.services.now()))
            # The bot's HTTP server keeps the sandbox's time too (certificate links expire by it).
            self.server = self._listen(WebApp(app, self.db, clock=self.services.clock)).start()
            from bot.worker.loop import Worker, start_in_thread, worker_client

            worker = Worker(self.db, worker_client(self.bot_token, self.standin.base_url),
                            clock=self.services.clock, worker_id="offline", wake=self.services.outbox_wake)
            _, self.worker_stop = start_in_thread(worker, interval=1.0)
        except BaseException:
            self.stop()
            raise
        return self

    def _listen(self, wsgi_app: WebApp) -> RunningServer:
        try:
            return RunningServer(wsgi_app, host=self.host, port=self.wanted_port)
        except OSError as exc:
            if self.wanted_port == 0:
                raise
            server = RunningServer(wsgi_app, host=self.host, port=0)
            self.port_note = (f"port {self.wanted_port} is taken ({exc.strerror or exc}); "
                              f"using port {server.port} instead")
            return server

    def stop(self) -> None:
        if self.worker_stop is not None:
            self.worker_stop.stop_and_wake()
        if self.server is not None:
            self.server.stop()
        if self.standin is not None:
            self.standin.stop()

    def __enter__(self) -> "Sandbox":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------------- where things are
    @property
    def url(self) -> str:
        return self.server.url

    @property
    def events_url(self) -> str:
        return self.server.url + EVENTS_PATH

    @property
    def team(self) -> tuple[str, str]:
        workspace = self.standin.state.workspace
        return workspace.team_id, workspace.team_domain

    def person(self, key: str) -> Person:
        return next(p for p in self.people if p.key == key)

    def name_of(self, user_id: str) -> str:
        for person in self.people:
            if person.user_id == user_id:
                return person.name
        return "recount-bot" if user_id == self.standin.state.workspace.bot_user_id else user_id

    # ----------------------------------------------------------------- what Slack sends
    def post(self, body: bytes, content_type: str = payloads.FORM) -> Reply:
        headers = payloads.signed_headers(self.signing_secret, body, content_type=content_type)
        request = urllib.request.Request(self.events_url, data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return Reply(response.status, response.read())
        except urllib.error.HTTPError as exc:
            return Reply(exc.code, exc.read())

    def command(self, person: Person, text: str, *, command: str = COMMAND, channel: str | None = None) -> Reply:
        """A slash command typed in `channel` (the sandbox's channel by default; a DM's id for a direct message)."""
        team_id, domain = self.team
        channel_id = channel or self.channel.id
        fields = payloads.slash_command(
            command=command, text=text, team_id=team_id, team_domain=domain, channel_id=channel_id,
            channel_name=self.channel_name(channel_id), user_id=person.user_id, user_name=person.name,
            response_url=self.standin.issue_response_url(channel=channel_id, user=person.user_id),
            trigger_id=self.standin.issue_trigger_id(person.user_id))
        return self.post(payloads.form_body(fields))

    def channel_name(self, channel_id: str) -> str:
        """As Slack names the channel in a payload: its name, "directmessage" for a DM."""
        info = self.standin.state.channels().get(channel_id, {})
        return "directmessage" if info.get("is_im") else info.get("name", "")

    def click(self, person: Person, button: Button, message: dict[str, Any],
              state: dict[str, Any] | None = None) -> Reply:
        """A click on a button in a message; for another element (a select, an overflow menu), its new `state`."""
        team_id, domain = self.team
        ephemeral = button.ephemeral_for is not None
        response_url = self.standin.issue_response_url(
            channel=button.channel, user=person.user_id, message_ts=None if ephemeral else button.message_ts)
        payload = payloads.block_actions(
            team_id=team_id, team_domain=domain, user_id=person.user_id, user_name=person.name,
            channel_id=button.channel, channel_name=self.channel_name(button.channel), message=message,
            block_id=button.block_id, element=button.element, response_url=response_url,
            trigger_id=self.standin.issue_trigger_id(person.user_id), is_ephemeral=ephemeral, state=state)
        return self.post(payloads.interaction_body(payload))

    def shortcut(self, person: Person, callback_id: str) -> Reply:
        """A global shortcut (the composer's shortcut menu)."""
        team_id, domain = self.team
        payload = payloads.global_shortcut(team_id=team_id, team_domain=domain, user_id=person.user_id,
                                           user_name=person.name, callback_id=callback_id,
                                           trigger_id=self.standin.issue_trigger_id(person.user_id))
        return self.post(payloads.interaction_body(payload))

    def dm_channel(self, person: Person) -> str:
        """The person's direct-message channel with the bot (opened, as Slack does, on first need)."""
        info, _ = self.standin.state.open_conversation([person.user_id])
        return info["id"]

    def home_opened(self, person: Person, tab: str = "home") -> Reply:
        """The person opens the app's Home tab (or its Messages tab): Slack sends app_home_opened."""
        team_id, _ = self.team
        event = payloads.app_home_opened(user_id=person.user_id, channel_id=self.dm_channel(person), tab=tab,
                                         view=self.standin.state.home_view(person.user_id))
        body = payloads.json_body(payloads.event_callback(team_id=team_id, event=event))
        return self.post(body, content_type=payloads.JSON)

    def submit(self, person: Person, view: dict[str, Any], values: dict[str, dict[str, dict[str, Any]]]) -> Reply:
        team_id, domain = self.team
        payload = payloads.view_submission(
            team_id=team_id, team_domain=domain, user_id=person.user_id, user_name=person.name, view=view,
            values=values, trigger_id=self.standin.issue_trigger_id(person.user_id))
        return self.post(payloads.interaction_body(payload))

    def dispatch(self, person: Person, view: dict[str, Any], values: dict[str, dict[str, dict[str, Any]]],
                 block_id: str, action_id: str, state: dict[str, Any]) -> Reply:
        """A modal input with `dispatch_action` changed: Slack tells the bot at once (block_actions)."""
        team_id, domain = self.team
        payload = payloads.view_block_actions(
            team_id=team_id, team_domain=domain, user_id=person.user_id, user_name=person.name, view=view,
            values=values, block_id=block_id, action_id=action_id, state=state,
            trigger_id=self.standin.issue_trigger_id(person.user_id))
        return self.post(payloads.interaction_body(payload))

    def close_view(self, person: Person, view: dict[str, Any], *, cleared: bool = False) -> Reply | None:
        """The person closes the modal (Cancel): gone from the stand-in with the views above it; the bot is told
        if it asked to be. `cleared`: the whole stack was closed at once (the X)."""
        self.standin.state.close_views(person.user_id, view.get("id"))
        if not view.get("notify_on_close"):
            return None
        team_id, domain = self.team
        return self.post(payloads.interaction_body(payloads.view_closed(
            team_id=team_id, team_domain=domain, user_id=person.user_id, user_name=person.name, view=view,
            is_cleared=cleared)))

    def follow(self, person: Person, view: dict[str, Any], reply: Reply, *, close_on_failure: bool = True) -> Followed:
        """Apply the bot's answer to a submission of `view` as Slack does: field errors keep the modal open;
        `update` replaces it, `push` stacks a new one, `clear` closes them all, anything else closes it.
        An answer that is not HTTP 200 is a failure: Slack keeps the modal and shows an error in it."""
        state, uid = self.standin.state, person.user_id
        if reply.status != 200:
            if close_on_failure:
                state.close_views(uid, view["id"])
            return Followed("failed")
        answer = reply.json()
        action = answer.get("response_action") if isinstance(answer, dict) else None
        if action == "errors":
            return Followed("errors", {k: str(v) for k, v in (answer.get("errors") or {}).items()})
        if action == "update":
            state.update_view(answer["view"], view_id=view["id"])
        elif action == "push":
            state.push_view(self.standin.issue_trigger_id(uid), answer["view"])
        else:
            action = "clear" if action == "clear" else "closed"
            state.close_views(uid, None if action == "clear" else view["id"])
        return Followed(action)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Until every listener started by the requests so far has finished."""
        return self.activity.wait_idle(timeout)

    # ----------------------------------------------------------------- reading messages back
    def message(self, button: Button) -> dict[str, Any] | None:
        """The message carrying `button`, as it is now (edited, or None when deleted)."""
        state = self.standin.state
        if button.ephemeral_for is None:
            return state.message(button.channel, button.message_ts)
        return next((m for m in state.ephemeral_messages(button.ephemeral_for) if m["ts"] == button.message_ts), None)
