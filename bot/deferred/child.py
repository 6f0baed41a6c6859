"""The deferred-work process's side (see bot/deferred/process.py for the web process's side and the whole picture).

It reads batches of jobs from its pipe and runs each on a thread pool, exactly as the web process would
(`handlers.interaction.run_route`: role, de-duplication, the one error handler). Back to the web process it
writes fixed-size records on a pipe of their own:

    BEGUN id   written by the thread about to run job `id`, before the job does anything at all
    DONE id    when the job has finished (with how long it waited for a thread and how long it ran)
    WAKE       the process queued outbox rows: the web process's worker sends them now, not at its next poll

A record is one `os.write` of 25 bytes: atomic on a pipe (at most PIPE_BUF), so threads need no lock, and it is
in the pipe once the call returns: if this process is killed a moment later, the web process still reads it.
That is what lets the web process tell a job that had not begun (redone by the next process) from one that
had (not redone; its person is told, which is the other kind of job this process runs: NOTICE).
"""
from __future__ import annotations

import logging
import os
import pickle
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Callable

from bot.deferred.protocol import BEGUN, DONE, NICENESS, RECORD, RUN, STOP, WAKE, DeferredConfig

PARENT_GONE = 3  # the exit code when the web process went first (nobody reads it: it is for `ps` and core files)

log = logging.getLogger("recount_bot.deferred")


class _Reporter:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __call__(self, kind: bytes, job_id: int = 0, waited: float = 0.0, ran: float = 0.0) -> None:
        try:
            os.write(self.fd, RECORD.pack(kind, job_id, waited, ran))
        except OSError:
            pass  # the web process has gone; nobody to tell, and nobody left to hand the job to another


def child_main(config: DeferredConfig, jobs, progress, lifeline) -> None:
    # First of all, before the imports that take a second: from here on this process cannot outlive its parent.
    threading.Thread(target=_exit_with_parent, args=(lifeline.fileno(),), name="lifeline", daemon=True).start()
    # Ctrl-C and SIGTERM reach the whole process group; the web process stops this one through the pipe,
    # once it has finished what it was given.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # Below the web process in the CPU scheduler's eyes: when both want the processor, an acknowledgement
    # (Slack allows 3 seconds) goes first and a verdict (nobody's clock) waits a few milliseconds more.
    # Threads inherit it: the whole child.
    _yield_the_processor(config.niceness)
    from bot.commands.runtime import configure_logging
    from bot.web.server import settle_process
    from handlers import build_registry
    from handlers.interaction import AFTER_RESPONSE
    from services.services import Services
    from storage.db import Database

    configure_logging(config.log_level)
    db = Database(config.database_url)
    services = Services(db) if config.fixed_now is None else Services(db, clock=lambda: config.fixed_now)
    clients = config.clients(db)  # each job speaks with its own workspace's token
    routes = {route.label: route for route in build_registry().routes}
    report = _Reporter(progress.fileno())
    pool = ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="deferred")
    threading.Thread(target=_forward_wakes, args=(services.outbox_wake, report), name="outbox-wakes",
                     daemon=True).start()
    settle_process()
    try:
        stopping = False
        while not stopping:
            try:
                batch = jobs.recv()
            except EOFError:  # the web process has gone
                break
            for item in batch:
                if item is STOP:
                    stopping = True
                    break
                kind, job_id, label, work = item
                body, submitted = pickle.loads(work)
                route = routes.get(label)
                if route is None:  # a web process of another version: say so, never guess
                    log.error("no route %s in this process; job dropped", label)
                    report(DONE, job_id)
                    continue
                work = (partial(run_job, services, route, body, clients) if kind == RUN
                        else partial(tell_interrupted, clients, body))
                pool.submit(_run, report, job_id, kind, work, submitted)
    finally:
        pool.shutdown(wait=True)
        AFTER_RESPONSE.wait_idle(timeout=30)
        db.dispose()


def _run(report: _Reporter, job_id: int, kind: str, work: Callable[[], None], submitted: float) -> None:
    started = time.time()
    report(BEGUN, job_id)  # before the job touches the database or Slack (see the module's doc)
    try:
        work()
    except Exception:
        log.exception("deferred %s failed outside its error handler", "work" if kind == RUN else "notice")
    finally:
        report(DONE, job_id, max(started - submitted, 0.0), time.time() - started)


def _exit_with_parent(fd: int) -> None:
    """Block on the lifeline until it ends, then exit at once, jobs and all.

    The web process holds the only write end and never writes: the read returns end-of-file exactly when that
    process is gone, however it went (SIGKILL, the OOM killer, a crash), since the kernel closes a dead
    process's files. Nobody is then left to follow this process's records, hand its jobs to another or tell
    people, so working off the backlog would only post for a server that no longer answers; and a job in flight
    is cut off, as it would be had this process been killed together with its parent.

    Not prctl(PR_SET_PDEATHSIG): the kernel sends that signal when the *thread* that started the child exits,
    and a replacement child is started by the thread following the dead one (process.py), which ends right
    after; the replacement would be killed with it. Not `jobs.recv()` reaching end-of-file either: whatever was
    still queued in that pipe is read first."""
    while True:
        try:
            if not os.read(fd, 64):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    os._exit(PARENT_GONE)


def _yield_the_processor(niceness: int = NICENESS) -> None:
    """A niceness of 5 (protocol.NICENESS): when the web process and this one both want a processor, the scheduler
    gives the web process about three times the share. Not 10 (ten times, as before): measured with `bench ack`,
    verdicts then fell further behind on a busy host for no steady gain in acknowledgements. Not SCHED_IDLE: on a
    host kept busy by something else, a process of that class may wait indefinitely, and a verdict must still
    come."""
    if hasattr(os, "nice"):
        os.nice(niceness)


def _forward_wakes(wake: threading.Event, report: _Reporter) -> None:
    while True:
        wake.wait()
        wake.clear()
        report(WAKE)


def run_job(services, route, body: dict, clients) -> None:
    from slack_bolt.context.respond import Respond

    from handlers.interaction import run_deferred
    from handlers.slack_io.clients import team_of

    client = clients.for_team(team_of(body))  # the web process's Bolt authorized it: the team has installed
    respond = Respond(response_url=body["response_url"]) if body.get("response_url") else None
    run_deferred(services, route, body, client, respond)  # its error handler tells the person what failed


def tell_interrupted(clients, body: dict) -> None:
    """A job a dead process had begun: told, not redone (bot/deferred/notice.py says why)."""
    from bot.deferred.notice import notice_text, tell
    from handlers.slack_io.clients import team_of

    way = tell(clients.for_team(team_of(body)), body, notice_text(body, begun=True))
    log.info("told the person who typed an interrupted command (by %s)", way)
