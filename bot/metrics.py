"""What `GET /metrics` reports, in Prometheus's text format (prometheus_client), for one server or worker.

Each `Metrics` has its own CollectorRegistry, never prometheus_client's global one: tests build many web apps in
one process, and a second registration of the same name in the global registry is an error.

Measured as requests arrive (cheap: a lock and a few additions each):
    recount_bot_slack_ack_seconds{kind}             histogram: POST /slack/events from the moment waitress
                                                    hands it over to Bolt's answer, the gate's checks included
                                                    (Slack gives up after 3 s). `kind` is one of
                                                    KINDS, read from the payload's type, never from what a person
                                                    typed (a label per text would grow without end)
    recount_bot_requests_refused_total{status}      refused before the app saw them: POST /slack/events by its
                                                    gate (bot/web/request_gate.py), any request by waitress's own
                                                    size and syntax limits (bot/web/server.py): 400, 401, 413
Read when scraped:
    recount_bot_deferred_jobs_pending               acknowledged work not yet reported done by the
                                                    deferred-work process (bot/deferred/process.py)
    recount_bot_deferred_children_restarted_total   times that process died and another took over
    recount_bot_worker_seconds_since_tick           since the worker last finished a tick (in `serve`, its
                                                    in-process worker; in `recount-bot worker`, that process's)
    recount_bot_worker_tick_failures_total          ticks that raised (the next one retries)
    recount_bot_outbox_pending                      posts not yet delivered (pending or being sent)
    recount_bot_outbox_oldest_pending_age_seconds   age of the oldest of them (0 when none)
    recount_bot_outbox_dead                         posts given up after their retries, for a person to look at
    recount_bot_reminders_due                       reminders whose time has come and that are not yet queued
    recount_bot_reminders_overdue                   of those, the ones due more than OVERDUE ago: no worker is
                                                    turning them into posts
    recount_bot_database_up                         1 when the query behind the five above answered, else 0
"""
from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import and_, func, select, text

from storage.db import Database
from storage.models import OutboxMessage, OutboxStatus, Reminder, ReminderStatus
from storage.types import utcnow

log = logging.getLogger("recount_bot.metrics")
# No `*_created` series beside each counter and histogram: they double the output and no alert reads them (a
# process-wide switch of prometheus_client; nothing else in the process uses it).
disable_created_metrics()

# What a request to /slack/events is, from the payload's `type` (or a slash command's form). A fixed set.
KINDS = ("command", "action", "view_submission", "event", "options", "other")
_KIND_OF_TYPE = {
    "block_actions": "action", "interactive_message": "action", "shortcut": "action", "message_action": "action",
    "view_submission": "view_submission", "view_closed": "view_submission",
    "event_callback": "event",
    "block_suggestion": "options", "dialog_suggestion": "options",
}
# Slack gives up on an answer after 3 s; the buckets are fine below it and mark it exactly.
ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
REFUSED_STATUSES = ("400", "401", "413")
# A reminder still waiting this long after its time is not late by a worker's poll (5 s) but by its absence.
OVERDUE = dt.timedelta(minutes=5)
# The store query never holds a scrape (or a database connection) longer than this, on PostgreSQL.
STORE_QUERY_TIMEOUT_MS = 2000


def kind_of(body: dict) -> str:
    """The label of a parsed payload (a dict the request gate has already checked)."""
    if body.get("command"):
        return "command"
    return _KIND_OF_TYPE.get(body.get("type"), "other")  # type: ignore[arg-type]


class Metrics:
    """The instruments of one web app or worker process, and the collectors read at scrape time."""

    def __init__(self, db: Database | None = None, clock: Callable[[], dt.datetime] = utcnow) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.ack = Histogram("recount_bot_slack_ack_seconds",
                             "Time to answer POST /slack/events (Slack allows 3 s), by kind of request",
                             ["kind"], buckets=ACK_BUCKETS, registry=self.registry)
        self.refused = Counter("recount_bot_requests_refused",
                               "Requests refused before the app saw them (the Slack endpoint's gate, waitress's "
                               "limits), by HTTP status",
                               ["status"], registry=self.registry)
        # Resolved once: the request path then touches no label dictionary (and every kind shows, at 0).
        self._ack_by_kind = {kind: self.ack.labels(kind) for kind in KINDS}
        self._refused_by_status = {status: self.refused.labels(status) for status in REFUSED_STATUSES}
        if db is not None:
            self.registry.register(StoreCollector(db, clock))

    def observe_ack(self, kind: str, seconds: float) -> None:
        self._ack_by_kind.get(kind, self._ack_by_kind["other"]).observe(seconds)

    def count_refused(self, status: int) -> None:
        child = self._refused_by_status.get(str(status))
        if child is None:  # a status the gate never gives today; still counted, under its own label
            child = self.refused.labels(str(status))
        child.inc()

    def watch_deferred(self, process) -> None:
        """Report a DeferredWorkProcess's queue (bot/deferred/process.py)."""
        self.registry.register(DeferredCollector(process))

    def watch_worker(self, worker) -> None:
        """Report a Worker's lag (bot/worker/loop.py)."""
        self.registry.register(WorkerCollector(worker))

    def render(self) -> bytes:
        return generate_latest(self.registry)


