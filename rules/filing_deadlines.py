"""Deadlines for filings made to the office: the request window, an election contest, a waiver, a payment.

A filing's last day on a Saturday, Sunday or legal holiday runs to the next day that is none, under the law's own
provision (`LawProfile.time.filing_rollover`): for 1-13.5-1306 that is 1-1-106(4), applied to article 13.5 by
1-13.5-106(2) (1-13.5-107(2) is about acts before an election); for 31-10-1207, 31-10-103; for 1-10.5, 1-1-106(4).
A last day on which the office is closed for another reason stands continued under 24-11-110.

- The request window opens on `requesting.opens` (the day after the election; 1-10.5-106(2): "no sooner than ten
  days") and closes on `requesting.closes` (1306(2)(a) 17 days; 31-10-1207(2) 10; 1-10.5-106(2) 22).
- The election contest (information only): 1-13.5-1403 and 31-10-1303 count ten days from the later of the end of
  the request period and the recount's conclusion; 1-11-213(4) from the filing of the official survey of returns.
- The waiver of an automatic recount (1-10.5-103): written notice within 23 days after the election.
- A payment due within days of the cost determination (1-10.5-106(2), 2022 text: certified funds within one day).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import enum

from rules.calendar import DEFAULT_CALENDAR, ColoradoCalendar, short_day
from rules.completion_deadlines import check_canvass_date
from rules.day_counting import (
    Deadline,
    Rolled,
    article,
    counting_text,
    days_after,
    ordinal,
    plural,
    require_date,
    roll_filing,
    rolled_sentence,
)
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import CountFrom, PaymentTiming
from rules.laws.sources import OFFICE_CLOSED

REQUEST_WINDOW_OPENS = "request_window_opens"
REQUEST_DEADLINE = "request_deadline"
CONTEST_FILING_DEADLINE = "contest_filing_deadline"
WAIVER_DEADLINE = "waiver_deadline"
PAYMENT_DEADLINE = "payment_deadline"
WINDOW_OPENS_OUTCOME = "window_opens"


def filing_rollover_reading(law: LawProfile = DEFAULT_LAW) -> str:
    """Which provision rolls a filing's last day, quoted whole, and what 24-11-110 adds."""
    time = law.time
    applied = (f", applied by {time.filing_rollover_applied_by.citation} (\"{time.filing_rollover_applied_by.words}\")"
               if time.filing_rollover_applied_by else "")
    return (f"filing deadlines roll: a last day on a Saturday, Sunday or legal holiday runs to the next day that is "
            f"none ({time.filing_rollover.citation}{applied}: \"{time.filing_rollover.words}\"); a last day on which "
            f"the office is closed for another reason stands continued to its next full business day "
            f"({OFFICE_CLOSED.citation})")


FILING_ROLLOVER_READING = filing_rollover_reading()


def _filing(start: dt.date, days: int, start_text: str, calendar: ColoradoCalendar,
            law: LawProfile) -> tuple[dt.date, Rolled, str]:
    raw = days_after(start, days)
    rolled = roll_filing(raw, calendar, law)
    note = f"{plural(days)} after {start_text} is {short_day(raw)}"
    if rolled.rolled_from is not None:
        note += rolled_sentence(rolled)
    return raw, rolled, note


def request_window_opens(election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                         law: LawProfile = DEFAULT_LAW) -> Deadline:
    """The first day a recount request may be filed. Not a deadline: it does not roll; a first day the office is
    closed is flagged (`falls_on`), and a request received on the next business day is in time."""
    election_date = require_date(election_date, "election_date")
    opens = law.requesting.opens
    day = days_after(election_date, opens.days)
    why = calendar.non_business_reason(day)
    if opens.days == 1:
        note = f"the day after the election of {election_date.isoformat()}, {short_day(day)}"
    else:
        note = (f"{plural(opens.days)} after the election of {election_date.isoformat()} (election day excluded) is "
                f"{short_day(day)}")
    reason = f"Recount requests may be filed from {short_day(day)}"
    if why is not None:
        first = calendar.next_business_day(day)
        note += f"; that day is {article(why)}: the office may be closed, and it takes requests from {short_day(first)}"
        reason += f" ({article(why)}; the office's first business day after it is {short_day(first)})"
    return Deadline(
        outcome=WINDOW_OPENS_OUTCOME, name=REQUEST_WINDOW_OPENS, citation=opens.provision.citation,
        reason=reason + ".", reading=opens.reading, date=day, rolled_from=None, note=note, falls_on=why,
        numbers={"election_date": election_date, "days": opens.days, "opens": day},
        counting=counting_text(law), law=law.key,
    )


