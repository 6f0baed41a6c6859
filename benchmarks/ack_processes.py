"""The two processes the ack benchmark (`ack_latency.py`) talks to, each a child it starts and drives with one
command per line on stdin and one JSON line back on stdout:

- the Slack process: a `sandbox.slack_standin.SlackStandIn`, handing out trigger ids and response URLs and
  answering the bot's Web API calls;
- the app process: ours (the real app; its work after the ack in a `bot.deferred.process.DeferredWorkProcess`
  as `recount-bot serve` runs it, or on Bolt's lazy listener executor with `--deferred-work thread`) and the
  bare Bolt app, each behind its own waitress server, with what the report needs: server-side time, each
  listener task's (or deferred job's) wait and run, tasks in flight, and warnings logged.
"""
from __future__ import annotations

import datetime as dt
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"
SIGNING_SECRET = "bench-signing-secret-0123456789"
BOT_TOKEN = "xoxb-bench-token"
TEAM = "T0BENCHTEAM"
CHANNEL = "C0ELECTION"
OFFICIAL = "U0OFFICIAL"
USERS = [{"id": OFFICIAL, "name": "dana.official", "real_name": "Dana Whitfield", "is_admin": True}]
APPS = ("bare", "ours", "inline")  # inline: a bare app that computes and posts the verdict itself


def _serve_commands(handlers: dict[str, Any]) -> None:
    """A child's main loop: read a command per line from stdin, answer one JSON line on stdout."""
    print(json.dumps(handlers["ready"]()), flush=True)
    for line in sys.stdin:
        name, _, arg = line.strip().partition(" ")
        if name == "stop":
            break
        print(json.dumps(handlers[name](arg)), flush=True)
    handlers["close"]()


# ============================================================================ the Slack process

def slack_child() -> int:
    from sandbox.slack_standin import SlackStandIn, Workspace

    # The bot token's workspace is the one office's: requests come from it.
    standin = SlackStandIn(users=USERS, channels=[{"id": CHANNEL, "name": "elections"}],
                           workspace=Workspace(team_id=TEAM)).start()

    issued = [0]

    def issue(count: str) -> dict:
        """Fresh trigger_ids and response_urls, as Slack puts in each slash command, each command in a channel of
        its own (the first, the cards' channel, aside), so its verdict can be told apart from the others."""
        deliveries = []
        for _ in range(int(count)):
            issued[0] += 1
            channel = CHANNEL if issued[0] == 1 else f"C0V{issued[0]:07d}"
            deliveries.append([standin.issue_trigger_id(OFFICIAL),
                               standin.issue_response_url(channel=channel, user=OFFICIAL), channel])
        return {"deliveries": deliveries}

    def verdicts(_: str = "") -> dict:
        """Each channel's first message posted, when (epoch seconds): a check's verdict."""
        first: dict[str, float] = {}
        for call in standin.calls:
            if call.method == "chat.postMessage" and call.status == 200 and (call.response or {}).get("ok"):
                first.setdefault(call.args.get("channel"), call.at.timestamp())
        return {"first_post": first}

    def stats(_: str = "") -> dict:
        counts: dict[str, int] = {}
        for call in standin.calls:
            key = call.method if call.status == 200 and (call.response or {}).get("ok", True) else \
                f"{call.method} (failed: {call.status} {(call.response or {}).get('error')})"
            counts[key] = counts.get(key, 0) + 1
        return {"calls": counts, "server_errors": standin.server_errors,
                "messages_in_channel": len(standin.state.messages(CHANNEL))}

    _serve_commands({"ready": lambda: {"base_url": standin.base_url}, "issue": issue, "stats": stats,
                     "verdicts": verdicts, "close": standin.stop})
    return 0


# ============================================================================ the app process

