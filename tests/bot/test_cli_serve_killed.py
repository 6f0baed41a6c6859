"""Nothing outlives `serve`: when the server is killed outright (SIGKILL, the OOM killer), its deferred-work child
goes with it at once, even with a backlog of acknowledged checks in hand, and posts nothing more to Slack.

Before, the child was reparented, ignored SIGTERM, kept the database open and went on posting the dead server's
backlog for minutes (issue 25)."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, wait_for_health
from tests.bot.test_cli_serve_deferred import (
    CHANNEL,
    EXAMPLE,
    ROOT,
    TEAM,
    _alive,
    _child_pid,
    _command,
    _wait_cards_recorded,
    slack,  # noqa: F401 (the fixture)
)

BURST = 200  # checks acknowledged before the kill: far more than the child works off in the moment after


def _verdicts(standin) -> int:
    return sum(1 for c in standin.calls_to("chat.postMessage") if c.args.get("channel") == CHANNEL
               and "automatic recount" in (c.args.get("text") or "").lower())


@pytest.mark.slow
def test_killing_serve_takes_its_deferred_child_with_it_and_nothing_is_posted_after(
        slack, empty_database_url, tmp_path) -> None:  # noqa: F811 (the fixture)
    env = environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                      DATABASE_URL=empty_database_url)
    imported = subprocess.run([*command(), "import", str(EXAMPLE), "--election-date", "2026-11-03", "--name",
                               "Regular Special District Election", "--local-government", "Front Range Districts",
                               "--governing-body", "Board of Directors", "--team", TEAM],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert imported.returncode == 0, imported.stderr
    port, log = free_port(), tmp_path / "serve.log"
    base = f"http://127.0.0.1:{port}"
    # The log goes to a file, not a pipe: a child that outlived the server would hold a pipe open.
    with log.open("w") as stderr:
        process = subprocess.Popen([*command(), "serve", "--host", "127.0.0.1"], stdout=subprocess.DEVNULL,
                                   stderr=stderr, env={**env, "PORT": str(port)}, cwd=ROOT)
    child = None
    try:
        wait_for_health(f"{base}/healthz", process)
        assert _command(slack, base, "check") == 200
        slack.wait_for("chat.postMessage", count=3, timeout=30)  # the verdict and the two case cards
        _wait_cards_recorded(empty_database_url)
        child = _child_pid(process)

        with ThreadPoolExecutor(max_workers=10) as pool:
            statuses = list(pool.map(lambda _: _command(slack, base, "check"), range(BURST)))
        assert statuses == [200] * BURST
        process.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        posted_at_kill = _verdicts(slack)
        assert posted_at_kill < 1 + BURST, "no backlog was left to drop: the test shows nothing"

        while _alive(child) and time.monotonic() - killed_at < 5:
            time.sleep(0.02)
        gone_after = time.monotonic() - killed_at
        assert not _alive(child), f"the deferred-work child {child} still runs 5 s after serve was killed"
        assert gone_after < 2.0, f"the deferred-work child took {gone_after:.2f} s to go"
        calls_when_gone = len(slack.calls)
        time.sleep(3)
        assert len(slack.calls) == calls_when_gone, [c.method for c in slack.calls[calls_when_gone:]]
        assert _verdicts(slack) < 1 + BURST  # the backlog was dropped with the server, not worked off
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        if child is not None and _alive(child):
            os.kill(child, signal.SIGKILL)  # never left behind by a failing test
    assert "Traceback" not in log.read_text()
