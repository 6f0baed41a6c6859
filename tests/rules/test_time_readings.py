"""Article 13.5's computation of time and the days the governor or the president appoints, case by case.

C.R.S. 1-13.5-107(1): "Calendar days shall be used in all computations of time made under this article."
1-13.5-107(2) extends a period only "in computing time for any act or event to be done before any local government
election"; a recount's filings come after it, so their last day rolls under 1-1-106(4), which 1-13.5-106(2) applies
to article 13.5: "If the last day for any act to be done or the last day of any period is a Saturday, Sunday, or
legal holiday and completion of such act involves a filing or other action during business hours, the period is
extended to include the next day which is not a Saturday, Sunday, or legal holiday."
24-11-101(1): legal holidays include "any day appointed or recommended by the governor of this state or the
president of the United States as a day of fasting or prayer or thanksgiving"; (2): "In case any of said
holidays or any other legal holiday so designated falls upon a Sunday, then the Monday following shall be
considered as the holiday".

Every date below was counted by hand, its weekday written beside it.
"""
from __future__ import annotations

from datetime import date as D

import pytest

from rules.calendar import DEFAULT_CALENDAR, ColoradoCalendar
from rules.contest import Contest
from rules.deadlines import (
    CompletionRollover,
    automatic_recount_deadline,
    contest_filing_deadline,
    request_deadline,
)
from rules.margin import MultiSeatRule, check_automatic_recount

ROLLOVER_WORDS = ("If the last day for any act to be done or the last day of any period is a Saturday, Sunday, or "
                  "legal holiday and completion of such act involves a filing or other action during business hours, "
                  "the period is extended to include the next day which is not a Saturday, Sunday, or legal holiday.")


def test_a_request_window_ending_on_a_saturday_is_extended_under_1_1_106_4() -> None:
    # Wed 2026-11-04 + 17 = Sat 2026-11-21 -> Mon 2026-11-23.
    d = request_deadline(D(2026, 11, 4))
    assert (d.rolled_from, d.date) == (D(2026, 11, 21), D(2026, 11, 23))
    assert "C.R.S. 1-1-106(4)" in d.reason and "C.R.S. 1-1-106(4)" in d.note
    assert "1-13.5-107(2)" not in d.reason + d.note + d.reading  # that subsection is about acts before an election
    assert "applied by C.R.S. 1-13.5-106(2)" in d.reading and ROLLOVER_WORDS in d.reading  # quoted whole


def test_calendar_days_are_counted_under_1_13_5_107_1() -> None:
    assert request_deadline(D(2026, 11, 3)).as_json()["counting"].startswith("calendar days (C.R.S. 1-13.5-107(1))")


def test_the_contest_deadline_rolls_as_a_filing_under_1_1_106_4() -> None:
    # Request window of Tue 2026-11-03 closes Fri 11-20; + 10 = Mon 11-30, a business day: no roll.
    # Concluded Wed 2026-12-02 + 10 = Sat 2026-12-12 -> Mon 2026-12-14.
    d = contest_filing_deadline(D(2026, 11, 3), recount_concluded=D(2026, 12, 2))
    assert (d.rolled_from, d.date) == (D(2026, 12, 12), D(2026, 12, 14))
    assert "C.R.S. 1-1-106(4)" in d.note and "C.R.S. 1-1-106(4)" in d.reading


def test_completion_deadlines_name_what_could_roll_them_in_both_readings() -> None:
    # Thu 2026-10-29 + 28 = Thu 2026-11-26, Thanksgiving Day.
    flagged = automatic_recount_deadline(D(2026, 10, 29))
    assert flagged.falls_on == "Thanksgiving Day" and flagged.date == D(2026, 11, 26)
    assert "C.R.S. 1-1-106(4)" in flagged.reading and "filing" in flagged.reading
    rolled = automatic_recount_deadline(D(2026, 10, 29), CompletionRollover.NEXT_BUSINESS_DAY)
    assert rolled.date == D(2026, 11, 27)
    assert "C.R.S. 2-4-108(2)" in rolled.reading and "C.R.S. 24-11-110" in rolled.reading


# ----------------------------------------------------------------- 24-11-101(1): appointed days

def test_a_day_appointed_by_the_governor_is_a_legal_holiday() -> None:
    cal = ColoradoCalendar(appointed_holidays={D(2026, 11, 20): "Day of prayer (Governor's proclamation)"})
    assert not cal.is_business_day(D(2026, 11, 20))
    assert cal.holiday_name(D(2026, 11, 20)) == "Day of prayer (Governor's proclamation) (appointed, C.R.S. 24-11-101(1))"
    assert D(2026, 11, 20) in cal.legal_holidays(2026)
    assert DEFAULT_CALENDAR.is_business_day(D(2026, 11, 20))  # the default calendar is untouched


def test_a_request_window_closing_on_an_appointed_day_runs_to_the_next_business_day() -> None:
    # Tue 2026-11-03 + 17 = Fri 2026-11-20, appointed by the president -> Sat, Sun -> Mon 2026-11-23.
    cal = ColoradoCalendar(appointed_holidays={D(2026, 11, 20): "National day of prayer"})
    d = request_deadline(D(2026, 11, 3), calendar=cal)
    assert (d.rolled_from, d.date) == (D(2026, 11, 20), D(2026, 11, 23))
    assert "National day of prayer" in d.note and "C.R.S. 1-1-106(4)" in d.note


def test_an_appointed_day_on_a_sunday_makes_the_monday_after_a_holiday_under_24_11_101_2() -> None:
    # Sun 2026-11-22 appointed: Mon 2026-11-23 is the holiday too. Wed 2026-11-04 + 17 = Sat 11-21 ->
    # Sun 11-22 -> Mon 11-23 (observed) -> Tue 2026-11-24.
    cal = ColoradoCalendar(appointed_holidays={D(2026, 11, 22): "Day of thanksgiving"})
    assert "24-11-101(2)" in cal.holiday_name(D(2026, 11, 23))
    assert request_deadline(D(2026, 11, 4), calendar=cal).date == D(2026, 11, 24)


def test_an_appointed_day_needs_a_date_and_a_name() -> None:
    with pytest.raises(ValueError):
        ColoradoCalendar(appointed_holidays={D(2026, 11, 20): " "})
    with pytest.raises(TypeError):
        ColoradoCalendar(appointed_holidays={"2026-11-20": "x"})


# --------------------------------------------------- the top-two reading's tie note (1), 1-13.5-1304

def test_top_two_tie_note_does_not_speak_of_a_recount_it_does_not_order() -> None:
    # Two seats: A 3,000, B 1,000, C 1,000. Top two (A against B): 2,000 * 200 > 3,000, no recount under (1).
    board = Contest.from_totals("Board", {"A": 3000, "B": 1000, "C": 1000}, seats=2)
    decision = check_automatic_recount(board, MultiSeatRule.TOP_TWO)
    assert decision.automatic_recount is False and decision.tie_for_last_seat
    assert "if the recount leaves it tied" not in decision.tie_note
    assert "orders no recount under (1)" in decision.tie_note
    assert "decided by lot by the canvass board (C.R.S. 1-13.5-1304)" in decision.tie_note
    assert "requested under (2)(a)" in decision.tie_note


def test_the_default_reading_orders_the_recount_and_says_so() -> None:
    board = Contest.from_totals("Board", {"A": 3000, "B": 1000, "C": 1000}, seats=2)
    decision = check_automatic_recount(board)
    assert decision.automatic_recount is True
    assert "if the recount leaves it tied it is decided by lot by the canvass board (C.R.S. 1-13.5-1304)" in decision.tie_note
