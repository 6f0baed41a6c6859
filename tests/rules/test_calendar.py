"""Colorado's legal calendar, case by case against C.R.S. 24-11-101.

Every expected date and weekday below was worked out by hand from the statute's rules (third Monday,
fourth Thursday, Sunday -> Monday, nothing for Saturday), not by asking the code under test.
"""
from __future__ import annotations

import datetime as dt
from datetime import date as D

import holidays
import pytest

from rules.calendar import (
    DEFAULT_CALENDAR,
    DENVER,
    FULL_LIST_SINCE,
    STATUTORY_HOLIDAYS,
    ColoradoCalendar,
    HolidayDataError,
    classify,
    is_known_non_legal,
    legal_holidays_from,
    today_in_denver,
)

OBS = " (observed, Sunday to Monday, 24-11-101(2))"

# (day, weekday, expected legal-holiday name or None, why)
HOLIDAY_CASES = [
    (D(2026, 1, 1), "Thu", "New Year's Day", "24-11-101(1): the first day of January"),
    (D(2023, 1, 1), "Sun", "New Year's Day", "on a Sunday it is still the holiday"),
    (D(2023, 1, 2), "Mon", "New Year's Day" + OBS, "24-11-101(2): the Monday after a Sunday holiday"),
    (D(2027, 12, 31), "Fri", None, "New Year's Day 2028 is a Saturday: no Friday before"),
    (D(2026, 1, 19), "Mon", "Martin Luther King Jr. Day", "third Monday in January (5, 12, 19)"),
    (D(2026, 2, 16), "Mon", "Washington-Lincoln Day", "third Monday in February (2, 9, 16)"),
    (D(2027, 2, 15), "Mon", "Washington-Lincoln Day", "third Monday in February (1, 8, 15)"),
    (D(2026, 3, 31), "Tue", None, "Cesar Chavez Day is commemorative (24-11-111), not a legal holiday"),
    (D(2026, 5, 25), "Mon", "Memorial Day", "last Monday in May"),
    (D(2026, 6, 19), "Fri", "Juneteenth", "June 19"),
    (D(2022, 6, 19), "Sun", "Juneteenth", "June 19 on a Sunday"),
    (D(2022, 6, 20), "Mon", "Juneteenth" + OBS, "the Monday after Juneteenth on a Sunday"),
    (D(2026, 7, 4), "Sat", "Independence Day", "July 4 on a Saturday"),
    (D(2026, 7, 3), "Fri", None, "a Saturday holiday is not moved to Friday in Colorado"),
    (D(2021, 7, 5), "Mon", "Independence Day" + OBS, "July 4, 2021 was a Sunday"),
    (D(2026, 9, 7), "Mon", "Labor Day", "first Monday in September"),
    (D(2026, 10, 5), "Mon", "Frances Xavier Cabrini Day", "first Monday in October"),
    (D(2026, 10, 12), "Mon", None, "second Monday in October: Columbus Day is not a Colorado legal holiday since 2020"),
    (D(2026, 11, 11), "Wed", "Veterans Day", "November 11"),
    (D(2028, 11, 11), "Sat", "Veterans Day", "November 11 on a Saturday"),
    (D(2028, 11, 10), "Fri", None, "Veterans Day on a Saturday: the Friday before is not a holiday"),
    (D(2026, 11, 26), "Thu", "Thanksgiving Day", "fourth Thursday in November (5, 12, 19, 26)"),
    (D(2026, 11, 27), "Fri", None, "the day after Thanksgiving is not a legal holiday"),
    (D(2026, 12, 24), "Thu", None, "Christmas Eve is not a legal holiday"),
    (D(2026, 12, 25), "Fri", "Christmas Day", "December 25"),
    (D(2022, 12, 25), "Sun", "Christmas Day", "December 25 on a Sunday"),
    (D(2022, 12, 26), "Mon", "Christmas Day" + OBS, "the Monday after Christmas on a Sunday"),
    (D(2021, 12, 25), "Sat", "Christmas Day", "December 25 on a Saturday"),
    (D(2021, 12, 24), "Fri", None, "Christmas on a Saturday: the Friday before is not a legal holiday"),
    (D(2026, 11, 3), "Tue", None, "an ordinary Tuesday"),
]


