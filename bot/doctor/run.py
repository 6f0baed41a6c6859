"""Every check of `recount-bot doctor`, in order, each skipped (never passed) when what it needs failed."""
from __future__ import annotations

import os
from typing import Callable

from slack_sdk import WebClient

from bot.doctor import database_checks as dbc
from bot.doctor import slack_checks as sc
from bot.doctor.findings import Finding, Status
from bot.settings import Settings, SettingsError, load_settings
from services.public_url import check_public_base_url
from storage.types import utcnow

SLACK_TIMEOUT = 10  # seconds per Web API call; doctor makes no retries of its own


def _settings() -> tuple[Settings | None, Finding]:
    try:
        settings = load_settings()
    except SettingsError as exc:
        return None, Finding.fail("settings", "; ".join(exc.lines),
                                  "set them in the service's EnvironmentFile (docs/admin/deploying.md), then restart")
    return settings, Finding.ok("settings", "every setting is valid")


def run_checks(now: Callable = utcnow) -> list[Finding]:
    findings: list[Finding] = []
    settings, found = _settings()
    findings.append(found)

    from bot.commands.common import database_url

    db, failed = dbc.open_database(settings.database_url if settings else database_url())
    database = failed or dbc.check_migrated(db)
    findings.append(database)
    db_ready = database.status is Status.OK
    try:
        if settings is not None and settings.many_offices:
            findings += _installed_offices(settings, db, db_ready, now)
        else:
            findings += _one_office(settings, db, db_ready, now)
        findings.append(_public_url(settings))
        for name, check in (("worker", lambda: dbc.check_worker(db, now())),
                            ("outbox", lambda: dbc.check_outbox(db, now())),
                            ("audit log", lambda: dbc.check_audit(db))):
            findings.append(check() if db_ready else Finding.skipped(name, "the database is not ready"))
    finally:
        if db is not None:
            db.dispose()
    return findings


def _one_office(settings: Settings | None, db, db_ready: bool, now: Callable) -> list[Finding]:
    """SLACK_BOT_TOKEN: its acceptance, its scopes, the office's approvals channel."""
    if settings is None:
        return [*(Finding.skipped(c, "the settings are not valid") for c in ("slack token", "slack scopes")),
                Finding.skipped("approvals channel", "the settings are not valid")]
    client = WebClient(token=settings.slack_bot_token.get_secret_value(), base_url=settings.slack_api_base_url,
                       timeout=SLACK_TIMEOUT, retry_handlers=[])
    return _office(client, settings, db, db_ready, now, suffix="")


def _office(client: WebClient, settings: Settings, db, db_ready: bool, now: Callable, *, suffix: str) -> list[Finding]:
    identity, token = sc.check_token(client, settings.slack_api_base_url)
    found = [token, sc.check_scopes(identity) if identity else
             Finding.skipped("slack scopes", "Slack did not accept the token")]
    if identity is None:
        found.append(Finding.skipped("approvals channel", "Slack did not accept the token"))
    elif not db_ready:
        found.append(Finding.skipped("approvals channel", "the database is not ready"))
    else:
        found.append(sc.check_approvals_channel(client, db, identity, now()))
    if not suffix:
        return found
    reinstall = f"an official of that office installs the app again from {settings.links_base_url}/slack/install"
    return [Finding(f.check + suffix, f.status, f.detail,
                    reinstall if f.check == "slack token" and f.fix else f.fix) for f in found]


def _installed_offices(settings: Settings, db, db_ready: bool, now: Callable) -> list[Finding]:
    """Many offices: the same three checks for every workspace that installed the app, with its own token."""
    from handlers.slack_io.clients import InstalledTokens

    if not db_ready:
        return [Finding.skipped("slack installations", "the database is not ready")]
    tokens = InstalledTokens(db, settings.slack_client_id)
    teams = tokens.teams()
    if not teams:
        return [Finding.fail("slack installations", f"no workspace has installed the app (SLACK_CLIENT_ID "
                                                    f"{settings.slack_client_id}) yet",
                             f"an official of each office opens {settings.links_base_url}/slack/install and "
                             f"chooses Allow")]
    findings = [Finding.ok("slack installations", f"{len(teams)} workspace{'s' if len(teams) != 1 else ''}: "
                                                  f"{', '.join(teams)}")]
    for team in teams:
        client = WebClient(token=tokens.for_team(team).token, base_url=settings.slack_api_base_url,
                           timeout=SLACK_TIMEOUT, retry_handlers=[])
        findings += _office(client, settings, db, db_ready, now, suffix=f" ({team})")
    return findings


def _public_url(settings: Settings | None) -> Finding:
    """PUBLIC_BASE_URL answering /healthz; checked even when another setting is bad, unless it is itself."""
    if settings is not None:
        return sc.check_public_url(settings.public_base_url)
    raw = (os.environ.get("PUBLIC_BASE_URL") or "").strip()
    try:
        return sc.check_public_url(check_public_base_url(raw) if raw else None)
    except ValueError:
        return Finding.skipped("public URL", "PUBLIC_BASE_URL is not valid (see settings)")
