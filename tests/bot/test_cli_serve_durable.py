"""Killing `recount-bot serve`'s deferred-work child mid-burst loses no acknowledged command (issue 14, item 11).

A real `serve` subprocess, commands signed as Slack signs them, the Slack stand-in on loopback. A burst of
`/recount check`, `/recount requests` and `/recount record 1`, each typed in a channel of its own so every
answer can be told apart. The child is killed twice while it works through the burst: the first time while
its threads are all stuck in a verdict post Slack is slow to answer (so they had begun), the second time
plainly. Then every acknowledged command must have been answered exactly once, or its person told that it was
interrupted (at most one per child thread per kill), and nothing may be recorded twice: one audit row per
check that ran, one case per contest inside the margin, each case card posted once.
"""
from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from bot.deferred.protocol import DeferredConfig
from sandbox import payloads
from sandbox.slack_standin import SlackStandIn, Workspace
from storage.db import Database
from storage.models import AuditEntry, ProcessedDelivery, RecountCase
from tests.bot.test_cli_db import ROOT
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, stop, wait_for_health
from tests.bot.test_cli_serve_deferred import EXAMPLE, _alive, _child_pid, _wait_cards_recorded, _wait_gone

TEAM, CLERK, MAIN = "T0SERVE01", "U0CLERK01", "C0GENERAL"
CHECKS, REQUESTS, RECORDS = 200, 10, 6
THREADS = DeferredConfig.threads  # serve's: at most this many jobs are begun and unfinished when a child dies
INTERRUPTED = "was interrupted"
REQUESTS_ANSWER = "No recount request is awaiting a decision."
RECORD_ANSWER = "The record of case #1 (JSON and PDF) is in your direct messages with me."


@dataclass
class Sent:
    channel: str
    text: str
    status: int | None = None


@pytest.fixture
def slack():
    with SlackStandIn(tokens={GOOD}, users=[{"id": CLERK, "name": "clerk", "is_admin": True}],
                      workspace=Workspace(team_id=TEAM)) as standin:  # the bot token's workspace: the office
        yield standin


def _post(base: str, slack: SlackStandIn, channel: str, text: str) -> int:
    fields = payloads.slash_command(
        command="/recount", text=text, team_id=TEAM, team_domain="serve-test", channel_id=channel,
        channel_name=channel.lower(), user_id=CLERK, user_name="clerk",
        response_url=slack.issue_response_url(channel=channel, user=CLERK), trigger_id=slack.issue_trigger_id(CLERK))
    body = payloads.form_body(fields)
    request = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                     headers=payloads.signed_headers(SECRET, body))
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


def _send_burst(base: str, slack: SlackStandIn, burst: list[Sent], clients: int = 8) -> list[threading.Thread]:
    """Send from `clients` threads at once, as Slack does for many people; each records its ack's status."""
    def client(mine: list[Sent]) -> None:
        for sent in mine:
            try:
                sent.status = _post(base, slack, sent.channel, sent.text)
            except OSError as exc:
                sent.status = -1
                print(f"{sent.channel}: {exc}")
    threads = [threading.Thread(target=client, args=(burst[i::clients],)) for i in range(clients)]
    for thread in threads:
        thread.start()
    return threads


def _outcome(slack: SlackStandIn, burst: list[Sent], verdict: str) -> dict[str, tuple[int, int, list[str]]]:
    """Per channel: (answers, notices, anything else said there)."""
    ephemerals: dict[str, list[str]] = {}
    for message in slack.state.ephemeral_messages(CLERK):
        ephemerals.setdefault(message["channel"], []).append(message.get("text") or "")
    seen = {}
    for sent in burst:
        said = ephemerals.get(sent.channel, [])
        notices = sum(INTERRUPTED in text for text in said)
        if sent.text == "check":
            posted = [m.get("text") for m in slack.state.messages(sent.channel)]
            answers, other = posted.count(verdict), [t for t in posted if t != verdict]
            other += [t for t in said if INTERRUPTED not in t]
        else:
            expected = REQUESTS_ANSWER if sent.text == "requests" else RECORD_ANSWER
            answers = said.count(expected)
            other = [t for t in said if t != expected and INTERRUPTED not in t]
            other += [m.get("text") for m in slack.state.messages(sent.channel)]
        seen[sent.channel] = (answers, notices, other)
    return seen


def _wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:.0f}s")
        time.sleep(0.25)


def _stalled(slack: SlackStandIn, method: str) -> bool:
    """Every injected delay on `method` has been taken by a call now waiting in it. (The stand-in keeps the
    faults it has not handed out yet; there is no public view of them.)"""
    with slack._calls_changed:
        return not slack._faults.get(method)


