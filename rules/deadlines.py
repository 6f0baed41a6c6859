"""The recount's deadlines, counted as Colorado counts time.

Time is counted in calendar days (C.R.S. 1-13.5-107(1), Article 13.5's own computation of time): the day
of the event is excluded and the last day included (1-1-106(2), applied by 1-13.5-106(2); 2-4-108(1)), so
"within seventeen days after" an election on Tue 2026-11-03 ends on Fri 2026-11-20.

- Request window, 1306(2)(a): "filed ... within seventeen days after the election". A filing: when the
  last day is a Saturday, Sunday or legal holiday it moves to the next day that is none of these
  (C.R.S. 1-13.5-107(2); 1-1-106(4) agrees for a filing, FILING_ROLLOVER_READING).
- Automatic recount, 1306(1): "completed no later than the twenty-eighth day following the election".
- Requested recount, 1306(2)(e): "completed no later than the twenty-eighth day after canvassing the
  election". Until the canvass date is entered it is an estimate shown as a range (CANVASS_RANGE_READING):
  1-13.5-1305(1) has the canvass board certify "no later than the fourteenth day following the election"
  and sets no earliest day, so the earliest deadline counts from a canvass on the first day after the
  election and the latest (the `date`, as before) from one on the fourteenth.
- Election contest, 1-13.5-1403 (information only): "within ten days after the recount period ends or the
  recount concludes, whichever is later". A filing: rolls under 1-1-106(4).

Readings (explicit, with a documented default):

- Completion deadlines do not roll by default (`CompletionRollover.NONE`): the statute says "no later
  than"; 1-13.5-107(2)'s extension is written into the subsection on acts before an election, and
  1-1-106(4) reaches only a filing, which completing a recount is not. A completion day that is not a
  business day is flagged (`falls_on`) and the clerk is told to finish by the business day before (safe
  under every reading). `CompletionRollover.NEXT_BUSINESS_DAY` rolls it instead, reading 1-13.5-107(2)'s
  "the last day of any period" as reaching every period of the article (as 2-4-108(2) does any period).
- The recount period for 1-13.5-1403 ends when the request window closes (the request deadline, as
  rolled); when the recount concludes later, its conclusion counts.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any

from rules.calendar import DEFAULT_CALENDAR, ColoradoCalendar, short_day
from rules.decision import Decision
from rules.statute import (
    AUTOMATIC_COMPLETION_DAYS,
    CALENDAR_DAYS_CITATION,
    CANVASS_DAYS,
    CONTEST_FILING_DAYS,
    REQUEST_WINDOW_DAYS,
    REQUESTED_COMPLETION_DAYS,
    UNIFORM_CODE_ROLLOVER_CITATION,
    WEEKEND_ROLLOVER_CITATION,
    cite,
)

# 2-4-108(2): a period whose last day is a Saturday, Sunday or legal holiday runs to the next day that is none.
PERIOD_EXTENSION_CITATION = cite("(2)", section="2-4-108")

COUNTING = (f"calendar days ({CALENDAR_DAYS_CITATION}); the day of the event excluded, the last day included")

FILING_ROLLOVER_READING = (
    f"filing deadlines roll: a last day on a Saturday, Sunday or legal holiday runs to the next day that is none "
    f"({WEEKEND_ROLLOVER_CITATION}, Article 13.5's own rule; {UNIFORM_CODE_ROLLOVER_CITATION}, applied by "
    f"C.R.S. 1-13.5-106(2), says the same of a filing during business hours)"
)
CANVASS_RANGE_READING = (
    f"until the canvass date is entered, the requested recount's deadline is a range: {CANVASS_DAYS.citation}(1) "
    f"has the canvass \"no later than the fourteenth day following the election\" and no earliest day, so the "
    f"earliest counts from a canvass the day after the election and the latest from one on the fourteenth; the "
    f"date shown and reminded is the latest (default) and the real deadline may be earlier: enter the canvass date"
)

REQUEST_DEADLINE = "request_deadline"
AUTOMATIC_RECOUNT_DEADLINE = "automatic_recount_deadline"
REQUESTED_RECOUNT_DEADLINE = "requested_recount_deadline"
CONTEST_FILING_DEADLINE = "contest_filing_deadline"

DEADLINE_OUTCOME = "deadline"


class CompletionRollover(str, enum.Enum):
    """Whether a recount's completion deadline that is not a business day moves to the next business day."""

    NONE = "none"
    NEXT_BUSINESS_DAY = "next-business-day"

    @property
    def reading(self) -> str:
        if self is CompletionRollover.NONE:
            return ("completion deadlines do not roll (default): the statute says \"no later than\"; "
                    f"{WEEKEND_ROLLOVER_CITATION} extends periods in its subsection on acts before an election, and "
                    f"{UNIFORM_CODE_ROLLOVER_CITATION} only a filing, which completing a recount is not")
        return ("rolled to next business day (option): a completion day on a Saturday, Sunday or legal "
                f"holiday moves to the next business day, reading {WEEKEND_ROLLOVER_CITATION}'s \"last day of any "
                f"period\" as reaching every period of Article 13.5, as {PERIOD_EXTENSION_CITATION} extends a period")


