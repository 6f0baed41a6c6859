"""The recount's deadlines, case by case against 1306, 1-13.5-1305, 1-13.5-1403 and 1-1-106(4).

Counting: calendar days, the day of the event excluded and the last day included. Every expected date
below was counted by hand (and its weekday written next to it); none is derived from the code under test.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
from datetime import date as D

import pytest

from rules.calendar import ColoradoCalendar
from rules.deadlines import (
    CompletionRollover,
    Deadline,
    ElectionDeadlines,
    automatic_recount_deadline,
    contest_filing_deadline,
    election_deadlines,
    is_request_timely,
    request_deadline,
    requested_recount_deadline,
)
from rules.decision import Decision

OBS = " (observed, Sunday to Monday, 24-11-101(2))"
ROLL = CompletionRollover.NEXT_BUSINESS_DAY
NO_ROLL_READING = "completion deadlines do not roll (default)"
ROLL_READING = "rolled to next business day (option)"


def _wd(day: dt.date) -> str:
    return day.strftime("%a")


# --------------------------------------------------------------------------- (2)(a): the request window

# (election, its weekday, +17 (weekday), final deadline (weekday), what the 17th day was)
REQUEST_CASES = [
    # The brief's anchor: a November coordinated-date election.
    (D(2026, 11, 3), "Tue", D(2026, 11, 20), "Fri", D(2026, 11, 20), "Fri", None),
    # A May special-district election (first Tuesday after the first Monday of May, odd year).
    (D(2027, 5, 4), "Tue", D(2027, 5, 21), "Fri", D(2027, 5, 21), "Fri", None),
    # 1-1-106(4): Saturday and Sunday roll to Monday.
    (D(2026, 11, 4), "Wed", D(2026, 11, 21), "Sat", D(2026, 11, 23), "Mon", "Saturday"),
    (D(2026, 11, 5), "Thu", D(2026, 11, 22), "Sun", D(2026, 11, 23), "Mon", "Sunday"),
    # Legal holidays roll too.
    (D(2026, 11, 9), "Mon", D(2026, 11, 26), "Thu", D(2026, 11, 27), "Fri", "Thanksgiving Day"),
    (D(2026, 12, 8), "Tue", D(2026, 12, 25), "Fri", D(2026, 12, 28), "Mon", "Christmas Day"),
    (D(2022, 10, 25), "Tue", D(2022, 11, 11), "Fri", D(2022, 11, 14), "Mon", "Veterans Day"),
    (D(2026, 6, 2), "Tue", D(2026, 6, 19), "Fri", D(2026, 6, 22), "Mon", "Juneteenth"),
    (D(2026, 12, 15), "Tue", D(2027, 1, 1), "Fri", D(2027, 1, 4), "Mon", "New Year's Day"),
    (D(2026, 6, 17), "Wed", D(2026, 7, 4), "Sat", D(2026, 7, 6), "Mon", "Independence Day"),
    # Christmas 2022 on a Sunday: the Monday after is a legal holiday too, so Tuesday.
    (D(2022, 12, 8), "Thu", D(2022, 12, 25), "Sun", D(2022, 12, 27), "Tue", "Christmas Day"),
    (D(2022, 12, 9), "Fri", D(2022, 12, 26), "Mon", D(2022, 12, 27), "Tue", "Christmas Day" + OBS),
    # Saturday holidays are not observed on Friday in Colorado: these Fridays do not roll.
    (D(2026, 6, 16), "Tue", D(2026, 7, 3), "Fri", D(2026, 7, 3), "Fri", None),
    (D(2021, 12, 7), "Tue", D(2021, 12, 24), "Fri", D(2021, 12, 24), "Fri", None),
    # Cesar Chavez Day is not a legal holiday: no roll.
    (D(2026, 3, 14), "Sat", D(2026, 3, 31), "Tue", D(2026, 3, 31), "Tue", None),
]


@pytest.mark.parametrize(
    "election, e_wd, raw, raw_wd, final, final_wd, why", REQUEST_CASES, ids=[str(c[0]) for c in REQUEST_CASES])
def test_request_deadline(election, e_wd, raw, raw_wd, final, final_wd, why) -> None:
    assert (_wd(election), _wd(raw), _wd(final)) == (e_wd, raw_wd, final_wd)  # the table's own weekdays
    d = request_deadline(election)
    assert d.name == "request_deadline"
    assert d.outcome == "deadline"
    assert d.citation == "C.R.S. 1-13.5-1306(2)(a)"
    assert d.date == final
    assert d.falls_on is None  # a filing deadline is always moved, never merely flagged
    assert d.estimated is False
    assert d.note.startswith(f"17 days after the election of {election.isoformat()} (election day excluded) "
                             f"is {raw_wd} {raw.isoformat()}")
    if why is None:
        assert d.rolled_from is None
        assert "1-1-106(4)" not in d.note
    else:
        assert d.rolled_from == raw
        assert "C.R.S. 1-1-106(4)" in d.note
        assert why in d.note
        assert f"{final_wd} {final.isoformat()}" in d.note
        assert "1-1-106(4)" in d.reason
    assert f"{final_wd} {final.isoformat()}" in d.reason


def test_request_deadline_rolls_past_an_office_closure() -> None:
    cal = ColoradoCalendar(extra_closures={D(2026, 11, 27): "Governor-declared closure"})
    d = request_deadline(D(2026, 11, 9), calendar=cal)  # +17 = Thu 11-26 Thanksgiving; Fri closed; Sat; Sun
    assert (d.date, d.rolled_from) == (D(2026, 11, 30), D(2026, 11, 26))


# ------------------------------------------------------------------------ is a request timely?

# (election, received on, timely, words the reason must say)
TIMELY_CASES = [
    (D(2026, 11, 3), D(2026, 11, 2), False, "survey of returns does not exist yet"),
    (D(2026, 11, 3), D(2026, 11, 3), False, "survey of returns does not exist yet"),  # election day itself
    (D(2026, 11, 3), D(2026, 11, 4), True, "timely"),  # the first day after
    (D(2026, 11, 3), D(2026, 11, 20), True, "timely"),  # the 17th day
    (D(2026, 11, 3), D(2026, 11, 21), False, "late"),  # the 18th day
    # Window ending Sat 2026-11-21, rolled to Mon 2026-11-23:
    (D(2026, 11, 4), D(2026, 11, 21), True, "timely"),
    (D(2026, 11, 4), D(2026, 11, 23), True, "1-1-106(4)"),
    (D(2026, 11, 4), D(2026, 11, 24), False, "late"),
]


@pytest.mark.parametrize("election, received, timely, words", TIMELY_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in TIMELY_CASES])
def test_is_request_timely(election, received, timely, words) -> None:
    verdict, d = is_request_timely(received, election)
    assert verdict is timely
    assert words in d.reason
    assert d.citation == "C.R.S. 1-13.5-1306(2)(a)"
    assert d.numbers["received_on"] == received and d.numbers["timely"] is timely
    assert d.date == request_deadline(election).date


def test_early_request_reason_says_so_explicitly() -> None:
    verdict, d = is_request_timely(D(2026, 11, 3), D(2026, 11, 3))
    assert verdict is False
    assert "not timely" in d.reason
    assert "on or before election day" in d.reason
    assert "Wed 2026-11-04 through Fri 2026-11-20" in d.reason


# --------------------------------------------------------------- (1): automatic recount completion

# (election (weekday), +28 (weekday), what that day is, business day before, next business day)
AUTOMATIC_CASES = [
    (D(2026, 11, 3), "Tue", D(2026, 12, 1), "Tue", None, None, None),
    (D(2027, 5, 4), "Tue", D(2027, 6, 1), "Tue", None, None, None),
    (D(2026, 10, 29), "Thu", D(2026, 11, 26), "Thu", "Thanksgiving Day", D(2026, 11, 25), D(2026, 11, 27)),
    (D(2026, 5, 2), "Sat", D(2026, 5, 30), "Sat", "Saturday", D(2026, 5, 29), D(2026, 6, 1)),
    (D(2029, 11, 27), "Tue", D(2029, 12, 25), "Tue", "Christmas Day", D(2029, 12, 24), D(2029, 12, 26)),
    (D(2025, 10, 14), "Tue", D(2025, 11, 11), "Tue", "Veterans Day", D(2025, 11, 10), D(2025, 11, 12)),
    (D(2022, 11, 28), "Mon", D(2022, 12, 26), "Mon", "Christmas Day" + OBS, D(2022, 12, 23), D(2022, 12, 27)),
]


@pytest.mark.parametrize("election, e_wd, raw, raw_wd, falls_on, before, after", AUTOMATIC_CASES,
                         ids=[str(c[0]) for c in AUTOMATIC_CASES])
def test_automatic_recount_deadline_default_does_not_roll(election, e_wd, raw, raw_wd, falls_on, before, after) -> None:
    assert (_wd(election), _wd(raw)) == (e_wd, raw_wd)
    d = automatic_recount_deadline(election)
    assert d.name == "automatic_recount_deadline"
    assert d.citation == "C.R.S. 1-13.5-1306(1)"
    assert d.date == raw
    assert d.rolled_from is None
    assert d.falls_on == falls_on
    assert d.reading is not None and d.reading.startswith(NO_ROLL_READING)
    assert d.note.startswith(f"28 days after the election of {election.isoformat()} (election day excluded) "
                             f"is {raw_wd} {raw.isoformat()}")
    if falls_on is not None:
        assert f"falls on {falls_on if falls_on not in ('Saturday', 'Sunday') else 'a ' + falls_on}" in d.reason
        assert "finish by the business day before" in d.reason
        assert f"{_wd(before)} {before.isoformat()}" in d.reason


@pytest.mark.parametrize("election, e_wd, raw, raw_wd, falls_on, before, after", AUTOMATIC_CASES,
                         ids=[str(c[0]) for c in AUTOMATIC_CASES])
def test_automatic_recount_deadline_rolls_with_the_option(election, e_wd, raw, raw_wd, falls_on, before, after) -> None:
    d = automatic_recount_deadline(election, rollover=ROLL)
    assert d.citation == "C.R.S. 1-13.5-1306(1)"
    assert d.reading is not None and d.reading.startswith(ROLL_READING)
    assert d.falls_on is None
    if falls_on is None:
        assert (d.date, d.rolled_from) == (raw, None)
    else:
        assert (d.date, d.rolled_from) == (after, raw)
        assert "C.R.S. 2-4-108(2)" in d.note


def test_the_thanksgiving_completion_reason_reads_as_the_brief_asks() -> None:
    d = automatic_recount_deadline(D(2026, 10, 29))
    assert "falls on Thanksgiving Day; finish by the business day before, Wed 2026-11-25" in d.reason


# ------------------------------------------------------------- (2)(e): requested recount completion

def test_until_the_canvass_date_is_entered_the_deadline_is_the_earliest_possible() -> None:
    # 1-13.5-1305(1): "No later than the fourteenth day following the election" -- no earliest day.
    # Election Tue 2026-11-03. Canvass the day after, Wed 11-04, + 28 = Wed 2026-12-02 (the earliest, shown);
    # canvass on the 14th day, Tue 11-17, + 28 = Tue 2026-12-15 (the latest, beside it).
    d = requested_recount_deadline(D(2026, 11, 3))
    assert d.name == "requested_recount_deadline"
    assert d.citation == "C.R.S. 1-13.5-1306(2)(e)"
    assert (d.date, d.earliest, d.latest) == (D(2026, 12, 2), D(2026, 12, 2), D(2026, 12, 15))
    assert d.estimated is True
    assert d.rolled_from is None and d.falls_on is None
    assert "estimate until the canvass date is entered" in d.note
    assert "Wed 2026-11-04" in d.note and "Tue 2026-11-17" in d.note and "C.R.S. 1-13.5-1305(1)" in d.note
    assert d.reason.startswith("Until the canvass date is entered, the earliest possible deadline:")
    assert "no later than Wed 2026-12-02" in d.reason and "at the latest Tue 2026-12-15" in d.reason
    assert "Enter the canvass date" in d.reason
    assert d.reading.startswith("until the canvass date is entered, the deadline shown and reminded is the earliest")
    assert d.numbers["canvass_date"] == D(2026, 11, 4)
    assert d.as_json()["earliest"] == "2026-12-02" and d.as_json()["latest"] == "2026-12-15"
    assert d.as_json()["date"] == "2026-12-02"


def test_the_earliest_deadline_on_a_holiday_is_flagged() -> None:
    # Election Wed 2026-10-28: canvass the day after, Thu 10-29, + 28 = Thu 2026-11-26, Thanksgiving Day.
    d = requested_recount_deadline(D(2026, 10, 28))
    assert (d.date, d.earliest, d.falls_on) == (D(2026, 11, 26), D(2026, 11, 26), "Thanksgiving Day")
    assert "Thanksgiving Day: finish by Wed 2026-11-25" in d.reason
    rolled = requested_recount_deadline(D(2026, 10, 28), rollover=ROLL)
    assert (rolled.date, rolled.rolled_from, rolled.falls_on) == (D(2026, 11, 27), D(2026, 11, 26), None)


def test_an_entered_canvass_date_is_no_range() -> None:
    d = requested_recount_deadline(D(2026, 11, 3), canvass_date=D(2026, 11, 10))
    assert d.earliest is None and d.as_json()["earliest"] is None and d.as_json()["latest"] is None


# (canvass date (weekday), +28 (weekday), falls on, with the option: date, rolled_from)
REQUESTED_CASES = [
    (D(2026, 11, 10), "Tue", D(2026, 12, 8), "Tue", None, D(2026, 12, 8), None),
    (D(2026, 11, 17), "Tue", D(2026, 12, 15), "Tue", None, D(2026, 12, 15), None),  # the statutory latest day
    (D(2026, 11, 14), "Sat", D(2026, 12, 12), "Sat", "Saturday", D(2026, 12, 14), D(2026, 12, 12)),
    (D(2026, 11, 27), "Fri", D(2026, 12, 25), "Fri", "Christmas Day", D(2026, 12, 28), D(2026, 12, 25)),
]


@pytest.mark.parametrize("canvass, c_wd, raw, raw_wd, falls_on, rolled, rolled_from", REQUESTED_CASES,
                         ids=[str(c[0]) for c in REQUESTED_CASES])
def test_requested_recount_with_the_actual_canvass_date(canvass, c_wd, raw, raw_wd, falls_on, rolled, rolled_from) -> None:
    assert (_wd(canvass), _wd(raw)) == (c_wd, raw_wd)
    election = D(2026, 11, 3)
    d = requested_recount_deadline(election, canvass)
    assert d.citation == "C.R.S. 1-13.5-1306(2)(e)"
    assert (d.date, d.rolled_from, d.falls_on, d.estimated) == (raw, None, falls_on, False)
    assert d.note.startswith(f"28 days after canvassing on {c_wd} {canvass.isoformat()} (canvass day excluded) "
                             f"is {raw_wd} {raw.isoformat()}")
    assert d.reading is not None and d.reading.startswith(NO_ROLL_READING)
    r = requested_recount_deadline(election, canvass, rollover=ROLL)
    assert (r.date, r.rolled_from, r.falls_on) == (rolled, rolled_from, None)
    assert r.reading is not None and r.reading.startswith(ROLL_READING)


def test_an_estimated_completion_on_a_holiday_is_flagged() -> None:
    # Mon 2029-11-26: canvass the day after, Tue 11-27, + 28 = Tue 2029-12-25, Christmas.
    d = requested_recount_deadline(D(2029, 11, 26))
    assert (d.date, d.estimated, d.falls_on, d.rolled_from) == (D(2029, 12, 25), True, "Christmas Day", None)
    r = requested_recount_deadline(D(2029, 11, 26), rollover=ROLL)
    assert (r.date, r.estimated, r.falls_on, r.rolled_from) == (D(2029, 12, 26), True, None, D(2029, 12, 25))


def test_a_canvass_later_than_the_statutory_latest_is_used_with_a_warning() -> None:
    # Canvass Fri 2026-11-20, three days after the statutory latest (Tue 2026-11-17): + 28 = Fri 2026-12-18.
    d = requested_recount_deadline(D(2026, 11, 3), D(2026, 11, 20))
    assert d.date == D(2026, 12, 18)
    assert d.estimated is False
    assert "Warning" in d.note and "later than the statutory latest canvass day" in d.note
    assert "Tue 2026-11-17" in d.note
    assert "statutory latest canvass day" in d.reason
    ok = requested_recount_deadline(D(2026, 11, 3), D(2026, 11, 17))
    assert "Warning" not in ok.note


@pytest.mark.parametrize("canvass", [D(2026, 11, 3), D(2026, 11, 2)])
def test_a_canvass_on_or_before_election_day_is_impossible(canvass) -> None:
    with pytest.raises(ValueError, match="on or before the election"):
        requested_recount_deadline(D(2026, 11, 3), canvass)


# --------------------------------------------------------------------- 1-13.5-1403: contest filing

# (election, recount concluded, counted from, +10 (weekday), final (weekday))
CONTEST_CASES = [
    # No recount conclusion known: from the request deadline Fri 2026-11-20; + 10 = Mon 2026-11-30.
    (D(2026, 11, 3), None, D(2026, 11, 20), D(2026, 11, 30), "Mon", D(2026, 11, 30), "Mon"),
    # A recount concluding before the window closes does not shorten it.
    (D(2026, 11, 3), D(2026, 11, 12), D(2026, 11, 20), D(2026, 11, 30), "Mon", D(2026, 11, 30), "Mon"),
    (D(2026, 11, 3), D(2026, 11, 20), D(2026, 11, 20), D(2026, 11, 30), "Mon", D(2026, 11, 30), "Mon"),
    # Later conclusion counts: Tue 2026-12-15 + 10 = Fri 2026-12-25, Christmas -> Mon 2026-12-28.
    (D(2026, 11, 3), D(2026, 12, 15), D(2026, 12, 15), D(2026, 12, 25), "Fri", D(2026, 12, 28), "Mon"),
    # Wed 2026-12-02 + 10 = Sat 2026-12-12 -> Mon 2026-12-14.
    (D(2026, 11, 3), D(2026, 12, 2), D(2026, 12, 2), D(2026, 12, 12), "Sat", D(2026, 12, 14), "Mon"),
    # The recount period ends with the rolled request window: Wed 2026-11-04 -> Mon 2026-11-23; + 10 = Thu 12-03.
    (D(2026, 11, 4), None, D(2026, 11, 23), D(2026, 12, 3), "Thu", D(2026, 12, 3), "Thu"),
]


@pytest.mark.parametrize("election, concluded, start, raw, raw_wd, final, final_wd", CONTEST_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CONTEST_CASES])
def test_contest_filing_deadline(election, concluded, start, raw, raw_wd, final, final_wd) -> None:
    assert (_wd(raw), _wd(final)) == (raw_wd, final_wd)
    d = contest_filing_deadline(election, concluded)
    assert d.name == "contest_filing_deadline"
    assert d.citation == "C.R.S. 1-13.5-1403"
    assert d.date == final
    assert d.rolled_from == (raw if raw != final else None)
    assert d.falls_on is None
    assert d.numbers["counted_from"] == start
    assert d.reading is not None and "request window closes" in d.reading and "whichever is later" in d.reading
    assert "For information" in d.reason
    if raw != final:
        assert "C.R.S. 1-1-106(4)" in d.note


def test_a_recount_concluded_on_or_before_the_election_is_impossible() -> None:
    with pytest.raises(ValueError):
        contest_filing_deadline(D(2026, 11, 3), D(2026, 11, 3))


# -------------------------------------------------------------------------------- all four, and JSON

def test_election_deadlines_for_the_november_2026_election() -> None:
    e = election_deadlines(D(2026, 11, 3))
    assert isinstance(e, ElectionDeadlines)
    assert e.request.date == D(2026, 11, 20)  # Fri
    assert e.automatic_recount.date == D(2026, 12, 1)  # Tue
    assert e.requested_recount.date == D(2026, 12, 2)  # Wed: the earliest, from a canvass the day after (Wed 11-04)
    assert e.requested_recount.latest == D(2026, 12, 15)  # Tue, from a canvass on the 14th day (Tue 11-17)
    assert e.request_window_opens.date == D(2026, 11, 4)  # Wed, the day after the election
    assert e.requested_recount.estimated is True
    assert e.contest_filing.date == D(2026, 11, 30)  # Mon

    counting = "calendar days (C.R.S. 1-13.5-107(1)); the day of the event excluded, the last day included"
    assert e.as_json() == {
        "request_window_opens": {
            "date": "2026-11-04", "citation": "C.R.S. 1-13.5-1306(2)(a)", "rolled_from": None,
            "note": "the day after the election of 2026-11-03, Wed 2026-11-04", "estimated": False, "falls_on": None,
            "earliest": None, "latest": None, "counting": counting, "law": "1-13.5-1306",
            "reason": "Recount requests may be filed from Wed 2026-11-04.", "reading": e.request_window_opens.reading,
        },
        "request_deadline": {
            "date": "2026-11-20", "citation": "C.R.S. 1-13.5-1306(2)(a)", "rolled_from": None,
            "note": "17 days after the election of 2026-11-03 (election day excluded) is Fri 2026-11-20",
            "estimated": False, "falls_on": None, "earliest": None, "latest": None, "counting": counting, "law": "1-13.5-1306",
            "reason": "A recount request must be filed by Fri 2026-11-20, 17 days after the election of 2026-11-03.",
            "reading": e.request.reading,
        },
        "automatic_recount_deadline": {
            "date": "2026-12-01", "citation": "C.R.S. 1-13.5-1306(1)", "rolled_from": None,
            "note": "28 days after the election of 2026-11-03 (election day excluded) is Tue 2026-12-01",
            "estimated": False, "falls_on": None, "earliest": None, "latest": None, "counting": counting, "law": "1-13.5-1306",
            "reason": "The automatic recount must be completed no later than Tue 2026-12-01.",
            "reading": e.automatic_recount.reading,
        },
        "requested_recount_deadline": {
            "date": "2026-12-02", "citation": "C.R.S. 1-13.5-1306(2)(e)", "rolled_from": None,
            "note": e.requested_recount.note, "estimated": True, "falls_on": None,
            "earliest": "2026-12-02", "latest": "2026-12-15", "counting": counting, "law": "1-13.5-1306",
            "reason": e.requested_recount.reason, "reading": e.requested_recount.reading,
        },
        "contest_filing_deadline": {
            "date": "2026-11-30", "citation": "C.R.S. 1-13.5-1403", "rolled_from": None,
            "note": e.contest_filing.note, "estimated": False, "falls_on": None, "earliest": None, "latest": None,
            "counting": counting, "reason": e.contest_filing.reason, "reading": e.contest_filing.reading,
            "law": "1-13.5-1306",
        },
    }
    assert "C.R.S. 1-13.5-106(2)" in e.request.reading and "C.R.S. 1-1-106(4)" in e.request.reading
    assert e.automatic_recount.reading.startswith("completion deadlines do not roll (default)")
    json.dumps(e.as_json())


def test_election_deadlines_pass_the_options_through() -> None:
    # Thu 2026-10-29: request +17 = Sun 2026-11-15 -> Mon 2026-11-16; automatic +28 = Thanksgiving -> Fri 11-27;
    # canvass Sat 2026-11-07 + 28 = Sat 2026-12-05 -> Mon 2026-12-07; concluded Mon 2026-12-07 + 10 = Thu 12-17.
    e = election_deadlines(D(2026, 10, 29), canvass_date=D(2026, 11, 7), rollover=ROLL,
                           recount_concluded=D(2026, 12, 7))
    assert (e.request.date, e.request.rolled_from) == (D(2026, 11, 16), D(2026, 11, 15))
    assert (e.automatic_recount.date, e.automatic_recount.rolled_from) == (D(2026, 11, 27), D(2026, 11, 26))
    assert (e.requested_recount.date, e.requested_recount.rolled_from) == (D(2026, 12, 7), D(2026, 12, 5))
    assert e.requested_recount.estimated is False
    assert (e.contest_filing.date, e.contest_filing.rolled_from) == (D(2026, 12, 17), None)


def test_as_json_of_a_rolled_and_of_a_flagged_deadline() -> None:
    rolled = request_deadline(D(2026, 11, 4)).as_json()
    assert rolled["date"] == "2026-11-23" and rolled["rolled_from"] == "2026-11-21"
    assert set(rolled) == {"date", "citation", "reason", "reading", "counting", "rolled_from", "note", "estimated",
                           "earliest", "latest", "falls_on", "law"}
    flagged = automatic_recount_deadline(D(2026, 10, 29)).as_json()
    assert flagged["date"] == "2026-11-26" and flagged["falls_on"] == "Thanksgiving Day"
    assert flagged["rolled_from"] is None


def test_a_deadline_is_a_decision_and_serialises() -> None:
    d = automatic_recount_deadline(D(2026, 10, 29))
    assert isinstance(d, Decision) and isinstance(d, Deadline)
    out = d.as_dict()
    json.dumps(out)
    assert out["outcome"] == "deadline" and out["date"] == "2026-11-26" and out["falls_on"] == "Thanksgiving Day"
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.date = D(2026, 11, 27)  # type: ignore[misc]


def test_datetimes_are_refused_where_dates_are_expected() -> None:
    with pytest.raises(TypeError):
        request_deadline(dt.datetime(2026, 11, 3, 19, 0, tzinfo=dt.timezone.utc))
    with pytest.raises(TypeError):
        requested_recount_deadline(D(2026, 11, 3), dt.datetime(2026, 11, 17, 9, 0, tzinfo=dt.timezone.utc))
