"""The statute's numbers and citations, in one dated and cited place.

Every constant the rules use is a `StatuteConstant`: its value, the subsection that sets it and
the statute's own words, so a reader can check the code against the text line by line.
The seed text is C.R.S. 1-13.5-1306 as added by L. 2014 (HB 14-1164), effective 2014-02-18.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Generic, TypeVar

T = TypeVar("T")

RECOUNT_SECTION = "1-13.5-1306"
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


# (1): "less than or equal to one-half of one percent of the highest number of votes cast"
AUTOMATIC_RECOUNT_MARGIN: StatuteConstant[Fraction] = StatuteConstant(
    Fraction(1, 200), cite("(1)"),
    "less than or equal to one-half of one percent of the highest number of votes cast in the election",
)
# (1): "completed no later than the twenty-eighth day following the election"
AUTOMATIC_COMPLETION_DAYS: StatuteConstant[int] = StatuteConstant(
    28, cite("(1)"), "completed no later than the twenty-eighth day following the election",
)
# (2)(a): "filed with the designated election official within seventeen days after the election"
REQUEST_WINDOW_DAYS: StatuteConstant[int] = StatuteConstant(
    17, cite("(2)(a)"), "filed with the designated election official within seventeen days after the election",
)
# (2)(e): "completed no later than the twenty-eighth day after canvassing the election"
REQUESTED_COMPLETION_DAYS: StatuteConstant[int] = StatuteConstant(
    28, cite("(2)(e)"), "completed no later than the twenty-eighth day after canvassing the election",
)
# 1-13.5-1305: the canvass board certifies the abstract no later than the fourteenth day after the election.
CANVASS_DAYS: StatuteConstant[int] = StatuteConstant(
    14, cite(section="1-13.5-1305"), "no later than the fourteenth day after the election",
)
# 1-13.5-1403: a contest is filed within ten days after the recount period ends or the recount concludes.
CONTEST_FILING_DAYS: StatuteConstant[int] = StatuteConstant(
    10, cite(section="1-13.5-1403"),
    "within ten days after the recount period ends or the recount concludes, whichever is later",
)
# 1-13.5-1301(4), applied to assistants by 1306(3): at least fifteen dollars per day.
DAILY_COMPENSATION_FLOOR: StatuteConstant[Decimal] = StatuteConstant(
    Decimal("15.00"), cite("(4)", section="1-13.5-1301"),
    "members who are not members of the governing body receive not less than fifteen dollars per day",
)
# 1-13.5-107, Article 13.5's own computation of time:
# (1) "Calendar days shall be used in all computations of time made under this article."
CALENDAR_DAYS_CITATION = cite("(1)", section="1-13.5-107")
# (2) "... if the time for any act to be done or the last day of any period is a Saturday, Sunday, or a legal
# holiday, the period is extended to include the next day that is not a Saturday, Sunday, or legal holiday."
# The roll of a filing deadline (the request window, the election contest) is cited to it; 1-1-106(4), which
# 1-13.5-106(2) applies to Article 13.5 where not in conflict, says the same of a filing during business hours.
WEEKEND_ROLLOVER_CITATION = cite("(2)", section="1-13.5-107")
UNIFORM_CODE_ROLLOVER_CITATION = cite("(4)", section="1-1-106")
# 24-11-101: Colorado's legal holidays; (1) names them, including "any day appointed or recommended by the
# governor of this state or the president of the United States as a day of fasting or prayer or thanksgiving".
LEGAL_HOLIDAYS_CITATION = cite("(1)", section="24-11-101")
# 24-11-110: a filing or duty on a day the public office is closed stands continued to the next full business day.
OFFICE_CLOSED_CITATION = cite(section="24-11-110")
# 1-13.5-1304: a tie is decided by lot.
TIE_BY_LOT_CITATION = cite(section="1-13.5-1304")
# 1-10.5-101(1)(b): the general law's multi-seat comparison, borrowed as the default reading.
MULTI_SEAT_MODEL_CITATION = cite("(1)(b)", section="1-10.5-101")
# 1-7-802 (Uniform Election Code; 1-13.5-106 applies it to Article 13.5 where not in conflict): "the designated
# election official shall be responsible for the preservation of any election records for a period of at least
# twenty-five months after the election or until time has expired for which the record would be needed in any
# contest proceedings, whichever is later."
RECORDS_RETENTION_MONTHS: StatuteConstant[int] = StatuteConstant(
    25, cite(section="1-7-802"),
    "preservation of any election records for a period of at least twenty-five months after the election or until "
    "time has expired for which the record would be needed in any contest proceedings, whichever is later",
)
