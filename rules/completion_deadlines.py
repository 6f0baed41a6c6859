"""The official's own deadlines: completing a recount, determining its cost, telling the political subdivision.

- Automatic recount: completed by the law's day after the election (`LawProfile.automatic_completion`: 1306(1)
  the 28th, 31-10-1207(1) the 15th, 1-10.5-103 the 31st).
- Requested recount: `LawProfile.requested_completion`, counted from the election (31-10-1207(2) the 15th;
  1-10.5 read as the 31st) or from the canvass (1306(2)(e): "the twenty-eighth day after canvassing the
  election"). Until the canvass date is entered, the deadline shown, reminded and printed is the earliest it can
  be: a canvass the day after the election (the canvass sections set no earliest day); the latest (a canvass on the
  law's last canvass day) is given beside it (EARLIEST_UNTIL_CANVASS_READING).
- Cost (1-10.5-106(2)): determined "within four days of receiving the request ..., but no later than twenty-four
  days following the election".
- The political subdivision is told of a request "no later than the day following receipt" (1-10.5-106(2)).

None of these roll by default (rules.day_counting.CompletionRollover): a day that is not a business day is flagged
(`falls_on`) and the official is told to finish by the business day before.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from rules.calendar import DEFAULT_CALENDAR, ColoradoCalendar, short_day
from rules.day_counting import (
    DEFAULT_COMPLETION_ROLLOVER,
    CompletionRollover,
    Deadline,
    article,
    counting_text,
    days_after,
    ordinal,
    plural,
    require_date,
)
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import CountFrom, Period
from rules.laws.sources import PERIOD_EXTENSION

AUTOMATIC_RECOUNT_DEADLINE = "automatic_recount_deadline"
REQUESTED_RECOUNT_DEADLINE = "requested_recount_deadline"
COST_DETERMINATION_DEADLINE = "cost_determination_deadline"
SUBDIVISION_NOTICE_DEADLINE = "subdivision_notice_deadline"


def earliest_until_canvass_reading(law: LawProfile = DEFAULT_LAW) -> str:
    canvass = law.canvass
    return (f"until the canvass date is entered, the deadline shown and reminded is the earliest it can be: "
            f"{canvass.provision.citation} has the canvass \"no later than\" the {ordinal(canvass.days)} day and sets no "
            f"earliest day, so it is counted from a canvass the day after the election; the latest (a canvass on the "
            f"{ordinal(canvass.days)} day) is shown beside it; enter the canvass date to make it exact")


EARLIEST_UNTIL_CANVASS_READING = earliest_until_canvass_reading()


@dataclasses.dataclass(frozen=True)
class _Work:
    """What one completion-type deadline counts."""

    name: str
    citation: str
    what: str  # "The automatic recount"
    start: dt.date
    days: int
    base_note: str
    estimated: bool = False
    period_reading: str | None = None
    verb: str = "completed"


def _completion(work: _Work, *, rollover: CompletionRollover, calendar: ColoradoCalendar, law: LawProfile,
                numbers: dict[str, Any], extra_note: str = "", warning: str = "") -> Deadline:
    rollover = CompletionRollover(rollover)
    raw = days_after(work.start, work.days)
    why = calendar.non_business_reason(raw)
    note = work.base_note + f" is {short_day(raw)}"
    final, rolled_from, falls_on = raw, None, None
    what = work.what[0].lower() + work.what[1:] if work.estimated else work.what
    prefix = "Estimated: " if work.estimated else ""
    if why is None:
        reason = f"{prefix}{what} must be {work.verb} no later than {short_day(raw)}."
    elif rollover is CompletionRollover.NEXT_BUSINESS_DAY:
        final, rolled_from = calendar.next_business_day(raw), raw
        note += (f"; that day is {article(why)}, and by option completion deadlines roll: {short_day(final)} "
                 f"({PERIOD_EXTENSION.citation})")
        reason = (f"{prefix}{what} must be {work.verb} no later than {short_day(final)} "
                  f"({short_day(raw)} is {article(why)}; rolled to the next business day by option).")
    else:
        falls_on = why
        before = calendar.previous_business_day(raw)
        note += f"; that day is {article(why)}: not rolled (completion is not a filing)"
        reason = (f"{prefix}{what} must be {work.verb} no later than {short_day(raw)}, which falls on "
                  f"{article(why)}; finish by the business day before, {short_day(before)}.")
        numbers = {**numbers, "business_day_before": before}
    note += extra_note
    if warning:
        reason = f"{reason[:-1]} ({warning})."
    reading = rollover.reading_for(law)
    if work.period_reading:
        reading = f"{work.period_reading}; {reading}"
    return Deadline(
        name=work.name, citation=work.citation, reason=reason,
        numbers={**numbers, "days": work.days, "unrolled": raw, "deadline": final, "rollover": rollover.value},
        reading=reading, date=final, rolled_from=rolled_from, note=note, estimated=work.estimated,
        falls_on=falls_on, counting=counting_text(law), law=law.key,
    )


def _from_election(name: str, what: str, period: Period, election_date: dt.date, rollover: CompletionRollover,
                   calendar: ColoradoCalendar, law: LawProfile) -> Deadline:
    work = _Work(name, period.provision.citation, what, election_date, period.days,
                 f"{plural(period.days)} after the election of {election_date.isoformat()} (election day excluded)",
                 period_reading=period.reading)
    return _completion(work, rollover=rollover, calendar=calendar, law=law, numbers={"election_date": election_date})


def automatic_recount_deadline(
    election_date: dt.date, rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER,
    calendar: ColoradoCalendar = DEFAULT_CALENDAR, *, law: LawProfile = DEFAULT_LAW,
) -> Deadline:
    """The day an automatic recount is completed by (1306(1): the 28th day; 31-10-1207(1): 15th; 1-10.5-103: 31st)."""
    election_date = require_date(election_date, "election_date")
    return _from_election(AUTOMATIC_RECOUNT_DEADLINE, "The automatic recount", law.automatic_completion,
                          election_date, rollover, calendar, law)


def requested_recount_deadline(
    election_date: dt.date, canvass_date: dt.date | None = None,
    rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER, calendar: ColoradoCalendar = DEFAULT_CALENDAR,
    *, law: LawProfile = DEFAULT_LAW,
) -> Deadline:
    """The day a requested recount is completed by.

    Counted from the canvass (1306(2)(e)): without `canvass_date` the deadline is the earliest possible one (a canvass
    the day after the election), `estimated`, with the latest beside it (EARLIEST_UNTIL_CANVASS_READING). A canvass
    on or before election day is impossible (ValueError); one after the law's last canvass day is used as entered,
    with a warning."""
    election_date = require_date(election_date, "election_date")
    period = law.requested_completion
    if period.counted_from is CountFrom.ELECTION:
        return _from_election(REQUESTED_RECOUNT_DEADLINE, "The requested recount", period, election_date, rollover,
                              calendar, law)
    if canvass_date is None:
        return _until_canvass(election_date, rollover, calendar, law)
    return _after_canvass(election_date, require_date(canvass_date, "canvass_date"), rollover, calendar, law)


def check_canvass_date(election_date: dt.date, canvass: dt.date, law: LawProfile = DEFAULT_LAW) -> None:
    if canvass <= election_date:
        raise ValueError(
            f"canvass date {canvass.isoformat()} is on or before the election of {election_date.isoformat()}: the "
            f"canvass board certifies the returns after the election ({law.canvass.provision.citation}); check the "
            f"dates")


def _after_canvass(election_date: dt.date, canvass: dt.date, rollover: CompletionRollover,
                   calendar: ColoradoCalendar, law: LawProfile) -> Deadline:
    period, canvass_period = law.requested_completion, law.canvass
    check_canvass_date(election_date, canvass, law)
    latest_canvass = days_after(election_date, canvass_period.days)
    extra_note = warning = ""
    if canvass > latest_canvass:
        extra_note = (f". Warning: the canvass date {canvass.isoformat()} is later than the statutory latest canvass "
                      f"day, {short_day(latest_canvass)} ({plural(canvass_period.days)} after the election, "
                      f"{canvass_period.provision.citation}); used as entered")
        warning = "canvass date entered is after the statutory latest canvass day; check it"
    work = _Work(REQUESTED_RECOUNT_DEADLINE, period.provision.citation, "The requested recount", canvass, period.days,
                 f"{plural(period.days)} after canvassing on {short_day(canvass)} (canvass day excluded)")
    return _completion(work, rollover=rollover, calendar=calendar, law=law, extra_note=extra_note, warning=warning,
                       numbers={"election_date": election_date, "canvass_date": canvass, "canvass_estimated": False,
                                "statutory_latest_canvass": latest_canvass})


def _until_canvass(election_date: dt.date, rollover: CompletionRollover, calendar: ColoradoCalendar,
                   law: LawProfile) -> Deadline:
    """The earliest possible deadline (canvass the day after the election), with the latest beside it."""
    period, canvass_period = law.requested_completion, law.canvass
    first, last = election_date + dt.timedelta(days=1), days_after(election_date, canvass_period.days)
    earliest = _completion(
        _Work(REQUESTED_RECOUNT_DEADLINE, period.provision.citation, "The requested recount", first, period.days,
              f"estimate until the canvass date is entered: the earliest it can be, counted from a canvass on the "
              f"day after the election, {short_day(first)}; {plural(period.days)} after canvassing (canvass day "
              f"excluded)", estimated=True),
        numbers={"election_date": election_date, "canvass_date": first, "canvass_estimated": True,
                 "statutory_latest_canvass": last}, rollover=rollover, calendar=calendar, law=law)
    latest = _completion(
        _Work(REQUESTED_RECOUNT_DEADLINE, period.provision.citation, "The requested recount", last, period.days, "",
              estimated=True), numbers={}, rollover=rollover, calendar=calendar, law=law)
    finish_by = earliest.numbers.get("business_day_before")
    reason = (f"Until the canvass date is entered, the earliest possible deadline: the requested recount must be "
              f"completed no later than {short_day(earliest.date)}, {plural(period.days)} after a canvass on "
              f"{short_day(first)}, the day after the election"
              + (f" ({article(earliest.falls_on)}: finish by {short_day(finish_by)})" if finish_by else "")
              + f"; at the latest {short_day(latest.date)}, after a canvass on {short_day(last)}, the last day under "
                f"{canvass_period.provision.citation}. Enter the canvass date.")
    note = (f"{earliest.note}. At the latest, after a canvass on {short_day(last)} ({plural(canvass_period.days)} "
            f"after the election, {canvass_period.provision.citation}): {short_day(latest.date)}")
    return dataclasses.replace(
        earliest, reason=reason, note=note, earliest=earliest.date, latest=latest.date,
        reading=f"{earliest_until_canvass_reading(law)}; {earliest.reading}",
        numbers={**earliest.numbers, "earliest_canvass": first, "latest_canvass": last,
                 "earliest_deadline": earliest.date, "latest_deadline": latest.date},
    )


def cost_determination_deadline(
    election_date: dt.date, received_on: dt.date | None = None,
    rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER, calendar: ColoradoCalendar = DEFAULT_CALENDAR,
    *, law: LawProfile = DEFAULT_LAW,
) -> Deadline | None:
    """The day the cost must be determined by, where the law sets one (1-10.5-106(2): within four days of receiving
    the request, and no later than the 24th day after the election); None where it sets none (1306, 31-10-1207).
    Without `received_on`, the latest day the law allows."""
    cost = law.cost
    if cost.no_later_than_day is None and cost.within_days_of_receipt is None:
        return None
    election_date = require_date(election_date, "election_date")
    citation = (cost.deadline_provision or cost.provision).citation
    cap = days_after(election_date, cost.no_later_than_day) if cost.no_later_than_day is not None else None
    if received_on is not None and cost.within_days_of_receipt is not None:
        received_on = require_date(received_on, "received_on")
        by_receipt = days_after(received_on, cost.within_days_of_receipt)
        if cap is None or by_receipt <= cap:
            work = _Work(COST_DETERMINATION_DEADLINE, citation, "The cost determination", received_on,
                         cost.within_days_of_receipt,
                         f"{plural(cost.within_days_of_receipt)} after the request was received on "
                         f"{short_day(received_on)} (that day excluded)", verb="made")
            return _completion(work, rollover=rollover, calendar=calendar, law=law,
                               numbers={"election_date": election_date, "received_on": received_on})
    assert cost.no_later_than_day is not None
    base = f"{plural(cost.no_later_than_day)} after the election of {election_date.isoformat()} (election day excluded)"
    if received_on is None and cost.within_days_of_receipt is not None:
        base = (f"within {plural(cost.within_days_of_receipt)} of receiving the request, and at the latest "
                f"{base},")
    work = _Work(COST_DETERMINATION_DEADLINE, citation, "The cost determination", election_date,
                 cost.no_later_than_day, base, verb="made")
    return _completion(work, rollover=rollover, calendar=calendar, law=law,
                       numbers={"election_date": election_date, "received_on": received_on})


def subdivision_notice_deadline(
    received_on: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *, law: LawProfile = DEFAULT_LAW,
) -> Deadline | None:
    """The day the official tells the political subdivision of a request (1-10.5-106(2): "no later than the day
    following receipt"); None where the law asks no such notice."""
    period = law.requesting.notify_subdivision
    if period is None:
        return None
    received_on = require_date(received_on, "received_on")
    work = _Work(SUBDIVISION_NOTICE_DEADLINE, period.provision.citation,
                 "Notice of the request to the political subdivision", received_on, period.days,
                 f"{plural(period.days)} after the request was received on {short_day(received_on)}", verb="given")
    return _completion(work, rollover=CompletionRollover.NONE, calendar=calendar, law=law,
                       numbers={"received_on": received_on})
