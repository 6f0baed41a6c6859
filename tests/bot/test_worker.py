"""The worker with a controllable clock, on each database, against the Slack Web API stand-in."""
from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from slack_sdk import WebClient
from sqlalchemy import select

from bot.worker import reminders
from bot.worker.loop import Worker
from handlers.slack_io.delivery import OutboxDelivery
from handlers.slack_io.outbox import enqueue
from rules.returns import parse_returns
from sandbox.slack_standin import SlackStandIn
from services.conduct import cases
from services.office import access
from services.office.office_settings import OfficeSettings
from services.returns.checking import check
from services.returns.versions import import_returns
from services.services import Services
from storage.models import OutboxMessage, RecountCase, Reminder, Workspace
from tests.support.slack_app import Clock

UTC = dt.timezone.utc
TEAM, DEO = "T0WORKER", "U0OFFICIAL"
CHANNEL = "C0ELECTION"
CSV = b"""contest,choice,votes,kind
Ballot Issue 6A,Yes,4339,question
Ballot Issue 6A,No,4318,question
"""
# The automatic recount of an election on Tue 2026-11-03 is due Tue 2026-12-01; 9:00 MST is 16:00 UTC.
SEVEN_DAYS_BEFORE = dt.datetime(2026, 11, 24, 16, 0, tzinfo=UTC)


@pytest.fixture
def slack():
    with SlackStandIn(users=[{"id": DEO, "name": "dana", "is_admin": True}],
                      channels=[{"id": CHANNEL, "name": "elections"}]) as standin:
        yield standin


@pytest.fixture
def world(db, slack):
    clock = Clock(dt.datetime(2026, 11, 6, 16, 30, tzinfo=UTC))
    services = Services(db, clock=clock)
    import_returns(services, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Bear Creek Fire", governing_body="Board",
                   actor="test")
    access.bootstrap_official(services, TEAM, DEO, reason="test")
    outcome = check(services, team_id=TEAM, actor=DEO, settings=OfficeSettings())
    case_id = outcome.verdicts[0].case_id
    card = WebClient(token="xoxb-test", base_url=slack.base_url).chat_postMessage(channel=CHANNEL, text="card")
    cases.set_card(services, case_id, channel_id=CHANNEL, ts=card["ts"], actor=DEO)
    slack.clear()
    client = WebClient(token="xoxb-test", base_url=slack.base_url, timeout=5)
    return services, clock, case_id, card["ts"], client


COMPLETION = "the automatic recount must be complete"


def _posts(slack, dm=None, about=COMPLETION):
    calls = slack.calls_to("chat.postMessage")
    return [c for c in calls if (dm is None or c.args["channel"].startswith("D") == dm)
            and (about is None or about in c.args.get("text", ""))]


