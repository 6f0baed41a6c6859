"""The work after an acknowledgement, in a process of its own, and not lost with it.

A deferred listener (`/recount check`, `/recount requests`, `/recount record`) answers Slack at once and
does its work afterwards: the check, the verdict message, the case cards. Run on a thread of the web
process, that work holds the interpreter lock while other requests wait for theirs, and the slowest
acknowledgements grow with it (benchmarks/ack_latency.py measured ours' p99 at 2.4-5x a bare Bolt app's).
`recount-bot serve` therefore hands it to a child process (bot/deferred/child.py), and the request thread
only puts the request's body on an in-process queue and answers.

Why a queue and a sender thread, not a write to the pipe in the request thread: a write is a system call,
and CPython lets go of its interpreter lock around it; getting the lock back under load can take a whole
switch interval (5 ms) behind the threads holding it, so each extra release in the request thread shows in
the slowest acknowledgements. `queue.SimpleQueue.put` never lets go of the lock. The sender thread writes
whatever has gathered as one batch, so under load the web process makes one write for many jobs.

Nothing acknowledged is lost when the child dies. The sender keeps every job it hands over until the child
reports it done; the child reports, on a pipe of fixed-size records, when a thread begins a job (before the
job does anything) and when it has finished it. Records written before the child died stay in the pipe, so
when the web process reads the pipe's end it knows every job the dead child had begun. It starts another
child at once and hands it what the dead one left, first:

- a job not begun (the bulk of a burst, queued in the pipe or the child's thread pool) is redone: none of it
  had happened, so it runs once, as if the first child had never received it;
- a job begun and not finished (at most one per child thread) may have done part of its work: a check
  records itself in the audit log and posts its verdict, `/recount record` uploads files. Run again it could
  post or record twice (and the de-duplication of Slack's retries, which noted its delivery as it began,
  would skip it silently), so it is not; the new child tells the person instead, through the command's
  response_url, what to look for before typing it again (bot/deferred/notice.py). A notice interrupted twice
  is given up, with an error in the log.

The web process reads the records in one system call for whatever has gathered, at most every
FOLLOW_PAUSE seconds, so following the child costs it at most ten wake-ups a second under load rather than
two per job. (`multiprocessing.Queue` with a pickled report per job was tried first and cost more.)

When `serve` stops, the child finishes what it has; jobs it could not finish in time (it is then
killed) are told from the web process, begun or not done. What is not durable: the web process's own
memory. If `serve` itself is killed, the jobs it acknowledged and had not finished are lost with it, and the
child goes at once (it watches a pipe only this process holds open: child.py), rather than working off a dead
server's backlog with nobody left to follow it. That
would need a queue in the database written before each acknowledgement: measured with benchmarks/ack_latency.py
(one committed row per acknowledgement, on SQLite), ours' p99 went to 1.5-1.9 s, 40-57x the bare app's and
up to 3.0 s at worst, since each waits for the database's one writer behind the child's checks.
"""
from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

from bot.deferred.protocol import BEGUN, DONE, NOTICE, RECORD, RUN, STOP, WAKE, DeferredConfig

log = logging.getLogger("recount_bot.deferred")

MAX_NOTICES = 2  # handed over at most twice: a notice whose sending was interrupted twice is given up
FOLLOW_PAUSE = 0.1  # seconds between reads of the child's records: under load, one read takes many
STOP_NOTICE_SECONDS = 20  # at shutdown, how long the web process spends telling people about unfinished jobs
SLICE = 100  # jobs per message to the child at most
_NUDGE = object()  # wakes the sender when a dead child's jobs are waiting to be handed over


@dataclass
class _Job:
    id: int
    label: str
    # The body and when it was submitted, pickled once: kept as one bytes object, not a dict of strings for
    # the garbage collector to walk while a burst waits (sent as is, to this child or the next).
    work: bytes
    kind: str = RUN
    begun: bool = False  # the current child has begun it
    notices: int = 0  # how many times it was handed over as a NOTICE

    @classmethod
    def of(cls, job_id: int, label: str, body: dict, submitted: float) -> "_Job":
        return cls(job_id, label, pickle.dumps((body, submitted), pickle.HIGHEST_PROTOCOL))

    def message(self) -> tuple:
        return (self.kind, self.id, self.label, self.work)

    @property
    def body(self) -> dict:
        return pickle.loads(self.work)[0]


class _WaitMark:
    """Put on the outgoing queue by `wait_idle`; the sender writes in it the last job handed over before it."""
    upto: int | None = None


