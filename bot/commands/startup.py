"""Starting the Slack app for `serve`, `socket` and `run`: settings, the database, the token, the app.

Each step that can fail says so in one line naming what to fix: bad settings and a token Slack refuses
exit 2; a database or Slack that cannot be reached exits 1.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from slack_bolt import App
from slack_bolt.error import BoltError
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.app_factory import build_app, web_client
from bot.commands.common import open_database
from bot.commands.errors import CommandFailed, UsageError
from bot.deferred.process import DeferredConfig, DeferredWorkProcess
from bot.settings import Settings, SettingsError, load_settings
from bot.slack.oauth import OAuthConfig
from handlers.slack_io.clients import Clients, InstalledTokens, bot_tokens
from services.services import Services
from storage.db import Database

log = logging.getLogger("recount_bot.cli")


@dataclass
class Started:
    settings: Settings
    db: Database
    app: App
    identity: str  # "team Recount Office (T0123) as @recount-bot", from auth.test
    services: Services | None = None
    deferred: DeferredWorkProcess | None = None  # where deferred work runs, when not on this process's threads

    def close(self) -> None:
        """Stop the deferred-work process (after the jobs it has), then close the database."""
        try:
            if self.deferred is not None:
                self.deferred.stop()
        finally:
            self.db.dispose()


def settings_or_exit(*, require_app_token: bool = False) -> Settings:
    try:
        return load_settings(require_app_token=require_app_token)
    except SettingsError as exc:
        count = len(exc.lines)
        raise UsageError("\n".join([f"cannot start: {count} setting{'s' if count != 1 else ''} to fix",
                                    *(f"  {line}" for line in exc.lines),
                                    "(set them in the environment; see the README's command-line section)"])
                         ) from None


def _slack_error(exc: SlackApiError) -> str:
    try:
        return str(exc.response.get("error") or f"HTTP {exc.response.status_code}")
    except Exception:  # a non-JSON answer (a proxy's error page)
        return f"HTTP {getattr(exc.response, 'status_code', '?')}"


def slack_clients(settings: Settings, db: Database, make: Callable[[str, str], WebClient] = web_client) -> Clients:
    """Each workspace's Web API client, as the settings' mode has it: SLACK_BOT_TOKEN's for every workspace, or
    the one each workspace's installation stored (many offices). `make(token, base_url)` builds one."""
    tokens = bot_tokens(db, bot_token=settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None,
                        client_id=settings.slack_client_id)
    return Clients(tokens, lambda token: make(token, settings.slack_api_base_url), db)


def oauth_config(settings: Settings) -> OAuthConfig | None:
    if not settings.many_offices:
        return None
    return OAuthConfig(settings.slack_client_id, settings.slack_client_secret.get_secret_value(),
                       settings.links_base_url, settings.slack_api_base_url)


def verify_token(settings: Settings, db: Database | None = None) -> str:
    """auth.test with the bot token: a refused token is a UsageError naming SLACK_BOT_TOKEN (exit 2); a Slack
    that cannot be reached is a CommandFailed (exit 1). Returns who the token speaks for. Many offices: no
    token of our own; says how many workspaces have installed the app."""
    if settings.many_offices:
        teams = InstalledTokens(db, settings.slack_client_id).teams() if db is not None else []
        return (f"many offices (SLACK_CLIENT_ID {settings.slack_client_id}): {len(teams)} workspace"
                f"{'s' if len(teams) != 1 else ''} installed; more install from {settings.links_base_url}"
                f"/slack/install")
    client = web_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_base_url)
    try:
        found = client.auth_test()
    except SlackApiError as exc:
        raise UsageError(f"SLACK_BOT_TOKEN was refused by Slack: {_slack_error(exc)}") from None
    except OSError as exc:  # URLError, connection refused, DNS, TLS
        reason = getattr(exc, "reason", None) or exc
        raise CommandFailed(f"cannot reach Slack at {settings.slack_api_base_url} (SLACK_API_BASE_URL): "
                            f"{reason}") from None
    return f"team {found.get('team')} ({found.get('team_id')}) as @{found.get('user')}"


def start_app(*, require_app_token: bool = False, deferred_process: bool = False,
              log_level: str = "INFO") -> Started:
    """Settings, migrations, the token, then the app: the order `serve` and `socket` start in. With
    `deferred_process`, deferred work runs in a child process (bot/deferred/process.py)."""
    settings = settings_or_exit(require_app_token=require_app_token)
    db = open_database(settings.database_url)
    deferred = None
    try:
        identity = verify_token(settings, db)
        services = Services(db)
        bot_token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
        if deferred_process:
            deferred = DeferredWorkProcess(DeferredConfig(
                database_url=settings.database_url, bot_token=bot_token, slack_client_id=settings.slack_client_id,
                api_base_url=settings.slack_api_base_url, log_level=log_level), services.outbox_wake)
        app = build_app(services=services, bot_token=bot_token, oauth=oauth_config(settings),
                        signing_secret=settings.slack_signing_secret.get_secret_value(),
                        api_base_url=settings.slack_api_base_url,
                        deferred_runner=deferred.submit if deferred else None,
                        parse_limits=settings.parse_limits)
        if deferred is not None:
            deferred.start()
    except BoltError as exc:  # auth.test passed a moment ago; Bolt refused for another reason
        db.dispose()
        raise CommandFailed(f"the Slack app could not start: {str(exc).splitlines()[0]}") from None
    except BaseException:
        if deferred is not None:
            deferred.stop()
        db.dispose()
        raise
    return Started(settings, db, app, identity, services, deferred)