DEFAULT_COMPLETION_ROLLOVER = CompletionRollover.NONE

CONTEST_READING = (
    "the recount period ends when the request window closes (the request deadline); when the recount "
    "concludes later, that day counts instead (whichever is later); the contest deadline is a filing, so it "
    f"rolls under {WEEKEND_ROLLOVER_CITATION}"
)


@dataclass(frozen=True, kw_only=True)
class Deadline(Decision):
    """A deadline: the final date, how it was counted, and whether it was moved or needs the clerk's eye."""

    outcome: str = DEADLINE_OUTCOME
    name: str
    date: dt.date
    rolled_from: dt.date | None
    note: str
    estimated: bool = False
    falls_on: str | None = None
    # An estimate's range: the earliest the deadline can be (the `date` is the latest); None when not estimated.
    earliest: dt.date | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "date": self.date.isoformat(),
            "citation": self.citation,
            "reason": self.reason,
            "reading": self.reading,
            "counting": COUNTING,
            "rolled_from": self.rolled_from.isoformat() if self.rolled_from else None,
            "note": self.note,
            "estimated": self.estimated,
            "earliest": self.earliest.isoformat() if self.earliest else None,
            "latest": self.date.isoformat() if self.earliest else None,
            "falls_on": self.falls_on,
        }


@dataclass(frozen=True)
class ElectionDeadlines:
    request: Deadline
    automatic_recount: Deadline
    requested_recount: Deadline
    contest_filing: Deadline

    def all(self) -> tuple[Deadline, ...]:
        return (self.request, self.automatic_recount, self.requested_recount, self.contest_filing)

    def as_json(self) -> dict[str, dict[str, Any]]:
        return {d.name: d.as_json() for d in self.all()}


# ---------------------------------------------------------------------------------------------- helpers

def _require_date(value: object, what: str) -> dt.date:
    if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
        raise TypeError(f"{what} must be a datetime.date, got {type(value).__name__}")
    return value


def _days_after(start: dt.date, days: int) -> dt.date:
    """The last day of a period of `days` days after `start`, `start` excluded and the last day included."""
    return start + dt.timedelta(days=days)


def _plural(days: int) -> str:
    return f"{days} day" if days == 1 else f"{days} days"


@dataclass(frozen=True)
class _Rolled:
    date: dt.date
    rolled_from: dt.date | None
    why: str | None  # the non-business reason of the unrolled day


def _roll_filing(day: dt.date, calendar: ColoradoCalendar) -> _Rolled:
    why = calendar.non_business_reason(day)
    if why is None:
        return _Rolled(day, None, None)
    return _Rolled(calendar.next_business_day(day), day, why)


