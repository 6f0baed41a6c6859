"""The one place a bot token comes from: which token speaks for which workspace.

One office (SLACK_BOT_TOKEN): one token, whatever the workspace. Many offices on one install (SLACK_CLIENT_ID
and SLACK_CLIENT_SECRET): each workspace's token is the one its installation stored (slack-sdk's
SQLAlchemyInstallationStore in our own database, bot/slack/oauth.py), found by the workspace's Slack team id; an
outbox row or a reminder names our workspace id, which names the team.

Everything that calls Slack outside a request Bolt authorized (the worker, the deferred-work process, the
notices at shutdown) asks `Clients` for the workspace's client; a request's listeners get theirs from Bolt's
authorize (bot/slack/oauth.py), which asks the same `BotTokens`.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Protocol

from slack_sdk import WebClient
from sqlalchemy import select

from storage.db import Database
from storage.models import Workspace
from storage.slack_installs import installation_store


class NotInstalled(LookupError):
    """No installation of the app speaks for this workspace (never installed, or its token was removed)."""

    def __init__(self, team_id: str | None, workspace_id: int | None = None) -> None:
        what = f"Slack team {team_id}" if team_id else f"workspace #{workspace_id}"
        super().__init__(f"the app is not installed in {what}: an official of that office installs it from "
                         f"/slack/install")
        self.team_id, self.workspace_id = team_id, workspace_id


@dataclass(frozen=True)
class Bot:
    """A workspace's bot: its token and who it is there."""
    team_id: str | None
    token: str
    bot_id: str | None = None
    bot_user_id: str | None = None
    scopes: tuple[str, ...] = ()


class BotTokens(Protocol):
    def for_team(self, team_id: str | None) -> Bot: ...
    def teams(self) -> list[str]: ...


class SingleToken:
    """One office: SLACK_BOT_TOKEN speaks for every request (the workspace it was made in)."""

    many = False

    def __init__(self, token: str) -> None:
        self.token = token

    def for_team(self, team_id: str | None) -> Bot:
        return Bot(team_id, self.token)

    def teams(self) -> list[str]:
        return []


class InstalledTokens:
    """Many offices: the bot token of the latest installation in each workspace (slack_bots, by team id).

    Read through the installation store's own table, by team id alone: a workspace of an Enterprise Grid
    org that installed the app is found too (its row has the org's enterprise_id). An org-wide install
    (team id NULL) speaks for no one workspace and is not used: each workspace installs the app itself."""

    many = True

    def __init__(self, db: Database, client_id: str) -> None:
        self.db, self.client_id = db, client_id
        self.store = installation_store(db, client_id)

    def for_team(self, team_id: str | None) -> Bot:
        if not team_id:
            raise NotInstalled(team_id)
        bots = self.store.bots
        query = (select(bots).where(bots.c.client_id == self.client_id, bots.c.team_id == team_id,
                                    bots.c.bot_token.is_not(None))
                 .order_by(bots.c.installed_at.desc(), bots.c.id.desc()).limit(1))
        with self.db.engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        if row is None:
            raise NotInstalled(team_id)
        scopes = tuple(s for s in (row["bot_scopes"] or "").split(",") if s)
        return Bot(team_id, row["bot_token"], row["bot_id"], row["bot_user_id"], scopes)

    def teams(self) -> list[str]:
        bots = self.store.bots
        query = (select(bots.c.team_id).where(bots.c.client_id == self.client_id, bots.c.team_id.is_not(None),
                                              bots.c.bot_token.is_not(None)).distinct())
        with self.db.engine.connect() as connection:
            return sorted(connection.scalars(query))


class Clients:
    """The Web API client of each workspace, made by `make(token)` (a client per token, kept and reused)."""

    def __init__(self, tokens: BotTokens, make: Callable[[str], WebClient], db: Database | None = None) -> None:
        self.tokens, self.make, self.db = tokens, make, db
        self._made: dict[str, WebClient] = {}
        self._lock = threading.Lock()

    @classmethod
    def single(cls, client: WebClient) -> "Clients":
        """Every workspace's client is `client` (one office, tests, the sandbox)."""
        clients = cls(SingleToken(client.token or ""), lambda _token: client)
        return clients

    @property
    def many(self) -> bool:
        return bool(getattr(self.tokens, "many", False))

    def for_team(self, team_id: str | None) -> WebClient:
        token = self.tokens.for_team(team_id).token
        with self._lock:
            client = self._made.get(token)
            if client is None:
                client = self._made[token] = self.make(token)
            return client

    def for_workspace(self, workspace_id: int | None) -> WebClient:
        """The client of our workspace `workspace_id` (an outbox row's, a reminder's)."""
        if not self.many:
            return self.for_team(None)
        if workspace_id is None or self.db is None:
            raise NotInstalled(None, workspace_id)
        with self.db.read() as session:
            team_id = session.scalar(select(Workspace.slack_team_id).where(Workspace.id == workspace_id))
        if team_id is None:
            raise NotInstalled(None, workspace_id)
        return self.for_team(team_id)


def team_of(body: dict) -> str | None:
    """The Slack team a request's body comes from, where Bolt finds it: a command's team_id, an interaction's
    team or user's team, an event's team_id."""
    team = (body.get("team") or {}) if isinstance(body.get("team"), dict) else {}
    user = (body.get("user") or {}) if isinstance(body.get("user"), dict) else {}
    return team.get("id") or body.get("team_id") or user.get("team_id") or None


def bot_tokens(db: Database, *, bot_token: str | None, client_id: str | None) -> BotTokens:
    """The lookup the settings call for: the one token, or the installations of SLACK_CLIENT_ID."""
    if client_id:
        return InstalledTokens(db, client_id)
    if not bot_token:
        raise ValueError("a bot token or a client id is needed")
    return SingleToken(bot_token)
