"""GET /metrics on the bot's HTTP server, read as Prometheus reads it: acknowledgements counted by kind as signed
requests arrive, refusals by status, the outbox and the reminders as they stand in the database (on each
database), and who may read it (METRICS_TOKEN, else this machine only)."""
from __future__ import annotations

import datetime as dt
import urllib.error
import urllib.request
import wsgiref.util

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select, update

from bot.app_factory import build_app
from bot.web.server import RunningServer, WebApp
from bot.worker import reminders
from bot.worker.loop import Worker, worker_client
from handlers.slack_io import outbox
from storage.models import OutboxStatus, Reminder, ReminderStatus
from tests.flows.conftest import harness, load_example  # noqa: F401

TOKEN = "metrics-token-0123456789abcdef"


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample of a scrape, by name and labels, parsed with prometheus_client's own parser."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def scrape(harness) -> dict[tuple[str, tuple], float]:  # noqa: F811
    reply = harness.get("/metrics")
    assert reply.status == 200, reply.body
    return samples(reply.body.decode())


def acks(found: dict, kind: str) -> float:
    return found[("recount_bot_slack_ack_seconds_count", (("kind", kind),))]


def test_signed_requests_are_counted_by_kind_and_an_unsigned_one_as_refused(harness) -> None:  # noqa: F811
    before = scrape(harness)
    assert all(acks(before, kind) == 0 for kind in ("command", "action", "view_submission", "event", "options"))
    for text in ("help", "help", "whatever-a-person-typed"):
        assert harness.command(text).status == 200
    harness.event({"type": "app_home_opened", "user": "U0OFFICIAL", "channel": "D0HOME0001", "tab": "home"})
    unsigned = harness.post(b"command=%2Frecount&text=help", "application/x-www-form-urlencoded",
                            signature="v0=" + "0" * 64)
    assert unsigned.status == 401
    reply = harness.get("/metrics")
    found = samples(reply.body.decode())
    assert acks(found, "command") == 3 and acks(found, "event") == 1 and acks(found, "action") == 0
    # Every acknowledgement fell in a bucket at or under Slack's 3 seconds, and the buckets add up.
    assert found[("recount_bot_slack_ack_seconds_bucket", (("kind", "command"), ("le", "3.0")))] == 3
    assert found[("recount_bot_slack_ack_seconds_bucket", (("kind", "command"), ("le", "+Inf")))] == 3
    assert 0 < found[("recount_bot_slack_ack_seconds_sum", (("kind", "command"),))] < 9
    assert found[("recount_bot_requests_refused_total", (("status", "401"),))] == 1
    assert found[("recount_bot_requests_refused_total", (("status", "400"),))] == 0
    assert b"whatever-a-person-typed" not in reply.body and b"U0OFFICIAL" not in reply.body
    # Nothing refused the scrape itself, and nothing it read was counted as an acknowledgement.
    assert acks(scrape(harness), "command") == 3


def test_the_outbox_depth_and_age_and_the_dead_rows(harness) -> None:  # noqa: F811
    harness._worker_stop.stop_and_wake()  # the worker is down: queued posts stay queued
    found = scrape(harness)
    assert found[("recount_bot_database_up", ())] == 1
    assert found[("recount_bot_outbox_pending", ())] == 0
    assert found[("recount_bot_outbox_oldest_pending_age_seconds", ())] == 0
    now = harness.clock()
    with harness.db.transaction() as session:
        for minutes in (10, 3, 1):
            outbox.enqueue(session, method="chat.postMessage", payload={"channel": "C0ELECTION", "text": "queued"},
                           now=now - dt.timedelta(minutes=minutes))
        gone = outbox.enqueue(session, method="chat.postMessage", payload={"channel": "C0GONE", "text": "lost"},
                              now=now - dt.timedelta(hours=2))
        gone.status = OutboxStatus.DEAD.value
    found = scrape(harness)
    assert found[("recount_bot_outbox_pending", ())] == 3
    assert found[("recount_bot_outbox_oldest_pending_age_seconds", ())] == 600
    assert found[("recount_bot_outbox_dead", ())] == 1
    harness.clock.advance(minutes=5)  # the age is read at each scrape, by the server's clock
    assert scrape(harness)[("recount_bot_outbox_oldest_pending_age_seconds", ())] == 900
    Worker(harness.db, worker_client("xoxb-test-token", harness.slack.base_url), clock=harness.clock,
           reminders=False).tick()
    found = scrape(harness)
    assert found[("recount_bot_outbox_pending", ())] == 0 and found[("recount_bot_outbox_dead", ())] == 1
    assert len(harness.slack.calls_to("chat.postMessage")) >= 3


