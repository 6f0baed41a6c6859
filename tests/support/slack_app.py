"""The real bot behind its real HTTP server, a Slack Web API stand-in, and signed requests like Slack's.

Tests talk to the bot only as Slack would: signed HTTP POSTs to /slack/events, with the payload shapes
Slack sends (slash command forms, `payload=` JSON for interactivity), and read what the bot did from
the Web API calls the stand-in recorded.
"""
from __future__ import annotations

import datetime as dt
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any

from slack_sdk.signature import SignatureVerifier

from bot.app_factory import build_app
from bot.web.server import EVENTS_PATH, RunningServer, WebApp
from handlers.slack_io.reading_child import ParseLimits
from sandbox.slack_standin import SlackStandIn, Workspace
from services.services import Services
from storage.db import Database

SIGNING_SECRET = "test-signing-secret-0123456789"
TEAM = "T0TESTTEAM"
CHANNEL = "C0ELECTION"
USERS = [
    {"id": "U0OFFICIAL", "name": "dana.official", "real_name": "Dana Whitfield", "is_admin": True},
    {"id": "U0STAFF001", "name": "sam.staff", "real_name": "Sam Okafor"},
    {"id": "U0VIEWER01", "name": "val.viewer", "real_name": "Val Viewer"},
    {"id": "U0OUTSIDER", "name": "ollie.outsider", "real_name": "Ollie Outsider"},
]
OFFICIAL, STAFF, VIEWER, OUTSIDER = (u["id"] for u in USERS)


