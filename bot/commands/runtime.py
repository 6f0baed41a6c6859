"""What the long-running commands (serve, socket, run) share: logging configured once, and signals that
stop them cleanly."""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator

from bot.commands.errors import UsageError

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_configured = False


def add_logging_argument(parser) -> None:
    parser.add_argument("--log-level", type=str.upper, default=None, metavar="LEVEL",
                        help=f"{', '.join(LEVELS)} (default: LOG_LEVEL from the environment, else INFO)")


def configure_logging(level: str | None = None, *, default: str = "INFO") -> None:
    """stdlib logging to stderr, once per process: `level` (--log-level), else LOG_LEVEL, else `default`; one
    line per record, as text or (LOG_FORMAT=json) as JSON objects (bot/commands/log_formats.py)."""
    from bot.commands.log_formats import formatter
    from bot.settings import log_format

    global _configured
    option = "--log-level" if level else "LOG_LEVEL"
    chosen = (level or os.environ.get("LOG_LEVEL") or default).strip().upper()
    if chosen not in LEVELS:
        raise UsageError(f"{option} {chosen!r}: expected one of {', '.join(LEVELS)}")
    try:
        lines = log_format()
    except ValueError as exc:
        raise UsageError(f"LOG_FORMAT {os.environ.get('LOG_FORMAT', '')!r}: {exc}") from None
    if _configured:
        logging.getLogger().setLevel(chosen)
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(lines))
    handler.addFilter(_drop_known_noise)
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(chosen)
    # Alembic says "Context impl SQLiteImpl" at INFO on every start; migrations that ran are logged by us.
    logging.getLogger("alembic").setLevel(chosen if chosen == "DEBUG" else "WARNING")
    _configured = True


def _drop_known_noise(record: logging.LogRecord) -> bool:
    """Bolt reads SLACK_BOT_TOKEN from the environment itself and, since the app factory hands it a ready
    WebClient (with that same token), warns on every start that the token "will be unused". It is not."""
    return not (record.name == "recount_bot.bolt" and record.getMessage().startswith("As you gave `client`"))


class StopRequested(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM or SIGINT inside `stop_on_signals`.

    A KeyboardInterrupt, not an Exception: a signal may land while waitress's loop is dispatching a request,
    and waitress (like most libraries) swallows other exceptions there but re-raises KeyboardInterrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class Stop:
    """What `stop_on_signals` yields: the name of the signal that stopped the block, once one has."""

    signal: str | None = None


@contextmanager
def stop_on_signals() -> Iterator[Stop]:
    """Within the block, SIGTERM and SIGINT (Ctrl-C) raise StopRequested in the main thread, so a server
    loop unwinds and cleans up instead of being killed (waitress catches it, shuts its threads down and
    returns; `Stop.signal` says why it returned). The previous handlers are restored afterwards."""
    stopped = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stopped
        return

    def stop(signum, _frame) -> None:
        stopped.signal = signal.Signals(signum).name
        raise StopRequested(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stopped
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