def _rolled_sentence(rolled: _Rolled, rule: str) -> str:
    return (f"; that day is {_article(rolled.why)}, so it moves to the next business day, "
            f"{short_day(rolled.date)} ({rule})")


def _article(why: str | None) -> str:
    if why in ("Saturday", "Sunday"):
        return f"a {why}"
    return str(why)


# ------------------------------------------------------------------------------------------------ rules

def request_deadline(election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR) -> Deadline:
    """1306(2)(a): the last day to file a written recount request; rolls under 1-1-106(4)."""
    election_date = _require_date(election_date, "election_date")
    days = REQUEST_WINDOW_DAYS.value
    raw = _days_after(election_date, days)
    rolled = _roll_filing(raw, calendar)
    note = f"{_plural(days)} after the election of {election_date.isoformat()} (election day excluded) is {short_day(raw)}"
    if rolled.rolled_from is not None:
        note += _rolled_sentence(rolled, WEEKEND_ROLLOVER_CITATION)
        reason = (f"A recount request must be filed by {short_day(rolled.date)}: the {days}-day window after the "
                  f"election of {election_date.isoformat()} ends on {short_day(raw)}, {_article(rolled.why)}, so it "
                  f"runs to the next business day ({WEEKEND_ROLLOVER_CITATION}).")
    else:
        reason = (f"A recount request must be filed by {short_day(rolled.date)}, {_plural(days)} after the "
                  f"election of {election_date.isoformat()}.")
    return Deadline(
        name=REQUEST_DEADLINE, citation=REQUEST_WINDOW_DAYS.citation, reason=reason,
        numbers={"election_date": election_date, "days": days, "unrolled": raw, "deadline": rolled.date},
        reading=FILING_ROLLOVER_READING, date=rolled.date, rolled_from=rolled.rolled_from, note=note,
    )


def _completion(
    *, name: str, citation: str, what: str, start: dt.date, days: int, base_note: str,
    rollover: CompletionRollover, calendar: ColoradoCalendar, estimated: bool,
    numbers: dict[str, Any], extra_note: str = "", warning: str = "",
) -> Deadline:
    rollover = CompletionRollover(rollover)
    raw = _days_after(start, days)
    why = calendar.non_business_reason(raw)
    note = base_note + f" is {short_day(raw)}"
    final, rolled_from, falls_on = raw, None, None
    prefix = "Estimated: " if estimated else ""
    if estimated:
        what = what[0].lower() + what[1:]
    if why is None:
        reason = f"{prefix}{what} must be completed no later than {short_day(raw)}."
    elif rollover is CompletionRollover.NEXT_BUSINESS_DAY:
        final, rolled_from = calendar.next_business_day(raw), raw
        note += (f"; that day is {_article(why)}, and by option completion deadlines roll: "
                 f"{short_day(final)} ({PERIOD_EXTENSION_CITATION})")
        reason = (f"{prefix}{what} must be completed no later than {short_day(final)} "
                  f"({short_day(raw)} is {_article(why)}; rolled to the next business day by option).")
    else:
        falls_on = why
        before = calendar.previous_business_day(raw)
        note += f"; that day is {_article(why)}: not rolled (completion is not a filing)"
        reason = (f"{prefix}{what} must be completed no later than {short_day(raw)}, which falls on "
                  f"{_article(why)}; finish by the business day before, {short_day(before)}.")
        numbers = {**numbers, "business_day_before": before}
    note += extra_note
    if warning:
        reason = f"{reason[:-1]} ({warning})."
    return Deadline(
        name=name, citation=citation, reason=reason,
        numbers={**numbers, "days": days, "unrolled": raw, "deadline": final, "rollover": rollover.value},
        reading=rollover.reading, date=final, rolled_from=rolled_from, note=note,
        estimated=estimated, falls_on=falls_on,
    )


