"""The sandbox rehearses each recount law (issue 22): its example elections are on days lawful for their laws, each
stored with its law, and the clock chooses which are loaded, so `--clock` picks the law a clerk rehearses."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from rules.calendar import DENVER
from sandbox.clock import DEMO_START
from sandbox.seed import EXAMPLES, seed
from services.services import Services
from storage.models import Election
from storage.repositories import latest_election_day

TOWN = ("Regular Town Election", dt.date(2026, 4, 7), "31-10-1207")
COORDINATED = ("Coordinated Election", dt.date(2026, 11, 3), "1-10.5")
DISTRICTS = ("Regular Special District Election", dt.date(2027, 5, 4), "1-13.5-1306")


def test_each_example_is_held_on_a_day_its_law_holds_elections() -> None:
    days = {e.law: e.election_date for e in EXAMPLES}
    assert set(days) == {"1-13.5-1306", "31-10-1207", "1-10.5"}
    # 1-13.5-111: the Tuesday after the first Monday of May in an odd year.
    assert days["1-13.5-1306"].year % 2 == 1 and days["1-13.5-1306"].month == 5
    # 31-10-108: the first Tuesday of April in an even year; 1-10.5: a November coordinated election.
    assert days["31-10-1207"].year % 2 == 0 and days["31-10-1207"].month == 4 and days["31-10-1207"].day <= 7
    assert days["1-10.5"].month == 11
    assert all(d.weekday() == 1 for d in days.values())  # Tuesdays
    assert DEMO_START.astimezone(DENVER).date() > max(days.values())  # every example is held by the default clock


@pytest.mark.parametrize("today, loaded, latest", [
    (dt.date(2026, 4, 9), {TOWN}, TOWN),
    (dt.date(2026, 11, 16), {TOWN, COORDINATED}, COORDINATED),
    (DEMO_START.date(), {TOWN, COORDINATED, DISTRICTS}, DISTRICTS),
])
def test_the_clock_chooses_the_examples_loaded_each_with_its_law(db, today, loaded, latest) -> None:
    moment = dt.datetime.combine(today, dt.time(9), DENVER)
    services = Services(db, clock=lambda: moment)
    seeded = seed(services, "T0SANDBOX1", "Sandbox office", None)
    assert seeded.election is not None and f"under C.R.S. {latest[2]}" in seeded.election
    with db.transaction() as s:
        stored = {(e.name, e.election_date, e.law) for e in s.scalars(select(Election))}
        assert {e.law_basis for e in s.scalars(select(Election))} == {"given"}
        day = latest_election_day(s, s.scalars(select(Election)).first().local_government.workspace_id)
        assert {(e.name, e.election_date, e.law) for e in day} == {latest}
    assert stored == loaded
