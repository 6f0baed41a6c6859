"""Many offices on one install: Slack's OAuth v2 flow, and the authorize that gives each request its workspace's token.

    GET /slack/install          the "Add to Slack" page: a one-time state (stored in slack_oauth_states and in a
                                cookie of the browser that asked), and the link to Slack's consent page
    GET /slack/oauth_redirect   Slack sends the installer back here with a code and the state: the state is
                                checked (this browser's, not used, not expired), the code exchanged with
                                oauth.v2.access, and the workspace's bot token stored (slack_installations,
                                slack_bots)

Both are Bolt's own OAuthFlow with slack-sdk's SQLAlchemy stores on our database; the tables are created by
migration 0012, not by the stores. Bolt's own authorize for installations calls auth.test on every request
(it caches nothing unless told); ours reads the stored installation only, so an acknowledgement waits on one
database read, not on a round trip to Slack.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from urllib.parse import urljoin

from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.authorize import Authorize
from slack_bolt.oauth.oauth_settings import OAuthSettings

from bot.slack.scopes import BOT_SCOPES
from handlers.slack_io.clients import BotTokens, NotInstalled
from storage.db import Database
from storage.slack_installs import STATE_SECONDS, installation_store, state_store

log = logging.getLogger("recount_bot.oauth")

INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"


def authorization_url(api_base_url: str) -> str:
    """Slack's consent page beside its Web API: https://slack.com/api/ -> https://slack.com/oauth/v2/authorize (the
    stand-in serves the same path beside its /api/)."""
    return urljoin(api_base_url, "../oauth/v2/authorize")


@dataclass(frozen=True)
class OAuthConfig:
    client_id: str
    client_secret: str
    links_base_url: str  # PUBLIC_BASE_URL: Slack sends the installer back to <it>/slack/oauth_redirect
    api_base_url: str

    @property
    def redirect_uri(self) -> str:
        return self.links_base_url + REDIRECT_PATH

    def settings(self, db: Database) -> OAuthSettings:
        return OAuthSettings(
            client_id=self.client_id, client_secret=self.client_secret, scopes=list(BOT_SCOPES),
            redirect_uri=self.redirect_uri, install_path=INSTALL_PATH, redirect_uri_path=REDIRECT_PATH,
            authorization_url=authorization_url(self.api_base_url),
            installation_store=installation_store(db, self.client_id), installation_store_bot_only=True,
            state_store=state_store(db), state_expiration_seconds=STATE_SECONDS,
            logger=logging.getLogger("recount_bot.oauth"))


class InstalledAuthorize(Authorize):
    """A request's workspace's bot, from its stored installation (`BotTokens`); None when it never installed the
    app, and Bolt then answers the person that the app is not installed there, running no listener."""

    def __init__(self, tokens: BotTokens) -> None:
        super().__init__()
        self.tokens = tokens

    def __call__(self, *, context, enterprise_id, team_id, user_id, **_actor) -> AuthorizeResult | None:
        try:
            bot = self.tokens.for_team(team_id)
        except NotInstalled:
            log.warning("a request from Slack team %s, which has not installed the app: refused", team_id)
            return None
        return AuthorizeResult(enterprise_id=enterprise_id, team_id=team_id, bot_token=bot.token,
                               bot_id=bot.bot_id, bot_user_id=bot.bot_user_id, bot_scopes=list(bot.scopes),
                               user_id=user_id)
