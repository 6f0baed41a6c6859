"""Colorado's legal calendar: which days are business days for a filing deadline.

C.R.S. 24-11-101(1) names the legal holidays: New Year's Day, Dr. Martin Luther King, Jr., Day (third
Monday in January), Washington-Lincoln Day (third Monday in February), Memorial Day (last Monday in
May), Juneteenth (June 19), Independence Day (July 4), Labor Day (first Monday in September), Frances
Xavier Cabrini Day (first Monday in October), Veterans' Day (November 11), Thanksgiving Day (fourth
Thursday in November) and Christmas Day. 24-11-101(2): when one falls on a Sunday, the Monday after is
also a legal holiday. Nothing moves a Saturday holiday. 24-11-101(1) also makes a legal holiday of "any day
appointed or recommended by the governor of this state or the president of the United States as a day of
fasting or prayer or thanksgiving": the office enters such a day (`appointed_holidays`), and it is treated as
every other legal holiday, Sunday-to-Monday rule included.

Article 13.5's own computation of time, C.R.S. 1-13.5-107, counts calendar days (1) and extends a period
whose last day is a Saturday, Sunday or legal holiday to the next day that is none (2); "legal holiday" there
is this module's list (rules.deadlines applies the roll).

The dates come from the `holidays` package, read *without* its "observed" rule, then corrected:

- the package's Colorado list also holds Cesar Chavez Day (March 31), a commemorative day under
  24-11-111 and not a legal holiday: it is dropped (so is anything else the statute does not name);
- the package's observance moves a Saturday holiday to the Friday before, which Colorado law does
  not do: observance is not used; the Sunday-to-Monday rule of 24-11-101(2) is applied here instead.

Holidays are matched by the package's English names (language pinned to en_US) through patterns, and
the days are labelled with this module's own stable names, so a cosmetic rename in the package does
not change what a clerk reads. If a future package version renamed a holiday beyond recognition the
filter would silently drop it; `legal_holidays_from` therefore refuses a year (from
`FULL_LIST_SINCE`) in which any of the eleven is missing, and the tests check every year ahead.

Years before `FULL_LIST_SINCE` follow whatever the package knows and are best effort (the package,
for one, has no Columbus Day for Colorado before 2020, when Cabrini Day replaced it).
"""
from __future__ import annotations

import datetime as dt
import re
import threading
import zoneinfo
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from rules.statute import LEGAL_HOLIDAYS_CITATION

DENVER = zoneinfo.ZoneInfo("America/Denver")

# The year from which all eleven legal holidays of 24-11-101(1) as it reads now are in the statute
# (Juneteenth was the last one added). From this year on, a missing holiday is a data error.
FULL_LIST_SINCE = 2022

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEKDAY_ABBR = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

SUNDAY_OBSERVANCE_SUFFIX = " (observed, Sunday to Monday, 24-11-101(2))"


@dataclass(frozen=True)
class StatutoryHoliday:
    """One legal holiday of 24-11-101(1): a stable key, the label shown, and how to find it in the package."""

    key: str
    label: str
    pattern: str  # regex searched in the package's name, lower-cased with punctuation turned to spaces

    def matches(self, package_name: str) -> bool:
        return re.search(self.pattern, _normalise(package_name)) is not None


STATUTORY_HOLIDAYS: tuple[StatutoryHoliday, ...] = (
    StatutoryHoliday("new_years_day", "New Year's Day", r"\bnew year s? day\b|^new year s?$"),
    StatutoryHoliday("mlk_day", "Martin Luther King Jr. Day", r"\bmartin luther king\b"),
    # Older package years call it "Washington's Birthday".
    StatutoryHoliday("washington_lincoln_day", "Washington-Lincoln Day", r"\bwashington\b|\bpresidents? day\b"),
    StatutoryHoliday("memorial_day", "Memorial Day", r"\bmemorial day\b"),
    StatutoryHoliday("juneteenth", "Juneteenth", r"\bjuneteenth\b"),
    # "Juneteenth National Independence Day" must not count as Independence Day: anchored at the start.
    StatutoryHoliday("independence_day", "Independence Day", r"^(the )?(fourth of july|independence day)\b"),
    StatutoryHoliday("labor_day", "Labor Day", r"\blabou?r day\b"),
    StatutoryHoliday("cabrini_day", "Frances Xavier Cabrini Day", r"\bcabrini\b"),
    # Older package years call it "Armistice Day".
    StatutoryHoliday("veterans_day", "Veterans Day", r"\bveterans? day\b|\barmistice day\b"),
    # Anchored: "Day After Thanksgiving" is not a legal holiday.
    StatutoryHoliday("thanksgiving_day", "Thanksgiving Day", r"^thanksgiving\b"),
    StatutoryHoliday("christmas_day", "Christmas Day", r"^christmas( day)?\b(?! eve)"),
)

