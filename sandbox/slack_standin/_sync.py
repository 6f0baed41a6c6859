"""The one locking discipline of the stand-in state (see state.py)."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def mutator(fn: F) -> F:
    """Run `fn` under the state lock; afterwards, outside the lock, deliver the changes it queued.

    Mutators may call one another: only the outermost delivers, once the lock is really free. Delivery also
    happens when `fn` raises (a lenient lookup may have created a channel before the error).
    """

    @functools.wraps(fn)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        outermost = False
        try:
            with self._lock:
                self._depth += 1
                try:
                    return fn(self, *args, **kwargs)
                finally:
                    self._depth -= 1
                    outermost = self._depth == 0
        finally:
            if outermost:
                self._deliver()

    return wrapper  # type: ignore[return-value]