def request_deadline(election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                     law: LawProfile = DEFAULT_LAW) -> Deadline:
    """The last day to file a written recount request; a filing, so it rolls."""
    election_date = require_date(election_date, "election_date")
    closes = law.requesting.closes
    days = closes.days
    raw, rolled, note = _filing(election_date, days,
                                f"the election of {election_date.isoformat()} (election day excluded)", calendar, law)
    if rolled.rolled_from is not None:
        reason = (f"A recount request must be filed by {short_day(rolled.date)}: the {days}-day window after the "
                  f"election of {election_date.isoformat()} ends on {short_day(raw)}, {article(rolled.why)}, so it "
                  f"runs to the next business day ({rolled.rule}).")
    else:
        reason = (f"A recount request must be filed by {short_day(rolled.date)}, {plural(days)} after the "
                  f"election of {election_date.isoformat()}.")
    return Deadline(
        name=REQUEST_DEADLINE, citation=closes.provision.citation, reason=reason,
        numbers={"election_date": election_date, "days": days, "unrolled": raw, "deadline": rolled.date},
        reading=filing_rollover_reading(law), date=rolled.date, rolled_from=rolled.rolled_from, note=note,
        counting=counting_text(law), law=law.key,
    )


class RequestTiming(str, enum.Enum):
    EARLY = "early"  # before the window opened
    TIMELY = "timely"
    LATE = "late"


def request_timing(received_on: dt.date, election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                   law: LawProfile = DEFAULT_LAW) -> tuple[RequestTiming, Deadline, Deadline]:
    """Was a request received before the window opened, within it, or after it closed? Returns the verdict, the
    request deadline (its reason states the verdict) and the window's first day."""
    received_on = require_date(received_on, "received_on")
    deadline = request_deadline(election_date, calendar, law=law)
    opens = request_window_opens(election_date, calendar, law=law)
    window = f"requests may be filed from {short_day(opens.date)} through {short_day(deadline.date)}"
    got = f"Request received {short_day(received_on)}"
    if received_on < opens.date:
        timing = RequestTiming.EARLY
        if law.requesting.opens.days == 1:
            verdict = (f"{got} is not timely: it came on or before election day ({election_date.isoformat()}), when "
                       f"the survey of returns does not exist yet and no one can know whether a recount is required "
                       f"under {law.trigger.provision.citation}; {window}.")
        else:
            verdict = (f"{got} is too early: the window had not opened; it opens {short_day(opens.date)}, "
                       f"{plural(law.requesting.opens.days)} after the election ({opens.citation}); {window}.")
    elif received_on <= deadline.date:
        timing = RequestTiming.TIMELY
        verdict = f"{got} is timely: {window}."
        if deadline.rolled_from is not None and received_on > deadline.rolled_from:
            why = article(calendar.non_business_reason(deadline.rolled_from))
            verdict = (f"{got} is timely: the window's last day {short_day(deadline.rolled_from)} was {why}, so it "
                       f"ran to {short_day(deadline.date)} ({roll_filing(deadline.rolled_from, calendar, law).rule}).")
    else:
        timing = RequestTiming.LATE
        verdict = f"{got} is late: the window closed {short_day(deadline.date)}; {window}."
    return timing, dataclasses.replace(
        deadline, reason=verdict,
        numbers={**deadline.numbers, "received_on": received_on, "timely": timing is RequestTiming.TIMELY,
                 "timing": timing.value, "opens": opens.date},
    ), opens


def is_request_timely(received_on: dt.date, election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR,
                      *, law: LawProfile = DEFAULT_LAW) -> tuple[bool, Deadline]:
    """Was a recount request received within the window? The verdict, and the request deadline stating it."""
    timing, deadline, _ = request_timing(received_on, election_date, calendar, law=law)
    return timing is RequestTiming.TIMELY, deadline


def contest_filing_deadline(
    election_date: dt.date, recount_concluded: dt.date | None = None, calendar: ColoradoCalendar = DEFAULT_CALENDAR,
    *, law: LawProfile = DEFAULT_LAW, canvass_date: dt.date | None = None,
) -> Deadline:
    """(Information only) the last day to file an election contest under the law's contest section."""
    election_date = require_date(election_date, "election_date")
    if recount_concluded is not None:
        recount_concluded = require_date(recount_concluded, "recount_concluded")
        if recount_concluded <= election_date:
            raise ValueError(
                f"recount concluded {recount_concluded.isoformat()} is on or before the election of "
                f"{election_date.isoformat()}: a recount follows the election; check the dates")
    if law.contest_filing.counted_from is CountFrom.SURVEY_FILED:
        return _contest_after_survey(election_date, canvass_date, calendar, law)
    return _contest_after_recount_period(election_date, recount_concluded, calendar, law)


