"""The recount's deadlines under the election's law, counted as Colorado counts time.

Each law's numbers come from its profile (rules.laws): the request window (when it opens and closes), the
automatic and requested recounts' completion, the canvass, the election contest, and for the Uniform Election Code
the waiver of an automatic recount and the day the cost is determined by. The pieces live in three modules, all
re-exported here for the callers that know one place:

- rules.day_counting: counting days, rolling a filing's last day (the law's own rollover provision, and 24-11-110
  for a day the office is closed), the `Deadline` value and the completion-rollover reading;
- rules.filing_deadlines: the request window, the election contest, the waiver, a payment;
- rules.completion_deadlines: completing a recount (the earliest possible deadline until the canvass date is
  entered), determining the cost, telling the political subdivision.

Examples, counted by hand: an election on Tue 2026-11-03 under 1-13.5-1306: requests Wed 11-04 through Fri 11-20,
automatic recount done by Tue 12-01. Under 31-10-1207, Tue 2026-04-07: requests through Fri 04-17, every recount
done by Wed 04-22. Under 1-10.5, Tue 2026-11-03: requests Fri 11-13 through Wed 11-25, automatic recount done by
Fri 12-04.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from rules.calendar import DEFAULT_CALENDAR, ColoradoCalendar
from rules.completion_deadlines import (
    AUTOMATIC_RECOUNT_DEADLINE,
    COST_DETERMINATION_DEADLINE,
    EARLIEST_UNTIL_CANVASS_READING,
    REQUESTED_RECOUNT_DEADLINE,
    SUBDIVISION_NOTICE_DEADLINE,
    automatic_recount_deadline,
    cost_determination_deadline,
    earliest_until_canvass_reading,
    requested_recount_deadline,
    subdivision_notice_deadline,
)
from rules.day_counting import (
    COUNTING,
    DEADLINE_OUTCOME,
    DEFAULT_COMPLETION_ROLLOVER,
    CompletionRollover,
    Deadline,
    counting_text,
    observance_question,
)
from rules.filing_deadlines import (
    CONTEST_FILING_DEADLINE,
    FILING_ROLLOVER_READING,
    PAYMENT_DEADLINE,
    REQUEST_DEADLINE,
    REQUEST_WINDOW_OPENS,
    WAIVER_DEADLINE,
    RequestTiming,
    contest_filing_deadline,
    contest_window_open_since,
    filing_rollover_reading,
    is_request_timely,
    payment_deadline,
    request_deadline,
    request_timing,
    request_window_open_since,
    request_window_opens,
    waiver_deadline,
)
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.sources import PERIOD_EXTENSION

PERIOD_EXTENSION_CITATION = PERIOD_EXTENSION.citation


@dataclass(frozen=True)
class ElectionDeadlines:
    """One election's calendar under its law. `extra` holds what only some laws have (the waiver, the last day for
    the cost), in that order."""

    request_window_opens: Deadline
    request: Deadline
    automatic_recount: Deadline
    requested_recount: Deadline
    contest_filing: Deadline
    extra: tuple[Deadline, ...] = ()
    law: LawProfile = DEFAULT_LAW

    def all(self) -> tuple[Deadline, ...]:
        return (self.request_window_opens, self.request, self.automatic_recount, self.requested_recount,
                self.contest_filing, *self.extra)

    def as_json(self) -> dict[str, dict[str, Any]]:
        return {d.name: d.as_json() for d in self.all()}

    def questions(self, calendar: ColoradoCalendar) -> tuple[str, ...]:
        """What to ask the office before relying on these dates: a filing or completion day on the Friday before a
        Saturday holiday (is the office closed that Friday?)."""
        asked = (observance_question(d.date, calendar, LABEL.get(d.name, d.name)) for d in self.all())
        return tuple(q for q in asked if q)


LABEL = {
    REQUEST_WINDOW_OPENS: "The first day to file a recount request",
    REQUEST_DEADLINE: "The last day to file a recount request",
    AUTOMATIC_RECOUNT_DEADLINE: "The automatic recount's completion day",
    REQUESTED_RECOUNT_DEADLINE: "The requested recount's completion day",
    CONTEST_FILING_DEADLINE: "The last day to file an election contest",
    WAIVER_DEADLINE: "The last day to waive an automatic recount",
    COST_DETERMINATION_DEADLINE: "The last day to determine a requested recount's cost",
}


def election_deadlines(
    election_date: dt.date,
    canvass_date: dt.date | None = None,
    rollover: CompletionRollover = DEFAULT_COMPLETION_ROLLOVER,
    recount_concluded: dt.date | None = None,
    calendar: ColoradoCalendar = DEFAULT_CALENDAR,
    *, law: LawProfile = DEFAULT_LAW,
) -> ElectionDeadlines:
    """Every deadline of one election under `law`."""
    extra = tuple(d for d in (waiver_deadline(election_date, calendar, law=law),
                              cost_determination_deadline(election_date, None, rollover, calendar, law=law)) if d)
    return ElectionDeadlines(
        request_window_opens=request_window_opens(election_date, calendar, law=law),
        request=request_deadline(election_date, calendar, law=law),
        automatic_recount=automatic_recount_deadline(election_date, rollover, calendar, law=law),
        requested_recount=requested_recount_deadline(election_date, canvass_date, rollover, calendar, law=law),
        contest_filing=contest_filing_deadline(election_date, recount_concluded, calendar, law=law,
                                               canvass_date=canvass_date),
        extra=extra, law=law,
    )


__all__ = [
    "AUTOMATIC_RECOUNT_DEADLINE", "CONTEST_FILING_DEADLINE", "COST_DETERMINATION_DEADLINE", "COUNTING",
    "DEADLINE_OUTCOME", "DEFAULT_COMPLETION_ROLLOVER", "EARLIEST_UNTIL_CANVASS_READING", "FILING_ROLLOVER_READING",
    "LABEL", "PAYMENT_DEADLINE", "PERIOD_EXTENSION_CITATION", "REQUESTED_RECOUNT_DEADLINE", "REQUEST_DEADLINE",
    "REQUEST_WINDOW_OPENS", "SUBDIVISION_NOTICE_DEADLINE", "WAIVER_DEADLINE", "CompletionRollover", "Deadline",
    "ElectionDeadlines", "RequestTiming", "automatic_recount_deadline", "contest_filing_deadline",
    "contest_window_open_since",
    "cost_determination_deadline", "counting_text", "earliest_until_canvass_reading", "election_deadlines",
    "filing_rollover_reading", "is_request_timely", "payment_deadline", "request_deadline", "request_timing",
    "request_window_open_since", "request_window_opens", "requested_recount_deadline", "subdivision_notice_deadline", "waiver_deadline",
]
