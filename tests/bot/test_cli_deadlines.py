"""`recount-bot deadlines` through the real command line: stdout, stderr and exit status only.

Expected dates are counted by hand here (day of the event excluded, last day included) rather than
by calling `rules.deadlines`, so the test would catch the CLI and the rules agreeing on a wrong date.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("request_window_opens", "request_deadline", "automatic_recount_deadline", "requested_recount_deadline",
        "contest_filing_deadline")
DEADLINE_KEYS = {"date", "citation", "reason", "reading", "counting", "rolled_from", "note", "estimated", "earliest",
                 "latest", "falls_on", "law"}
DEFAULT_LAW_LINE = ("Law: C.R.S. 1-13.5-1306 (Local Government Election Code recount) — no --law given, so the default; "
                    "say --law 31-10-1207 or --law 1-10.5 for another.")


def _command() -> list[str]:
    script = Path(sys.executable).with_name("recount-bot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def recount_bot(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)  # a clerk's shell
    return subprocess.run([*_command(), *args], capture_output=True, text=True, encoding="utf-8", env=env,
                          cwd=ROOT, timeout=120)


def deadlines_json(*args: str) -> dict:
    result = recount_bot("deadlines", *args, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def assert_bad_input(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in expected:
        assert fragment in result.stderr, f"{fragment!r} not in stderr:\n{result.stderr}"


# ------------------------------------------------------------------------------------ JSON

def test_json_shape():
    data = deadlines_json("--election-date", "2026-11-03")
    assert list(data) == [*KEYS, "law", "questions"]
    assert data["law"] == {"key": "1-13.5-1306", "citation": "C.R.S. 1-13.5-1306",
                           "title": "Local Government Election Code recount", "given": False,
                           "note": "no --law given: C.R.S. 1-13.5-1306 applied by default",
                           "unconfirmed": data["law"]["unconfirmed"]}
    assert data["questions"] == []
    for key in KEYS:
        d = data[key]
        assert set(d) == DEADLINE_KEYS, key
        assert isinstance(d["date"], str) and len(d["date"]) == 10
        assert d["citation"].startswith("C.R.S. ")
        assert isinstance(d["note"], str) and d["note"]
        assert type(d["estimated"]) is bool
        assert d["rolled_from"] is None or isinstance(d["rolled_from"], str)
        assert d["falls_on"] is None or isinstance(d["falls_on"], str)


def test_general_election_2026():
    # Tue 2026-11-03: +17 = Fri 11-20; +28 = Tue 12-01; canvass by +14 = Tue 11-17, +28 = Tue 12-15;
    # contest: 10 days after the request window closes (Fri 11-20) = Mon 11-30.
    data = deadlines_json("--election-date", "2026-11-03")
    assert data["request_deadline"] == {
        "date": "2026-11-20", "citation": "C.R.S. 1-13.5-1306(2)(a)", "rolled_from": None,
        "note": "17 days after the election of 2026-11-03 (election day excluded) is Fri 2026-11-20",
        "estimated": False, "falls_on": None, "earliest": None, "latest": None, "law": "1-13.5-1306",
        "counting": "calendar days (C.R.S. 1-13.5-107(1)); the day of the event excluded, the last day included",
        "reason": "A recount request must be filed by Fri 2026-11-20, 17 days after the election of 2026-11-03.",
        "reading": data["request_deadline"]["reading"],
    }
    assert "C.R.S. 1-1-106(4), applied by C.R.S. 1-13.5-106(2)" in data["request_deadline"]["reading"]
    auto = data["automatic_recount_deadline"]
    assert (auto["date"], auto["citation"], auto["estimated"], auto["rolled_from"], auto["falls_on"]) == (
        "2026-12-01", "C.R.S. 1-13.5-1306(1)", False, None, None)
    requested = data["requested_recount_deadline"]
    # Until the canvass date is entered: the earliest (canvass Wed 11-04 + 28 = Wed 12-02), the latest beside it.
    assert (requested["date"], requested["citation"], requested["estimated"], requested["latest"]) == (
        "2026-12-02", "C.R.S. 1-13.5-1306(2)(e)", True, "2026-12-15")
    assert "estimate" in requested["note"] and "Tue 2026-11-17" in requested["note"]
    contest = data["contest_filing_deadline"]
    assert (contest["date"], contest["citation"], contest["rolled_from"]) == ("2026-11-30", "C.R.S. 1-13.5-1403", None)


def test_canvass_date_makes_the_requested_deadline_exact():
    # canvass Fri 2026-11-13 + 28 days = Fri 2026-12-11
    data = deadlines_json("--election-date", "2026-11-03", "--canvass-date", "2026-11-13")
    requested = data["requested_recount_deadline"]
    assert requested["date"] == "2026-12-11"
    assert requested["estimated"] is False
    assert "Fri 2026-11-13" in requested["note"]
    # the other deadlines do not depend on the canvass
    assert data["request_deadline"]["date"] == "2026-11-20"
    assert data["automatic_recount_deadline"]["date"] == "2026-12-01"


def test_request_deadline_on_a_saturday_rolls_to_monday():
    # Wed 2024-03-06 + 17 days = Sat 2024-03-23 -> Mon 2024-03-25 (1-1-106(4)).
    data = deadlines_json("--election-date", "2024-03-06")
    request = data["request_deadline"]
    assert request["date"] == "2024-03-25"
    assert request["rolled_from"] == "2024-03-23"
    assert "Saturday" in request["note"] and "C.R.S. 1-1-106(4)" in request["note"]
    # the contest window counts from the rolled request deadline: Mon 03-25 + 10 = Thu 04-04
    assert data["contest_filing_deadline"]["date"] == "2024-04-04"


def test_request_deadline_rolls_over_a_weekend_and_memorial_day():
    # Wed 2025-05-07 + 17 = Sat 2025-05-24; Sun 05-25; Mon 05-26 is Memorial Day -> Tue 2025-05-27.
    request = deadlines_json("--election-date", "2025-05-07")["request_deadline"]
    assert (request["date"], request["rolled_from"]) == ("2025-05-27", "2025-05-24")


def test_completion_deadline_on_a_saturday_is_flagged_not_rolled():
    # Sat 2026-05-02 + 28 = Sat 2026-05-30.
    auto = deadlines_json("--election-date", "2026-05-02")["automatic_recount_deadline"]
    assert (auto["date"], auto["rolled_from"], auto["falls_on"]) == ("2026-05-30", None, "Saturday")


def test_completion_rollover_option_rolls_it():
    auto = deadlines_json("--election-date", "2026-05-02", "--completion-rollover", "next-business-day")[
        "automatic_recount_deadline"]
    assert (auto["date"], auto["rolled_from"], auto["falls_on"]) == ("2026-06-01", "2026-05-30", None)


def test_recount_concluded_later_moves_the_contest_deadline():
    # concluded Tue 2026-12-01 (after the window closed Fri 11-20) + 10 = Fri 2026-12-11
    contest = deadlines_json("--election-date", "2026-11-03", "--recount-concluded", "2026-12-01")[
        "contest_filing_deadline"]
    assert contest["date"] == "2026-12-11"


# ------------------------------------------------------------------------------------ text

def test_text_table_and_notes():
    result = recount_bot("deadlines", "--election-date", "2026-11-03")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith("Recount calendar for the election of Tuesday 2026-11-03")
    lines = out.splitlines()
    assert lines[1] == DEFAULT_LAW_LINE
    header = next(line for line in lines if line.startswith("Deadline"))
    assert header.split() == ["Deadline", "Date", "Citation", "Flags"]

    def row(label: str) -> str:
        return next(line for line in lines if line.startswith(label))

    assert "Fri 2026-11-20" in row("Last day to file a recount request")
    assert "C.R.S. 1-13.5-1306(2)(a)" in row("Last day to file a recount request")
    assert "Tue 2026-12-01" in row("Automatic recount complete by")
    requested = row("Requested recount complete by")
    assert "Wed 2026-12-02" in requested and requested.rstrip().endswith("earliest; latest Tue 2026-12-15")
    assert "Mon 2026-11-30" in row("Election contest filed by (information)")
    notes = [line for line in lines if line.startswith("- ")]
    assert len(notes) == 5
    assert notes[0] == "- First day to file a recount request: the day after the election of 2026-11-03, Wed 2026-11-04"
    assert notes[1] == ("- Last day to file a recount request: 17 days after the election of 2026-11-03 "
                        "(election day excluded) is Fri 2026-11-20")
    assert any(line.strip().startswith("Reading: completion deadlines do not roll") for line in lines)


def test_text_shows_a_rolled_request_deadline():
    out = recount_bot("deadlines", "--election-date", "2024-03-06").stdout
    row = next(line for line in out.splitlines() if line.startswith("Last day to file a recount request"))
    assert "Mon 2024-03-25" in row and "rolled from Sat 2024-03-23" in row


def test_text_tells_the_clerk_to_finish_before_a_weekend():
    out = recount_bot("deadlines", "--election-date", "2026-05-02").stdout
    row = next(line for line in out.splitlines() if line.startswith("Automatic recount complete by"))
    assert "Sat 2026-05-30" in row and "falls on Saturday" in row
    assert "finish by the business day before, Fri 2026-05-29" in out


# ------------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("value", ["2026-13-03", "11/03/2026", "tomorrow", ""])
def test_bad_election_date(value):
    assert_bad_input(recount_bot("deadlines", "--election-date", value), "--election-date", "YYYY-MM-DD")


@pytest.mark.parametrize("option", ["--canvass-date", "--recount-concluded"])
def test_bad_optional_date_names_the_option(option):
    assert_bad_input(recount_bot("deadlines", "--election-date", "2026-11-03", option, "2026-02-30"),
                     option, "YYYY-MM-DD")


def test_canvass_before_the_election():
    assert_bad_input(recount_bot("deadlines", "--election-date", "2026-11-03", "--canvass-date", "2026-11-01"),
                     "canvass date 2026-11-01 is on or before the election")


def test_missing_election_date():
    assert_bad_input(recount_bot("deadlines"), "--election-date")


def test_bad_rollover_choice():
    assert_bad_input(recount_bot("deadlines", "--election-date", "2026-11-03", "--completion-rollover", "always"),
                     "--completion-rollover")


def test_a_day_closed_by_the_governor_is_a_legal_holiday_for_the_calendar():
    # Tue 2026-11-03 + 17 = Fri 2026-11-20; appointed by the governor (24-11-101(1)) -> Sat, Sun -> Mon 11-23.
    data = deadlines_json("--election-date", "2026-11-03", "--closed-day", "2026-11-20=Day of prayer")
    request = data["request_deadline"]
    assert (request["date"], request["rolled_from"]) == ("2026-11-23", "2026-11-20")
    assert "Day of prayer" in request["note"] and "C.R.S. 24-11-101(1)" in request["note"]
    assert "C.R.S. 1-1-106(4)" in request["reason"]
    text = recount_bot("deadlines", "--election-date", "2026-11-03", "--closed-day", "2026-11-20=Day of prayer")
    assert text.returncode == 0
    assert "Closed: Fri 2026-11-20, Day of prayer — a legal holiday (C.R.S. 24-11-101(1))." in text.stdout


def test_without_a_canvass_the_earliest_possible_deadline_is_shown_with_the_latest_beside_it():
    # Canvass the day after (Wed 11-04) + 28 = Wed 2026-12-02; on the 14th day (Tue 11-17) + 28 = Tue 2026-12-15.
    requested = deadlines_json("--election-date", "2026-11-03")["requested_recount_deadline"]
    assert (requested["earliest"], requested["latest"], requested["date"]) == ("2026-12-02", "2026-12-15",
                                                                             "2026-12-02")
    assert "C.R.S. 1-13.5-1305" in requested["reason"] and "earliest possible deadline" in requested["reason"]
    assert requested["reading"].startswith("until the canvass date is entered")
    text = recount_bot("deadlines", "--election-date", "2026-11-03").stdout
    assert "Requested recount complete by" in text and "earliest; latest Tue 2026-12-15" in text


def test_a_bad_closed_day_is_refused_naming_it():
    assert_bad_input(recount_bot("deadlines", "--election-date", "2026-11-03", "--closed-day", "2026-13-01=x"),
                     "--closed-day", "2026-13-01")