def test_reminders_due_and_overdue_while_no_worker_runs(harness) -> None:  # noqa: F811
    harness._worker_stop.stop_and_wake()
    load_example(harness)
    # The worker's schedule step writes the example election's reminder rows (and queues any due already) ...
    Worker(harness.db, worker_client("xoxb-test-token", harness.slack.base_url), clock=harness.clock).schedule()
    with harness.db.transaction() as session:  # ... which all fall due an hour from now
        session.execute(update(Reminder).where(Reminder.status == ReminderStatus.PENDING.value)
                        .values(fire_at=harness.clock() + dt.timedelta(hours=1)))
        pending = len(session.scalars(select(Reminder).where(Reminder.status == ReminderStatus.PENDING.value)).all())
    assert pending >= 1
    found = scrape(harness)
    assert found[("recount_bot_reminders_due", ())] == 0 and found[("recount_bot_reminders_overdue", ())] == 0
    harness.clock.advance(hours=1, minutes=2)
    found = scrape(harness)
    assert found[("recount_bot_reminders_due", ())] == pending and found[("recount_bot_reminders_overdue", ())] == 0
    harness.clock.advance(minutes=4)  # now more than 5 minutes late: no worker is turning them into posts
    found = scrape(harness)
    assert found[("recount_bot_reminders_due", ())] == pending
    assert found[("recount_bot_reminders_overdue", ())] == pending
    with harness.db.transaction() as session:
        reminders.queue_due(session, harness.clock())  # what a worker does when it returns
    found = scrape(harness)
    assert found[("recount_bot_reminders_due", ())] == 0 and found[("recount_bot_reminders_overdue", ())] == 0


def test_worker_lag_when_watched(harness) -> None:  # noqa: F811
    worker = Worker(harness.db, worker_client("xoxb-test-token", harness.slack.base_url), clock=harness.clock,
                    reminders=False)
    harness.server.server.application.metrics.watch_worker(worker)
    worker.last_tick -= 120  # as if its last tick ended two minutes ago
    lag = scrape(harness)[("recount_bot_worker_seconds_since_tick", ())]
    assert 120 <= lag < 180
    worker.tick()
    assert scrape(harness)[("recount_bot_worker_seconds_since_tick", ())] < 60


# ------------------------------------------------------------------------------ who may read it
def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, object, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def _web(db, token: str | None) -> WebApp:
    from services.services import Services

    app = build_app(services=Services(db), bot_token="xoxb-test-token", signing_secret="test-signing-secret-0123",
                    api_base_url="http://127.0.0.1:9/", verify_token=False)
    return WebApp(app, db, metrics_token=token)


def test_with_metrics_token_set_only_its_bearer_reads_them(db) -> None:
    with RunningServer(_web(db, TOKEN)) as server:
        status, headers, body = get(server.url + "/metrics")
        assert status == 401 and headers["WWW-Authenticate"].startswith("Bearer")
        assert b"recount_bot" not in body and b"METRICS_TOKEN" in body
        assert get(server.url + "/metrics", {"Authorization": "Bearer wrong-token-0123456789"})[0] == 401
        assert get(server.url + "/metrics", {"Authorization": f"Basic {TOKEN}"})[0] == 401
        status, headers, body = get(server.url + "/metrics", {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200 and headers["Content-Type"].startswith("text/plain; version=")
        assert b"recount_bot_slack_ack_seconds_bucket" in body
        # A proxy's headers change nothing for a bearer of the token.
        assert get(server.url + "/metrics", {"Authorization": f"Bearer {TOKEN}", "X-Forwarded-For": "203.0.113.7"}
                   )[0] == 200


def test_without_metrics_token_only_this_machine_reads_them(db) -> None:
    web = _web(db, None)
    with RunningServer(web) as server:
        assert get(server.url + "/metrics")[0] == 200
        # Relayed by a reverse proxy on this machine: from loopback, but not from here.
        for header in ("X-Forwarded-For", "X-Real-IP", "Forwarded"):
            status, _, body = get(server.url + "/metrics", {header: "203.0.113.7"})
            assert status == 403 and b"METRICS_TOKEN" in body, header
        request = urllib.request.Request(server.url + "/metrics", method="POST", data=b"")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 405
    # From another machine (this test host may have no second address to connect from: the WSGI call as waitress
    # makes it, with the peer's address).
    for address, expected in (("203.0.113.7", "403 Forbidden"), ("10.0.0.5", "403 Forbidden"),
                              ("::1", "200 OK"), ("127.0.0.2", "200 OK")):
        environ = {"PATH_INFO": "/metrics", "REQUEST_METHOD": "GET", "REMOTE_ADDR": address}
        wsgiref.util.setup_testing_defaults(environ)
        answered = []
        web(environ, lambda status, headers, answered=answered: answered.append(status))
        assert answered == [expected], address


def test_the_scrape_answers_when_the_database_does_not(db) -> None:
    web = _web(db, None)
    with RunningServer(web) as server:
        db.engine.dispose()
        with db.engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE reminders")  # the query behind the store's numbers now fails
        status, _, body = get(server.url + "/metrics")
    assert status == 200
    found = samples(body.decode())
    assert found[("recount_bot_database_up", ())] == 0
    assert ("recount_bot_outbox_pending", ()) not in found
    assert ("recount_bot_slack_ack_seconds_count", (("kind", "command"),)) in found
