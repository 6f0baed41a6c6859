"""C.R.S. 1-7-802: election records are preserved for at least twenty-five months after the election."""
from __future__ import annotations

import datetime as dt

import pytest

from rules.retention import records_retention


@pytest.mark.parametrize(("election", "until"), [
    (dt.date(2026, 11, 3), dt.date(2028, 12, 3)),  # a November election: the December two years on
    (dt.date(2025, 5, 6), dt.date(2027, 6, 6)),  # a May election
    (dt.date(2027, 1, 31), dt.date(2029, 2, 28)),  # no 31 February: the month's last day
])
def test_records_are_kept_at_least_twenty_five_months_after_the_election(election, until) -> None:
    retention = records_retention(election)
    assert retention.keep_until_at_least == until
    assert retention.citation == "C.R.S. 1-7-802"
    assert f"until {until.isoformat()} at least" in retention.reason
    assert "election contest" in retention.reason  # a floor: a contest still open keeps them longer