def automatic_recount_deadline(
    election_date: dt.date,
    rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER,
    calendar: ColoradoCalendar = DEFAULT_CALENDAR,
) -> Deadline:
    """1306(1): an automatic recount is completed no later than the 28th day following the election."""
    election_date = _require_date(election_date, "election_date")
    days = AUTOMATIC_COMPLETION_DAYS.value
    return _completion(
        name=AUTOMATIC_RECOUNT_DEADLINE, citation=AUTOMATIC_COMPLETION_DAYS.citation,
        what="The automatic recount", start=election_date, days=days,
        base_note=f"{_plural(days)} after the election of {election_date.isoformat()} (election day excluded)",
        rollover=rollover, calendar=calendar, estimated=False,
        numbers={"election_date": election_date},
    )


def requested_recount_deadline(
    election_date: dt.date,
    canvass_date: dt.date | None = None,
    rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER,
    calendar: ColoradoCalendar = DEFAULT_CALENDAR,
) -> Deadline:
    """1306(2)(e): a requested recount is completed no later than the 28th day after canvassing.

    Without `canvass_date` the deadline is an estimate: a range from a canvass on the day after the election
    (`earliest`) to one on the statutory latest day of 1-13.5-1305 (`date`), CANVASS_RANGE_READING. A canvass on or before election day is impossible (ValueError); one after
    the statutory latest day is used as entered, with a warning in the note.
    """
    election_date = _require_date(election_date, "election_date")
    days = REQUESTED_COMPLETION_DAYS.value
    latest_canvass = _days_after(election_date, CANVASS_DAYS.value)
    extra_note = warning = ""
    if canvass_date is None:
        canvass, estimated = latest_canvass, True
        base_note = (f"estimate until the canvass date is entered: canvass assumed on the statutory latest day, "
                     f"{_plural(CANVASS_DAYS.value)} after the election ({CANVASS_DAYS.citation}), "
                     f"{short_day(canvass)}; {_plural(days)} after canvassing (canvass day excluded)")
    else:
        canvass = _require_date(canvass_date, "canvass_date")
        estimated = False
        if canvass <= election_date:
            raise ValueError(
                f"canvass date {canvass.isoformat()} is on or before the election of {election_date.isoformat()}: "
                f"the canvass board certifies the returns after the election ({CANVASS_DAYS.citation}); "
                f"check the dates")
        base_note = (f"{_plural(days)} after canvassing on {short_day(canvass)} (canvass day excluded)")
        if canvass > latest_canvass:
            extra_note = (f". Warning: the canvass date {canvass.isoformat()} is later than the statutory latest "
                          f"canvass day, {short_day(latest_canvass)} ({_plural(CANVASS_DAYS.value)} after the "
                          f"election, {CANVASS_DAYS.citation}); used as entered")
            warning = "canvass date entered is after the statutory latest canvass day; check it"
    deadline = _completion(
        name=REQUESTED_RECOUNT_DEADLINE, citation=REQUESTED_COMPLETION_DAYS.citation,
        what="The requested recount", start=canvass, days=days, base_note=base_note,
        rollover=rollover, calendar=calendar, estimated=estimated,
        numbers={"election_date": election_date, "canvass_date": canvass, "canvass_estimated": estimated,
                 "statutory_latest_canvass": latest_canvass},
        extra_note=extra_note, warning=warning,
    )
    if not estimated:
        return deadline
    return _as_range(deadline, election_date, days, rollover, calendar)


