"""How long the record of a recount is kept: C.R.S. 1-7-802 (rules.statute.RECORDS_RETENTION_MONTHS).

Reading, decided here: the months are calendar months from the election day (dateutil's relativedelta; the
31st of a month that has no 31st becomes its last day). The date is a floor: a contest proceeding still open
then keeps the record longer, which the bot cannot know, so the record says so rather than giving one date.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from dateutil.relativedelta import relativedelta

from rules.statute import RECORDS_RETENTION_MONTHS


@dataclass(frozen=True)
class Retention:
    keep_until_at_least: dt.date
    citation: str
    reason: str

    def as_record(self) -> dict:
        return {"keep_until_at_least": self.keep_until_at_least, "citation": self.citation, "reason": self.reason,
                "statute_words": RECORDS_RETENTION_MONTHS.words}


def records_retention(election_date: dt.date) -> Retention:
    months = RECORDS_RETENTION_MONTHS.value
    until = election_date + relativedelta(months=months)
    return Retention(until, RECORDS_RETENTION_MONTHS.citation, (
        f"Election records are preserved for at least {months} months after the election of "
        f"{election_date.isoformat()}, that is until {until.isoformat()} at least, or until the time for any "
        "election contest that needs them has expired, whichever is later."))
