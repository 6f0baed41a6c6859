"""Slack's OAuth v2 install flow and per-token team identity, as the stand-in plays them.

    GET /oauth/v2/authorize?client_id&scope&state&redirect_uri[&team]
        Slack's consent page, already answered "Allow": a 302 back to `redirect_uri` with a one-time `code` and
        the `state` as given. The installing workspace is `team` (Slack's own parameter to pick the workspace),
        else the stand-in's first team. An unknown client_id or team answers 400, as Slack shows an error page.
    POST /api/oauth.v2.access  (client_id and client_secret by HTTP Basic auth or in the form, code, redirect_uri)
        the code exchanged, once, for a bot token of that team (`xoxb-<team>-...`); `redirect_uri` must be the
        one the code was issued for.

Every token the flow issued answers `auth.test` with its own team, and a call with it naming a channel of
another team (channels given a team with `add_team`) is refused `channel_not_found`, as Slack would: a bot of
one workspace cannot see another's channels. Tokens the flow did not issue keep the stand-in's one workspace.
"""
from __future__ import annotations

import base64
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .errors import SlackError
from .state import Workspace


@dataclass(frozen=True)
class _Code:
    team_id: str
    client_id: str
    redirect_uri: str | None
    scopes: str
    user_id: str


class StandInOAuth:
    def __init__(self, default: Workspace) -> None:
        self._lock = threading.Lock()
        self.default = default
        self.teams: dict[str, Workspace] = {}
        self.installers: dict[str, str] = {}  # team -> the user who clicks Allow
        self.apps: dict[str, str] = {}  # client_id -> client_secret
        self.channel_team: dict[str, str] = {}
        self._codes: dict[str, _Code] = {}
        self._tokens: dict[str, str] = {}  # token -> team

    # ----------------------------------------------------------------- set-up (tests)
    def register_app(self, client_id: str, client_secret: str) -> None:
        with self._lock:
            self.apps[client_id] = client_secret

    def add_team(self, workspace: Workspace, *, channels: Iterable[str] = (), installer: str = "U0INSTALL1") -> None:
        """A workspace that may install the app; `channels` (already in the stand-in) are its own."""
        with self._lock:
            self.teams[workspace.team_id] = workspace
            self.installers[workspace.team_id] = installer
            for channel in channels:
                self.channel_team[channel] = workspace.team_id

    # ----------------------------------------------------------------- the flow
    def authorize(self, query: str) -> tuple[int, dict[str, str], bytes]:
        """The consent page, answered Allow: (status, headers, body)."""
        args = dict(parse_qsl(query, keep_blank_values=True))
        with self._lock:
            if args.get("client_id") not in self.apps:
                return 400, {}, b"invalid client_id"
            team_id = args.get("team") or next(iter(self.teams), None)
            if team_id not in self.teams:
                return 400, {}, b"no such workspace"
            code = secrets.token_hex(12)
            self._codes[code] = _Code(team_id, args["client_id"], args.get("redirect_uri") or None,
                                      args.get("scope", ""), self.installers[team_id])
        target = args.get("redirect_uri")
        if not target:
            return 400, {}, b"redirect_uri missing (the stand-in has no app configuration to take it from)"
        parts = urlsplit(target)
        back = urlencode({"code": code, "state": args.get("state", "")})
        location = urlunsplit(parts._replace(query=f"{parts.query}&{back}" if parts.query else back))
        return 302, {"Location": location}, b""

    def access(self, args: dict[str, Any], authorization: str | None) -> dict[str, Any]:
        """oauth.v2.access: the `ok: true` part, or SlackError. The secret is taken out of `args` (recorded)."""
        client_id, secret = args.pop("client_id", None), args.pop("client_secret", None)
        if authorization and authorization.lower().startswith("basic "):
            try:
                client_id, _, secret = base64.b64decode(authorization[6:].strip()).decode().partition(":")
            except (ValueError, UnicodeDecodeError):
                raise SlackError("invalid_client_id") from None
        with self._lock:
            if client_id not in self.apps:
                raise SlackError("invalid_client_id")
            if self.apps[client_id] != secret:
                raise SlackError("bad_client_secret")
            found = self._codes.pop(str(args.get("code") or ""), None)  # once only, as Slack's
            if found is None or found.client_id != client_id:
                raise SlackError("invalid_code")
            if found.redirect_uri is not None and args.get("redirect_uri") != found.redirect_uri:
                raise SlackError("bad_redirect_uri")
            team = self.teams[found.team_id]
            token = f"xoxb-{found.team_id}-{secrets.token_hex(10)}"
            self._tokens[token] = found.team_id
        return {"app_id": team.app_id, "authed_user": {"id": found.user_id}, "scope": found.scopes,
                "token_type": "bot", "access_token": token, "bot_user_id": team.bot_user_id,
                "team": {"id": team.team_id, "name": team.team_name}, "enterprise": None,
                "is_enterprise_install": False}

    # ----------------------------------------------------------------- identity
    def team_of_token(self, token: str | None) -> Workspace | None:
        with self._lock:
            team = self._tokens.get(token or "")
            return self.teams.get(team) if team else None

    def tokens_of(self, team_id: str) -> list[str]:
        with self._lock:
            return [token for token, team in self._tokens.items() if team == team_id]

    def refuses(self, token: str | None, args: dict[str, Any]) -> bool:
        """A call with an installed team's token naming another team's channel."""
        team = self.team_of_token(token)
        channel = args.get("channel")
        if team is None or not isinstance(channel, str):
            return False
        with self._lock:
            owner = self.channel_team.get(channel)
        return owner is not None and owner != team.team_id


def auth_test_of(workspace: Workspace) -> dict[str, Any]:
    return {"url": f"https://{workspace.team_domain}.slack.com/", "team": workspace.team_name,
            "user": workspace.bot_name, "team_id": workspace.team_id, "user_id": workspace.bot_user_id,
            "bot_id": workspace.bot_id, "is_enterprise_install": False}
