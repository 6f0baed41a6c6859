"""The sandbox's clock: the example election's calendar, not today's.

The latest example election is the Regular Special District Election of 2027-05-04 (sandbox/seed.py). On the real
calendar its request window and deadlines pass, and a newcomer would meet a bot that refuses every request as
late. So the sandbox's clock starts at a moment of the example's calendar (by default three days after election
day: inside the request window, before every deadline) and runs in real time from there. The moment it stopped is kept next to the sandbox's SQLite file
(`recount-bot-offline.sqlite3.clock`), and the next session resumes after it, so time never runs backwards
for the bot. `--clock now` uses the real clock.
"""
from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Callable

from rules.calendar import DENVER
from storage.types import utcnow

# Friday after the May example's election day, 9 a.m. in Colorado: inside the 17-day request window (1306(2)(a)).
DEMO_START = dt.datetime(2027, 5, 7, 9, 0, tzinfo=DENVER)
RESUME_GAP = dt.timedelta(minutes=1)
NOW_WORDS = ("now", "real", "today")


class SandboxClock:
    """`start`, then as many real seconds later as have passed since the clock was made. Always aware, UTC."""

    def __init__(self, start: dt.datetime, monotonic: Callable[[], float] = time.monotonic) -> None:
        if start.tzinfo is None:
            raise ValueError("the sandbox clock needs an aware start")
        self.start = start.astimezone(dt.timezone.utc)
        self._monotonic = monotonic
        self._origin = monotonic()

    def __call__(self) -> dt.datetime:
        return self.start + dt.timedelta(seconds=self._monotonic() - self._origin)


def parse_start(text: str) -> dt.datetime | None:
    """`--clock`: "now" (None: the real clock), or a date / date and time, in Colorado unless it says otherwise."""
    word = text.strip()
    if word.lower() in NOW_WORDS:
        return None
    try:
        moment = dt.datetime.fromisoformat(word.replace(" ", "T", 1) if len(word) > 10 else word + "T09:00")
    except ValueError:
        raise ValueError(f"--clock {text!r}: expected now, YYYY-MM-DD or YYYY-MM-DDTHH:MM") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=DENVER)


def clock_file(database_url: str) -> Path | None:
    """Where a session's last moment is kept: next to a SQLite database file (no file for other databases)."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database + ".clock")


def saved_moment(path: Path | None) -> dt.datetime | None:
    try:
        moment = dt.datetime.fromisoformat(path.read_text(encoding="utf-8").strip()) if path else None
    except (OSError, ValueError):
        return None
    return moment if moment is None or moment.tzinfo else None


def save_moment(path: Path | None, moment: dt.datetime) -> None:
    if path is not None:
        try:
            path.write_text(moment.isoformat() + "\n", encoding="utf-8")
        except OSError:
            pass  # a read-only folder: the next session starts at the default moment again


def sandbox_clock(start: dt.datetime | None = DEMO_START,
                  resume_after: dt.datetime | None = None) -> Callable[[], dt.datetime]:
    """The real clock when `start` is None; else `start` (or just after `resume_after`, the moment an earlier
    session stopped, when that is later) running in real time."""
    if start is None:
        return utcnow
    if resume_after is not None and resume_after + RESUME_GAP > start:
        start = resume_after + RESUME_GAP
    return SandboxClock(start)
