"""Two election offices on one install: the real app in its many-offices mode (Slack's OAuth flow, a token per
workspace), the Slack stand-in playing both workspaces, and each office installing the app through the flow.

Requests are signed as Slack signs them and carry their workspace's team id; the stand-in knows which token
belongs to which team, answers auth.test with it, and refuses a token's call into another team's channel.
"""
from __future__ import annotations

import html
import http.cookiejar
import re
import urllib.error
import urllib.request
from dataclasses import dataclass

from slack_sdk.signature import SignatureVerifier

from bot.app_factory import build_app
from bot.slack.oauth import INSTALL_PATH, OAuthConfig
from bot.web.server import RunningServer, WebApp
from handlers.slack_io.clients import Clients, InstalledTokens
from sandbox.slack_standin import SlackStandIn, Workspace
from services.services import Services
from tests.support.slack_app import SIGNING_SECRET, Clock, SlackHarness

CLIENT_ID = "1234567890.0987654321"
CLIENT_SECRET = "test-client-secret-0123456789"
A = Workspace(team_id="T0OFFICEA1", team_name="Adams County Clerk", team_domain="adams-clerk",
              bot_user_id="U0ABOTUSR1", bot_id="B0ABOTID01", app_id="A0RECOUNT1")
B = Workspace(team_id="T0OFFICEB1", team_name="Boulder Districts", team_domain="boulder-districts",
              bot_user_id="U0BBOTUSR1", bot_id="B0BBOTID01", app_id="A0RECOUNT1")
CHANNEL_A, CHANNEL_B = "C0ELECTNA1", "C0ELECTNB1"
OFFICIAL_A, OFFICIAL_B = "U0AOFFICL1", "U0BOFFICL1"
USERS = [
    {"id": OFFICIAL_A, "name": "ada.official", "real_name": "Ada Adams", "is_admin": True},
    {"id": OFFICIAL_B, "name": "ben.official", "real_name": "Ben Boulder", "is_admin": True},
]


@dataclass(frozen=True)
class Office:
    team: str
    channel: str
    official: str


OFFICE_A, OFFICE_B = Office(A.team_id, CHANNEL_A, OFFICIAL_A), Office(B.team_id, CHANNEL_B, OFFICIAL_B)


class _LoopbackCookies(http.cookiejar.DefaultCookiePolicy):
    """A browser's cookies on http://127.0.0.1: browsers treat loopback as a secure context and send its Secure
    cookies (Bolt's state cookie is Secure); Python's cookie jar would not over plain http."""

    def return_ok_secure(self, cookie, request) -> bool:
        return True


def browser() -> urllib.request.OpenerDirector:
    """A browser: keeps cookies and follows redirects."""
    jar = http.cookiejar.CookieJar(policy=_LoopbackCookies())
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


@dataclass
class Visit:
    status: int
    url: str
    body: str


def visit(opener: urllib.request.OpenerDirector, url: str | urllib.request.Request) -> Visit:
    try:
        with opener.open(url, timeout=10) as response:
            return Visit(response.status, response.geturl(), response.read().decode("utf-8", "replace"))
    except urllib.error.HTTPError as exc:
        return Visit(exc.code, exc.geturl(), exc.read().decode("utf-8", "replace"))


class TwoOffices(SlackHarness):
    """SlackHarness's requests and readings, with the app built as `serve` builds it for many offices."""

    team = A.team_id

    def __init__(self, db, *, clock: Clock | None = None) -> None:  # noqa: D107 - SlackHarness's parts, OAuth's app
        import datetime as dt

        self.db = db
        self.clock = clock or Clock(dt.datetime(2026, 11, 6, 16, 0, tzinfo=dt.timezone.utc))
        self.slack = SlackStandIn(users=USERS, channels=[{"id": CHANNEL_A, "name": "elections"},
                                                         {"id": CHANNEL_B, "name": "elections"}]).start()
        self.slack.oauth.register_app(CLIENT_ID, CLIENT_SECRET)
        self.slack.oauth.add_team(A, channels=[CHANNEL_A], installer=OFFICIAL_A)
        self.slack.oauth.add_team(B, channels=[CHANNEL_B], installer=OFFICIAL_B)
        self.services = Services(db, clock=self.clock)
        # The server's address is Slack's redirect URL, known once it listens: the app is plugged in after.
        self.web_app: WebApp | None = None
        self.server = RunningServer(lambda environ, start: self.web_app(environ, start))
        self.oauth = OAuthConfig(CLIENT_ID, CLIENT_SECRET, self.server.url, self.slack.base_url)
        self.app = build_app(services=self.services, oauth=self.oauth, signing_secret=SIGNING_SECRET,
                             api_base_url=self.slack.base_url)
        self.web_app = WebApp(self.app, db, clock=self.clock)
        self.server.start()
        self.signer = SignatureVerifier(SIGNING_SECRET)
        from bot.worker.loop import Worker, start_in_thread, worker_client
        from handlers.slack_io import outbox
        from sandbox.activity import Activity

        self.tokens = InstalledTokens(db, CLIENT_ID)
        clients = Clients(self.tokens, lambda token: worker_client(token, self.slack.base_url), db)
        worker = Worker(db, clients, clock=self.clock, wake=self.services.outbox_wake, reminders=False,
                        worker_id="offices")
        _, self._worker_stop = start_in_thread(worker, interval=0.5)
        self.activity = Activity(self.app, lambda: len(self.slack.calls),
                                 outbox_idle=lambda: outbox.idle(db, self.clock()))

    def install(self, office: Office, opener: urllib.request.OpenerDirector | None = None) -> Visit:
        """An official of `office` opens /slack/install, clicks Add to Slack, allows it on Slack's page, and is
        sent back to /slack/oauth_redirect: the page they end on."""
        opener = opener or browser()
        page = visit(opener, f"{self.server.url}{INSTALL_PATH}?team={office.team}")
        assert page.status == 200, page
        link = html.unescape(re.search(r'<a href="([^"]+)"', page.body).group(1))
        return visit(opener, link)

    def install_link(self, office: Office, opener: urllib.request.OpenerDirector) -> str:
        page = visit(opener, f"{self.server.url}{INSTALL_PATH}?team={office.team}")
        return html.unescape(re.search(r'<a href="([^"]+)"', page.body).group(1))

    def token_of(self, office: Office) -> str:
        return self.tokens.for_team(office.team).token