class DeferredWorkProcess:
    """The web process's side: start the child, hand it jobs, keep them until done, replace a dead child."""

    def __init__(self, config: DeferredConfig, outbox_wake: threading.Event,
                 on_done: Callable[[float, float], None] | None = None) -> None:
        self.config, self.outbox_wake, self.on_done = config, outbox_wake, on_done
        # spawn, not fork: the web process has threads (waitress, the worker) and open database connections
        # that a forked child must not inherit.
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a job was handed over or finished
        self._ids = itertools.count(1)
        self._pending: dict[int, _Job] = {}  # handed over and not reported done, in id order
        self._resend: list[_Job] = []  # what a dead child left, for the sender to hand over before anything
        self._last_id = 0
        self._process = None
        self._jobs = None  # the web process's end of the jobs pipe; written by the sender thread only
        self._lifeline = None  # the write end of the current child's lifeline, held open while it should live
        self._retired: list = []  # ends of dead children's pipes, for the sender to close between writes
        self._outgoing: queue.SimpleQueue = queue.SimpleQueue()
        self._sender: threading.Thread | None = None
        self._follower: threading.Thread | None = None
        self.restarts = 0  # children that died while in use and were replaced (GET /metrics)

    def start(self) -> None:
        with self._lock:
            self._start_locked()
        self._sender = threading.Thread(target=self._send, name="deferred-send", daemon=True)
        self._sender.start()

    def _start_locked(self) -> None:
        from bot.deferred.child import child_main

        jobs_out, jobs_in = self._context.Pipe(duplex=False)
        said_out, said_in = self._context.Pipe(duplex=False)  # raw records (bot/deferred/child.py)
        # The child's lifeline: nothing is ever written to it; this process holds its only write end, so the
        # child reads end-of-file the moment this process is gone, whatever killed it (see child.py).
        life_out, life_in = self._context.Pipe(duplex=False)
        self._process = self._context.Process(target=child_main, args=(self.config, jobs_out, said_in, life_out),
                                              name="recount-bot-deferred", daemon=True)
        self._process.start()
        jobs_out.close()  # the child's ends: once it exits, reading `said_out` ends instead of waiting forever
        said_in.close()
        life_out.close()
        if self._lifeline is not None:  # a dead child's: nobody reads it any more
            self._lifeline.close()
        self._lifeline = life_in
        self._jobs = jobs_in
        self._follower = threading.Thread(target=self._follow, args=(said_out, self._process),
                                          name="deferred-said", daemon=True)
        self._follower.start()
        log.info("deferred work runs in process %s", self._process.pid)

    def pending_count(self) -> int:
        """Jobs acknowledged and not yet reported done: handed over, or still on the way to the sender (read
        without the lock, for GET /metrics: a moment's imprecision there is fine, a wait in a request is not)."""
        return len(self._pending) + self._outgoing.qsize()

    def submit(self, label: str, body: dict) -> None:
        """Called in the request thread, before the answer: queues, nothing more (see the module's doc)."""
        if self._process is None:
            raise RuntimeError("the deferred-work process is not running")
        self._outgoing.put((label, body, time.time()))

    # ------------------------------------------------------------------ handing over
    def _send(self) -> None:
        """The sender thread: a dead child's jobs, then what has gathered on the queue, as one message."""
        while True:
            items = [self._outgoing.get()]
            while True:
                try:
                    items.append(self._outgoing.get_nowait())
                except queue.Empty:
                    break
            stopping = any(item is STOP for item in items)
            with self._lock:
                for retired in self._retired:
                    retired.close()
                self._retired = []
                batch = [job.message() for job in self._resend]
                self._resend = []
                for item in items:
                    if isinstance(item, tuple):
                        job = _Job.of(next(self._ids), *item)
                        self._pending[job.id] = job
                        self._last_id = job.id
                        batch.append(job.message())
                    elif isinstance(item, _WaitMark):
                        item.upto = self._last_id
                self._changed.notify_all()
                jobs = self._jobs
            if stopping:
                batch.append(STOP)
            # In slices: pickling a dead child's thousand jobs at once would hold the interpreter lock for
            # milliseconds that the acknowledgements in flight would wait through.
            for start in range(0, len(batch), SLICE):
                try:
                    jobs.send(batch[start:start + SLICE])
                except OSError:  # it died a moment ago: its follower hands what is pending to the next
                    log.info("the deferred-work process has exited; its follower hands the jobs to the next")
                    break
            if stopping:
                return

    # ------------------------------------------------------------------ following the child
    def _follow(self, said, process) -> None:
        fd, rest = said.fileno(), b""
        while True:
            try:
                chunk = os.read(fd, RECORD.size * 4096)
            except OSError:
                chunk = b""
            if not chunk:
                break  # the child has gone: everything it reported has been read
            rest += chunk
            whole = len(rest) - len(rest) % RECORD.size
            self._take(rest[:whole])
            rest = rest[whole:]
            time.sleep(FOLLOW_PAUSE)
        said.close()
        # Its last threads may still be exiting; its exit code is known once they have (waited for outside the
        # lock, so no hand-over waits on it).
        process.join(5)
        with self._lock:
            if self._process is process:  # gone while still the one in use (not stopped): replace it now
                self._replace_locked(process)

    def _take(self, records: bytes) -> None:
        wake = False
        with self._lock:
            finished = 0
            for kind, job_id, waited, ran in RECORD.iter_unpack(records):
                if kind == BEGUN:
                    job = self._pending.get(job_id)
                    if job is not None:
                        job.begun = True
                elif kind == DONE:
                    if self._pending.pop(job_id, None) is not None:
                        finished += 1
                        if self.on_done is not None:  # before `wait_idle` returns (the benchmark reads them)
                            self.on_done(waited, ran)
                elif kind == WAKE:
                    wake = True
            if finished:
                self._changed.notify_all()
        if wake:
            self.outbox_wake.set()

    def _replace_locked(self, dead) -> None:
        redo, told, given_up = 0, 0, []
        for job in list(self._pending.values()):
            if not job.begun:
                redo += 1
                continue
            job.begun = False
            if job.notices >= MAX_NOTICES:
                given_up.append(self._pending.pop(job.id))
                continue
            job.kind, job.notices = NOTICE, job.notices + 1
            told += 1
        self.restarts += 1
        self._retired.append(self._jobs)  # closed by the sender, which may be writing to it right now
        self._start_locked()
        self._resend = list(self._pending.values())
        self._outgoing.put(_NUDGE)
        log.error("the deferred-work process %s exited (code %s); process %s takes over: %d job(s) it had not "
                  "begun are redone, %d it had begun are reported to the people who typed them as interrupted",
                  dead.pid, dead.exitcode, self._process.pid, redo, told)
        if given_up:
            log.error("%d notice(s) of interrupted work were interrupted twice and are given up (%s)",
                      len(given_up), ", ".join(sorted({job.label for job in given_up})))
            self._changed.notify_all()

    # ------------------------------------------------------------------ waiting and stopping
    def wait_idle(self, timeout: float) -> bool:
        """Until every job handed over so far has finished (False if `timeout` passed first)."""
        if self._process is None:
            return True
        mark = _WaitMark()
        self._outgoing.put(mark)  # behind every job queued before it

        def idle() -> bool:
            first = next(iter(self._pending), None)
            return mark.upto is not None and (first is None or first > mark.upto)

        with self._changed:
            return self._changed.wait_for(idle, timeout=timeout)

    def stop(self, timeout: float = 30.0) -> None:
        """Let the child finish the jobs it has, then stop it; tell the people whose jobs it could not finish."""
        with self._lock:
            process, jobs = self._process, self._jobs
            self._process = None
        if process is None:
            return
        self._outgoing.put(STOP)  # behind the jobs already queued: they are done first
        if self._sender is not None:
            self._sender.join(5)
        process.join(timeout)
        if process.is_alive():
            log.warning("the deferred-work process %s did not finish within %.0fs; killing it", process.pid, timeout)
            process.kill()  # not terminate(): it ignores SIGTERM, which Ctrl-C and `kill` send the whole group
            process.join(5)
        if self._follower is not None:
            self._follower.join(5)  # it has read every record the child wrote
        if self._lifeline is not None:
            self._lifeline.close()
            self._lifeline = None
        with self._lock:
            left = list(self._pending.values())
            self._pending.clear()
            self._changed.notify_all()
        if self._sender is None or not self._sender.is_alive():
            jobs.close()  # else the sender is stuck writing to it: a daemon thread, gone with the process
        # Acknowledged while the server was stopping, after the sender's last batch: never handed over.
        while True:
            try:
                item = self._outgoing.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, tuple):
                left.append(_Job.of(0, *item))
        if left:
            self._tell_unfinished(left)

    def _tell_unfinished(self, left: list[_Job]) -> None:
        from bot.deferred.notice import notice_text, tell
        from handlers.slack_io.clients import team_of
        from storage.db import Database

        begun = sum(1 for job in left if job.begun or job.kind == NOTICE)
        log.error("%d acknowledged job(s) were not finished before the deferred-work process stopped (%d begun, "
                  "%d not); telling the people who typed them", len(left), begun, len(left) - begun)
        db = Database(self.config.database_url)
        clients = self.config.clients(db)
        deadline = time.monotonic() + STOP_NOTICE_SECONDS

        def one(job: _Job) -> bool:
            if time.monotonic() > deadline:
                return False
            try:
                tell(clients.for_team(team_of(job.body)), job.body, notice_text(job.body, begun=job.begun or job.kind == NOTICE))
                return True
            except Exception as exc:  # a Slack that does not answer: nothing more to do at shutdown
                log.warning("could not tell about an unfinished %s: %s", job.label, exc)
                return False

        try:
            with ThreadPoolExecutor(max_workers=8, thread_name_prefix="deferred-notice") as pool:
                told = sum(pool.map(one, left))
        finally:
            db.dispose()
        if told < len(left):
            log.error("%d of them could not be told", len(left) - told)