class TaskTimes:
    """Each listener task's (or deferred job's) wait for a thread and its run, taken once per round."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.waits: list[float] = []  # submitted -> a thread starts it
        self.runs: list[float] = []  # start -> end

    def record(self, waited: float, ran: float) -> None:
        with self.lock:
            self.waits.append(waited)
            self.runs.append(ran)

    def take(self) -> dict[str, list[float]]:
        with self.lock:
            taken = {"waits": self.waits, "runs": self.runs}
            self.waits, self.runs = [], []
        return taken


class CountingExecutor(TaskTimes):
    """Wraps a listener executor's `submit`: tasks in flight, and how long each waited for a worker and ran
    (the whole listener: ack and the work after it)."""

    def __init__(self, executor) -> None:
        super().__init__()
        self.in_flight = 0
        self._submit = executor.submit
        executor.submit = self.submit

    def submit(self, fn, /, *args, **kwargs):
        submitted = time.perf_counter()
        with self.lock:
            self.in_flight += 1

        def task():
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.record(started - submitted, time.perf_counter() - started)
                with self.lock:
                    self.in_flight -= 1
                    self.lock.notify_all()

        return self._submit(task)

    def wait_idle(self, timeout: float) -> bool:
        with self.lock:
            return self.lock.wait_for(lambda: self.in_flight == 0, timeout=timeout)


class DeferredStats(TaskTimes):
    """Ours' side of `CountingExecutor`: the deferred-work process reports each job's wait and run (`record`,
    its `on_done`); in flight and idle are the process's own count."""

    def __init__(self) -> None:
        super().__init__()
        self.process = None

    def following(self, process) -> "DeferredStats":
        self.process = process
        return self

    def wait_idle(self, timeout: float) -> bool:
        return self.process.wait_idle(timeout)


class ServerTiming:
    """WSGI wrapper: time from waitress calling the app to the app returning its body (server side)."""

    def __init__(self, app) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.seconds: list[float] = []

    def __call__(self, environ, start_response):
        start = time.perf_counter()
        try:
            return self.app(environ, start_response)
        finally:
            elapsed = time.perf_counter() - start
            with self.lock:
                self.seconds.append(elapsed)

    def take(self) -> list[float]:
        with self.lock:
            taken, self.seconds = self.seconds, []
        return taken


class ProblemCounter:
    """Counts warnings and errors logged in the app process (a failed listener must fail the benchmark)."""

    def __init__(self) -> None:
        import logging

        class Handler(logging.Handler):
            def __init__(self, owner: "ProblemCounter") -> None:
                super().__init__(logging.WARNING)
                self.owner = owner

            def emit(self, record: logging.LogRecord) -> None:
                with self.owner.lock:
                    if record.name == "waitress.queue":  # "Task queue depth is N": load, not a failure
                        self.owner.queue_warnings += 1
                        return
                    self.owner.records.append(f"{record.levelname} {record.name}: {record.getMessage()[:200]}")

        self.lock = threading.Lock()
        self.records: list[str] = []
        self.queue_warnings = 0
        root = logging.getLogger()
        root.setLevel(logging.WARNING)
        root.addHandler(Handler(self))


def _bare_app(api_base_url: str, listener_threads: int, verdict: bool = False):
    """A Bolt app built like ours, whose /recount listener only acknowledges; with `verdict`, it then computes the
    verdict inline (the statute core on returns read once at start-up, no database, no case cards) and posts it in
    the channel: the least a verdict can cost once acknowledged."""
    import logging
    from concurrent.futures import ThreadPoolExecutor

    from slack_bolt import App

    from bot.app_factory import web_client
    from bot.commands.check_report import as_text
    from rules.margin import DEFAULT_MULTI_SEAT_RULE
    from rules.returns import parse_returns
    from rules.verdicts import decide_returns

    returns = parse_returns(EXAMPLE.read_bytes())
    app = App(client=web_client(BOT_TOKEN, api_base_url), signing_secret=SIGNING_SECRET,
              token_verification_enabled=True, process_before_response=False,
              listener_executor=ThreadPoolExecutor(max_workers=listener_threads, thread_name_prefix="listener"),
              logger=logging.getLogger("bench.bare.bolt"))

    @app.command("/recount")
    def recount(ack, command, client):
        ack()
        if not verdict:
            return
        verdicts = decide_returns(returns, DEFAULT_MULTI_SEAT_RULE)
        client.chat_postMessage(channel=command["channel_id"],
                                text=as_text(verdicts, returns, DEFAULT_MULTI_SEAT_RULE.value)[:3000])

    return app


