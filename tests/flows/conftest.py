from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rules.returns import parse_returns
from services.returns.versions import import_returns
from tests.support.slack_app import TEAM, SlackHarness

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "survey-of-returns.csv"


@pytest.fixture
def harness(db):
    h = SlackHarness(db)
    try:
        yield h
        assert h.slack.server_errors == [], "the Slack stand-in failed on a call"
    finally:
        h.close()


def load_example(harness: SlackHarness, *, path: Path = EXAMPLE, name: str = "Regular Special District Election",
                 date: dt.date = dt.date(2026, 11, 3), local_government: str = "Front Range Special Districts",
                 governing_body: str = "Board of Directors") -> None:
    data = path.read_bytes()
    import_returns(harness.services, team_id=TEAM, returns=parse_returns(data), election_name=name,
                   election_date=date, local_government=local_government,
                   governing_body=governing_body, source_name=path.name, source_bytes=data, actor="test")