def _contest_reading(law: LawProfile) -> str:
    rule = law.time.filing_rollover.citation
    if law.contest_filing.counted_from is CountFrom.SURVEY_FILED:
        return (f"counted from the day the official survey of returns was filed (the canvass); until that day is "
                f"entered, the earliest it can be is shown; a filing, so it rolls under {rule}; information only: "
                f"{law.contest_filing.provision.citation} is a court's to apply")
    return ("the recount period ends when the request window closes (the request deadline); when the recount "
            "concludes later, that day counts instead (whichever is later); the contest deadline is a filing, so it "
            f"rolls under {rule}")


def _contest_after_recount_period(election_date: dt.date, recount_concluded: dt.date | None,
                                  calendar: ColoradoCalendar, law: LawProfile) -> Deadline:
    period_end = request_deadline(election_date, calendar, law=law).date
    if recount_concluded is not None and recount_concluded > period_end:
        start, start_text = recount_concluded, f"the recount concluded on {short_day(recount_concluded)}"
    else:
        start = period_end
        start_text = f"the recount period ended with the request window on {short_day(period_end)}"
        if recount_concluded is not None:
            start_text += f" (the recount concluded earlier, on {short_day(recount_concluded)})"
    days = law.contest_filing.days
    raw, rolled, note = _filing(start, days, "that (that day excluded)", calendar, law)
    note = f"{start_text}; {note}"
    reason = (f"For information: an election contest must be filed by {short_day(rolled.date)}, {plural(days)} after "
              f"{start_text}" + (f" (moved from {short_day(raw)}, {article(rolled.why)})" if rolled.rolled_from
                                 else "") + ".")
    return Deadline(
        name=CONTEST_FILING_DEADLINE, citation=law.contest_filing.provision.citation, reason=reason,
        numbers={"election_date": election_date, "recount_period_end": period_end,
                 "recount_concluded": recount_concluded, "counted_from": start, "days": days,
                 "unrolled": raw, "deadline": rolled.date},
        reading=_contest_reading(law), date=rolled.date, rolled_from=rolled.rolled_from, note=note,
        counting=counting_text(law), law=law.key,
    )


def _contest_after_survey(election_date: dt.date, canvass_date: dt.date | None, calendar: ColoradoCalendar,
                          law: LawProfile) -> Deadline:
    days, citation = law.contest_filing.days, law.contest_filing.provision.citation
    if canvass_date is not None:
        canvass = require_date(canvass_date, "canvass_date")
        check_canvass_date(election_date, canvass, law)
        starts: tuple[dt.date, ...] = (canvass,)
    else:
        starts = (election_date + dt.timedelta(days=1), days_after(election_date, law.canvass.days))
    found = [_filing(start, days,
                     f"the official survey of returns filed on {short_day(start)} (that day excluded)", calendar, law)
             for start in starts]
    raw, rolled, note = found[0]
    estimated = canvass_date is None
    if estimated:
        latest = found[-1][1].date
        note = (f"until the canvass date is entered, the earliest it can be: {note}; at the latest (survey filed on "
                f"the {ordinal(law.canvass.days)} day, {law.canvass.provision.citation}) {short_day(latest)}")
        reason = (f"For information: an election contest must be filed by {short_day(rolled.date)} at the earliest "
                  f"(if the official survey of returns was filed the day after the election) and "
                  f"{short_day(latest)} at the latest; enter the canvass date.")
    else:
        latest = None
        reason = f"For information: an election contest must be filed by {short_day(rolled.date)}, {note}."
    return Deadline(
        name=CONTEST_FILING_DEADLINE, citation=citation, reason=reason,
        numbers={"election_date": election_date, "counted_from": starts[0], "days": days, "unrolled": raw,
                 "deadline": rolled.date},
        reading=_contest_reading(law), date=rolled.date, rolled_from=rolled.rolled_from, note=note,
        estimated=estimated, earliest=rolled.date if estimated else None, latest=latest,
        counting=counting_text(law), law=law.key,
    )


