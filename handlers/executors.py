"""An executor that counts its running tasks, so a test or the sandbox can wait until the bot is idle."""
from __future__ import annotations

import threading
from concurrent.futures import Executor, Future
from typing import Any, Callable


class CountingExecutor(Executor):
    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self._running = 0
        self._changed = threading.Condition()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        with self._changed:
            self._running += 1
        try:
            future = self.inner.submit(fn, *args, **kwargs)
        except BaseException:
            self._done(None)
            raise
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future | None) -> None:
        with self._changed:
            self._running -= 1
            self._changed.notify_all()

    @property
    def running(self) -> int:
        with self._changed:
            return self._running

    def wait_idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._running == 0, timeout=timeout)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)
