"""`--law` on `deadlines` and `check`, through the real command line: the issue's done-when checks, the default said
on every answer, a law that fixes what an option would choose, and a day the office is closed (24-11-110) kept apart
from a day the governor appoints (24-11-101(1)). Dates are counted by hand."""
from __future__ import annotations

import json

from tests.bot.test_cli_check import CHERRY, EXAMPLE, assert_bad_input, by_name, check_json
from tests.bot.test_cli_check import recount_bot as check_bot
from tests.bot.test_cli_deadlines import DEADLINE_KEYS, KEYS, deadlines_json, recount_bot

TODAYS_KEYS = ("request_deadline", "automatic_recount_deadline", "requested_recount_deadline",
               "contest_filing_deadline")


def test_a_statutory_towns_april_election_under_31_10_1207() -> None:
    # Tue 2026-04-07: + 10 = Fri 04-17 (request); + 15 = Wed 04-22 (every recount).
    data = deadlines_json("--election-date", "2026-04-07", "--law", "31-10-1207")
    assert set(TODAYS_KEYS) <= set(data)
    assert data["request_deadline"]["date"] == "2026-04-17"
    assert data["automatic_recount_deadline"]["date"] == "2026-04-22"
    assert data["requested_recount_deadline"]["date"] == "2026-04-22"
    for key in ("request_deadline", "automatic_recount_deadline", "requested_recount_deadline"):
        assert data[key]["citation"].startswith("C.R.S. 31-10-1207"), key
        assert set(data[key]) == DEADLINE_KEYS and data[key]["law"] == "31-10-1207"
    assert data["law"]["key"] == "31-10-1207" and data["law"]["given"] is True and data["law"]["note"] is None


def test_a_november_coordinated_election_under_1_10_5() -> None:
    # Tue 2026-11-03: window + 10 = Fri 11-13 .. + 22 = Wed 11-25; automatic + 31 = Fri 12-04.
    data = deadlines_json("--election-date", "2026-11-03", "--law", "1-10.5")
    assert list(data)[:5] == list(KEYS) and set(TODAYS_KEYS) <= set(data)
    assert (data["request_window_opens"]["date"], data["request_deadline"]["date"]) == ("2026-11-13", "2026-11-25")
    assert data["automatic_recount_deadline"]["date"] == "2026-12-04"
    for key in ("request_window_opens", "request_deadline", "automatic_recount_deadline"):
        assert data[key]["citation"].startswith("C.R.S. 1-10.5-"), key
    # + 23 = Thu 11-26, Thanksgiving -> Fri 11-27; the cost no later than + 24 = Fri 11-27.
    assert (data["waiver_deadline"]["date"], data["waiver_deadline"]["rolled_from"]) == ("2026-11-27", "2026-11-26")
    assert data["cost_determination_deadline"]["date"] == "2026-11-27"
    text = recount_bot("deadlines", "--election-date", "2026-11-03", "--law", "1-10.5").stdout
    assert "Law: C.R.S. 1-10.5 (Uniform Election Code recount" in text and "— --law 1-10.5." in text
    assert "First day to file a recount request" in text and "Fri 2026-11-13" in text
    assert "Not confirmed: 1-10.5-106(2)" in text


def test_without_law_every_answer_says_1_13_5_1306_was_the_default() -> None:
    data = deadlines_json("--election-date", "2026-04-07")
    assert data["law"]["given"] is False and "applied by default" in data["law"]["note"]
    assert data["request_deadline"]["date"] == "2026-04-24"  # + 17: what the issue saw, now said to be 1306's
    text = recount_bot("deadlines", "--election-date", "2026-04-07").stdout
    assert "Law: C.R.S. 1-13.5-1306 (Local Government Election Code recount) — no --law given" in text
    checked = check_bot("check", EXAMPLE).stdout
    assert "no --law given, so the default" in checked


def test_an_unknown_law_is_refused() -> None:
    assert_bad_input(recount_bot("deadlines", "--election-date", "2026-11-03", "--law", "1306"),
                     "--law", "'1306'", "1-13.5-1306", "31-10-1207", "1-10.5")
    assert_bad_input(check_bot("check", EXAMPLE, "--law", "C.R.S. 1-10.5"), "--law")


def test_check_under_the_municipal_code() -> None:
    data = check_json(EXAMPLE, "--law", "31-10-1207")
    assert data["law"]["key"] == "31-10-1207" and data["law"]["given"] is True
    cherry = by_name(data)[CHERRY]
    assert cherry["citation"] == "C.R.S. 31-10-1207(1)" and cherry["automatic_recount"] is True
    assert "decided by lot by the clerk and the clerk's assistant (C.R.S. 31-10-1204)" in cherry["tie_note"]
    text = check_bot("check", EXAMPLE, "--law", "31-10-1207").stdout
    assert "need an automatic recount under C.R.S. 31-10-1207(1)" in text.splitlines()[0]


def test_1_10_5_sets_the_multi_seat_rule_itself() -> None:
    assert_bad_input(check_bot("check", EXAMPLE, "--law", "1-10.5", "--multi-seat-rule", "top-two"),
                     "--multi-seat-rule top-two", "C.R.S. 1-10.5-101(1)(b)")
    data = check_json(EXAMPLE, "--law", "1-10.5", "--multi-seat-rule", "last-winner-first-loser")
    assert data["multi_seat_rule"] == "last-winner-first-loser"
    assert "as C.R.S. 1-10.5-101(1)(b) says" in by_name(data)[CHERRY]["rule"]


def test_a_day_the_office_is_closed_is_not_a_legal_holiday() -> None:
    # 1306: Tue 2026-06-16 + 17 = Fri 2026-07-03, the Friday before Independence Day (Sat 07-04).
    plain = deadlines_json("--election-date", "2026-06-16")
    assert plain["request_deadline"]["date"] == "2026-07-03"
    [question] = plain["questions"]
    assert "Fri 2026-07-03" in question and "C.R.S. 24-11-110" in question
    closed = deadlines_json("--election-date", "2026-06-16", "--office-closed", "2026-07-03=Independence Day observed")
    request = closed["request_deadline"]
    assert (request["date"], request["rolled_from"]) == ("2026-07-06", "2026-07-03")
    assert "C.R.S. 24-11-110" in request["note"] and closed["questions"] == []
    text = recount_bot("deadlines", "--election-date", "2026-06-16", "--office-closed", "2026-07-03=observed").stdout
    assert "Office closed: Fri 2026-07-03, observed — a filing due then stands continued" in text
    asked = recount_bot("deadlines", "--election-date", "2026-06-16").stdout
    assert "Ask: The last day to file a recount request falls on Fri 2026-07-03" in asked
    assert_bad_input(recount_bot("deadlines", "--election-date", "2026-06-16", "--office-closed", "2026-07-03",
                                 "--closed-day", "2026-07-03"), "both as --closed-day", "--office-closed")
    json.dumps(closed)
