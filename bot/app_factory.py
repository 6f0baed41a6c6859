"""Builds the Bolt app, once, from explicit parts: no global app, nothing read from the environment here."""
from __future__ import annotations

import json
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App, BoltResponse
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)

from bot.slack.oauth import InstalledAuthorize, OAuthConfig
from handlers import build_registry
from handlers.interaction import DeferredRunner, global_error_handler, register_routes
from handlers.registry import Registry
from handlers.slack_io.clients import InstalledTokens
from handlers.slack_io.reading_child import ParseLimits
from services.services import Services

log = logging.getLogger("recount_bot.app")


def web_client(token: str | None, base_url: str) -> WebClient:
    """A Web API client that waits out 429s (honouring Retry-After) and retries 5xx and dropped connections."""
    return WebClient(
        token=token, base_url=base_url, timeout=15,
        retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=3), ServerErrorRetryHandler(max_retry_count=2),
                        ConnectionErrorRetryHandler(max_retry_count=2)],
    )


def one_office_only(context, body: dict, next) -> BoltResponse | None:
    """One office (a bot token): the token speaks for one workspace, the one auth.test names. A signed request from
    another workspace (someone of another organisation in a channel shared with it, a payload signed with a leaked
    secret) is refused before any listener: it would otherwise make a `workspaces` row of its own and act there.
    One log line with a reference; Slack gets a 200 (a slash command a line saying why), so it does not retry."""
    office = getattr(context.authorize_result, "team_id", None)
    team = context.team_id
    if not office or not team or team == office:
        return next()
    reference = secrets.token_hex(4).upper()
    log.warning("refused a request from workspace %.40r: this recount-bot serves workspace %s only (one office); "
                "reference %s", team, office, reference)
    if body.get("command"):
        text = ("recount-bot here serves another Slack workspace; nothing was done. "
                f"Reference: {reference}")
        return BoltResponse(status=200, body=json.dumps({"response_type": "ephemeral", "text": text}),
                            headers={"content-type": "application/json"})
    return BoltResponse(status=200, body="")


def build_app(*, services: Services, signing_secret: str, api_base_url: str, bot_token: str | None = None,
              oauth: OAuthConfig | None = None, registry: Registry | None = None, verify_token: bool = True,
              listener_threads: int = 16, deferred_runner: DeferredRunner | None = None,
              parse_limits: ParseLimits | None = None) -> App:
    """The app with every declared listener. Raises if a listener does not declare its role.

    One office: `bot_token` speaks for every request; with `verify_token`, Bolt calls auth.test now, so a wrong
    token stops start-up instead of the first command. Many offices: `oauth` adds Slack's install flow
    (bot/slack/oauth.py) and each request gets the bot token its workspace's installation stored. Exactly one of
    the two. With a `deferred_runner`, deferred work is handed to it (another process) instead of Bolt's lazy
    listeners on this process's executor. `parse_limits`: the memory and time an uploaded results file may take to
    read, in a child process (default: handlers/slack_io/reading_child.py's).
    """
    if (bot_token is None) == (oauth is None):
        raise ValueError("build_app takes a bot_token (one office) or an oauth config (many offices), not both")
    registry = registry if registry is not None else build_registry()
    registry.validate()
    common = dict(signing_secret=signing_secret, process_before_response=True,
                  listener_executor=ThreadPoolExecutor(max_workers=listener_threads, thread_name_prefix="listener"),
                  logger=logging.getLogger("recount_bot.bolt"))
    if oauth is None:
        app = App(client=web_client(bot_token, api_base_url), token_verification_enabled=verify_token, **common)
        app.middleware(one_office_only)
    else:
        settings = oauth.settings(services.db)
        # The app's own client carries no token: Bolt copies it (base URL, retries) for each request and sets the
        # token its authorize found; the install flow uses it for oauth.v2.access.
        app = App(client=web_client(None, api_base_url), oauth_settings=settings,
                  authorize=InstalledAuthorize(InstalledTokens(services.db, oauth.client_id)),
                  user_facing_authorize_error_message=(
                      f"recount-bot is not installed in this workspace, so nothing was done. An official of "
                      f"the office installs it from {oauth.links_base_url}/slack/install"), **common)
    register_routes(app, registry, services, deferred_runner, parse_limits)
    app.error(global_error_handler)
    return app
