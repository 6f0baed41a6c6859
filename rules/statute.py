"""The 1-13.5-1306 profile's numbers and citations under the names callers used before there were several laws.

Every constant the rules used is a `StatuteConstant`: its value, the subsection that sets it and the statute's own
words. Each is read from the 1-13.5-1306 profile (rules.laws.co_1_13_5_1306), which holds the words and the dated
copy they were read in, so the two cannot drift. New code takes a `LawProfile` (rules.laws) and reads it directly;
these names stay for the services and handlers until they are given the election's law.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Generic, TypeVar

from rules.laws import co_1_13_5_1306 as law_1306
from rules.laws.sources import LEGAL_HOLIDAYS, OFFICE_CLOSED, PERIOD_EXTENSION, UEC_FILING_ROLLOVER

T = TypeVar("T")

RECOUNT_SECTION = law_1306.SECTION
STATUTE_SOURCE = "L. 2014: Entire article added, (HB 14-1164), ch. 2, p. 52, § 6, effective February 18."
STATUTE_EFFECTIVE = dt.date(2014, 2, 18)


def cite(subsection: str = "", section: str = RECOUNT_SECTION) -> str:
    """`cite("(2)(d)")` -> "C.R.S. 1-13.5-1306(2)(d)"; `cite(section="1-1-106", subsection="(4)")`."""
    return f"C.R.S. {section}{subsection}"


@dataclass(frozen=True)
class StatuteConstant(Generic[T]):
    value: T
    citation: str
    words: str


_P = law_1306.PROFILE

# (1): "less than or equal to one-half of one percent of the highest number of votes cast"
AUTOMATIC_RECOUNT_MARGIN: StatuteConstant[Fraction] = StatuteConstant(
    _P.trigger.share, _P.trigger.provision.citation,
    "less than or equal to one-half of one percent of the highest number of votes cast in the election",
)
# (1): "completed no later than the twenty-eighth day following the election"
AUTOMATIC_COMPLETION_DAYS: StatuteConstant[int] = StatuteConstant(
    _P.automatic_completion.days, _P.automatic_completion.provision.citation,
    "completed no later than the twenty-eighth day following the election",
)
# (2)(a): "filed with the designated election official within seventeen days after the election"
REQUEST_WINDOW_DAYS: StatuteConstant[int] = StatuteConstant(
    _P.requesting.closes.days, _P.requesting.closes.provision.citation,
    "filed with the designated election official within seventeen days after the election",
)
# (2)(e): "completed no later than the twenty-eighth day after canvassing the election"
REQUESTED_COMPLETION_DAYS: StatuteConstant[int] = StatuteConstant(
    _P.requested_completion.days, _P.requested_completion.provision.citation,
    "completed no later than the twenty-eighth day after canvassing the election",
)
# 1-13.5-1305: the canvass board certifies the abstract no later than the fourteenth day after the election.
CANVASS_DAYS: StatuteConstant[int] = StatuteConstant(
    _P.canvass.days, cite(section="1-13.5-1305"), "no later than the fourteenth day after the election",
)
# 1-13.5-1403: a contest is filed within ten days after the recount period ends or the recount concludes.
CONTEST_FILING_DAYS: StatuteConstant[int] = StatuteConstant(
    _P.contest_filing.days, _P.contest_filing.provision.citation,
    "within ten days after the recount period ends or the recount concludes, whichever is later",
)
# 1-13.5-1301(4), applied to assistants by 1306(3): at least fifteen dollars per day.
DAILY_COMPENSATION_FLOOR: StatuteConstant[Decimal] = StatuteConstant(
    _P.assistant_pay.daily_floor or Decimal("15.00"), _P.assistant_pay.provision.citation,
    "members who are not members of the governing body receive not less than fifteen dollars per day",
)
# 1-13.5-107(1), Article 13.5's own computation of time: "Calendar days shall be used in all computations of time
# made under this article."
CALENDAR_DAYS_CITATION = _P.time.counting.citation
# The roll of a post-election filing deadline (the request window, the election contest): 1-1-106(4), which
# 1-13.5-106(2) applies to Article 13.5 where not in conflict. (1-13.5-107(2) is about acts before an election.)
UNIFORM_CODE_ROLLOVER_CITATION = UEC_FILING_ROLLOVER.citation
WEEKEND_ROLLOVER_CITATION = UNIFORM_CODE_ROLLOVER_CITATION
PERIOD_EXTENSION_CITATION = PERIOD_EXTENSION.citation
# 24-11-101: Colorado's legal holidays; (1) names them, including "any day appointed or recommended by the
# governor of this state or the president of the United States as a day of fasting or prayer or thanksgiving".
LEGAL_HOLIDAYS_CITATION = LEGAL_HOLIDAYS.citation
# 24-11-110: a filing or duty on a day the public office is closed stands continued to the next full business day.
OFFICE_CLOSED_CITATION = OFFICE_CLOSED.citation
# 1-13.5-1304: a tie is decided by lot.
TIE_BY_LOT_CITATION = _P.tie.provision.citation
# 1-10.5-101(1)(b): the general law's multi-seat comparison, borrowed as the default reading.
MULTI_SEAT_MODEL_CITATION = _P.multi_seat.provision.citation
# 1-7-802 (Uniform Election Code; 1-13.5-106 applies it to Article 13.5 where not in conflict): "the designated
# election official shall be responsible for the preservation of any election records for a period of at least
# twenty-five months after the election or until time has expired for which the record would be needed in any
# contest proceedings, whichever is later."
RECORDS_RETENTION_MONTHS: StatuteConstant[int] = StatuteConstant(
    25, cite(section="1-7-802"),
    "preservation of any election records for a period of at least twenty-five months after the election or until "
    "time has expired for which the record would be needed in any contest proceedings, whichever is later",
)
