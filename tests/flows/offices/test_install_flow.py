"""Many offices on one install: each office installs the app through Slack's OAuth v2 flow (/slack/install, Slack's
consent page, /slack/oauth_redirect), and gets a bot token of its own workspace."""
from __future__ import annotations

import urllib.request
from urllib.parse import parse_qs, urlsplit

from sqlalchemy import func, select

from bot.slack.oauth import REDIRECT_PATH
from storage.models import Workspace
from storage.models.slack_install import slack_bots, slack_installations, slack_oauth_states
from tests.support.offices import CLIENT_ID, OFFICE_A, OFFICE_B, browser, visit


def _count(db, table) -> int:
    with db.engine.connect() as connection:
        return connection.scalar(select(func.count()).select_from(table))


def test_each_office_installs_through_slack_and_gets_a_token_of_its_own_workspace(offices) -> None:
    page = offices.install(OFFICE_A)
    assert page.status == 200 and page.url.startswith(offices.server.url + REDIRECT_PATH)
    assert "slack://app?team=T0OFFICEA1" in page.body  # Bolt's "open Slack" link for the workspace
    assert offices.install(OFFICE_B).status == 200
    token_a, token_b = offices.token_of(OFFICE_A), offices.token_of(OFFICE_B)
    assert token_a != token_b and token_a.startswith("xoxb-T0OFFICEA1-") and token_b.startswith("xoxb-T0OFFICEB1-")
    # Slack was asked with the app's credentials, and for exactly the manifest's scopes.
    exchanges = offices.slack.calls_to("oauth.v2.access")
    assert [c.status for c in exchanges] == [200, 200] and all(c.response["ok"] for c in exchanges)
    consent = offices.slack.calls_to("oauth/v2/authorize")[0].args
    from bot.slack.scopes import BOT_SCOPES

    assert consent["client_id"] == CLIENT_ID and consent["scope"].split(",") == list(BOT_SCOPES)
    assert consent["redirect_uri"] == offices.server.url + REDIRECT_PATH
    with offices.db.engine.connect() as connection:
        rows = connection.execute(select(slack_bots.c.team_id, slack_bots.c.bot_id, slack_bots.c.team_name)
                                  .order_by(slack_bots.c.team_id)).all()
    assert rows == [("T0OFFICEA1", "B0ABOTID01", "Adams County Clerk"), ("T0OFFICEB1", "B0BBOTID01",
                                                                          "Boulder Districts")]
    assert _count(offices.db, slack_installations) == 2
    assert _count(offices.db, slack_oauth_states) == 0  # each state used once, and gone


def test_a_state_from_another_browser_is_refused_and_installs_nothing(offices) -> None:
    link = offices.install_link(OFFICE_A, browser())  # started in one browser...
    page = visit(browser(), link)  # ...finished in another (a link sent to someone else, or forged)
    assert page.status == 400
    assert _count(offices.db, slack_bots) == 0


def test_a_used_state_cannot_install_twice(offices) -> None:
    link = offices.install_link(OFFICE_A, browser())
    state = parse_qs(urlsplit(link).query)["state"][0]

    def finish() -> int:  # the browser that holds the state's cookie, back at Slack's consent page
        request = urllib.request.Request(link, headers={"Cookie": f"slack-app-oauth-state={state}"})
        return visit(urllib.request.build_opener(), request).status

    assert finish() == 200
    assert finish() == 401  # a new code from Slack, but the state is spent: Bolt's "invalid_state"
    assert _count(offices.db, slack_bots) == 1


def test_a_request_from_a_workspace_that_never_installed_runs_nothing(offices) -> None:
    offices.install(OFFICE_A)
    offices.command("check", team=OFFICE_B.team, user=OFFICE_B.official, channel=OFFICE_B.channel)
    told = offices.wait("response_url")[0].args["text"]
    assert "not installed in this workspace" in told and f"{offices.server.url}/slack/install" in told
    with offices.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Workspace)) == 0  # nothing ran, nothing recorded
    assert offices.slack.calls_to("chat.postMessage") == []