# Names the package lists for Colorado that are known not to be legal holidays under 24-11-101(1).
KNOWN_NOT_LEGAL_HOLIDAYS: tuple[tuple[str, str], ...] = (
    (r"\bcesar chavez\b", "Cesar Chavez Day is commemorative (C.R.S. 24-11-111), not a legal holiday"),
)


class HolidayDataError(RuntimeError):
    """The holidays package no longer yields every legal holiday of 24-11-101(1) for a year."""


def _normalise(name: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())


def classify(package_name: str) -> StatutoryHoliday | None:
    """The statutory holiday a package name stands for, or None if it is not one.

    A name matching two statutory holidays is a bug in the patterns and raises.
    """
    found = [h for h in STATUTORY_HOLIDAYS if h.matches(package_name)]
    if len(found) > 1:
        raise HolidayDataError(f"holiday name {package_name!r} matches several legal holidays: "
                               f"{[h.key for h in found]}")
    return found[0] if found else None


def is_known_non_legal(package_name: str) -> bool:
    norm = _normalise(package_name)
    return any(re.search(pattern, norm) for pattern, _ in KNOWN_NOT_LEGAL_HOLIDAYS)


def legal_holidays_from(package_days: Mapping[dt.date, str], year: int) -> dict[dt.date, str]:
    """Colorado's legal holidays in `year`, from the package's (unobserved) days around it.

    `package_days` should cover `year` and the year before (a Sunday holiday's Monday may cross a
    year end). Keeps the statutory holidays under their stable labels, adds the Monday after each
    that falls on a Sunday (24-11-101(2)), and returns only the days in `year`.
    """
    statutory: dict[dt.date, list[str]] = {}
    seen_in_year: set[str] = set()
    for day, raw_name in package_days.items():
        # The package joins two holidays on one day with "; ".
        for name in str(raw_name).split(";"):
            holiday = classify(name.strip())
            if holiday is None:
                continue
            statutory.setdefault(day, [])
            if holiday.label not in statutory[day]:
                statutory[day].append(holiday.label)
            if day.year == year:
                seen_in_year.add(holiday.key)

    if year >= FULL_LIST_SINCE:
        missing = [h.label for h in STATUTORY_HOLIDAYS if h.key not in seen_in_year]
        if missing:
            import holidays  # loaded already: the days came from it (see _package_days)

            raise HolidayDataError(
                f"the holidays package (v{holidays.__version__}) gives no {', '.join(missing)} for Colorado "
                f"in {year}; {LEGAL_HOLIDAYS_CITATION} names it. Was it renamed? Update STATUTORY_HOLIDAYS "
                f"in rules/calendar.py.")

    result: dict[dt.date, list[str]] = {}
    for day, labels in statutory.items():
        if day.year == year:
            result.setdefault(day, []).extend(labels)
        if day.weekday() == 6:  # Sunday: the Monday after is a legal holiday too
            monday = day + dt.timedelta(days=1)
            if monday.year == year:
                result.setdefault(monday, []).extend(label + SUNDAY_OBSERVANCE_SUFFIX for label in labels)
    return {day: "; ".join(labels) for day, labels in sorted(result.items())}


_PACKAGE_LOCK = threading.Lock()
_PACKAGE_CACHE: dict[int, Mapping[dt.date, str]] = {}
_LEGAL_CACHE: dict[int, Mapping[dt.date, str]] = {}


def _package_days(year: int) -> Mapping[dt.date, str]:
    """The package's Colorado days for `year`, without observance, cached per year (the package is slowish)."""
    with _PACKAGE_LOCK:
        cached = _PACKAGE_CACHE.get(year)
        if cached is None:
            # The holidays package (about 4 MiB and 25 ms to import) is loaded on the first day asked for, not with
            # this module, which every command loads (bot/cli.py lists them all) and most, `check` among them, never ask.
            import holidays

            raw = holidays.US(subdiv="CO", observed=False, years=year, language="en_US")
            cached = MappingProxyType({day: str(name) for day, name in raw.items()})
            _PACKAGE_CACHE[year] = cached
        return cached


def _legal_holidays(year: int) -> Mapping[dt.date, str]:
    with _PACKAGE_LOCK:
        cached = _LEGAL_CACHE.get(year)
    if cached is None:
        around = {**_package_days(year - 1), **_package_days(year)}
        cached = MappingProxyType(legal_holidays_from(around, year))
        with _PACKAGE_LOCK:
            _LEGAL_CACHE[year] = cached
    return cached


def _check_date(day: object) -> dt.date:
    if isinstance(day, dt.datetime) or not isinstance(day, dt.date):
        raise TypeError(f"expected a datetime.date, got {type(day).__name__}")
    return day


def short_day(day: dt.date) -> str:
    """'Fri 2026-11-20' (locale-independent)."""
    return f"{_WEEKDAY_ABBR[day.weekday()]} {day.isoformat()}"


