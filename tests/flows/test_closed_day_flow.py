"""A day the governor or the president appointed as a holiday (C.R.S. 24-11-101(1)), entered by the official
through `/recount admin closed-day`: stored with an audit row, and every deadline of the office skips it as a
legal holiday (1-1-106(4), applied by 1-13.5-106(2)). Through signed requests into the real app, on SQLite and PostgreSQL."""
from __future__ import annotations

from sqlalchemy import select

from storage.models import AuditEntry, Workspace
from tests.flows.conftest import load_example
from tests.flows.test_request_flow import admin, grant, open_form
from tests.support.slack_app import STAFF, text_of


def test_an_appointed_day_is_entered_audited_and_moves_the_request_window(harness) -> None:
    load_example(harness)  # election Tue 2026-11-03: the window closes Fri 2026-11-20
    grant(harness, STAFF, "staff")
    assert "Fri 2026-11-20" in text_of(open_form(harness))

    told = admin(harness, "closed-day 2026-11-20 Day of prayer (Governor's proclamation)")
    assert "Fri 2026-11-20, Day of prayer (Governor's proclamation): a legal holiday (C.R.S. 24-11-101(1))" in told
    assert "Recorded in the audit log" in told
    with harness.services.db.transaction() as session:
        [row] = session.scalars(select(AuditEntry).where(AuditEntry.action == "calendar.appointed_holiday")).all()
        assert row.after["date"] == "2026-11-20" and row.after["citation"] == "C.R.S. 24-11-101(1)"
        settings = session.scalar(select(Workspace)).settings
        assert settings["appointed_holidays"] == {"2026-11-20": "Day of prayer (Governor's proclamation)"}

    # Fri 11-20 is now a legal holiday: the window runs over Sat and Sun to Mon 2026-11-23.
    view = text_of(open_form(harness))
    assert "Mon 2026-11-23" in view and "C.R.S. 1-1-106(4)" in view

    assert "already entered" in admin(harness, "closed-day 2026-11-20 Day of prayer (Governor's proclamation)")
    assert "Day of prayer" in admin(harness, "closed-days")
    assert "no longer" in admin(harness, "closed-day 2026-11-20 off")
    assert "Fri 2026-11-20" in text_of(open_form(harness))
    with harness.services.db.transaction() as session:
        assert len(session.scalars(select(AuditEntry).where(
            AuditEntry.action == "calendar.appointed_holiday")).all()) == 2


def test_a_bad_date_is_refused_naming_it_and_changes_nothing(harness) -> None:
    load_example(harness)
    told = admin(harness, "closed-day 2026-02-30 Day of prayer")
    assert "2026-02-30" in told and "YYYY-MM-DD" in told
    with harness.services.db.transaction() as session:
        assert session.scalars(select(AuditEntry).where(
            AuditEntry.action == "calendar.appointed_holiday")).all() == []


def test_only_an_official_enters_a_day(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "staff")
    told = len(harness.slack.calls_to("response_url"))
    harness.command("admin closed-day 2026-11-20 Day of prayer", user=STAFF)
    text = harness.wait("response_url", count=told + 1)[-1].args["text"]
    assert "official" in text
    with harness.services.db.transaction() as session:
        assert "appointed_holidays" not in (session.scalar(select(Workspace)).settings or {}) or \
            session.scalar(select(Workspace)).settings["appointed_holidays"] == {}
