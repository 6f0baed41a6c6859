"""`recount-bot worker`: every few seconds, keep reminders in step with the deadlines, turn due reminders
into outbox posts, and deliver the outbox. Safe to run several at once (PostgreSQL) or one (SQLite);
everything it does survives a restart, because the state is in the database, not in memory."""
from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from slack_sdk import WebClient
from sqlalchemy import select

from bot.worker import heartbeat, reminders
from handlers.slack_io.clients import Clients
from handlers.slack_io.delivery import DeliveryReport, OutboxDelivery
from handlers.slack_io.outbox import LEASE
from storage.db import Database
from storage.models import Workspace
from storage.types import utcnow

log = logging.getLogger("recount_bot.worker")


@dataclass
class TickReport:
    synced: int = 0
    queued: int = 0
    delivery: DeliveryReport = field(default_factory=DeliveryReport)


class Worker:
    def __init__(self, db: Database, client: WebClient | Clients, *, clock: Callable[[], dt.datetime] = utcnow,
                 worker_id: str = "worker", batch: int = 20, wake: threading.Event | None = None,
                 reminders: bool = True, interval: float = 5.0, lease: dt.timedelta = LEASE) -> None:
        self.db, self.clock, self.batch, self.reminders = db, clock, batch, reminders
        self.worker_id, self.interval, self.started_at = worker_id, interval, clock()
        self.wake = wake or threading.Event()
        self.delivery = OutboxDelivery(db, client, clock=clock, worker_id=worker_id, lease=lease)
        # For GET /metrics (bot/metrics.py): when a tick last finished (time.monotonic; the start counts as one,
        # so a worker that never manages a tick shows its lag growing from its start), and ticks that raised.
        self.last_tick = time.monotonic()
        self.tick_failures = 0

    def schedule(self) -> tuple[int, int]:
        now = self.clock()
        synced, live = 0, {}
        # One transaction: `queue_due` works from the live deadlines `sync` has just read (once per tick, not once
        # per reminder due), and nothing can be recorded done between the two.
        with self.db.transaction() as session:
            for workspace in session.scalars(select(Workspace)):
                changed, live[workspace.id] = reminders.sync(session, workspace, now)
                synced += changed
            queued = reminders.queue_due(session, now, live=live)
        return synced, queued

    def tick(self) -> TickReport:
        # First, so that a tick that fails further on still shows the worker alive (its log says what failed),
        # and a worker that cannot reach the database at all stops beating.
        heartbeat.beat(self.db, self.worker_id, interval=self.interval, started_at=self.started_at,
                       now=self.clock())
        synced, queued = self.schedule() if self.reminders else (0, 0)
        report = TickReport(synced, queued)
        while True:  # deliver everything ready now, a batch at a time
            batch = self.delivery.run_once(self.batch)
            for name in ("sent", "retried", "dead", "recovered", "waiting"):
                setattr(report.delivery, name, getattr(report.delivery, name) + getattr(batch, name))
            if batch.sent + batch.retried + batch.dead + batch.recovered + batch.waiting < self.batch:
                self.last_tick = time.monotonic()
                return report

    def run(self, stop: threading.Event, interval: float = 5.0) -> None:
        log.info("worker started; polling every %.1fs", interval)
        self.interval = interval
        while not stop.is_set():
            try:
                report = self.tick()
                if report.queued or report.delivery.sent or report.delivery.dead or report.delivery.recovered:
                    log.info("worker: %s reminders queued, %s sent, %s retried, %s dead, %s recovered",
                             report.queued, report.delivery.sent, report.delivery.retried, report.delivery.dead,
                             report.delivery.recovered)
            except Exception:  # a bad tick must not stop reminders for good; the next one retries
                self.tick_failures += 1
                log.exception("worker tick failed")
            # Sleep until the next poll, or until a use case says it queued posts.
            if self.wake.wait(interval):
                self.wake.clear()


def worker_client(token: str, base_url: str) -> WebClient:
    """A Web API client with no retry handlers of its own (not even slack_sdk's default one for dropped
    connections): the outbox decides when to retry (Retry-After, back-off), so a 429 never blocks a delivery
    thread in a sleep, and a post that may have reached Slack is looked for before it is made again."""
    return WebClient(token=token, base_url=base_url, timeout=15, retry_handlers=[])


def start_in_thread(worker: Worker, interval: float = 5.0) -> tuple[threading.Thread, threading.Event]:
    """The server runs a worker in-process, so the quick start needs one command; `recount-bot worker`
    runs more (or the only one, when the server is started with --no-worker)."""
    stop = threading.Event()
    thread = threading.Thread(target=worker.run, args=(stop, interval), name="worker", daemon=True)
    thread.start()

    def stop_and_wake() -> None:
        stop.set()
        worker.wake.set()

    stop.stop_and_wake = stop_and_wake  # type: ignore[attr-defined]
    return thread, stop
