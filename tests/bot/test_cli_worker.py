"""`recount-bot worker` through the real console script: it delivers what is due and exits with --once."""
from __future__ import annotations

import datetime as dt

from rules.returns import parse_returns
from sandbox.slack_standin import SlackStandIn
from services.office import access
from services.office.office_settings import OfficeSettings
from services.returns.checking import check
from services.returns.versions import import_returns
from services.services import Services
from storage.db import Database
from storage.migrate import upgrade
from tests.bot.test_cli_serve import GOOD, SECRET, run_with

CSV = b"contest,choice,votes,kind\nBallot Issue 6A,Yes,4339,question\nBallot Issue 6A,No,4318,question\n"


def test_worker_once_delivers_the_due_reminders(empty_database_url) -> None:
    db = Database(empty_database_url)
    upgrade(db)
    # A case opened in November 2025: its completion deadline (2025-12-02) has long passed, so the
    # worker owes an overdue reminder whatever day the test runs.
    services = Services(db, clock=lambda: dt.datetime(2025, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    with SlackStandIn(tokens={GOOD}, users=[{"id": "U0OFFICIAL", "name": "dana", "is_admin": True}]) as slack:
        import_returns(services, team_id=slack.state.workspace.team_id, returns=parse_returns(CSV),
                       election_name="Regular Election", election_date=dt.date(2025, 11, 4),
                       local_government="Bear Creek Fire", governing_body="Board", actor="test")
        access.bootstrap_official(services, slack.state.workspace.team_id, "U0OFFICIAL", reason="test")
        check(services, team_id=slack.state.workspace.team_id, actor="U0OFFICIAL", settings=OfficeSettings())
        db.dispose()
        result = run_with("worker", "--once", DATABASE_URL=empty_database_url, SLACK_BOT_TOKEN=GOOD,
                          SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url)
        assert result.returncode == 0, result.stderr
        assert "posts sent" in result.stdout
        texts = [c.args["text"] for c in slack.calls_to("chat.postMessage")]
        assert any("OVERDUE" in t and "Ballot Issue 6A" in t and "Late" in t for t in texts), texts
        again = run_with("worker", "--once", DATABASE_URL=empty_database_url, SLACK_BOT_TOKEN=GOOD,
                         SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url)
        assert again.returncode == 0
        assert len(slack.calls_to("chat.postMessage")) == len(texts)  # nothing twice