def app_child(api_base_url: str, http_threads: int, listener_threads: int, deferred_work: str = "process",
              deferred_threads: int = 4, deferred_niceness: int = 10) -> int:
    import tempfile

    problems = ProblemCounter()
    from bot.app_factory import build_app
    from bot.deferred.process import DeferredConfig, DeferredWorkProcess
    from bot.web.server import EVENTS_PATH, RunningServer, WebApp
    from rules.returns import parse_returns
    from services.returns.versions import import_returns
    from services.services import Services
    from storage.db import Database
    from storage.migrate import upgrade

    tmp = tempfile.TemporaryDirectory(prefix="recount-bench-")
    db = Database(f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}")
    upgrade(db)
    # The harness's clock: three days after the example's election, inside the recount window.
    clock = dt.datetime(2026, 11, 6, 16, 0, tzinfo=dt.timezone.utc)
    services = Services(db, clock=lambda: clock)
    data = EXAMPLE.read_bytes()
    import_returns(services, team_id=TEAM, returns=parse_returns(data), election_name="Regular Special District "
                   "Election", election_date=dt.date(2026, 11, 3), local_government="Front Range Special Districts",
                   governing_body="Board of Directors", source_name=EXAMPLE.name, source_bytes=data, actor="bench")

    # As `recount-bot serve` runs it (--deferred-work process, its default): the work after the ack in a child
    # process (bot/deferred/process.py), on the same fixed day. `thread`: on Bolt's lazy listener executor, as
    # before that process existed and as `serve --deferred-work thread` still can.
    deferred = None
    if deferred_work == "process":
        deferred_stats = DeferredStats()
        deferred = DeferredWorkProcess(DeferredConfig(database_url=db.url, bot_token=BOT_TOKEN,
                                                      api_base_url=api_base_url, log_level="WARNING", fixed_now=clock,
                                                      threads=deferred_threads, niceness=deferred_niceness),
                                       services.outbox_wake, on_done=deferred_stats.record)
    apps = {
        "ours": build_app(services=services, bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET,
                          api_base_url=api_base_url, listener_threads=listener_threads,
                          deferred_runner=deferred.submit if deferred else None),
        "bare": _bare_app(api_base_url, listener_threads),
        "inline": _bare_app(api_base_url, listener_threads, verdict=True),
    }
    executors = {name: CountingExecutor(apps[name].listener_runner.listener_executor) for name in ("bare", "inline")}
    if deferred is not None:
        deferred.start()
        executors["ours"] = deferred_stats.following(deferred)
    else:
        executors["ours"] = CountingExecutor(apps["ours"].listener_runner.listener_executor)
    timings = {name: ServerTiming(WebApp(app, db)) for name, app in apps.items()}
    from bot.web.server import settle_process

    settle_process()  # as `recount-bot serve` does before it serves (one process, so both apps get it)
    servers = {name: RunningServer(timings[name], threads=http_threads).start() for name in apps}

    def idle(arg: str) -> dict:
        start = time.perf_counter()
        done = all(executors[name].wait_idle(timeout=float(arg or 120)) for name in APPS)
        return {"idle": done, "waited_s": time.perf_counter() - start}

    def take(_: str = "") -> dict:
        return {name: {"server_s": timings[name].take(), **executors[name].take()} for name in APPS}

    def problems_(_: str = "") -> dict:
        with problems.lock:
            return {"records": list(problems.records), "waitress_queue_warnings": problems.queue_warnings}

    def close() -> None:
        for server in servers.values():
            server.stop()
        if deferred is not None:
            deferred.stop()
        db.dispose()
        tmp.cleanup()

    _serve_commands({"ready": lambda: {name: servers[name].url + EVENTS_PATH for name in APPS},
                     "idle": idle, "take": take, "problems": problems_, "close": close})
    return 0