def _as_range(latest: Deadline, election_date: dt.date, days: int, rollover: CompletionRollover,
              calendar: ColoradoCalendar) -> Deadline:
    """The estimate without a canvass date as a range: from a canvass the day after the election (1-13.5-1305
    sets no earliest day) to one on the statutory latest day, which `latest` counted from."""
    earliest_canvass = election_date + dt.timedelta(days=1)
    earliest = _completion(
        name=REQUESTED_RECOUNT_DEADLINE, citation=REQUESTED_COMPLETION_DAYS.citation,
        what="The requested recount", start=earliest_canvass, days=days, base_note="",
        rollover=rollover, calendar=calendar, estimated=True, numbers={},
    )
    finish_by = earliest.numbers.get("business_day_before", earliest.date)
    note = (f"{latest.note}. The real deadline may be earlier: {CANVASS_DAYS.citation}(1) sets no earliest "
            f"canvass day, and a canvass on the day after the election, {short_day(earliest_canvass)}, makes it "
            f"{short_day(earliest.date)}" + (f" ({earliest.falls_on}: finish by {short_day(finish_by)})"
                                             if earliest.falls_on else ""))
    reason = (f"Estimated, until the canvass date is entered: the requested recount must be completed no later "
              f"than a day between {short_day(earliest.date)} (canvass on {short_day(earliest_canvass)}, the day "
              f"after the election) and {short_day(latest.date)} (canvass on "
              f"{short_day(latest.numbers['canvass_date'])}, the latest day under {CANVASS_DAYS.citation}), "
              f"{_plural(days)} after canvassing; the real deadline may be earlier than the latest — enter the "
              f"canvass date.")
    if latest.falls_on:
        reason = reason[:-1] + (f" The latest falls on {_article(latest.falls_on)}: finish by "
                                f"{short_day(latest.numbers['business_day_before'])}.")
    return dataclasses.replace(
        latest, note=note, reason=reason, earliest=earliest.date,
        reading=f"{CANVASS_RANGE_READING}; {latest.reading}",
        numbers={**latest.numbers, "earliest_canvass": earliest_canvass, "earliest_deadline": earliest.date,
                 "latest_deadline": latest.date},
    )


def contest_filing_deadline(
    election_date: dt.date,
    recount_concluded: dt.date | None = None,
    calendar: ColoradoCalendar = DEFAULT_CALENDAR,
) -> Deadline:
    """1-13.5-1403 (information only): a contest is filed within 10 days after the later of the end of the
    recount period (the request deadline) and the recount's conclusion; rolls under 1-1-106(4)."""
    election_date = _require_date(election_date, "election_date")
    period_end = request_deadline(election_date, calendar).date
    if recount_concluded is not None:
        recount_concluded = _require_date(recount_concluded, "recount_concluded")
        if recount_concluded <= election_date:
            raise ValueError(
                f"recount concluded {recount_concluded.isoformat()} is on or before the election of "
                f"{election_date.isoformat()}: a recount follows the election; check the dates")
    if recount_concluded is not None and recount_concluded > period_end:
        start, start_text = recount_concluded, f"the recount concluded on {short_day(recount_concluded)}"
    else:
        start = period_end
        start_text = f"the recount period ended with the request window on {short_day(period_end)}"
        if recount_concluded is not None:
            start_text += f" (the recount concluded earlier, on {short_day(recount_concluded)})"
    days = CONTEST_FILING_DAYS.value
    raw = _days_after(start, days)
    rolled = _roll_filing(raw, calendar)
    note = f"{start_text}; {_plural(days)} after that (that day excluded) is {short_day(raw)}"
    if rolled.rolled_from is not None:
        note += _rolled_sentence(rolled, WEEKEND_ROLLOVER_CITATION)
    reason = (f"For information: an election contest must be filed by {short_day(rolled.date)}, "
              f"{_plural(days)} after {start_text}"
              + (f" (moved from {short_day(raw)}, {_article(rolled.why)})" if rolled.rolled_from else "") + ".")
    return Deadline(
        name=CONTEST_FILING_DEADLINE, citation=CONTEST_FILING_DAYS.citation, reason=reason,
        numbers={"election_date": election_date, "recount_period_end": period_end,
                 "recount_concluded": recount_concluded, "counted_from": start, "days": days,
                 "unrolled": raw, "deadline": rolled.date},
        reading=CONTEST_READING, date=rolled.date, rolled_from=rolled.rolled_from, note=note,
    )