@pytest.mark.parametrize("day, weekday, name, why", HOLIDAY_CASES, ids=[f"{c[0]}-{c[3][:40]}" for c in HOLIDAY_CASES])
def test_legal_holidays_follow_24_11_101(day: dt.date, weekday: str, name: str | None, why: str) -> None:
    assert day.strftime("%a") == weekday  # guards the table itself
    assert DEFAULT_CALENDAR.holiday_name(day) == name, why
    if name is not None:
        assert not DEFAULT_CALENDAR.is_business_day(day)


# (day, non-business reason or None)
BUSINESS_DAY_CASES = [
    (D(2026, 11, 20), None),  # Friday
    (D(2026, 11, 21), "Saturday"),
    (D(2026, 11, 22), "Sunday"),
    (D(2026, 11, 23), None),  # Monday
    (D(2026, 11, 26), "Thanksgiving Day"),
    (D(2026, 7, 4), "Independence Day"),  # a Saturday: the holiday's name is the more useful answer
    (D(2022, 12, 25), "Christmas Day"),  # a Sunday, likewise
    (D(2022, 12, 26), "Christmas Day" + OBS),
    (D(2026, 7, 3), None),  # the Friday before a Saturday holiday is a business day
    (D(2026, 3, 31), None),  # Cesar Chavez Day
]


@pytest.mark.parametrize("day, reason", BUSINESS_DAY_CASES, ids=[str(c[0]) for c in BUSINESS_DAY_CASES])
def test_non_business_reason(day: dt.date, reason: str | None) -> None:
    assert DEFAULT_CALENDAR.non_business_reason(day) == reason
    assert DEFAULT_CALENDAR.is_business_day(day) is (reason is None)


# (day, next business day (the day itself when it is one))
NEXT_BUSINESS_DAY_CASES = [
    (D(2026, 11, 20), D(2026, 11, 20)),  # Friday: itself
    (D(2026, 11, 21), D(2026, 11, 23)),  # Saturday -> Monday
    (D(2026, 11, 26), D(2026, 11, 27)),  # Thanksgiving -> Friday
    (D(2026, 7, 4), D(2026, 7, 6)),  # Saturday holiday -> Monday
    (D(2022, 12, 24), D(2022, 12, 27)),  # Sat, Sun Christmas, Mon observed -> Tuesday
    (D(2023, 12, 30), D(2024, 1, 2)),  # Sat, Sun, Mon New Year's Day -> Tuesday, across the year end
]


@pytest.mark.parametrize("day, expected", NEXT_BUSINESS_DAY_CASES, ids=[str(c[0]) for c in NEXT_BUSINESS_DAY_CASES])
def test_next_business_day(day: dt.date, expected: dt.date) -> None:
    assert DEFAULT_CALENDAR.next_business_day(day) == expected


def test_previous_business_day() -> None:
    assert DEFAULT_CALENDAR.previous_business_day(D(2026, 11, 26)) == D(2026, 11, 25)  # Thanksgiving -> Wed
    assert DEFAULT_CALENDAR.previous_business_day(D(2022, 12, 26)) == D(2022, 12, 23)  # observed Mon -> Fri
    assert DEFAULT_CALENDAR.previous_business_day(D(2026, 11, 20)) == D(2026, 11, 20)


def test_office_closures_are_added_without_touching_the_default_calendar() -> None:
    cal = ColoradoCalendar(extra_closures={D(2026, 11, 27): "Governor-declared closure",
                                           D(2026, 11, 26): "Office closed"})
    assert cal.holiday_name(D(2026, 11, 27)) == "Governor-declared closure"
    assert cal.non_business_reason(D(2026, 11, 27)) == "Governor-declared closure"
    assert cal.next_business_day(D(2026, 11, 26)) == D(2026, 11, 30)  # Thu, closed Fri, Sat, Sun -> Mon
    assert cal.holiday_name(D(2026, 11, 26)) == "Thanksgiving Day; Office closed"
    assert DEFAULT_CALENDAR.is_business_day(D(2026, 11, 27))
    assert DEFAULT_CALENDAR.next_business_day(D(2026, 11, 26)) == D(2026, 11, 27)


