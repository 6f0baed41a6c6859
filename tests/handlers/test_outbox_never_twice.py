"""The outbox never posts twice (issue 14, item 3), on each database, against the Slack stand-in over HTTP.

Slack has no idempotency key: a post whose answer never came may be in the channel. These are the ways that
happens — Slack takes a post and answers after the client gave up; a worker is killed in the middle of a post
in a long thread; a 5xx — and in each the post is found by its metadata before any retry, or made once.

The stand-in keeps the bot's clock here, as Slack and a server do in production (both on real time): a
message's ts and the row's first attempt are on one time line.
"""
from __future__ import annotations

import datetime as dt
import logging
import signal
import subprocess
import time

import pytest
from sqlalchemy import select

from bot.worker.loop import worker_client
from handlers.slack_io.delivery import SETTLE, THREAD_OF, OutboxDelivery
from handlers.slack_io.outbox import enqueue
from sandbox.slack_standin import SlackStandIn
from services.services import Services
from storage.models import OutboxMessage
from storage.types import utcnow
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, run_with
from tests.support.slack_app import Clock

CHANNEL = "C0ELECTION"


@pytest.fixture
def slack_and_clock():
    clock = Clock(utcnow().replace(microsecond=0))
    with SlackStandIn(clock=clock, tokens={GOOD}, channels=[{"id": CHANNEL, "name": "elections"}]) as slack:
        yield slack, clock
        assert slack.server_errors == []


@pytest.fixture
def outbox(db, slack_and_clock):
    slack, clock = slack_and_clock
    client = worker_client(GOOD, slack.base_url)
    client.timeout = 0.5  # the worker's 15 s, shortened: a stall of 1.5 s outlasts it
    return Services(db, clock=clock), OutboxDelivery(db, client, clock=clock), slack, clock


def queue(services: Services, payload: dict) -> int:
    with services.db.transaction() as session:
        return enqueue(session, method="chat.postMessage", payload=payload, now=services.now()).id


def row(services: Services, row_id: int) -> OutboxMessage:
    with services.db.transaction() as session:
        return session.get(OutboxMessage, row_id)


def posted(slack: SlackStandIn, text: str, thread: str | None = None) -> list[dict]:
    messages = slack.state.thread(CHANNEL, thread) if thread else slack.state.messages(CHANNEL)
    return [m for m in messages if m["text"] == text]


def test_a_post_slack_took_without_answering_is_found_newest_first_and_not_posted_again(outbox) -> None:
    services, delivery, slack, clock = outbox
    row_id = queue(services, {"channel": CHANNEL, "text": "Recount case #4 opened"})
    slack.fail_next("chat.postMessage", stall=1.5)
    assert delivery.run_once().retried == 1  # the client gave up after 0.5 s; Slack has the post
    assert len(posted(slack, "Recount case #4 opened")) == 1
    stalled = row(services, row_id)
    assert stalled.status == "pending" and stalled.result["maybe_posted"] and "Timeout" in stalled.last_error
    assert stalled.next_attempt_at >= clock.now + SETTLE  # a Slack still at it gets a minute to finish

    # Meanwhile the channel goes on: 450 messages after it, so it is on the third page of 200, newest first.
    for i in range(450):
        slack.state.post_message(CHANNEL, user="U0CLERK01", text=f"chatter {i}")
    clock.advance(seconds=30)
    assert delivery.run_once().recovered == 0  # not before the minute is up
    clock.advance(seconds=31)
    slack.clear()
    report = delivery.run_once()
    assert (report.recovered, report.sent) == (1, 0)
    assert len(posted(slack, "Recount case #4 opened")) == 1
    pages = slack.calls_to("conversations.history")
    assert len(pages) == 3 and slack.calls_to("chat.postMessage") == []
    first_attempt = dt.datetime.fromisoformat(stalled.result["first_attempt_at"])
    assert float(pages[0].args["oldest"]) == (first_attempt - dt.timedelta(minutes=5)).timestamp()
    assert pages[0].args["include_all_metadata"] in (True, "1", "true")
    done = row(services, row_id)
    assert done.status == "sent" and done.result["ts"] == posted(slack, "Recount case #4 opened")[0]["ts"]


def test_a_worker_killed_mid_post_in_a_thread_of_250_replies_recovers_without_a_second_post(db) -> None:
    # The worker runs in its own process, on real time; so do Slack and the bot here. The thread grew over the
    # days before: its 250 replies are an hour old when the reminder is posted under it.
    behind = [dt.timedelta(hours=1)]
    with SlackStandIn(tokens={GOOD}, channels=[{"id": CHANNEL, "name": "elections"}],
                      clock=lambda: utcnow() - behind[0]) as slack:
        parent = slack.state.post_message(CHANNEL, text="Recount case #7")[1]["ts"]
        for i in range(250):
            slack.state.post_message(CHANNEL, thread_ts=parent, user="U0CLERK01", text=f"reply {i}")
        behind[0] = dt.timedelta(0)
        killed_mid_post(db, slack, Services(db), parent)
        assert slack.server_errors == []


