"""Counting a law's periods and moving a last day that is not a business day: the pieces every deadline uses.

Days are calendar days, the day of the event excluded and the last day included (1-1-106(1)-(2); 2-4-108(1);
1-13.5-107(1); 31-10-103). A filing's last day on a Saturday, Sunday or legal holiday (24-11-101) runs to the next
day that is none, under the law's own rollover provision (`LawProfile.time`); a last day on which the office is
closed for another reason stands continued to its next full business day under 24-11-110. The two are kept apart:
`ColoradoCalendar.appointed_holidays` are legal holidays (days the governor or the president appointed), its
`extra_closures` are days the office is closed, and a roll names the provision for each day it passes.

Completion deadlines (the official's own work) do not roll by default (`CompletionRollover`): finishing by the
business day before is safe under every reading.
"""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any

from rules.calendar import ColoradoCalendar, short_day
from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.sources import OFFICE_CLOSED, PERIOD_EXTENSION

DEADLINE_OUTCOME = "deadline"


def counting_text(law: LawProfile = DEFAULT_LAW) -> str:
    """How the law counts days, as shown beside every deadline."""
    return f"calendar days ({law.time.counting.citation}); the day of the event excluded, the last day included"


COUNTING = counting_text()


@dataclass(frozen=True, kw_only=True)
class Deadline(Decision):
    """A deadline: the final date, how it was counted, and whether it was moved or needs the clerk's eye.

    For an estimate (a date counted from a canvass not yet entered) `date` is the earliest possible day (the one
    shown and reminded), `earliest` is the same day and `latest` the latest possible one."""

    outcome: str = DEADLINE_OUTCOME
    name: str
    date: dt.date
    rolled_from: dt.date | None
    note: str
    estimated: bool = False
    falls_on: str | None = None
    earliest: dt.date | None = None
    latest: dt.date | None = None
    counting: str = COUNTING
    law: str = DEFAULT_LAW.key

    def as_json(self) -> dict[str, Any]:
        return {
            "date": self.date.isoformat(),
            "citation": self.citation,
            "reason": self.reason,
            "reading": self.reading,
            "counting": self.counting,
            "rolled_from": self.rolled_from.isoformat() if self.rolled_from else None,
            "note": self.note,
            "estimated": self.estimated,
            "earliest": self.earliest.isoformat() if self.earliest else None,
            "latest": self.latest.isoformat() if self.latest else None,
            "falls_on": self.falls_on,
            "law": self.law,
        }


class CompletionRollover(str, enum.Enum):
    """Whether a completion deadline that is not a business day moves to the next business day."""

    NONE = "none"
    NEXT_BUSINESS_DAY = "next-business-day"

    def reading_for(self, law: LawProfile = DEFAULT_LAW) -> str:
        if self is CompletionRollover.NONE:
            return ("completion deadlines do not roll (default): the statute says \"no later than\"; "
                    f"{law.time.filing_rollover.citation} {law.time.rollover_scope}; finishing by the business day "
                    "before is safe under every reading")
        return ("rolled to next business day (option): a completion day on a Saturday, Sunday, legal holiday or day "
                f"the office is closed moves to the next business day, reading {PERIOD_EXTENSION.citation} (any "
                f"period) and {OFFICE_CLOSED.citation} (an official's duty on a day the office is closed stands "
                "continued) as reaching the official's own work")

    @property
    def reading(self) -> str:
        return self.reading_for(DEFAULT_LAW)


DEFAULT_COMPLETION_ROLLOVER = CompletionRollover.NONE


def require_date(value: object, what: str) -> dt.date:
    if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
        raise TypeError(f"{what} must be a datetime.date, got {type(value).__name__}")
    return value


def days_after(start: dt.date, days: int) -> dt.date:
    """The last day of a period of `days` days after `start`, `start` excluded and the last day included."""
    return start + dt.timedelta(days=days)


def plural(days: int) -> str:
    return f"{days} day" if days == 1 else f"{days} days"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 22nd, 31st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def article(why: str | None) -> str:
    """"a Saturday", "Thanksgiving Day"."""
    if why in ("Saturday", "Sunday"):
        return f"a {why}"
    return str(why)


@dataclass(frozen=True)
class Rolled:
    """A filing's last day after the roll: where it landed, where it was, why, and under what provisions."""

    date: dt.date
    rolled_from: dt.date | None
    why: str | None  # the non-business reason of the unrolled day
    citations: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        return "; ".join(self.citations)


def _closed_only(day: dt.date, calendar: ColoradoCalendar) -> bool:
    """The office is closed that day for a reason other than a weekend or legal holiday."""
    return calendar.office_closure(day) is not None and day.weekday() < 5 and calendar.legal_holiday(day) is None


def roll_filing(day: dt.date, calendar: ColoradoCalendar, law: LawProfile = DEFAULT_LAW) -> Rolled:
    """`day` if it is a business day; else the next one, citing the law's rollover for each weekend or legal holiday
    passed and 24-11-110 for each day the office is closed for another reason."""
    why = calendar.non_business_reason(day)
    if why is None:
        return Rolled(day, None, None)
    final = calendar.next_business_day(day)
    citations: list[str] = []
    current = day
    while current < final:
        citation = OFFICE_CLOSED.citation if _closed_only(current, calendar) else law.time.filing_rollover.citation
        if citation not in citations:
            citations.append(citation)
        current += dt.timedelta(days=1)
    return Rolled(final, day, why, tuple(citations))


def rolled_sentence(rolled: Rolled) -> str:
    return (f"; that day is {article(rolled.why)}, so it moves to the next business day, "
            f"{short_day(rolled.date)} ({rolled.rule})")


def friday_observance(day: dt.date, calendar: ColoradoCalendar) -> str | None:
    """The legal holiday on the Saturday after `day`, when `day` is a Friday the office has not said it closes.

    Colorado law moves no Saturday holiday to the Friday before (24-11-101(2) moves only a Sunday one), but many
    offices close that Friday; if this office does, a filing due that day stands continued (24-11-110). The bot
    asks rather than assumes."""
    if day.weekday() != 4 or calendar.office_closure(day) is not None or calendar.legal_holiday(day) is not None:
        return None
    return calendar.legal_holiday(day + dt.timedelta(days=1))


def observance_question(day: dt.date, calendar: ColoradoCalendar, what: str) -> str | None:
    """The question to ask about `day` (see `friday_observance`), or None."""
    holiday = friday_observance(day, calendar)
    if holiday is None:
        return None
    return (f"{what} falls on {short_day(day)}, the Friday before {holiday} (Saturday). Colorado law does not move a "
            f"Saturday holiday to Friday, but if the office is closed that Friday, enter it as a day the office is "
            f"closed: a filing due then stands continued to the next business day ({OFFICE_CLOSED.citation}).")
