"""The work after an acknowledgement, in a process of its own.

A deferred listener (`/recount check`, `/recount requests`, `/recount record`) answers Slack at once and
does its work afterwards: the check, the verdict message, the case cards. Run on a thread of the web
process, that work holds the interpreter lock while other requests wait for theirs, and the slowest
acknowledgements grow with it (benchmarks/ack_latency.py measured ours' p99 at 2.4-5x a bare Bolt app's).
`recount-bot serve` therefore hands it to this child process, and the request thread only puts the
request's body on an in-process queue and answers.

Why a queue and a sender thread, not a write to the pipe in the request thread: a write is a system call,
and CPython lets go of its interpreter lock around it; getting the lock back under load can take a whole
switch interval (5 ms) behind the threads holding it, so each extra release in the request thread shows in
the slowest acknowledgements. `queue.SimpleQueue.put` never lets go of the lock. The sender thread writes
whatever has gathered as one batch, so under load the web process makes one write for many jobs. Back the
other way the child speaks only when asked whether it is idle (`wait_idle`, which the benchmark and tests
use) and when it queued outbox rows (so the web process's worker sends them at once rather than at its
next poll); `multiprocessing.Queue` was tried first and its feeder thread and per-job reports cost more.

The child builds what the listener needs from the same settings (the database, a Web API client, the
registry of routes) and runs the route exactly as the web process would (`handlers.interaction.run_route`:
role, de-duplication, the one error handler).

What it does not change: deferred work was never durable. A job the child had not finished when it died is
lost as it was on a thread; the person sees no answer and types the command again. If the child dies,
another is started as soon as its pipe closes, and the log says so.
"""
from __future__ import annotations

import datetime as dt
import itertools
import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger("recount_bot.deferred")
STOP = None
IDLE_ASKED = "idle?"  # (IDLE_ASKED, token): answer once every job received before it has finished
IDLE = "idle"  # (IDLE, token, [(seconds waiting for a thread, seconds running), ...] since the last answer)
WAKE = "wake"  # the child queued outbox rows
NICENESS = 10


@dataclass(frozen=True)
class DeferredConfig:
    """What the child needs to rebuild the app's parts: plain values, so they cross the process boundary."""
    database_url: str
    bot_token: str
    api_base_url: str
    threads: int = 4
    log_level: str = "INFO"
    # A clock stopped at this moment instead of the real one: for a benchmark replaying a fixed day.
    fixed_now: dt.datetime | None = None


class DeferredWorkProcess:
    """The web process's side: start the child, hand it jobs, follow what it says."""

    def __init__(self, config: DeferredConfig, outbox_wake: threading.Event,
                 on_done: Callable[[float, float], None] | None = None) -> None:
        self.config, self.outbox_wake, self.on_done = config, outbox_wake, on_done
        # spawn, not fork: the web process has threads (waitress, the worker) and open database connections
        # that a forked child must not inherit.
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._answers = threading.Condition()
        self._answered: set[int] = set()
        self._tokens = itertools.count(1)
        self._process = None
        self._jobs = None  # the web process's end of the jobs pipe; written by the sender thread only
        self._outgoing: queue.SimpleQueue = queue.SimpleQueue()
        self._sender: threading.Thread | None = None

    def start(self) -> None:
        with self._lock:
            self._start_locked()
        self._sender = threading.Thread(target=self._send, name="deferred-send", daemon=True)
        self._sender.start()

    def _start_locked(self) -> None:
        jobs_out, jobs_in = self._context.Pipe(duplex=False)
        said_out, said_in = self._context.Pipe(duplex=False)
        self._process = self._context.Process(target=child_main, args=(self.config, jobs_out, said_in),
                                              name="recount-bot-deferred", daemon=True)
        self._process.start()
        jobs_out.close()  # the child's ends: once it exits, reading `said_out` ends instead of waiting forever
        said_in.close()
        self._jobs = jobs_in
        threading.Thread(target=self._follow, args=(said_out, self._process), name="deferred-said",
                         daemon=True).start()
        log.info("deferred work runs in process %s", self._process.pid)

    def submit(self, label: str, body: dict) -> None:
        """Called in the request thread, before the answer: queues, nothing more (see the module's doc)."""
        if self._process is None:
            raise RuntimeError("the deferred-work process is not running")
        self._outgoing.put((label, body, time.time()))

    def _send(self) -> None:
        """The sender thread: what has gathered on the queue goes to the child as one message, in order."""
        while True:
            batch = [self._outgoing.get()]
            while True:
                try:
                    batch.append(self._outgoing.get_nowait())
                except queue.Empty:
                    break
            with self._lock:
                jobs = self._jobs
            try:
                jobs.send(batch)
            except OSError:  # it died a moment ago; its follower is starting another
                lost = sum(1 for job in batch if job is not STOP and job[0] != IDLE_ASKED)
                log.error("%s job(s) could not be handed to the deferred-work process, which has exited; they "
                          "are lost", lost)
            if STOP in batch:
                return

    def _replace_locked(self) -> None:
        log.error("the deferred-work process %s exited (code %s); what it had not finished is lost; starting "
                  "another", self._process.pid, self._process.exitcode)
        self._jobs.close()
        self._start_locked()

    def _follow(self, said, process) -> None:
        with said:
            while True:
                try:
                    message = said.recv()
                except (EOFError, OSError):
                    break  # the child has gone
                if message == WAKE:
                    self.outbox_wake.set()
                    continue
                _, token, finished = message
                if self.on_done is not None:
                    for waited, ran in finished:
                        self.on_done(waited, ran)
                with self._answers:
                    self._answered.add(token)
                    self._answers.notify_all()
        # Gone while still the one in use (not stopped): start another now, not at the next job. Its last
        # threads may still be exiting; its exit code is known once they have (waited for outside the lock,
        # so no acknowledgement waits on it).
        process.join(5)
        with self._lock:
            if self._process is process:
                self._replace_locked()

    def wait_idle(self, timeout: float) -> bool:
        """Until every job handed over so far has finished (False if `timeout` passed first)."""
        token = next(self._tokens)
        if self._process is None:
            return True
        self._outgoing.put((IDLE_ASKED, token))  # behind every job queued before it
        with self._answers:
            answered = self._answers.wait_for(lambda: token in self._answered, timeout=timeout)
            self._answered.discard(token)
            return answered

    def stop(self, timeout: float = 30.0) -> None:
        """Let the child finish the jobs it has, then stop it."""
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
            log.warning("the deferred-work process %s did not finish within %.0fs; terminating it", process.pid,
                        timeout)
            process.terminate()
            process.join(5)
        jobs.close()