class Clock:
    """A settable, timezone-aware clock for the services (Slack signatures use real time)."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@dataclass
class Reply:
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class SlackHarness:
    team = TEAM  # the workspace requests come from, unless a call names another

    def __init__(self, db: Database, *, clock: Clock | None = None, observer_poll_ms: int | None = None,
                 parse_limits: ParseLimits | None = None) -> None:
        self.db = db
        self.clock = clock or Clock(dt.datetime(2026, 11, 6, 16, 0, tzinfo=dt.timezone.utc))
        # The bot token's workspace is the office's (auth.test names it): a request from another is refused.
        self.slack = SlackStandIn(users=USERS, channels=[{"id": CHANNEL, "name": "elections"}],
                                  workspace=Workspace(team_id=TEAM, team_name="Recount Test Office",
                                                      team_domain="recount-test")).start()
        self.services = Services(db, clock=self.clock)
        self.app = build_app(services=self.services, bot_token="xoxb-test-token", signing_secret=SIGNING_SECRET,
                             api_base_url=self.slack.base_url, parse_limits=parse_limits)
        # The server judges links (certificates, observers' pages) by the services' clock, as `serve` does.
        self.server = RunningServer(WebApp(self.app, db, clock=self.clock, observer_poll_ms=observer_poll_ms)).start()
        self.signer = SignatureVerifier(SIGNING_SECRET)
        # Card edits and thread posts go through the outbox: deliver them as the server's worker thread
        # would. Reminders are left out here (tests/bot/test_worker.py drives them with the clock).
        from bot.worker.loop import Worker, start_in_thread, worker_client

        worker = Worker(db, worker_client("xoxb-test-token", self.slack.base_url), clock=self.clock,
                        wake=self.services.outbox_wake, reminders=False, worker_id="harness")
        _, self._worker_stop = start_in_thread(worker, interval=0.5)
        from handlers.slack_io import outbox
        from sandbox.activity import Activity

        self.activity = Activity(self.app, lambda: len(self.slack.calls),
                                 outbox_idle=lambda: outbox.idle(db, self.clock()))

    def settle(self, timeout: float = 20) -> None:
        """Wait until the bot has done everything a request set off: deferred listeners, work after the
        answer, and the outbox's deliveries. What a person would see after a moment."""
        assert self.activity.wait_idle(timeout), "the bot did not finish its work"

    def close(self) -> None:
        self._worker_stop.stop_and_wake()
        self.server.stop()
        self.slack.stop()

    # ---------------------------------------------------------------- raw HTTP
    def post(self, body: bytes, content_type: str, *, timestamp: int | None = None, signature: str | None = None,
             headers: dict[str, str] | None = None) -> Reply:
        stamp = str(timestamp if timestamp is not None else int(time.time()))
        sig = signature if signature is not None else self.signer.generate_signature(timestamp=stamp, body=body)
        request = urllib.request.Request(
            self.server.url + EVENTS_PATH, data=body, method="POST",
            headers={"Content-Type": content_type, "X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": sig,
                     **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return Reply(response.status, response.read())
        except urllib.error.HTTPError as exc:
            return Reply(exc.code, exc.read())

    def get(self, path: str) -> Reply:
        try:
            with urllib.request.urlopen(self.server.url + path, timeout=10) as response:
                return Reply(response.status, response.read())
        except urllib.error.HTTPError as exc:
            return Reply(exc.code, exc.read())

    # ---------------------------------------------------------------- what Slack sends
    def command(self, text: str, *, user: str = OFFICIAL, channel: str = CHANNEL, team: str | None = None,
                **headers: str) -> Reply:
        form = {
            "token": "legacy-verification-token", "team_id": team or self.team, "team_domain": "recount-test",
            "channel_id": channel, "channel_name": "elections", "user_id": user, "user_name": user.lower(),
            "command": "/recount", "text": text, "api_app_id": "A0RECOUNT1", "is_enterprise_install": "false",
            "response_url": self.slack.issue_response_url(channel=channel, user=user),
            "trigger_id": self.slack.issue_trigger_id(user),
        }
        reply = self.post(urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded",
                          headers={k.replace("_", "-"): v for k, v in headers.items()})
        self.settle()
        return reply

    def _interactive(self, payload: dict, *, settle: bool = True) -> Reply:
        body = urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()
        reply = self.post(body, "application/x-www-form-urlencoded")
        if settle:
            self.settle()
        return reply

    def click(self, message: dict, action_id: str, *, user: str = OFFICIAL, channel: str = CHANNEL,
              value: str | None = None, team: str | None = None, send_value: str | None = None,
              settle: bool = True) -> Reply:
        """Click the button `action_id` in a message the bot posted (as the stand-in stored it)."""
        button = None
        for block in message.get("blocks", []):
            elements = block.get("elements", []) if block["type"] == "actions" else [block.get("accessory") or {}]
            for element in elements:
                if element.get("action_id") == action_id and (value is None or element.get("value") == value):
                    button, block_id = element, block.get("block_id")
                    break
            if button:
                break
        if button is None:
            raise AssertionError(f"no button {action_id} (value {value}) in the message")
        team = team or self.team
        payload = {
            "type": "block_actions", "team": {"id": team, "domain": "recount-test"},
            "user": {"id": user, "username": user.lower(), "team_id": team}, "api_app_id": "A0RECOUNT1",
            "token": "legacy-verification-token", "trigger_id": self.slack.issue_trigger_id(user),
            "container": {"type": "message", "message_ts": message["ts"], "channel_id": channel,
                          "is_ephemeral": False},
            "channel": {"id": channel, "name": "elections"}, "message": message,
            "response_url": self.slack.issue_response_url(channel=channel, user=user, message_ts=message["ts"]),
            "actions": [{"type": "button", "action_id": action_id, "block_id": block_id,
                         "value": button.get("value") if send_value is None else send_value,
                         "text": button.get("text"),
                         "action_ts": f"{time.time():.6f}"}],
        }
        return self._interactive(payload, settle=settle)

    def shortcut(self, callback_id: str, *, user: str = OFFICIAL, team: str | None = None) -> Reply:
        """Use a global shortcut (from the search bar or the composer's shortcut menu): no channel."""
        team = team or self.team
        payload = {
            "type": "shortcut", "callback_id": callback_id, "team": {"id": team, "domain": "recount-test"},
            "user": {"id": user, "username": user.lower(), "team_id": team}, "api_app_id": "A0RECOUNT1",
            "token": "legacy-verification-token", "trigger_id": self.slack.issue_trigger_id(user),
            "action_ts": f"{time.time():.6f}", "is_enterprise_install": False, "enterprise": None,
        }
        return self._interactive(payload)

    def submit(self, view: dict, values: dict[str, dict], *, user: str = OFFICIAL, team: str | None = None,
               settle: bool = True) -> Reply:
        """Submit a modal the bot opened, with `values` as {block_id: element state} (Slack's view.state). With
        `settle=False`, return Slack's answer as soon as it comes, while the bot may still be working."""
        state = {"values": {block_id: {block_id: value} for block_id, value in values.items()}}
        team = team or self.team
        payload = {
            "type": "view_submission", "team": {"id": team, "domain": "recount-test"},
            "user": {"id": user, "username": user.lower(), "team_id": team}, "api_app_id": "A0RECOUNT1",
            "token": "legacy-verification-token", "trigger_id": self.slack.issue_trigger_id(user),
            "view": {**view, "state": state}, "response_urls": [],
        }
        return self._interactive(payload, settle=settle)

    def event(self, event: dict, *, event_id: str | None = None, **headers: str) -> Reply:
        """An Events API delivery (`event_callback`), as Slack sends it; the same event_id is a retry."""
        body = {"token": "legacy-verification-token", "team_id": self.team, "api_app_id": "A0RECOUNT1",
                "event": event, "type": "event_callback", "event_id": event_id or f"Ev{unique_id().upper()}",
                "event_time": int(time.time())}
        reply = self.post(json.dumps(body).encode(), "application/json",
                          headers={k.replace("_", "-"): v for k, v in headers.items()})
        self.settle()
        return reply

    # ---------------------------------------------------------------- what the bot did
    def wait(self, method: str, count: int = 1, timeout: float = 10) -> list:
        return self.slack.wait_for(method, count=count, timeout=timeout)

    def posted(self, channel: str = CHANNEL) -> list[dict]:
        return self.slack.state.messages(channel)

    def thread(self, parent_ts: str, channel: str = CHANNEL) -> list[dict]:
        return self.slack.state.thread(channel, parent_ts)

    def ephemerals(self, user: str = OFFICIAL) -> list[dict]:
        return self.slack.state.ephemeral_messages(user)

    def open_view(self, user: str = OFFICIAL) -> dict:
        views = self.slack.state.open_views(user)
        assert views, f"no modal open for {user}"
        return views[-1]


def text_of(message: dict) -> str:
    """Everything a person would read in a message: its text and every text in its blocks."""
    parts = [message.get("text") or ""]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") in ("mrkdwn", "plain_text") and isinstance(node.get("text"), str):
                parts.append(node["text"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(message.get("blocks", []))
    return "\n".join(parts)


def unique_id() -> str:
    return uuid.uuid4().hex[:8]
