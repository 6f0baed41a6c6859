"""Scale-out on PostgreSQL (issue 15, item 5): two `recount-bot serve --no-worker` replicas behind one URL and two
`recount-bot worker`s on one database, as real processes; one of each is killed (SIGKILL) mid-run.

Signed `/recount check` commands go round-robin to the replicas, each typed in a channel of its own so every answer
can be told apart; the very first two race on both replicas at once (both would open the cases and post their
cards). Slack's retries of a few commands (the same body, X-Slack-Retry-Num) go to the OTHER replica. Due reminders
are added in waves while the workers run. Replica A and worker 1 are killed in the middle; the load goes on to the
survivors, as a load balancer would send it, and a command replica A never answered is retried by "Slack" on B.

Then everything must be there once: one verdict per answered command and none twice, one `survey.checked` audit row
per verdict, one case per contest inside the margin, each case card posted once, every outbox row's post in Slack
exactly once (found by the row id in its message metadata), every due reminder sent once, and `recount-bot audit
verify` passing.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from contextlib import ExitStack

import pytest
from sqlalchemy import func, select

from handlers.slack_io.outbox import METADATA_TYPE
from sandbox import payloads
from sandbox.slack_standin import SlackStandIn, Workspace
from storage.db import Database
from storage.models import (
    AuditEntry,
    OutboxMessage,
    OutboxStatus,
    ProcessedDelivery,
    RecountCase,
    Reminder,
    ReminderStatus,
)
from tests.bot.test_cli_db import ROOT
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, stop, wait_for_health
from tests.bot.test_cli_serve_deferred import EXAMPLE, _alive, _child_pid, _wait_cards_recorded, _wait_gone
from tests.support.databases import fresh_database_url

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"),
    reason="scale-out is for PostgreSQL: set TEST_DATABASE_URL to a PostgreSQL server")

TEAM, CLERK = "T0SCALE01", "U0CLERK01"
FIRST = ("C0FIRSTA1", "C0FIRSTB1")  # the first two checks, one on each replica at once
BEFORE_KILL, AFTER_KILL = 40, 30  # checks sent while both replicas run, and after replica A is killed
RETRIED = 4  # commands of each replica that Slack also retries on the other one
WAVES = 3  # waves of due reminders
LEASE = 30  # seconds a worker holds a claimed post (`worker --lease`): a dead worker's rows come back after it


class Replica:
    def __init__(self, name: str, env: dict, log_path) -> None:
        self.name, self.port = name, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        with log_path.open("w") as log_file:  # a file, not a pipe: nothing reads it until the end
            self.process = subprocess.Popen(
                [*command(), "serve", "--host", "127.0.0.1", "--no-worker"], stdout=subprocess.DEVNULL,
                stderr=log_file, text=True, env={**env, "PORT": str(self.port)}, cwd=ROOT)


def _slash(slack: SlackStandIn, channel: str) -> bytes:
    return payloads.form_body(payloads.slash_command(
        command="/recount", text="check", team_id=TEAM, team_domain="scale-test", channel_id=channel,
        channel_name=channel.lower(), user_id=CLERK, user_name="clerk",
        response_url=slack.issue_response_url(channel=channel, user=CLERK), trigger_id=slack.issue_trigger_id(CLERK)))


def _post(replica: Replica, body: bytes, retry: int = 0) -> int:
    headers = payloads.signed_headers(SECRET, body)
    if retry:
        headers.update({"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"})
    request = urllib.request.Request(f"{replica.base}/slack/events", data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return -1  # no answer: the replica is gone


def _all_messages(slack: SlackStandIn) -> list[tuple[str, dict]]:
    """Every message the bot posted anywhere (top level and in threads), once each."""
    found: dict[tuple[str, str], dict] = {}
    for cid, chan in slack.state.snapshot()["channels"].items():
        for message in chan["messages"] + [m for replies in chan["threads"].values() for m in replies]:
            found[(cid, message["ts"])] = message
    return [(cid, message) for (cid, _), message in found.items()]


def _wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:.0f}s")
        time.sleep(0.25)


def _add_due_reminders(db: Database) -> list[int]:
    """Each open case's next completion-deadline reminder (the workers schedule one for the next morning while the
    recount is overdue) falls due now: its time is moved to a minute ago, as if the morning had come."""
    now = dt.datetime.now(dt.timezone.utc)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with db.transaction() as session:
            rows = session.scalars(select(Reminder).where(
                Reminder.deadline_name == "automatic_recount_deadline",
                Reminder.status == ReminderStatus.PENDING.value).with_for_update()).all()
            if len({r.case_id for r in rows}) == 2:
                for row in rows:
                    row.fire_at = now - dt.timedelta(minutes=1)
                return [r.id for r in rows]
        time.sleep(0.2)
    raise AssertionError("the workers did not schedule the cases' reminders")


def _reminders_queued(db: Database, ids: list[int]) -> bool:
    with db.read() as session:
        statuses = session.scalars(select(Reminder.status).where(Reminder.id.in_(ids))).all()
    return all(s == ReminderStatus.QUEUED.value for s in statuses)


def _outbox_settled(db: Database) -> bool:
    with db.read() as session:
        return not session.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.status.in_((OutboxStatus.PENDING.value, OutboxStatus.SENDING.value))))


def _worker_holding_a_post(db: Database, slack: SlackStandIn, workers: list[subprocess.Popen],
                           timeout: float = 20) -> subprocess.Popen:
    """The worker whose chat.postMessage Slack has carried out and not answered yet (the stalled one): its rows
    are the ones still being sent once the others are done. (The stand-in keeps the faults not yet handed out; there
    is no public view of them.)"""
    pids = {str(w.pid): w for w in workers}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with slack._calls_changed:
            stalled = not slack._faults.get("chat.postMessage")
        if stalled:
            time.sleep(1.0)  # every other post of the wave is done by now; the stalled one holds for 6 s
            with db.read() as session:
                holders = session.scalars(select(OutboxMessage.claimed_by).where(
                    OutboxMessage.status == OutboxStatus.SENDING.value)).all()
            # One worker claimed the wave's rows (a batch) and is stuck in the first of them.
            assert len(set(holders)) == 1 and holders[0].rsplit(":", 1)[1] in pids, holders
            return pids[holders[0].rsplit(":", 1)[1]]
        time.sleep(0.05)
    raise AssertionError(f"no worker was caught making a post within {timeout:.0f}s")


@pytest.mark.slow
def test_two_replicas_and_two_workers_record_and_post_everything_once(tmp_path) -> None:
    with ExitStack() as stack:
        url = stack.enter_context(fresh_database_url("postgresql", tmp_path))
        # The office's own workspace: in one-office mode a request from another team is refused.
        slack = stack.enter_context(SlackStandIn(tokens={GOOD}, workspace=Workspace(team_id=TEAM),
                                                 users=[{"id": CLERK, "name": "clerk", "is_admin": True}]))
        env = environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                          DATABASE_URL=url)
        db = Database(url)
        stack.callback(db.dispose)

        replicas = [Replica(name, env, tmp_path / f"serve-{name}.log") for name in ("a", "b")]
        workers: list[subprocess.Popen] = []
        children: list[int] = []

        def cleanup() -> None:
            for process in [r.process for r in replicas] + workers:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            for pid in children:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
        stack.callback(cleanup)
        # Both replicas started at once on an empty schema: each migrates it at start, one after the other.
        for replica in replicas:
            wait_for_health(f"{replica.base}/healthz", replica.process)
        for n in (1, 2):
            log_file = stack.enter_context((tmp_path / f"worker-{n}.log").open("w"))
            workers.append(subprocess.Popen([*command(), "worker", "--interval", "0.5", "--lease", str(LEASE)],
                                            stdout=subprocess.DEVNULL, stderr=log_file, env=env, cwd=ROOT))
        imported = subprocess.run([*command(), "import", str(EXAMPLE), "--election-date", "2026-11-03", "--name",
                                   "Regular Special District Election", "--local-government", "Front Range Districts",
                                   "--governing-body", "Board of Directors", "--team", TEAM],
                                  capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert imported.returncode == 0, imported.stderr
        a, b = replicas

        sent: dict[str, tuple[bytes, Replica, int]] = {}  # channel -> (body, replica, ack status)
        lock = threading.Lock()

        def send(channel: str, replica: Replica) -> None:
            body = _slash(slack, channel)
            status = _post(replica, body)
            with lock:
                sent[channel] = (body, replica, status)

        # The first check on both replicas at once: each would become the first to open the cases and post cards.
        racing = [threading.Thread(target=send, args=(channel, replica)) for channel, replica in zip(FIRST, replicas)]
        for thread in racing:
            thread.start()
        for thread in racing:
            thread.join(20)
        assert [sent[c][2] for c in FIRST] == [200, 200]
        verdict = slack.wait_for("chat.postMessage", count=1, timeout=60)[0].args["text"]
        _wait_until(lambda: sum(m.get("text") == verdict for _, m in _all_messages(slack)) == 2, 60,
                    "both first checks were not answered")
        children = [_child_pid(a.process), _child_pid(b.process)]
        _wait_cards_recorded(url)  # so the reminders go to the case threads too

        def verdicts() -> Counter:
            return Counter(cid for cid, m in _all_messages(slack) if m.get("text") == verdict)

        # Load on both replicas, round-robin from four clients; reminders fall due meanwhile.
        def burst(channels: list[str], targets: list[Replica], clients: int = 4) -> list[threading.Thread]:
            def client(mine: list[tuple[str, Replica]]) -> None:
                for channel, replica in mine:
                    send(channel, replica)
            plan = [(channel, targets[i % len(targets)]) for i, channel in enumerate(channels)]
            threads = [threading.Thread(target=client, args=(plan[i::clients],)) for i in range(clients)]
            for thread in threads:
                thread.start()
            return threads

        waves = [_add_due_reminders(db)]
        before = [f"C0LOADA{i:03d}" for i in range(BEFORE_KILL)]
        senders = burst(before, replicas)
        _wait_until(lambda: _reminders_queued(db, waves[0]), 30, "the first reminders were not queued")
        _wait_until(lambda: sum(verdicts().values()) >= 2 + BEFORE_KILL // 4, 60, "a quarter of the load was not "
                                                                                 "answered")

        # Slack retries a few commands on the other replica while both run.
        retried = [c for c in before if sent.get(c) and sent[c][1] is a][:RETRIED] + \
            [c for c in before if sent.get(c) and sent[c][1] is b][:RETRIED]
        for channel in retried:
            body, replica, _ = sent[channel]
            assert _post(b if replica is a else a, body, retry=1) == 200
        # Whichever replica began a retried command answers it, once. Let them finish before A is killed: a job
        # A began for one of B's commands and was killed in would go unanswered (the delivery is recorded when
        # its job begins), and B's commands are all to be answered below.
        _wait_until(lambda: all(verdicts()[c] >= 1 for c in retried), 60, "the retried commands were not answered")

        # Kill replica A in the middle of it all.
        a.process.send_signal(signal.SIGKILL)
        a.process.wait(10)
        for sender in senders:
            sender.join(60)
        # What replica A never answered, Slack retries; the load balancer sends it to B.
        unanswered = [c for c in before if sent[c][1] is a and sent[c][2] != 200]
        for channel in unanswered:
            body = sent[channel][0]
            status = _post(b, body, retry=1)
            sent[channel] = (body, b, status)
        # B now answers A's unanswered commands beside its own, with its deferred child's 2 threads: as long as
        # the wait for B's second burst below.
        _wait_until(lambda: all(verdicts()[c] >= 1 for c in sent if sent[c][1] is b) and _outbox_settled(db), 90,
                    "B did not answer its commands")

        # Kill a worker while it makes a post (Slack has it, the answer is slow to come): the other must take
        # the row over once its lease runs out, and find the post in Slack rather than make it again.
        slack.fail_next("chat.postMessage", stall=6.0)
        waves.append(_add_due_reminders(db))
        holder = _worker_holding_a_post(db, slack, workers)
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        after = [f"C0LOADB{i:03d}" for i in range(AFTER_KILL)]
        for sender in burst(after, [b]):
            sender.join(60)
        _wait_until(lambda: _reminders_queued(db, waves[1]), 30, "the second reminders were not queued")
        waves.append(_add_due_reminders(db))
        _wait_until(lambda: _reminders_queued(db, waves[2]), 30, "the third reminders were not queued")

        on_b = [c for c in [*FIRST, *before, *after] if sent[c][1] is b]
        assert all(sent[c][2] == 200 for c in on_b), [(c, sent[c][2]) for c in on_b if sent[c][2] != 200]
        _wait_until(lambda: all(verdicts()[c] >= 1 for c in on_b), 90, "B's commands were not all answered")
        # A dead worker's claimed posts come back after their lease; everything queued is then delivered.
        _wait_until(lambda: _outbox_settled(db), LEASE + 45, "the outbox was not delivered")
        time.sleep(2)  # anything posted twice would land by now
        assert stop(b.process)[0] == 0
        survivor = next(w for w in workers if w is not holder)
        assert stop(survivor)[0] == 0
        for pid in children:
            _wait_gone(pid, 30)  # replica A's child leaves with it; B's when B stops

        logs = {p.name: p.read_text() for p in tmp_path.glob("*.log")}
        # The survivor took the dead worker's post over and found it in Slack.
        assert re.search(r", [1-9]\d* recovered", logs[f"worker-{2 if holder is workers[0] else 1}.log"]), logs
        for name, text in logs.items():
            assert "Traceback" not in text, (name, text[-4000:])

        # Every command answered at most once; every command B acknowledged answered exactly once.
        seen = verdicts()
        assert max(seen.values()) == 1, {c: n for c, n in seen.items() if n > 1}
        assert all(seen[c] == 1 for c in on_b)
        # Nothing recorded twice: a `survey.checked` row per verdict, one case per contest, each card once.
        with db.read() as session:
            actions = Counter(dict(session.execute(select(AuditEntry.action, func.count())
                                                   .group_by(AuditEntry.action)).all()))
            cards = session.execute(select(RecountCase.channel_id, RecountCase.card_ts)).all()
            deliveries = session.scalar(select(func.count()).select_from(ProcessedDelivery))
            outbox = session.execute(select(OutboxMessage.id, OutboxMessage.status, OutboxMessage.dedupe_key)).all()
            reminders = session.execute(select(Reminder.id, Reminder.status).where(
                Reminder.id.in_([r for wave in waves for r in wave]))).all()
            duplicates = session.execute(
                select(Reminder.case_id, Reminder.deadline_name, Reminder.kind, Reminder.days, Reminder.fire_at,
                       func.count())
                .where(Reminder.status != ReminderStatus.CANCELLED.value)
                .group_by(Reminder.case_id, Reminder.election_id, Reminder.deadline_name, Reminder.kind,
                          Reminder.days, Reminder.fire_at).having(func.count() > 1)).all()
        assert actions["survey.checked"] == sum(seen.values()), (actions, sum(seen.values()))
        assert actions["case.opened"] == 2 and actions["case.card_posted"] == 2, actions
        assert len(cards) == 2 and all(ts and not ts.startswith("posting:") for _, ts in cards), cards
        # One per command answered, its retries not counted again. A command replica A acknowledged but had not
        # begun when it was killed is not answered: its deferred child leaves with it (nothing outlives serve,
        # bot/deferred/process.py), and Slack does not retry what was acknowledged; the clerk runs the check again.
        # A delivery is recorded when its job begins, so a job the kill cut short counts here and not above.
        assert sum(seen.values()) <= deliveries <= len(sent)
        assert deliveries - sum(seen.values()) <= len([c for c in before if sent[c][1] is a])
        card_posts = [m for cid, m in _all_messages(slack) if (cid, m["ts"]) in set(map(tuple, cards))]
        assert len(card_posts) == 2
        top_level = [m for cid in FIRST for m in slack.state.messages(cid)]
        assert len(top_level) == 4, [m.get("text") for m in top_level]  # two verdicts, two cards, never again

        # Every outbox row in Slack once, by the row id in its message's metadata.
        posted = Counter(m["metadata"]["event_payload"]["outbox_id"] for _, m in _all_messages(slack)
                         if (m.get("metadata") or {}).get("event_type") == METADATA_TYPE)
        assert all(status == OutboxStatus.SENT.value for _, status, _ in outbox), Counter(s for _, s, _ in outbox)
        assert {row_id: posted[row_id] for row_id, _, _ in outbox if posted[row_id] != 1} == {}
        assert set(posted) <= {row_id for row_id, _, _ in outbox}
        # Every due reminder queued once: its case thread and its official's DM, each posted once (above).
        assert reminders and all(status == ReminderStatus.QUEUED.value for _, status in reminders), reminders
        assert len(reminders) == 2 * WAVES, reminders  # one a case a wave: never two pending at once
        keys = Counter(key.rsplit(":", 1)[0] if key.count(":") > 2 else key
                       for _, _, key in outbox if (key or "").startswith("reminder:"))
        assert keys == Counter({f"reminder:{r}:thread": 1 for r, _ in reminders}
                               | {f"reminder:{r}:dm": 1 for r, _ in reminders}), keys
        assert duplicates == [], duplicates

        verified = subprocess.run([*command(), "audit", "verify"], capture_output=True, text=True, env=env, cwd=ROOT,
                                  timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "audit log intact" in verified.stdout
