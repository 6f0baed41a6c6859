"""`recount-bot serve` runs the work after an acknowledgement in a child process (bot/deferred/process.py):
a `/recount check` typed into a real server is answered at once, and its verdict is posted by the child.
If the child dies, another is started at once (what the dead one left is handed to it: see
test_cli_serve_durable.py). Stopping the server lets the child finish and leaves no
process behind."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import select

from sandbox import payloads
from sandbox.slack_standin import SlackStandIn, Workspace
from services.conduct.cases import CLAIM
from storage.db import Database
from storage.models import RecountCase
from tests.bot.test_cli_db import ROOT
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, stop, wait_for_health

TEAM, CLERK, CHANNEL = "T0SERVE01", "U0CLERK01", "C0GENERAL"
EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"


@pytest.fixture
def slack():
    with SlackStandIn(tokens={GOOD}, users=[{"id": CLERK, "name": "clerk", "is_admin": True}],
                      workspace=Workspace(team_id=TEAM)) as standin:  # the bot token's workspace: the office
        yield standin


def _alive(pid: int) -> bool:
    """Running, or still dying: a killed process is a zombie once its last thread has exited; only then may
    its parent collect it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        threads = int(Path(f"/proc/{pid}/status").read_text().split("Threads:")[1].split()[0])
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z" or threads > 1


def _child_pid(process: subprocess.Popen, timeout: float = 30, *, not_: int | None = None) -> int:
    """The deferred-work child's pid, from `ps` (the server's stderr is read only once it has stopped);
    multiprocessing's resource tracker, also a child, is not it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        listed = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(process.pid)], capture_output=True,
                                text=True).stdout.splitlines()
        pids = [int(line.split()[0]) for line in listed if "spawn_main" in line and "resource_tracker" not in line
                and int(line.split()[0]) != not_]
        if pids and _alive(pids[0]):
            return pids[0]
        time.sleep(0.1)
    raise AssertionError(f"no deferred-work process under the server: {listed}")


def _wait_gone(pid: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)


def _wait_cards_recorded(url: str, timeout: float = 30) -> None:
    db = Database(url)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with db.read() as session:
                cards = session.scalars(select(RecountCase.card_ts)).all()
            if len(cards) == 2 and all(ts and not ts.startswith(CLAIM) for ts in cards):
                return
            time.sleep(0.1)
        raise AssertionError(f"the case cards were not recorded: {cards}")
    finally:
        db.dispose()


def _command(slack, base: str, text: str) -> int:
    fields = payloads.slash_command(
        command="/recount", text=text, team_id=TEAM, team_domain="serve-test", channel_id=CHANNEL,
        channel_name="general", user_id=CLERK, user_name="clerk",
        response_url=slack.issue_response_url(channel=CHANNEL, user=CLERK), trigger_id=slack.issue_trigger_id(CLERK))
    body = payloads.form_body(fields)
    request = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                     headers=payloads.signed_headers(SECRET, body))
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


@pytest.mark.slow
def test_a_check_typed_into_serve_is_answered_by_the_deferred_work_process(slack, empty_database_url) -> None:
    env = environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                      DATABASE_URL=empty_database_url)
    imported = subprocess.run([*command(), "import", str(EXAMPLE), "--election-date", "2026-11-03", "--name",
                               "Regular Special District Election", "--local-government", "Front Range Districts",
                               "--governing-body", "Board of Directors", "--team", TEAM],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert imported.returncode == 0, imported.stderr
    port = free_port()
    process = subprocess.Popen([*command(), "serve", "--host", "127.0.0.1"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**env, "PORT": str(port)}, cwd=ROOT)
    try:
        wait_for_health(f"http://127.0.0.1:{port}/healthz", process)
        assert _command(slack, f"http://127.0.0.1:{port}", "check") == 200
        verdict, *cards = slack.wait_for("chat.postMessage", count=3, timeout=30)
        assert verdict.args["channel"] == CHANNEL and "automatic recount" in verdict.args["text"].lower()
        assert [c.args["text"].split(":")[0] for c in cards] == ["Automatic recount"] * 2
        _wait_cards_recorded(empty_database_url)  # the first check's job has finished
        first_child = _child_pid(process)
        assert first_child != process.pid and _alive(first_child)

        os.kill(first_child, signal.SIGKILL)  # the OOM killer, say
        _wait_gone(first_child)
        second_child = _child_pid(process, not_=first_child)  # started as soon as the first was gone
        assert _command(slack, f"http://127.0.0.1:{port}", "check") == 200
        try:
            [*_, again] = slack.wait_for("chat.postMessage", count=4, timeout=60)
        except TimeoutError as exc:
            raise AssertionError(f"{exc}; the server said: {stop(process)[2]}") from None
        assert again.args["channel"] == CHANNEL and again.args["text"] == verdict.args["text"]
    finally:
        status, _, stderr = stop(process) if process.poll() is None else (process.returncode, "", "")
    assert status == 0, stderr
    assert "Traceback" not in stderr
    children = [int(pid) for pid in re.findall(r"deferred work runs in process (\d+)", stderr)]
    assert children == [first_child, second_child] and not any(_alive(pid) for pid in children)
    # The first check's job was done, or ending (its cards were recorded; a read and its report to the web
    # process may remain): never anything to redo.
    assert re.search(rf"the deferred-work process {first_child} exited \(code -9\); process {second_child} takes "
                     r"over: 0 job\(s\) it had not begun are redone, [01] it had begun are reported", stderr), stderr
    assert stderr.rstrip().endswith("stopped")