@pytest.mark.slow
def test_killing_the_child_mid_burst_loses_no_acknowledged_command(slack, empty_database_url, tmp_path) -> None:
    env = environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                      DATABASE_URL=empty_database_url)
    imported = subprocess.run([*command(), "import", str(EXAMPLE), "--election-date", "2026-11-03", "--name",
                               "Regular Special District Election", "--local-government", "Front Range Districts",
                               "--governing-body", "Board of Directors", "--team", TEAM],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert imported.returncode == 0, imported.stderr
    port, log_path = free_port(), tmp_path / "serve.log"
    base = f"http://127.0.0.1:{port}"
    with log_path.open("w") as log_file:  # a file, not a pipe: a burst logs more than a pipe holds unread
        process = subprocess.Popen([*command(), "serve", "--host", "127.0.0.1"], stdout=subprocess.DEVNULL,
                                   stderr=log_file, text=True, env={**env, "PORT": str(port)}, cwd=ROOT)
    try:
        wait_for_health(f"{base}/healthz", process)
        # The first check alone: the clerk becomes the official, the two cases open, their cards are posted.
        assert _post(base, slack, MAIN, "check") == 200
        verdict = slack.wait_for("chat.postMessage", count=3, timeout=60)[0].args["text"]
        _wait_cards_recorded(empty_database_url)
        first_child = _child_pid(process)

        kinds = ["check"] * CHECKS + ["requests"] * REQUESTS + ["record 1"] * RECORDS
        random.Random(14).shuffle(kinds)
        burst = [Sent(f"C0BURST{i:04d}", text) for i, text in enumerate(kinds)]
        senders = _send_burst(base, slack, burst)

        def answered() -> int:
            return sum(a for a, _, _ in _outcome(slack, burst, verdict).values())

        # Kill 1: once the child is well into the burst, make Slack slow to answer the next verdict posts, so
        # each of the child's threads is stuck in one (begun, unfinished), then kill it. Two of those posts
        # land after all (Slack took them; the client had gone), two never do (lost on the way).
        _wait_until(lambda: answered() >= 20, 60, "no 20 answers")
        slack.fail_next("chat.postMessage", delay=5.0, times=THREADS // 2)
        slack.fail_next("chat.postMessage", delay=5.0, status=500, times=THREADS - THREADS // 2)
        _wait_until(lambda: _stalled(slack, "chat.postMessage"), 30, "the child's threads did not reach Slack")
        os.kill(first_child, signal.SIGKILL)
        _wait_gone(first_child)
        for sender in senders:
            sender.join(60)
        assert all(sent.status == 200 for sent in burst), Counter(sent.status for sent in burst)

        # Kill 2: the child that took over, while it redoes what the first left.
        second_child = _child_pid(process, not_=first_child)
        before = answered()
        _wait_until(lambda: answered() >= before + 20, 120, "the second child answered nothing")
        os.kill(second_child, signal.SIGKILL)
        _wait_gone(second_child)
        third_child = _child_pid(process, not_=second_child)

        _wait_until(lambda: all(a + n >= 1 for a, n, _ in _outcome(slack, burst, verdict).values()), 240,
                    "acknowledged commands were neither answered nor told")
        time.sleep(6)  # the stalled posts (5 s) land; anything sent twice would land by now too
    finally:
        status, _, _ = stop(process) if process.poll() is None else (process.returncode, "", "")
    log = log_path.read_text()
    assert status == 0, log
    assert "Traceback" not in log

    # Every acknowledged command: answered exactly once, or its person told it was interrupted (and then it
    # was answered at most once). Nothing else said in its channel.
    seen = _outcome(slack, burst, verdict)
    for sent in burst:
        answers, notices, other = seen[sent.channel]
        assert answers <= 1 and notices <= 1 and answers + notices >= 1, (sent, seen[sent.channel])
        assert other == [], (sent, other)
    told = [sent for sent in burst if seen[sent.channel][1]]
    # The verdict posts that landed after the kill: answered and told; those that never did: told only.
    assert sum(seen[sent.channel][:2] == (1, 1) for sent in told) >= THREADS // 2
    assert sum(seen[sent.channel][:2] == (0, 1) for sent in told) >= THREADS - THREADS // 2
    # The first kill caught every thread in a stalled post (each had begun), the second at most every thread.
    assert THREADS <= len(told) <= 2 * THREADS, told
    kills = re.findall(r"the deferred-work process (\d+) exited \(code -9\); process (\d+) takes over: (\d+) job\(s\) "
                       r"it had not begun are redone, (\d+) it had begun are reported", log)
    assert [(int(a), int(b)) for a, b, _, _ in kills] == [(first_child, second_child), (second_child, third_child)]
    redone = [int(r) for _, _, r, _ in kills]
    assert redone[0] > 0 and redone[1] > 0, kills  # both kills left jobs never begun, and they were redone
    assert sum(int(t) for *_, t in kills) == len(told)
    assert not any(_alive(int(pid)) for pid in (first_child, second_child, third_child))

    # Nothing recorded twice: one audit row per check that ran (the first, each answered check, and at most the
    # interrupted checks that were never answered), one case per contest inside the margin, each card once.
    checks = [sent for sent in burst if sent.text == "check"]
    answered_checks = sum(seen[sent.channel][0] for sent in checks)
    told_unanswered = sum(1 for sent in checks if seen[sent.channel][:2] == (0, 1))
    db = Database(empty_database_url)
    try:
        with db.read() as session:
            actions = Counter(dict(session.execute(select(AuditEntry.action, func.count())
                                                   .group_by(AuditEntry.action)).all()))
            cases = session.scalar(select(func.count()).select_from(RecountCase))
            deliveries = session.scalar(select(func.count()).select_from(ProcessedDelivery))
    finally:
        db.dispose()
    assert 1 + answered_checks <= actions["survey.checked"] <= 1 + answered_checks + told_unanswered, actions
    assert cases == 2 and actions["case.opened"] == 2 and actions["case.card_posted"] == 2, actions
    assert deliveries <= 1 + len(burst)  # one per command at most: a redone job was never begun before
    cards = [c for c in slack.calls_to("chat.postMessage") if c.args.get("channel") == MAIN]
    assert len(cards) == 3  # the first verdict and the two cards, never again
    records = [sent for sent in burst if sent.text == "record 1"]
    answered_records = sum(seen[sent.channel][0] for sent in records)
    told_records = sum(1 for sent in records if seen[sent.channel][:2] == (0, 1))
    uploads = len(slack.calls_to("files.completeUploadExternal"))
    assert answered_records <= uploads <= answered_records + told_records
