"""Knowing when the bot has finished with a request.

Bolt may answer Slack before the bot's work is done: with process_before_response off, the listener runs on
Bolt's executor after the acknowledgement; with it on, slow work runs as a lazy listener on that executor, and
every other listener on handlers.interaction's LISTENERS (its answer is set before it finishes).
Wrapping the executors counts the tasks still running; when none is, everything the bot did for the
request has reached the Slack stand-in (each Web API call is synchronous).
"""
from __future__ import annotations

import logging
import time
from concurrent.futures import Executor
from typing import Callable

from slack_bolt import App

from handlers.executors import CountingExecutor

log = logging.getLogger("recount_bot.offline")


class Activity:
    """`wait_idle()`: block until no listener task runs. Falls back to a quiet period if Bolt changes its insides."""

    def __init__(self, app: App, changes: Callable[[], int], outbox_idle: Callable[[], bool] | None = None) -> None:
        from handlers.interaction import AFTER_RESPONSE, LISTENERS

        self.executors: list[CountingExecutor] = []
        self._changes = changes  # a counter of stand-in activity, for the fallback
        self._outbox_idle = outbox_idle or (lambda: True)
        runner = getattr(app, "listener_runner", None)
        lazy = getattr(runner, "lazy_listener_runner", None)
        wrapped: dict[int, CountingExecutor] = {}
        for owner, attribute in ((runner, "listener_executor"), (lazy, "executor")):
            inner = getattr(owner, attribute, None)
            if isinstance(inner, CountingExecutor):
                continue
            if isinstance(inner, Executor):
                counting = wrapped.setdefault(id(inner), CountingExecutor(inner))
                setattr(owner, attribute, counting)
        self.executors = list(wrapped.values())
        if self.executors:
            self.executors.append(LISTENERS)  # listeners run off the request thread
            self.executors.append(AFTER_RESPONSE)  # what listeners hand over to run after Slack's answer
        if not self.executors:  # pragma: no cover - only if Bolt renames its runners
            log.warning("cannot see Bolt's listener executor; waiting for a quiet moment instead")

    def wait_idle(self, timeout: float = 30.0, quiet: float = 0.5) -> bool:
        """Idle: no listener task, no after-response work, and nothing in the outbox ready to deliver."""
        if self.executors:
            deadline = time.monotonic() + timeout
            while True:  # idle when every executor is idle at once (a task may start another)
                for executor in self.executors:
                    if not executor.wait_idle(max(0.0, deadline - time.monotonic())):
                        return False
                if not self._outbox_idle():
                    if time.monotonic() > deadline:
                        return False
                    time.sleep(0.02)
                    continue
                if all(e.running == 0 for e in self.executors):
                    return True
        deadline, seen, since = time.monotonic() + timeout, self._changes(), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now_seen = self._changes()
            if now_seen != seen:
                seen, since = now_seen, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return True
        return False
