"""Progress bars for the long commands (`import`, `check` of a large file, `backup`, `restore`, `audit verify`):
rows done, the rate and the time left, drawn by tqdm on stderr while it is a terminal. Nothing at all when stderr
is not one (a pipe, a log file, cron, CI) or with --quiet, so scripts read the same output as before.

The work below the commands (storage, services) reports through a plain callback, `report(done, total)`, and
knows nothing of terminals. A step that cannot count what it has done (the returns readers, rules/returns, take the
file whole) shows its elapsed time instead, refreshed by a timer thread, and no guess of the time left.
"""
from __future__ import annotations

import argparse
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from bot.terminal_text import escaped as terminal_safe  # control characters and line breaks escaped

Report = Callable[..., None]  # report(done, total=None): how many rows are done so far (and of how many)


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress bar (there is none anyway when stderr is not a terminal)")


def shown(args: argparse.Namespace) -> bool:
    stream = sys.stderr
    return not getattr(args, "quiet", False) and stream is not None and stream.isatty()


def _nothing(done: int, total: int | None = None) -> None:
    return None


@contextmanager
def bar(args: argparse.Namespace, *, what: str, total: int | None = None, unit: str = "row") -> Iterator[Report]:
    """A bar of `total` `unit`s (None until the work says: a count and the rate only); yields `report(done,
    total=None)`, which the work calls with how many are done so far (and, once it knows, of how many)."""
    if not shown(args):
        yield _nothing
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=terminal_safe(what), unit=unit, unit_scale=True, file=sys.stderr, leave=False,
              dynamic_ncols=True, mininterval=0.2) as progress:
        def report(done: int, total: int | None = None) -> None:
            news = total is not None and total != progress.total
            if news:
                progress.total = total
            progress.update(done - progress.n)
            if news or done == progress.total:  # drawn now, not at tqdm's next interval: the total, and the end
                progress.refresh()

        yield report


@contextmanager
def elapsed(args: argparse.Namespace, *, what: str) -> Iterator[None]:
    """A step that cannot count its progress: its name and the time it has taken so far, every half second."""
    if not shown(args):
        yield
        return
    from tqdm import tqdm

    stop = threading.Event()
    with tqdm(total=None, desc=terminal_safe(what), bar_format="{desc}: {elapsed}", file=sys.stderr, leave=False,
              dynamic_ncols=True) as progress:
        def tick() -> None:
            while not stop.wait(0.5):
                progress.refresh()

        timer = threading.Thread(target=tick, name="progress", daemon=True)
        timer.start()
        try:
            yield
        finally:
            stop.set()
            timer.join(1)
