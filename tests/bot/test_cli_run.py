"""`recount-bot run` without Slack credentials: the offline sandbox, through the real console script.

With stdin not a terminal there is no console: it prints where everything is and serves until SIGTERM.
"""
from __future__ import annotations

import re
import socket
import subprocess
import time

import pytest
from sqlalchemy import func, select

from storage.db import Database
from storage.models import Contest, Election, LocalGovernment, Membership
from tests.bot.test_cli_serve import command, environment, get, stop, wait_for_health

pytestmark = pytest.mark.slow


def start_offline(cwd, **settings: str) -> tuple[subprocess.Popen, list[str]]:
    """Start `recount-bot run`; return it with the lines it printed up to "serving until interrupted"."""
    process = subprocess.Popen([*command(), "run"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment(**settings), cwd=cwd)
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"run exited early ({process.wait()}): {lines} {process.stderr.read()}")
        lines.append(line.rstrip("\n"))
        if "serving until interrupted" in line:
            return process, lines
    process.kill()
    raise AssertionError(f"run did not start within 60s: {lines}")


def health_url(lines: list[str]) -> str:
    match = re.search(r"\(health: (http://127\.0\.0\.1:\d+/healthz)\)", "\n".join(lines))
    assert match, lines
    return match.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_offline_run_serves_the_seeded_example_and_stops_on_sigterm(empty_database_url, tmp_path) -> None:
    port = free_port()
    process, lines = start_offline(tmp_path, PORT=str(port), DATABASE_URL=empty_database_url)
    try:
        text = "\n".join(lines)
        assert lines[0].startswith("recount-bot offline: no SLACK_BOT_TOKEN / SLACK_SIGNING_SECRET")
        assert f"bot:         http://127.0.0.1:{port}/slack/events" in text
        assert "Slack API:   http://127.0.0.1:" in text and "(the stand-in)" in text
        assert ("seeded Regular Special District Election of 2027-05-04 under C.R.S. 1-13.5-1306 (4 contests of 4 "
                "local governments" in text)
        assert "Regular Town Election of 2026-04-07 under C.R.S. 31-10-1207" in text
        assert "Coordinated Election of 2026-11-03 under C.R.S. 1-10.5" in text
        assert "Maya Lindqvist (@maya, official)" in text and "Theo Grant is staff" in text
        wait_for_health(health_url(lines), process)
        db = Database(empty_database_url)
        try:
            with db.transaction() as s:
                elections = s.scalars(select(Election).order_by(Election.id)).all()
                # The three example elections, each of its law (sandbox/seed.py): one per local government.
                assert {(e.name, e.election_date.isoformat(), e.law) for e in elections} == {
                    ("Regular Special District Election", "2027-05-04", "1-13.5-1306"),
                    ("Regular Town Election", "2026-04-07", "31-10-1207"),
                    ("Coordinated Election", "2026-11-03", "1-10.5")}
                # One election per district: each district has its own governing body (sandbox/seed.py).
                governments = [s.get(LocalGovernment, e.local_government_id) for e in elections]
                assert [(g.name, g.governing_body) for g in governments][1] == (
                    "Bear Creek Fire Protection District", "Board of Directors of the Bear Creek Fire Protection "
                                                           "District")
                assert len(governments) == 6
                assert s.scalar(select(func.count()).select_from(Contest)) == 8
                assert s.execute(select(Membership.slack_user_id, Membership.role)).all() == [("U0STAFFTHEO", "staff")]
        finally:
            db.dispose()
    finally:
        status, out, err = stop(process)
    assert status == 0, err
    assert "Traceback" not in err
    assert out.rstrip().endswith("recount-bot offline: stopped.")
    with pytest.raises(OSError):
        get(f"http://127.0.0.1:{port}/healthz")


def test_offline_default_database_is_its_own_file_seeded_once(tmp_path) -> None:
    for attempt in (1, 2):
        process, lines = start_offline(tmp_path, PORT=str(free_port()))
        try:
            text = "\n".join(lines)
            assert "database:    sqlite:///recount-bot-offline.sqlite3" in text
            if attempt == 1:
                assert "seeded Regular Special District Election" in text
            else:
                assert "the database already has an election; nothing imported" in text
                assert "is staff" not in text
        finally:
            assert stop(process)[0] == 0
    assert (tmp_path / "recount-bot-offline.sqlite3").exists()
    assert not (tmp_path / "recount-bot.sqlite3").exists()  # the production default is never touched


def test_a_taken_port_falls_back_to_a_free_one_and_says_which(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process, lines = start_offline(tmp_path, PORT=str(port))
        try:
            text = "\n".join(lines)
            match = re.search(rf"note: port {port} is taken \(.+\); using port (\d+) instead", text)
            assert match, text
            assert health_url(lines) == f"http://127.0.0.1:{match.group(1)}/healthz"
            wait_for_health(health_url(lines), process)
        finally:
            assert stop(process)[0] == 0