def killed_mid_post(db, slack: SlackStandIn, services: Services, parent: str) -> None:
    row_id = queue(services, {"channel": CHANNEL, "thread_ts": parent, "text": "Reminder: the recount is due"})
    slack.fail_next("chat.postMessage", stall=120)  # Slack takes the post; its answer never comes
    env = environment(DATABASE_URL=db.url, SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET,
                      SLACK_API_BASE_URL=slack.base_url)
    worker = subprocess.Popen([*command(), "worker", "--interval", "0.2"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not posted(slack, "Reminder: the recount is due", parent) and time.monotonic() < deadline:
            assert worker.poll() is None, worker.stderr.read()
            time.sleep(0.05)
        assert posted(slack, "Reminder: the recount is due", parent), "the worker never posted"
    finally:
        worker.send_signal(signal.SIGKILL)  # killed in the middle of the call
        worker.wait(timeout=10)
    assert row(services, row_id).status == "sending"  # what the dead worker left: a lease, no answer

    # Another worker, once the lease has run out (its clock two minutes on, rather than waiting them out).
    later = lambda: utcnow() + dt.timedelta(minutes=2)  # noqa: E731
    slack.clear()
    report = OutboxDelivery(db, worker_client(GOOD, slack.base_url), clock=later, worker_id="next").run_once()
    assert (report.recovered, report.sent) == (1, 0)
    assert len(posted(slack, "Reminder: the recount is due", parent)) == 1
    assert len(slack.state.thread(CHANNEL, parent)) == 251
    [read] = slack.calls_to("conversations.replies")  # one page: the replies since the first attempt, not all 251
    assert read.args["oldest"] and len(read.response["messages"]) < 20
    again = run_with("worker", "--once", **{k: env[k] for k in ("DATABASE_URL", "SLACK_BOT_TOKEN",
                                                                 "SLACK_SIGNING_SECRET", "SLACK_API_BASE_URL")})
    assert again.returncode == 0, again.stderr
    assert "posts sent 0" in again.stdout
    assert len(posted(slack, "Reminder: the recount is due", parent)) == 1


def test_a_429_and_a_500_still_deliver_once(outbox) -> None:
    services, delivery, slack, clock = outbox
    queue(services, {"channel": CHANNEL, "text": "one"})
    slack.fail_next("chat.postMessage", status=429, retry_after=30)
    assert delivery.run_once().retried == 1
    clock.advance(seconds=31)
    assert delivery.run_once().sent == 1
    assert slack.calls_to("conversations.history") == []  # a 429 is a refusal: nothing to look for

    queue(services, {"channel": CHANNEL, "text": "two"})
    slack.fail_next("chat.postMessage", status=500)
    assert delivery.run_once().retried == 1
    clock.advance(seconds=6)
    assert delivery.run_once().sent == 1  # looked for first (Slack may do what it answers 500 to), then posted
    assert len(slack.calls_to("conversations.history")) == 1
    assert [m["text"] for m in slack.state.messages(CHANNEL)] == ["one", "two"]


def test_a_lookup_slack_fails_holds_the_post_back_until_it_can_tell(outbox) -> None:
    services, delivery, slack, clock = outbox
    row_id = queue(services, {"channel": CHANNEL, "text": "verdict"})
    slack.fail_next("chat.postMessage", stall=1.5)
    delivery.run_once()
    clock.advance(seconds=61)
    slack.fail_next("conversations.history", status=503)
    assert delivery.run_once().retried == 1  # could not tell: not posted blind
    assert "could not tell whether an earlier attempt reached Slack" in row(services, row_id).last_error
    clock.advance(seconds=30)
    assert delivery.run_once().recovered == 1
    assert len(posted(slack, "verdict")) == 1


def test_without_the_history_scopes_it_posts_and_says_so_in_the_log(outbox, caplog) -> None:
    services, delivery, slack, clock = outbox
    queue(services, {"channel": CHANNEL, "text": "lost answer"})
    slack.fail_next("chat.postMessage", status=502)  # not carried out; but the outbox cannot know that
    delivery.run_once()
    clock.advance(seconds=6)
    slack.fail_next("conversations.history", status=200, error="missing_scope")
    with caplog.at_level(logging.ERROR, logger="recount_bot.outbox"):
        assert delivery.run_once().sent == 1
    assert "needs the history scopes" in caplog.text
    assert len(posted(slack, "lost answer")) == 1


def test_the_rest_of_a_verdict_waits_for_its_first_part_and_goes_in_its_thread(outbox) -> None:
    services, delivery, slack, clock = outbox
    first = queue(services, {"channel": CHANNEL, "text": "verdict, part 1"})
    second = queue(services, {"channel": CHANNEL, "text": "verdict, part 2", THREAD_OF: first})
    slack.fail_next("chat.postMessage", status=429, retry_after=20)
    report = delivery.run_once()
    assert (report.retried, report.waiting) == (1, 1)
    assert row(services, second).attempts == 0  # waiting is not an attempt
    clock.advance(seconds=21)
    assert delivery.run_once().sent == 2  # the first part, then the second under it
    [part1] = posted(slack, "verdict, part 1")
    assert [m["text"] for m in slack.state.thread(CHANNEL, part1["ts"])] == ["verdict, part 2"]
    with services.db.transaction() as session:
        assert THREAD_OF in session.scalar(select(OutboxMessage.payload).where(OutboxMessage.id == second))
