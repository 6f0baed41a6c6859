"""The first days of the windows still open (rules.deadlines.request_window_open_since, contest_window_open_since):
the worker's poll and App Home read only the elections and the completed cases these let through, so a window they
call closed must really be closed under the statute's own counting, weekends, holidays and the office's closures
included. Checked against `request_deadline` and `contest_filing_deadline` themselves, for every day around."""
from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.calendar import ColoradoCalendar
from rules.deadlines import (
    contest_filing_deadline,
    contest_window_open_since,
    request_deadline,
    request_window_open_since,
)

DAYS = st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2030, 12, 31))
# An office's closures: runs of a few days, so that rolled deadlines can cross several of them.
CLOSURES = st.lists(st.tuples(DAYS, st.integers(min_value=1, max_value=6)), max_size=4).map(
    lambda runs: {start + dt.timedelta(days=i): "closed" for start, length in runs for i in range(length)})


@settings(max_examples=60, deadline=None)
@given(today=DAYS, closures=CLOSURES)
def test_the_request_window_is_open_exactly_for_elections_from_its_first_day(today, closures) -> None:
    calendar = ColoradoCalendar(extra_closures=closures)
    since = request_window_open_since(today, calendar)
    for offset in range(-45, 5):
        election = today + dt.timedelta(days=offset)
        assert (request_deadline(election, calendar).date >= today) == (election >= since), election


@settings(max_examples=60, deadline=None)
@given(today=DAYS, closures=CLOSURES)
def test_the_contest_window_is_open_exactly_for_recent_conclusions_or_recent_elections(today, closures) -> None:
    calendar = ColoradoCalendar(extra_closures=closures)
    concluded_since, election_since = contest_window_open_since(today, calendar)
    for election_offset in range(-70, 0, 3):
        election = today + dt.timedelta(days=election_offset)
        for concluded_offset in range(1, 60, 4):
            concluded = election + dt.timedelta(days=concluded_offset)
            open_ = contest_filing_deadline(election, concluded, calendar).date >= today
            assert open_ == (concluded >= concluded_since or election >= election_since), (election, concluded)


def test_a_long_closure_keeps_an_earlier_window_open() -> None:
    # Wed 2026-11-25 to Sun 2026-11-29 closed (Thanksgiving, the office's own Friday, the weekend): an election
    # whose 17th day fell on Wed 11-25 files on Mon 11-30, so on Mon 11-30 its window is still open.
    calendar = ColoradoCalendar(extra_closures={dt.date(2026, 11, 25): "closed", dt.date(2026, 11, 27): "closed"})
    assert request_deadline(dt.date(2026, 11, 8), calendar).date == dt.date(2026, 11, 30)
    assert request_window_open_since(dt.date(2026, 11, 30), calendar) == dt.date(2026, 11, 8)