def waiver_deadline(election_date: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                    law: LawProfile = DEFAULT_LAW) -> Deadline | None:
    """The last day to give written notice waiving an automatic recount (1-10.5-103: "within twenty-three days after
    any election"); None where the law has no waiver."""
    waiver = law.waiver
    if waiver is None:
        return None
    election_date = require_date(election_date, "election_date")
    days = waiver.by.days
    raw, rolled, note = _filing(election_date, days,
                                f"the election of {election_date.isoformat()} (election day excluded)", calendar, law)
    reason = (f"{waiver.who[0].upper()}{waiver.who[1:]} may waive {waiver.of_what} by written notice to the county "
              f"clerk and recorder filed by {short_day(rolled.date)}"
              + (f" (moved from {short_day(raw)}, {article(rolled.why)}; {rolled.rule})" if rolled.rolled_from else "")
              + ".")
    return Deadline(
        name=WAIVER_DEADLINE, citation=waiver.provision.citation, reason=reason,
        numbers={"election_date": election_date, "days": days, "unrolled": raw, "deadline": rolled.date},
        reading=filing_rollover_reading(law), date=rolled.date, rolled_from=rolled.rolled_from, note=note,
        counting=counting_text(law), law=law.key,
    )


def payment_deadline(cost_notified_on: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                     law: LawProfile = DEFAULT_LAW) -> Deadline | None:
    """The last day the requester pays, where the law sets one (1-10.5-106(2), 2022 text: certified funds within one
    day of receiving the cost determination); None where the cost is paid on demand (1306(2)(c); 31-10-1207(2))."""
    payment = law.payment
    if payment.timing is not PaymentTiming.WITHIN_DAYS_OF_COST or payment.within_days is None:
        return None
    notified = require_date(cost_notified_on, "cost_notified_on")
    days = payment.within_days
    raw, rolled, note = _filing(notified, days,
                                f"the cost determination was received on {short_day(notified)}", calendar, law)
    funds = " in certified funds" if payment.certified_funds else ""
    reason = f"The requester pays the cost{funds} by {short_day(rolled.date)}, {plural(days)} after receiving it."
    reading = f"{payment.reading}; {filing_rollover_reading(law)}" if payment.reading else filing_rollover_reading(law)
    return Deadline(
        name=PAYMENT_DEADLINE, citation=payment.provision.citation, reason=reason,
        numbers={"cost_notified_on": notified, "days": days, "unrolled": raw, "deadline": rolled.date},
        reading=reading, date=rolled.date, rolled_from=rolled.rolled_from, note=note,
        counting=counting_text(law), law=law.key,
    )


# ----------------------------------------------------------------------------- which windows are still open
def _earliest_start(day: dt.date, days: int, calendar: ColoradoCalendar) -> dt.date:
    """The earliest day S whose filing deadline `days` after it (rolled as a filing rolls) falls on or after `day`.
    Rolling never moves a deadline earlier, so every S after it gives one on or after `day` too, and every S before
    it one before `day`: the deadline of S - 1 is on or after `day` only when the days from its unrolled last day up
    to `day` are none of them business days."""
    start = day - dt.timedelta(days=days)
    while not calendar.is_business_day(start - dt.timedelta(days=1) + dt.timedelta(days=days)):
        start -= dt.timedelta(days=1)
    return start


def request_window_open_since(today: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                              law: LawProfile = DEFAULT_LAW) -> dt.date:
    """The earliest election day whose request window (`request_deadline`) is still open `today`: for an election
    before it the window has closed, which the worker's poll and App Home know without reading it."""
    return _earliest_start(require_date(today, "today"), law.requesting.closes.days, calendar)


def contest_window_open_since(today: dt.date, calendar: ColoradoCalendar = DEFAULT_CALENDAR, *,
                              law: LawProfile = DEFAULT_LAW) -> tuple[dt.date, dt.date]:
    """(concluded, election): the election-contest window (`contest_filing_deadline`) is still open `today` for a
    recount concluded on or after the first date, or of an election on or after the second. Counted from the end of
    the recount period or the recount's conclusion, whichever is later (1-13.5-1403, 31-10-1303): 10 days after the
    later of the two, rolled. Counted from the survey's filing (1-11-213(4)): an election whose canvass, at most
    the law's canvass days after it, could still start an open window; a recount's conclusion does not count."""
    start = _earliest_start(require_date(today, "today"), law.contest_filing.days, calendar)
    if law.contest_filing.counted_from is CountFrom.SURVEY_FILED:
        return start, start - dt.timedelta(days=law.canvass.days)
    return start, _earliest_start(start, law.requesting.closes.days, calendar)