def today_in_denver(now: dt.datetime | None = None) -> dt.date:
    """Today's date in Colorado. `now`, if given, must be timezone-aware."""
    if now is None:
        return dt.datetime.now(DENVER).date()
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone-aware (a naive datetime has no place on Colorado's calendar)")
    return now.astimezone(DENVER).date()


class ColoradoCalendar:
    """Business days under Colorado law: not a Saturday, a Sunday, a legal holiday or an office closure.

    `appointed_holidays` are days the governor of Colorado or the president of the United States appointed
    or recommended as a day of fasting or prayer or thanksgiving: 24-11-101(1) makes each a legal holiday,
    and 24-11-101(2) makes the Monday after one falling on a Sunday a holiday too ({date: "name"}).
    `extra_closures` are other days the office is closed ({date: "name"}): not legal holidays, but a filing
    due on one stands continued to the next business day (24-11-110).
    """

    # Far more than any run of consecutive closed days; guards against a closure table that closes everything.
    _MAX_SEARCH_DAYS = 366

    def __init__(self, extra_closures: Mapping[dt.date, str] | None = None,
                 appointed_holidays: Mapping[dt.date, str] | None = None) -> None:
        self._closures: Mapping[dt.date, str] = MappingProxyType(_named_days(extra_closures, "closure"))
        appointed = _named_days(appointed_holidays, "appointed holiday")
        self._appointed: Mapping[dt.date, str] = MappingProxyType(appointed)
        observed: dict[dt.date, str] = {}
        for day, name in appointed.items():
            observed[day] = f"{name} (appointed, {LEGAL_HOLIDAYS_CITATION})"
            if day.weekday() == 6:  # 24-11-101(2): "or any other legal holiday so designated falls upon a Sunday"
                monday = day + dt.timedelta(days=1)
                observed.setdefault(monday, f"{name}{SUNDAY_OBSERVANCE_SUFFIX}")
        self._appointed_observed: Mapping[dt.date, str] = MappingProxyType(observed)

    @property
    def appointed_holidays(self) -> Mapping[dt.date, str]:
        return self._appointed

    @property
    def extra_closures(self) -> Mapping[dt.date, str]:
        return self._closures

    def legal_holidays(self, year: int) -> Mapping[dt.date, str]:
        """The legal holidays of `year` (24-11-101): the named ones and the appointed days, without the
        office's other closures."""
        named = dict(_legal_holidays(year))
        for day, name in self._appointed_observed.items():
            if day.year == year:
                named[day] = "; ".join(n for n in (named.get(day), name) if n)
        return MappingProxyType(dict(sorted(named.items())))

    def holiday_name(self, day: dt.date) -> str | None:
        """The legal holiday (named or appointed) or office closure on `day`, else None."""
        _check_date(day)
        names = [n for n in (_legal_holidays(day.year).get(day), self._appointed_observed.get(day),
                             self._closures.get(day)) if n]
        return "; ".join(names) if names else None

    def legal_holiday(self, day: dt.date) -> str | None:
        """The legal holiday on `day` (24-11-101: named or appointed), without the office's other closures."""
        _check_date(day)
        names = [n for n in (_legal_holidays(day.year).get(day), self._appointed_observed.get(day)) if n]
        return "; ".join(names) if names else None

    def office_closure(self, day: dt.date) -> str | None:
        """A day the office entered as closed (not a legal holiday): 24-11-110 continues a filing due on it."""
        _check_date(day)
        return self._closures.get(day)

    def non_business_reason(self, day: dt.date) -> str | None:
        """Why `day` is not a business day: the holiday name (preferred), else "Saturday"/"Sunday"; None if it is one."""
        name = self.holiday_name(day)
        if name:
            return name
        if day.weekday() >= 5:
            return WEEKDAY_NAMES[day.weekday()]
        return None

    def is_business_day(self, day: dt.date) -> bool:
        return self.non_business_reason(day) is None

    def next_business_day(self, day: dt.date) -> dt.date:
        """`day` itself if it is a business day, else the next one."""
        return self._walk(day, 1)

    def previous_business_day(self, day: dt.date) -> dt.date:
        """`day` itself if it is a business day, else the last one before it."""
        return self._walk(day, -1)

    def _walk(self, day: dt.date, step: int) -> dt.date:
        _check_date(day)
        current = day
        for _ in range(self._MAX_SEARCH_DAYS):
            if self.is_business_day(current):
                return current
            current += dt.timedelta(days=step)
        raise ValueError(f"no business day within {self._MAX_SEARCH_DAYS} days of {day.isoformat()}")

    def __repr__(self) -> str:
        return (f"ColoradoCalendar(extra_closures={dict(self._closures)!r}, "
                f"appointed_holidays={dict(self._appointed)!r})")


def _named_days(days: Mapping[dt.date, str] | None, what: str) -> dict[dt.date, str]:
    named: dict[dt.date, str] = {}
    for day, name in (days or {}).items():
        _check_date(day)
        if not str(name).strip():
            raise ValueError(f"{what} on {day.isoformat()} needs a name")
        named[day] = " ".join(str(name).split())
    return named


DEFAULT_CALENDAR = ColoradoCalendar()
