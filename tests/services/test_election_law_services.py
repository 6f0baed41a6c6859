"""An election's law at the service seam, on each database: a law never chosen may be named until something is
decided under it, and not after."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from rules.returns import parse_returns
from services.errors import UserError
from services.returns.versions import import_returns
from storage.models import AuditEntry, Election
from tests.support.recount_office import CSV, TEAM, recount_in_progress


def _reimport(services, law: str):
    return import_returns(services, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                          election_date=dt.date(2026, 11, 3), local_government="Pine Ridge", actor="test", law=law)


def test_a_law_never_chosen_is_not_changed_once_a_request_and_case_were_decided_under_it(db) -> None:
    services, _, _ = recount_in_progress(db)  # imported without a law: 1-13.5-1306 by default
    with db.read() as s:
        assert s.scalars(select(Election)).one().law_basis == "default"
    with pytest.raises(UserError) as refused:
        _reimport(services, "31-10-1207")
    assert "held under C.R.S. 1-13.5-1306" in str(refused.value) and "C.R.S. 31-10-1207" in str(refused.value)
    with db.read() as s:
        election = s.scalars(select(Election)).one()
        assert (election.law, election.law_basis) == ("1-13.5-1306", "default")
        assert not s.scalars(select(AuditEntry).where(AuditEntry.action == "election.law_named")).all()
    # Naming the law it already runs under changes nothing and is not refused.
    _reimport(services, "1-13.5-1306")
    with db.read() as s:
        assert s.scalars(select(Election)).one().law_basis == "default"
