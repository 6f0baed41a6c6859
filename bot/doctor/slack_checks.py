"""The checks of `recount-bot doctor` that ask Slack and the outside: the token and its scopes, the approvals
channel and the bot's membership of it, and PUBLIC_BASE_URL answering /healthz."""
from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.doctor.findings import Finding
from bot.slack.scopes import BOT_SCOPES
from storage.db import Database

HEALTH_TIMEOUT = 5.0  # seconds: a reverse proxy that takes longer than this to answer is a problem anyway
REINSTALL = ("in https://api.slack.com/apps -> your app -> OAuth & Permissions, make the Bot Token Scopes those "
             "of manifest.yml (or paste manifest.yml under App Manifest), then Reinstall to Workspace")


@dataclass(frozen=True)
class Identity:
    team_id: str
    team: str
    user: str
    scopes: frozenset[str] | None  # None: Slack did not say (no x-oauth-scopes header)


def _error(exc: SlackApiError) -> str:
    data = exc.response.data if isinstance(exc.response.data, dict) else {}
    return str(data.get("error") or f"HTTP {exc.response.status_code}")


def check_token(client: WebClient, api_url: str) -> tuple[Identity | None, Finding]:
    try:
        answer = client.auth_test()
    except SlackApiError as exc:
        return None, Finding.fail("slack token", f"SLACK_BOT_TOKEN was refused by Slack: {_error(exc)}",
                                  "copy the Bot User OAuth Token (xoxb-...) from https://api.slack.com/apps -> your "
                                  "app -> OAuth & Permissions into SLACK_BOT_TOKEN, and restart serve and worker")
    except OSError as exc:
        return None, Finding.fail("slack token", f"cannot reach Slack at {api_url}: {getattr(exc, 'reason', exc)}",
                                  "let this machine reach slack.com over HTTPS (firewall, proxy, DNS), or correct "
                                  "SLACK_API_BASE_URL")
    header = next((v for k, v in (answer.headers or {}).items() if k.lower() == "x-oauth-scopes"), None)
    scopes = None if header is None else frozenset(s.strip() for s in str(header).split(",") if s.strip())
    identity = Identity(str(answer.get("team_id") or ""), str(answer.get("team") or ""),
                        str(answer.get("user") or ""), scopes)
    return identity, Finding.ok("slack token", f"accepted: team {identity.team} ({identity.team_id}) as "
                                               f"@{identity.user}")


def check_scopes(identity: Identity) -> Finding:
    if identity.scopes is None:
        return Finding.fail("slack scopes", "Slack did not say which scopes the token has (no x-oauth-scopes "
                                            "header in its answer)",
                            "check that SLACK_API_BASE_URL is Slack's (https://slack.com/api/), not a proxy that "
                            "drops headers")
    wanted = set(BOT_SCOPES)
    missing = [s for s in BOT_SCOPES if s not in identity.scopes]
    extra = sorted(identity.scopes - wanted)
    if missing or extra:
        parts = ([f"lacks {', '.join(missing)}"] if missing else []) + \
                ([f"has {', '.join(extra)}, which recount-bot does not use"] if extra else [])
        return Finding.fail("slack scopes", f"the token {' and '.join(parts)}", REINSTALL)
    return Finding.ok("slack scopes", f"exactly the {len(wanted)} scopes of manifest.yml")


def check_approvals_channel(client: WebClient, db: Database, identity: Identity, now: dt.datetime) -> Finding:
    """The office's approvals channel is set, and the bot is in it (it posts requests there).

    Membership is asked with conversations.history reading nothing (a window in the future): conversations.info
    would need channels:read and groups:read, which the bot does not otherwise use. A bot not in a public channel
    gets `not_in_channel`, one not in a private channel `channel_not_found`."""
    from sqlalchemy import select

    from services.office.office_settings import OfficeSettings
    from storage.models import Workspace

    with db.read() as session:
        workspace = session.scalar(select(Workspace).where(Workspace.slack_team_id == identity.team_id))
        raw = dict(workspace.settings or {}) if workspace is not None else None
    if raw is None:
        return Finding.fail("approvals channel", f"no one in {identity.team} has used the bot yet, so no channel "
                                                 f"is set", "have the official type `/recount help` in Slack, then "
                                                 "`/recount admin setting approvals-channel #channel`")
    channel = OfficeSettings.of(raw).approvals_channel
    if not channel:
        return Finding.fail("approvals channel", "not set: recount requests are posted where they were entered",
                            "an official types `/recount admin setting approvals-channel #channel` in Slack")
    future = f"{(now + dt.timedelta(days=1)).timestamp():.6f}"
    try:
        client.conversations_history(channel=channel, oldest=future, limit=1)
    except SlackApiError as exc:
        code = _error(exc)
        if code in ("not_in_channel", "channel_not_found"):
            return Finding.fail("approvals channel", f"<#{channel}> is set, but the bot is not a member of it "
                                                     f"({code})",
                                "in that channel type `/invite @recount-bot` (or choose another channel)")
        return Finding.fail("approvals channel", f"Slack refused to say whether the bot is in <#{channel}>: {code}",
                            REINSTALL if code == "missing_scope" else "run doctor again; if it persists, see the "
                                                                      "slack token check")
    except OSError as exc:
        return Finding.fail("approvals channel", f"cannot reach Slack: {getattr(exc, 'reason', exc)}",
                            "see the slack token check")
    return Finding.ok("approvals channel", f"<#{channel}>, and the bot is a member")


def check_public_url(public_base_url: str | None) -> Finding:
    if not public_base_url:
        return Finding.fail("public URL", "PUBLIC_BASE_URL is not set: certificate and observers' links point at "
                                          "http://localhost",
                            "set PUBLIC_BASE_URL to the https:// address your reverse proxy serves (see "
                            "docs/admin/deploying.md)")
    url = f"{public_base_url}/healthz"
    request = urllib.request.Request(url, headers={"User-Agent": "recount-bot doctor"})
    try:
        with urllib.request.urlopen(request, timeout=HEALTH_TIMEOUT) as response:
            status, body = response.status, response.read(4096)
    except urllib.error.HTTPError as exc:
        return Finding.fail("public URL", f"{url} answered HTTP {exc.code}",
                            "503: serve cannot reach its database; 502/504: the reverse proxy cannot reach serve "
                            "(is it running, on PORT?); 404: the proxy does not pass /healthz to serve")
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return Finding.fail("public URL", f"{url} did not answer within {HEALTH_TIMEOUT:.0f} s: {reason}",
                            "check DNS, the firewall (port 443) and the reverse proxy; Slack needs this address")
    try:
        healthy = status == 200 and json.loads(body).get("ok") is True
    except (ValueError, AttributeError):
        healthy = False
    if not healthy:
        return Finding.fail("public URL", f"{url} answered, but not as recount-bot serve does (HTTP {status})",
                            "point the reverse proxy at serve's PORT")
    return Finding.ok("public URL", f"{url} answers: serve is reachable through it")