# ============================================================================ the child
class _Child:
    """The child's side: a thread pool running jobs, and what it tells the web process."""

    def __init__(self, said, threads: int) -> None:
        self.said = said
        self.say_lock = threading.Lock()  # a Connection is not safe for two threads writing at once
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="deferred")
        self.state = threading.Condition()
        self.running = 0
        self.finished: list[tuple[float, float]] = []

    def say(self, message) -> None:
        with self.say_lock:
            try:
                self.said.send(message)
            except OSError:
                pass  # the web process has gone; nobody to tell

    def submit(self, work: Callable[[], None], submitted: float) -> None:
        with self.state:
            self.running += 1
        self.pool.submit(self._run, work, submitted)

    def _run(self, work: Callable[[], None], submitted: float) -> None:
        started = time.time()
        try:
            work()
        except Exception:
            log.exception("deferred work failed outside its error handler")
        finally:
            with self.state:
                self.running -= 1
                self.finished.append((max(started - submitted, 0.0), time.time() - started))
                self.state.notify_all()

    def answer_when_idle(self, token: int) -> None:
        def wait() -> None:
            with self.state:
                self.state.wait_for(lambda: self.running == 0)
                finished, self.finished = self.finished, []
            self.say((IDLE, token, finished))
        threading.Thread(target=wait, name="deferred-idle", daemon=True).start()


def child_main(config: DeferredConfig, jobs, said) -> None:
    # Ctrl-C and SIGTERM reach the whole process group; the web process stops this one through the pipe,
    # once it has finished what it was given.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # Below the web process in the CPU scheduler's eyes: when both want the processor, an acknowledgement
    # (Slack allows 3 seconds) goes first and a verdict (nobody's clock) waits a few milliseconds more.
    # Threads inherit it: the whole child.
    _yield_the_processor()
    from bot.app_factory import web_client
    from bot.commands.runtime import configure_logging
    from bot.server import settle_process
    from bot.services.context import Services
    from handlers import build_registry
    from handlers.interaction import AFTER_RESPONSE
    from storage.db import Database

    configure_logging(config.log_level)
    db = Database(config.database_url)
    services = Services(db) if config.fixed_now is None else Services(db, clock=lambda: config.fixed_now)
    client = web_client(config.bot_token, config.api_base_url)
    routes = {route.label: route for route in build_registry().routes}
    child = _Child(said, config.threads)
    threading.Thread(target=_forward_wakes, args=(services.outbox_wake, child), name="outbox-wakes",
                     daemon=True).start()
    settle_process()
    try:
        stopping = False
        while not stopping:
            try:
                batch = jobs.recv()
            except EOFError:  # the web process has gone
                break
            for job in batch:
                if job is STOP:
                    stopping = True
                    break
                if job[0] == IDLE_ASKED:
                    child.answer_when_idle(job[1])
                    continue
                label, body, submitted = job
                route = routes.get(label)
                if route is None:  # a web process of another version: say so, never guess
                    log.error("no route %s in this process; job dropped", label)
                    continue
                child.submit(lambda route=route, body=body: run_job(services, route, body, client), submitted)
    finally:
        child.pool.shutdown(wait=True)
        AFTER_RESPONSE.wait_idle(timeout=30)
        db.dispose()


def _yield_the_processor() -> None:
    """A niceness of 10: when the web process and this one both want a processor, the scheduler gives the web
    process about ten times the share. Not SCHED_IDLE: on a host kept busy by something else, a process of
    that class may wait indefinitely, and a verdict must still come."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)


def _forward_wakes(wake: threading.Event, child: _Child) -> None:
    while True:
        wake.wait()
        wake.clear()
        child.say(WAKE)


def run_job(services, route, body: dict, client) -> None:
    from slack_bolt.context.respond import Respond

    from handlers.interaction import run_deferred

    respond = Respond(response_url=body["response_url"]) if body.get("response_url") else None
    run_deferred(services, route, body, client, respond)  # its error handler tells the person what failed
