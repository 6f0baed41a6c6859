"""`bot.deferred.process.DeferredWorkProcess` from the web process's side: this test process plays it, with a
real child process, the real database and the Slack stand-in over HTTP.

Stopping with work left: the child is given a moment, then killed; each person whose command it did not
finish is told from the web process, "interrupted" when the child had begun it and "not done" when it had not,
by the command's response_url, or in the channel when that URL is used up. Nothing typed is echoed.
"""
from __future__ import annotations

import datetime as dt
import os
import signal
import threading
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.deferred.process import DeferredConfig, DeferredWorkProcess
from bot.metrics import Metrics
from handlers.ids import Command
from handlers.registry import Surface
from rules.returns import parse_returns
from sandbox import payloads
from sandbox.slack_standin import SlackStandIn
from services.returns.versions import import_returns
from services.services import Services
from tests.bot.test_cli_serve_deferred import EXAMPLE
from tests.bot.test_cli_serve_durable import _stalled

TEAM, CLERK, TOKEN = "T0DEFER01", "U0CLERK01", "xoxb-deferred-test"
LABEL = f"{Surface.COMMAND.value}:{Command.RECOUNT.value}"
NOW = dt.datetime(2026, 11, 6, 16, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def slack():
    with SlackStandIn(tokens={TOKEN}, users=[{"id": CLERK, "name": "clerk", "is_admin": True}]) as standin:
        yield standin


@pytest.fixture
def deferred(db, slack):
    data = EXAMPLE.read_bytes()
    import_returns(Services(db, clock=lambda: NOW), team_id=TEAM, returns=parse_returns(data),
                   election_name="Regular Special District Election", election_date=dt.date(2026, 11, 3),
                   local_government="Front Range Districts", governing_body="Board of Directors",
                   source_name=EXAMPLE.name, source_bytes=data, actor="test")
    process = DeferredWorkProcess(DeferredConfig(database_url=db.url, bot_token=TOKEN, api_base_url=slack.base_url,
                                                 threads=1, log_level="WARNING", fixed_now=NOW), threading.Event())
    process.start()
    try:
        yield process
    finally:
        process.stop(timeout=5)


def _body(slack: SlackStandIn, channel: str, text: str) -> dict:
    """What Bolt hands the listener for a slash command: the form's fields."""
    return payloads.slash_command(
        command=Command.RECOUNT.value, text=text, team_id=TEAM, team_domain="deferred-test", channel_id=channel,
        channel_name=channel.lower(), user_id=CLERK, user_name="clerk",
        response_url=slack.issue_response_url(channel=channel, user=CLERK), trigger_id=slack.issue_trigger_id(CLERK))


def _use_up(url: str) -> None:
    """Slack's five uses of a response_url, spent."""
    for _ in range(5):
        request = urllib.request.Request(url, data=b'{"text": "spent"}', method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5):
            pass


def _said(slack: SlackStandIn) -> dict[str, list[str]]:
    said: dict[str, list[str]] = {}
    for message in slack.state.ephemeral_messages(CLERK):
        said.setdefault(message["channel"], []).append(message.get("text") or "")
    return said


def _wait(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_jobs_run_and_wait_idle_waits_for_them(deferred, slack) -> None:
    for channel in ("C0RUN0001", "C0RUN0002"):
        deferred.submit(LABEL, _body(slack, channel, "check"))
    assert deferred.wait_idle(timeout=60)
    # Each check's verdict, once, where it was typed (the first check also posted the two case cards).
    verdicts = [c.args["channel"] for c in slack.calls_to("chat.postMessage")
                if c.args["text"].startswith("Regular Special District Election:")]
    assert sorted(verdicts) == ["C0RUN0001", "C0RUN0002"]


def test_stopping_with_work_left_tells_each_person_begun_or_not_done(deferred, slack) -> None:
    deferred.submit(LABEL, _body(slack, "C0WARM001", "check"))  # the official, the cases and their cards
    assert deferred.wait_idle(timeout=60)
    slack.fail_next("chat.postMessage", delay=30.0)  # the next verdict post hangs: its job is begun
    hostile = "check Water <!channel> District"
    begun, spent, later = (_body(slack, "C0STOP001", "check"), _body(slack, "C0STOP002", "requests"),
                           _body(slack, "C0STOP003", hostile))
    _use_up(spent["response_url"])
    for body in (begun, spent, later):
        deferred.submit(LABEL, body)
    assert _wait(lambda: _stalled(slack, "chat.postMessage"), 30), "the child never reached the verdict post"
    assert _watched(deferred) == (3, 0)  # GET /metrics: three acknowledged, none done

    deferred.stop(timeout=1)  # one thread, stuck in the first job: the other two were never begun

    said = _said(slack)
    assert [t for t in said["C0STOP001"] if "interrupted" in t] == [
        ":warning: Your `/recount check` was interrupted: the process doing recount-bot's work after its answer "
        "stopped part-way, so it may not have finished. Look in this channel for its verdict; if it is not there, "
        "type the command again (checking again never opens a second case)."]
    not_done = (":warning: Your `/recount {}` was not done: recount-bot was stopping and did not get to it. Type the "
                "command again in a moment.")
    # Its response_url was used up: the notice came as an ephemeral message in the channel instead.
    assert said["C0STOP002"] == ["spent"] * 5 + [not_done.format("requests")]
    assert [c.args["channel"] for c in slack.calls_to("chat.postEphemeral")] == ["C0STOP002"]
    assert said["C0STOP003"] == [not_done.format("check")]  # the subcommand's declared name; nothing typed
    assert not any(c.args.get("channel") in ("C0STOP002", "C0STOP003") for c in slack.calls_to("chat.postMessage"))



def _watched(process: DeferredWorkProcess) -> tuple[float, float]:
    """(jobs pending, children restarted) as GET /metrics reports them."""
    metrics = Metrics()
    metrics.watch_deferred(process)
    found = {s.name: s.value for f in text_string_to_metric_families(metrics.render().decode()) for s in f.samples}
    return found["recount_bot_deferred_jobs_pending"], found["recount_bot_deferred_children_restarted_total"]


def test_a_child_that_dies_is_replaced_and_counted(deferred, slack) -> None:
    assert _watched(deferred) == (0, 0)
    first = deferred._process.pid
    os.kill(first, signal.SIGKILL)
    assert _wait(lambda: deferred._process is not None and deferred._process.pid != first, 30)
    assert _watched(deferred) == (0, 1)
    deferred.submit(LABEL, _body(slack, "C0AFTER01", "check"))  # the new child does the work
    assert deferred.wait_idle(timeout=60) and _watched(deferred) == (0, 1)
