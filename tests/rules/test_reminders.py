"""Reminder times: 7, 3, 1 days before at 9:00 Colorado time, on the day, then daily while overdue."""
from __future__ import annotations

import datetime as dt

import pytest

from rules.reminders import ReminderKind, next_overdue, schedule

UTC = dt.timezone.utc


def test_default_schedule_is_at_nine_in_colorado_across_the_dst_change() -> None:
    # The completion deadline of an election on 2026-11-03 is Tue 2026-12-01 (MST, UTC-7).
    slots = schedule(dt.date(2026, 12, 1))
    assert [(s.kind, s.days) for s in slots] == [
        (ReminderKind.BEFORE, 7), (ReminderKind.BEFORE, 3), (ReminderKind.BEFORE, 1), (ReminderKind.ON_THE_DAY, 0)]
    assert [s.fire_at for s in slots] == [
        dt.datetime(2026, 11, 24, 16, 0, tzinfo=UTC), dt.datetime(2026, 11, 28, 16, 0, tzinfo=UTC),
        dt.datetime(2026, 11, 30, 16, 0, tzinfo=UTC), dt.datetime(2026, 12, 1, 16, 0, tzinfo=UTC)]
    # A deadline on Mon 2026-11-02 has its 7-day reminder on Mon 2026-10-26, still daylight time (UTC-6).
    assert schedule(dt.date(2026, 11, 2))[0].fire_at == dt.datetime(2026, 10, 26, 15, 0, tzinfo=UTC)


def test_offices_choose_their_offsets_and_hour() -> None:
    slots = schedule(dt.date(2026, 12, 1), offsets=(2, 14), hour=dt.time(8, 30))
    assert [s.days for s in slots] == [14, 2, 0]
    assert slots[-1].fire_at == dt.datetime(2026, 12, 1, 15, 30, tzinfo=UTC)
    with pytest.raises(ValueError):
        schedule(dt.date(2026, 12, 1), offsets=(0,))


def test_overdue_reminders_come_daily_after_the_deadline() -> None:
    due = dt.date(2026, 12, 1)
    first = next_overdue(due, dt.datetime(2026, 12, 1, 16, 0, tzinfo=UTC))
    assert (first.kind, first.days, first.fire_at) == (ReminderKind.OVERDUE, 1, dt.datetime(2026, 12, 2, 16, 0, tzinfo=UTC))
    later = next_overdue(due, dt.datetime(2026, 12, 5, 20, 0, tzinfo=UTC))
    assert (later.days, later.fire_at) == (5, dt.datetime(2026, 12, 6, 16, 0, tzinfo=UTC))
    assert first.label() == "overdue by 1 day" and schedule(due)[0].label() == "7 days before"
