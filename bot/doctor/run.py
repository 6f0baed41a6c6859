"""Every check of `recount-bot doctor`, in order, each skipped (never passed) when what it needs failed."""
from __future__ import annotations

import os
from typing import Callable

from slack_sdk import WebClient

from bot.doctor import database_checks as dbc
from bot.doctor import slack_checks as sc
from bot.doctor.findings import Finding, Status
from bot.settings import Settings, SettingsError, check_public_base_url, load_settings
from storage.types import utcnow

SLACK_TIMEOUT = 10  # seconds per Web API call; doctor makes no retries of its own


def _settings() -> tuple[Settings | None, Finding]:
    try:
        settings = load_settings()
    except SettingsError as exc:
        return None, Finding.fail("settings", "; ".join(exc.lines),
                                  "set them in the service's EnvironmentFile (docs/deploying.md), then restart")
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
        identity = None
        if settings is None:
            findings += [Finding.skipped(c, "the settings are not valid") for c in ("slack token", "slack scopes")]
        else:
            client = WebClient(token=settings.slack_bot_token.get_secret_value(),
                               base_url=settings.slack_api_base_url, timeout=SLACK_TIMEOUT, retry_handlers=[])
            identity, token = sc.check_token(client, settings.slack_api_base_url)
            findings.append(token)
            findings.append(sc.check_scopes(identity) if identity else
                            Finding.skipped("slack scopes", "Slack did not accept the token"))
        if identity is None:
            findings.append(Finding.skipped("approvals channel", "Slack did not accept the token"
                                            if settings else "the settings are not valid"))
        elif not db_ready:
            findings.append(Finding.skipped("approvals channel", "the database is not ready"))
        else:
            findings.append(sc.check_approvals_channel(client, db, identity, now()))
        findings.append(_public_url(settings))
        for name, check in (("worker", lambda: dbc.check_worker(db, now())),
                            ("outbox", lambda: dbc.check_outbox(db, now())),
                            ("audit log", lambda: dbc.check_audit(db))):
            findings.append(check() if db_ready else Finding.skipped(name, "the database is not ready"))
    finally:
        if db is not None:
            db.dispose()
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
