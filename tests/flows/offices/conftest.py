from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rules.returns import parse_returns
from services.returns.versions import import_returns
from tests.support.offices import OFFICE_A, OFFICE_B, Office, TwoOffices

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "survey-of-returns.csv"


@pytest.fixture
def offices(db):
    h = TwoOffices(db)
    try:
        yield h
        assert h.slack.server_errors == [], "the Slack stand-in failed on a call"
    finally:
        h.close()


def load_returns(offices: TwoOffices, office: Office, *, name: str) -> None:
    """The example survey of returns, entered in `office` under an election name of its own."""
    data = EXAMPLE.read_bytes()
    import_returns(offices.services, team_id=office.team, returns=parse_returns(data), election_name=name,
                   election_date=dt.date(2026, 11, 3), local_government=f"{name} District",
                   governing_body="Board of Directors", source_name=EXAMPLE.name, source_bytes=data, actor="test")


@pytest.fixture
def installed(offices):
    """Both offices installed through the OAuth flow, each with its returns; each office's first check done."""
    for office in (OFFICE_A, OFFICE_B):
        assert offices.install(office).status == 200
    return offices