def test_closures_must_be_dates_with_names() -> None:
    with pytest.raises(TypeError):
        ColoradoCalendar(extra_closures={dt.datetime(2026, 11, 27, 9, 0): "x"})
    with pytest.raises(ValueError):
        ColoradoCalendar(extra_closures={D(2026, 11, 27): "  "})


def test_only_dates_are_accepted() -> None:
    with pytest.raises(TypeError):
        DEFAULT_CALENDAR.is_business_day(dt.datetime(2026, 11, 20, 12, 0, tzinfo=DENVER))


# ----------------------------------------------------------------------------------------- today in Denver

@pytest.mark.parametrize("now, expected", [
    # 05:30 UTC on Nov 4 is 22:30 MST (UTC-7) on Nov 3, election night in Colorado.
    (dt.datetime(2026, 11, 4, 5, 30, tzinfo=dt.timezone.utc), D(2026, 11, 3)),
    (dt.datetime(2026, 11, 4, 7, 0, tzinfo=dt.timezone.utc), D(2026, 11, 4)),
    # Summer: MDT is UTC-6. 05:59 UTC is 23:59 the day before; 06:00 UTC is midnight.
    (dt.datetime(2026, 7, 1, 5, 59, tzinfo=dt.timezone.utc), D(2026, 6, 30)),
    (dt.datetime(2026, 7, 1, 6, 0, tzinfo=dt.timezone.utc), D(2026, 7, 1)),
    (dt.datetime(2026, 11, 20, 23, 59, tzinfo=DENVER), D(2026, 11, 20)),
])
def test_today_in_denver(now: dt.datetime, expected: dt.date) -> None:
    assert today_in_denver(now) == expected


def test_today_in_denver_refuses_naive_datetimes() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        today_in_denver(dt.datetime(2026, 11, 3, 12, 0))


def test_today_in_denver_without_argument_is_the_denver_date() -> None:
    before = dt.datetime.now(DENVER).date()
    today = today_in_denver()
    after = dt.datetime.now(DENVER).date()
    assert before <= today <= after


# ------------------------------------------------------------------ the package, checked against the statute

def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    first = dt.date(year, month, 1)
    return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> dt.date:
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    last = nxt - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


MON, THU = 0, 3


def _statutory_dates(year: int) -> dict[str, dt.date]:
    """24-11-101(1), computed straight from its words."""
    return {
        "New Year's Day": dt.date(year, 1, 1),
        "Martin Luther King Jr. Day": _nth_weekday(year, 1, MON, 3),
        "Washington-Lincoln Day": _nth_weekday(year, 2, MON, 3),
        "Memorial Day": _last_weekday(year, 5, MON),
        "Juneteenth": dt.date(year, 6, 19),
        "Independence Day": dt.date(year, 7, 4),
        "Labor Day": _nth_weekday(year, 9, MON, 1),
        "Frances Xavier Cabrini Day": _nth_weekday(year, 10, MON, 1),
        "Veterans Day": dt.date(year, 11, 11),
        "Thanksgiving Day": _nth_weekday(year, 11, THU, 4),
        "Christmas Day": dt.date(year, 12, 25),
    }


YEARS_AHEAD = range(FULL_LIST_SINCE, 2061)


@pytest.mark.parametrize("year", YEARS_AHEAD)
def test_every_statutory_holiday_is_where_the_statute_puts_it(year: int) -> None:
    expected: dict[dt.date, str] = {}
    for name, day in _statutory_dates(year).items():
        expected[day] = name
    for name, day in _statutory_dates(year - 1).items():
        if day.weekday() == 6 and (day + dt.timedelta(days=1)).year == year:
            expected[day + dt.timedelta(days=1)] = name + OBS
    for name, day in _statutory_dates(year).items():
        if day.weekday() == 6 and (day + dt.timedelta(days=1)).year == year:
            expected[day + dt.timedelta(days=1)] = name + OBS
    assert dict(DEFAULT_CALENDAR.legal_holidays(year)) == dict(sorted(expected.items()))