class DeferredCollector(Collector):
    def __init__(self, process) -> None:
        self.process = process

    def collect(self) -> Iterable:
        yield GaugeMetricFamily("recount_bot_deferred_jobs_pending",
                                "Acknowledged work not yet reported done by the deferred-work process",
                                value=self.process.pending_count())
        yield CounterMetricFamily("recount_bot_deferred_children_restarted",
                                  "Times the deferred-work process died and another took over its jobs",
                                  value=self.process.restarts)


class WorkerCollector(Collector):
    def __init__(self, worker) -> None:
        self.worker = worker

    def collect(self) -> Iterable:
        yield GaugeMetricFamily("recount_bot_worker_seconds_since_tick",
                                "Seconds since the worker last finished a tick (reminders and outbox delivery)",
                                value=max(0.0, time.monotonic() - self.worker.last_tick))
        yield CounterMetricFamily("recount_bot_worker_tick_failures", "Worker ticks that raised",
                                  value=self.worker.tick_failures)


_ACTIVE = (OutboxStatus.PENDING.value, OutboxStatus.SENDING.value)


def store_query(now: dt.datetime):
    """One statement, one round trip: each part reads only rows of its status through the (status, ...) indexes
    (ix_outbox_ready, ix_reminders_due), never the delivered posts or the done reminders that pile up over time."""
    outbox = select(func.count(), func.min(OutboxMessage.created_at)).where(OutboxMessage.status.in_(_ACTIVE))
    dead = select(func.count()).where(OutboxMessage.status == OutboxStatus.DEAD.value)
    waiting = Reminder.status == ReminderStatus.PENDING.value
    due = select(func.count()).where(and_(waiting, Reminder.fire_at <= now))
    overdue = select(func.count()).where(and_(waiting, Reminder.fire_at <= now - OVERDUE))
    return select(outbox.subquery(), dead.scalar_subquery(), due.scalar_subquery(), overdue.scalar_subquery())


class StoreCollector(Collector):
    """The outbox and the reminders, read from the database when scraped (the worker may be another process)."""

    def __init__(self, db: Database, clock: Callable[[], dt.datetime]) -> None:
        self.db, self.clock = db, clock

    def describe(self) -> Iterable:
        return []  # no query at registration; the names are in collect()

    def read(self, now: dt.datetime) -> tuple[int, dt.datetime | None, int, int, int]:
        with self.db.read() as session:
            if self.db.dialect == "postgresql":
                session.execute(text(f"SET LOCAL statement_timeout = {STORE_QUERY_TIMEOUT_MS}"))
            return tuple(session.execute(store_query(now)).one())  # type: ignore[return-value]

    def collect(self) -> Iterable:
        now = self.clock()
        try:
            pending, oldest, dead, due, overdue = self.read(now)
        except Exception as exc:  # a scrape answers without these rather than failing whole
            log.warning("metrics: the outbox and reminders could not be read: %s", str(exc).splitlines()[0][:200])
            yield GaugeMetricFamily("recount_bot_database_up", "1 when the metrics' database query answered",
                                    value=0)
            return
        yield GaugeMetricFamily("recount_bot_database_up", "1 when the metrics' database query answered", value=1)
        yield GaugeMetricFamily("recount_bot_outbox_pending", "Slack posts not yet delivered (pending or sending)",
                                value=pending)
        age = (now - oldest).total_seconds() if oldest is not None else 0.0
        yield GaugeMetricFamily("recount_bot_outbox_oldest_pending_age_seconds",
                                "Age of the oldest Slack post not yet delivered (0 when none)", value=max(0.0, age))
        yield GaugeMetricFamily("recount_bot_outbox_dead", "Slack posts given up after their retries", value=dead)
        yield GaugeMetricFamily("recount_bot_reminders_due", "Reminders whose time has come, not yet queued",
                                value=due)
        yield GaugeMetricFamily("recount_bot_reminders_overdue",
                                f"Reminders due more than {int(OVERDUE.total_seconds())} s ago, not yet queued",
                                value=overdue)