def _earliest_start(day: dt.date, days: int, calendar: ColoradoCalendar) -> dt.date:
    """The earliest day S whose filing deadline `days` after it (rolled as a filing rolls) falls on or after `day`.
    Rolling never moves a deadline earlier, so every S after it gives one on or after `day` too, and every S before
    it one before `day`: the deadline of S - 1 is on or after `day` only when the days from its unrolled last day up
    to `day` are none of them business days."""
    start = day - dt.timedelta(days=days)
    while not calendar.is_business_day(start - dt.timedelta(days=1) + dt.timedelta(days=days)):
        start -= dt.timedelta(days=1)
    return start


def request_window_open_since(today: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR) -> dt.date:
    """The earliest election day whose request window (1306(2)(a), `request_deadline`) is still open `today`:
    for an election before it the window has closed, which the worker's poll and App Home know without reading it."""
    return _earliest_start(_require_date(today, "today"), REQUEST_WINDOW_DAYS.value, calendar)


def contest_window_open_since(today: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR) -> tuple[dt.date, dt.date]:
    """(concluded, election): 1-13.5-1403's window (`contest_filing_deadline`) is still open `today` exactly for a
    recount concluded on or after the first date, or of an election on or after the second (whose recount period,
    the request window, ended late enough): the later of the two counts, and 10 days after it (rolled) is the last
    day to file."""
    start = _earliest_start(_require_date(today, "today"), CONTEST_FILING_DAYS.value, calendar)
    return start, _earliest_start(start, REQUEST_WINDOW_DAYS.value, calendar)


def election_deadlines(
    election_date: dt.date,
    canvass_date: dt.date | None = None,
    rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER,
    recount_concluded: dt.date | None = None,
    calendar: ColoradoCalendar = DEFAULT_CALENDAR,
) -> ElectionDeadlines:
    """All four deadlines of one election."""
    return ElectionDeadlines(
        request=request_deadline(election_date, calendar),
        automatic_recount=automatic_recount_deadline(election_date, rollover, calendar),
        requested_recount=requested_recount_deadline(election_date, canvass_date, rollover, calendar),
        contest_filing=contest_filing_deadline(election_date, recount_concluded, calendar),
    )


def is_request_timely(
    received_on: dt.date, election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR,
) -> tuple[bool, Deadline]:
    """Was a recount request received within the window of 1306(2)(a)?

    The window opens the day after the election (the survey of returns does not exist before) and
    closes at the end of the request deadline. Returns the verdict and the request deadline, whose
    reason states the verdict.
    """
    received_on = _require_date(received_on, "received_on")
    deadline = request_deadline(election_date, calendar)
    first_day = election_date + dt.timedelta(days=1)
    window = f"requests may be filed from {short_day(first_day)} through {short_day(deadline.date)}"
    if received_on <= election_date:
        timely = False
        verdict = (f"Request received {short_day(received_on)} is not timely: it came on or before election day "
                   f"({election_date.isoformat()}), when the survey of returns does not exist yet and no one can "
                   f"know whether a recount is required under (1); {window}.")
    elif received_on <= deadline.date:
        timely = True
        verdict = f"Request received {short_day(received_on)} is timely: {window}."
        if deadline.rolled_from is not None and received_on > deadline.rolled_from:
            verdict = (f"Request received {short_day(received_on)} is timely: the window's last day "
                       f"{short_day(deadline.rolled_from)} was {_article(calendar.non_business_reason(deadline.rolled_from))}, "
                       f"so it ran to {short_day(deadline.date)} ({WEEKEND_ROLLOVER_CITATION}).")
    else:
        timely = False
        verdict = (f"Request received {short_day(received_on)} is late: the window closed "
                   f"{short_day(deadline.date)}; {window}.")
    return timely, dataclasses.replace(
        deadline, reason=verdict, numbers={**deadline.numbers, "received_on": received_on, "timely": timely},
    )
