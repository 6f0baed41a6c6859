"""`recount-bot socket`: the Slack app over Socket Mode, for an office behind a firewall.

The bot opens an outgoing WebSocket to Slack (apps.connections.open with the app-level token), so no
public URL is needed. Needs SLACK_APP_TOKEN (xapp-..., with the connections:write scope) besides
SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET. SIGTERM or Ctrl-C disconnects and stops cleanly.
"""
from __future__ import annotations

import argparse
import logging
import threading

from bot.commands.errors import CommandFailed, UsageError
from bot.commands.runtime import StopRequested, add_logging_argument, configure_logging, stop_on_signals

log = logging.getLogger("recount_bot.socket")
# apps.connections.open errors that mean the app-level token itself is wrong (exit 2, fix the setting).
TOKEN_ERRORS = {"invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive",
                "not_allowed_token_type", "missing_scope"}


def register(subparsers) -> None:
    parser = subparsers.add_parser("socket", help="run the Slack app over Socket Mode (also needs SLACK_APP_TOKEN)")
    add_logging_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from slack_bolt.adapter.socket_mode import SocketModeHandler
    from slack_sdk.errors import SlackApiError

    from bot.commands.startup import start_app

    configure_logging(args.log_level)
    started = start_app(require_app_token=True)
    app_token = started.settings.slack_app_token.get_secret_value()
    handler = SocketModeHandler(started.app, app_token)
    log.info("database: %s", started.db.describe())
    log.info("Slack API: %s (%s); connecting over Socket Mode", started.settings.slack_api_base_url, started.identity)
    try:
        with stop_on_signals():
            try:
                # What SocketModeHandler.start() does, minus its own SIGINT handling, so a signal stops us cleanly.
                handler.connect()
            except SlackApiError as exc:
                error = exc.response.get("error") if hasattr(exc.response, "get") else exc.response
                if error in TOKEN_ERRORS:
                    raise UsageError(f"SLACK_APP_TOKEN was refused by Slack: {error}") from None
                raise CommandFailed(f"Slack would not open a Socket Mode connection: {error}") from None
            except OSError as exc:
                raise CommandFailed(f"cannot open a Socket Mode connection to Slack: "
                                    f"{getattr(exc, 'reason', None) or exc}") from None
            log.info("connected over Socket Mode; waiting for events (Ctrl-C to stop)")
            threading.Event().wait()
    except StopRequested as stop:
        log.info("stopping (%s)", stop)
    finally:
        try:
            handler.close()
        finally:
            started.db.dispose()
    log.info("stopped")
    return 0