def test_package_names_are_all_recognised_or_known_not_legal() -> None:
    """Fails loudly if a new holidays version renames a holiday (the filter would silently drop it) or adds one.

    If this fails: look at the new name, and either extend a pattern in STATUTORY_HOLIDAYS or, if it is
    not a legal holiday under 24-11-101(1), add it to KNOWN_NOT_LEGAL_HOLIDAYS.
    """
    unknown: dict[str, int] = {}
    found_per_year: dict[int, list[str]] = {}
    for year in YEARS_AHEAD:
        for _day, raw in holidays.US(subdiv="CO", observed=False, years=year, language="en_US").items():
            for name in raw.split(";"):
                name = name.strip()
                holiday = classify(name)
                if holiday is not None:
                    found_per_year.setdefault(year, []).append(holiday.key)
                elif not is_known_non_legal(name):
                    unknown.setdefault(name, year)
    assert not unknown, (f"holidays v{holidays.__version__} lists Colorado days rules/calendar.py does not know: "
                         f"{unknown}")
    every = sorted(h.key for h in STATUTORY_HOLIDAYS)
    wrong = {y: sorted(keys) for y, keys in found_per_year.items() if sorted(keys) != every}
    assert not wrong, f"years where the package does not give each legal holiday exactly once: {wrong}"
    assert set(found_per_year) == set(YEARS_AHEAD)


@pytest.mark.parametrize("name, key", [
    ("New Year's Day", "new_years_day"),
    ("New Year's Eve", None),
    ("Martin Luther King Jr. Day", "mlk_day"),
    ("Washington-Lincoln Day", "washington_lincoln_day"),
    ("Washington's Birthday", "washington_lincoln_day"),
    ("Memorial Day", "memorial_day"),
    ("Juneteenth National Independence Day", "juneteenth"),
    ("Independence Day", "independence_day"),
    ("Independence Day (observed)", "independence_day"),
    ("Labor Day", "labor_day"),
    ("Frances Xavier Cabrini Day", "cabrini_day"),
    ("Veterans Day", "veterans_day"),
    ("Veterans' Day", "veterans_day"),
    ("Armistice Day", "veterans_day"),
    ("Thanksgiving Day", "thanksgiving_day"),
    ("Day After Thanksgiving", None),
    ("Christmas Day", "christmas_day"),
    ("Christmas Eve", None),
    ("Christmas Day (observed)", "christmas_day"),
    ("Cesar Chavez Day", None),
    ("Columbus Day", None),
])
def test_classify_package_names(name: str, key: str | None) -> None:
    holiday = classify(name)
    assert (holiday.key if holiday else None) == key


def test_cesar_chavez_day_is_known_and_excluded() -> None:
    assert is_known_non_legal("Cesar Chavez Day")
    assert holidays.US(subdiv="CO", observed=False, years=2026).get(D(2026, 3, 31)) is not None  # the package has it
    assert DEFAULT_CALENDAR.holiday_name(D(2026, 3, 31)) is None  # we do not


def test_package_observance_is_not_used() -> None:
    # The package's observed rule moves Christmas 2021 (Saturday) to Friday 2021-12-24; Colorado law does not.
    assert holidays.US(subdiv="CO", observed=True, years=2021).get(D(2021, 12, 24)) is not None
    assert DEFAULT_CALENDAR.is_business_day(D(2021, 12, 24))


def test_a_renamed_holiday_is_refused_not_silently_dropped() -> None:
    days = {day: name for name, day in _statutory_dates(2026).items()}
    days[D(2026, 11, 26)] = "Turkey Day"
    with pytest.raises(HolidayDataError, match="Thanksgiving Day"):
        legal_holidays_from(days, 2026)


def test_legal_holidays_from_keeps_statutory_days_and_adds_sunday_mondays() -> None:
    days = {day: name for name, day in _statutory_dates(2022).items()}
    days[D(2022, 3, 31)] = "Cesar Chavez Day"
    result = legal_holidays_from(days, 2022)
    assert D(2022, 3, 31) not in result
    assert result[D(2022, 12, 26)] == "Christmas Day" + OBS
    assert result[D(2022, 6, 20)] == "Juneteenth" + OBS
    assert len(result) == 11 + 2