def test_reminders_go_out_seven_three_and_one_day_before_in_the_thread_and_by_dm(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    worker = Worker(services.db, client, clock=clock)
    worker.tick()
    clock.now = SEVEN_DAYS_BEFORE - dt.timedelta(minutes=1)
    worker.tick()
    assert _posts(slack) == []
    clock.now = SEVEN_DAYS_BEFORE
    worker.tick()
    assert len(_posts(slack)) == 2  # the case thread and the official's DM
    thread = [c for c in _posts(slack) if c.args.get("thread_ts") == card_ts]
    assert len(thread) == 1
    assert "Ballot Issue 6A" in thread[0].args["text"] and "Tue 2026-12-01" in thread[0].args["text"]
    assert "7 days before" in thread[0].args["text"] and "C.R.S. 1-13.5-1306(1)" in thread[0].args["text"]
    assert len(_posts(slack, dm=True)) == 1
    worker.tick()
    assert len(_posts(slack)) == 2  # nothing twice
    # The election contest deadline (1-13.5-1403, Mon 2026-11-30) has its own reminders; its 7-day one was due
    # at 9:00 on Mon 2026-11-23 and went out (late) with this tick. The request window closed on Fri 11-20
    # while no worker ran: a window that has closed is not reminded of.
    assert _posts(slack, about="the last day to file an election contest")
    assert not _posts(slack, about="the last day to file a written request")


def test_missed_reminders_are_sent_once_marked_late_when_the_worker_returns(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    clock.now = dt.datetime(2026, 11, 30, 18, 0, tzinfo=UTC)  # the worker was down for the 7-, 3- and 1-day ones
    Worker(services.db, client, clock=clock).tick()
    thread = [c for c in _posts(slack) if c.args.get("thread_ts") == card_ts]
    assert len(thread) == 1
    text = thread[0].args["text"]
    assert "1 day before" in text and "Late: this reminder was due" in text and "Also missed meanwhile" in text


def test_overdue_reminders_continue_daily_and_stop_when_the_step_is_done(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    worker = Worker(services.db, client, clock=clock)
    clock.now = dt.datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
    worker.tick()
    for day in (1, 2, 3):  # Tue 12-01 due today, Wed 12-02 overdue by 1, Thu 12-03 overdue by 2
        clock.now = dt.datetime(2026, 12, day, 16, 0, tzinfo=UTC)
        worker.tick()
    texts = [c.args["text"] for c in _posts(slack) if c.args.get("thread_ts") == card_ts]
    assert any("due today" in t for t in texts) and any("OVERDUE by 1 day" in t for t in texts)
    with services.db.transaction() as s:
        s.get(RecountCase, case_id).completed_at = clock.now  # the recount is complete
    before = len(_posts(slack))
    clock.now += dt.timedelta(days=3)
    worker.tick()
    assert len(_posts(slack)) == before


def test_a_429_waits_for_retry_after_and_a_500_backs_off(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    with services.db.transaction() as s:
        enqueue(s, method="chat.postMessage", payload={"channel": CHANNEL, "text": "one"}, now=clock.now)
    delivery = OutboxDelivery(services.db, client, clock=clock)
    slack.fail_next("chat.postMessage", status=429, retry_after=30)
    assert delivery.run_once().retried == 1
    clock.advance(seconds=29)
    assert delivery.run_once().sent == 0
    clock.advance(seconds=2)
    assert delivery.run_once().sent == 1
    with services.db.transaction() as s:
        enqueue(s, method="chat.postMessage", payload={"channel": CHANNEL, "text": "two"}, now=clock.now)
    slack.fail_next("chat.postMessage", status=500, times=2)
    assert delivery.run_once().retried == 1
    clock.advance(seconds=6)
    assert delivery.run_once().retried == 1
    clock.advance(seconds=11)
    assert delivery.run_once().sent == 1
    assert [c.args["text"] for c in slack.calls_to("chat.postMessage") if c.status == 200] == ["one", "two"]
    assert len([c for c in slack.calls_to("chat.postMessage") if c.status != 200]) == 3


def test_a_crash_mid_delivery_does_not_post_twice(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    with services.db.transaction() as s:
        row = enqueue(s, method="chat.postMessage", payload={"channel": CHANNEL, "thread_ts": card_ts, "text": "once"},
                      now=clock.now)
        row_id = row.id
    crashed = OutboxDelivery(services.db, client, clock=clock, worker_id="crashed")
    [(claimed, in_flight)] = crashed.claim()
    with services.db.transaction() as s:
        snapshot = s.get(OutboxMessage, claimed)
        crashed._send(snapshot, in_flight)  # Slack accepted the post; the process died before recording it
    clock.advance(minutes=2)  # the lease runs out
    report = OutboxDelivery(services.db, client, clock=clock, worker_id="restarted").run_once()
    assert report.recovered == 1 and report.sent == 0
    assert [m["text"] for m in slack.state.thread(CHANNEL, card_ts)].count("once") == 1
    with services.db.transaction() as s:
        assert s.get(OutboxMessage, row_id).status == "sent"


def test_a_moved_date_moves_the_reminders(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    worker = Worker(services.db, client, clock=clock)
    worker.tick()
    from storage.models import CaseDeadline

    with services.db.transaction() as s:
        deadline = s.scalars(select(CaseDeadline).where(CaseDeadline.case_id == case_id,
                                                        CaseDeadline.name == "automatic_recount_deadline")).one()
        deadline.due_date = dt.date(2026, 12, 4)
    worker.tick()
    with services.db.transaction() as s:
        pending = s.scalars(select(Reminder).where(Reminder.status == "pending",
                                                   Reminder.deadline_name == "automatic_recount_deadline")).all()
        cancelled = s.scalars(select(Reminder).where(Reminder.status == "cancelled")).all()
    assert {r.due_date for r in pending} == {dt.date(2026, 12, 4)} and len(cancelled) == 4
    assert min(r.fire_at for r in pending) == dt.datetime(2026, 11, 27, 16, 0, tzinfo=UTC)


def test_two_workers_deliver_each_reminder_exactly_once(world, slack, backend) -> None:
    services, clock, case_id, card_ts, client = world
    if backend == "sqlite":
        pytest.skip("SQLite runs one worker (its single writer); two workers is the PostgreSQL case")
    with services.db.transaction() as s:
        for i in range(60):
            enqueue(s, method="chat.postMessage", payload={"channel": CHANNEL, "text": f"m{i}"}, now=clock.now)
    workers = [Worker(services.db, WebClient(token="xoxb-test", base_url=slack.base_url), clock=clock,
                      worker_id=f"w{i}", batch=5) for i in range(2)]
    threads = [threading.Thread(target=w.tick) for w in workers]
    [t.start() for t in threads]
    [t.join() for t in threads]
    texts = [c.args["text"] for c in slack.calls_to("chat.postMessage") if c.args["text"].startswith("m")]
    assert sorted(texts) == sorted(f"m{i}" for i in range(60))
    with services.db.transaction() as s:
        claimed_by = set(s.scalars(select(OutboxMessage.claimed_by)).all())
    assert claimed_by == {"w0", "w1"}


def test_a_worker_whose_lease_ran_out_does_not_undo_the_worker_that_took_its_post_over(world, slack) -> None:
    services, clock, case_id, card_ts, client = world
    with services.db.transaction() as s:
        row_id = enqueue(s, method="chat.postMessage", payload={"channel": CHANNEL, "text": "once"},
                         now=clock.now).id
    slow = OutboxDelivery(services.db, client, clock=clock, worker_id="slow")
    [(claimed, _)] = slow.claim()
    slack.fail_next("chat.postMessage", status=429)
    refused = slow.attempt(claimed, look_first=False)  # Slack's 429 came back only after the lease ran out
    clock.advance(minutes=2)
    taker = OutboxDelivery(services.db, client, clock=clock, worker_id="taker")
    assert taker.run_once().sent == 1
    assert slow.finish(claimed, refused) == "retry"  # what it came to, for its caller; not written to the row
    clock.advance(minutes=10)
    assert taker.run_once().sent == 0
    assert [c.args["text"] for c in slack.calls_to("chat.postMessage") if c.status == 200] == ["once"]
    with services.db.transaction() as s:
        row = s.get(OutboxMessage, row_id)
        assert (row.status, row.claimed_by) == ("sent", "taker")


def test_two_workers_scheduling_at_once_add_each_reminder_once(world, backend) -> None:
    services, clock, case_id, card_ts, client = world
    if backend == "sqlite":
        pytest.skip("SQLite's single writer takes the turns itself")
    first_read = threading.Event()

    def schedule(hold: float) -> None:
        with services.db.transaction() as s:
            workspace = s.scalars(select(Workspace)).one()
            reminders.sync(s, workspace, clock.now)
            first_read.set()
            time.sleep(hold)  # still uncommitted while the other worker schedules

    slow = threading.Thread(target=schedule, args=(1.0,))
    slow.start()
    first_read.wait(10)
    schedule(0)
    slow.join()
    with services.db.transaction() as s:
        rows = s.execute(select(Reminder.deadline_name, Reminder.kind, Reminder.days)
                         .where(Reminder.status == "pending")).all()
    assert rows and len(rows) == len(set(rows)), sorted(rows)
