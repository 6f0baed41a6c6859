"""What the web process and its deferred-work child say to each other (bot/deferred/process.py and child.py):
the messages' kinds, the records the child writes back, and the plain values the child rebuilds the app from.
Both sides import this module; neither imports the other."""
from __future__ import annotations

import datetime as dt
import struct
from dataclasses import dataclass

# To the child, in batches (lists): (RUN or NOTICE, job id, route label, pickled (body, submitted)), then STOP.
RUN = "run"  # do the route's work
NOTICE = "notice"  # tell the person the work was interrupted (bot/deferred/notice.py)
STOP = None  # finish what you have, then exit
# From the child: records of kind, job id, seconds the job waited for a thread, seconds it ran.
RECORD = struct.Struct("=cQdd")
BEGUN, DONE, WAKE = b"B", b"D", b"W"
# Chosen with `bench ack` (benchmarks/README.md, issue 25): with 2 threads rather than 4 and a niceness of 5 rather
# than 10, verdicts of a burst of checks were posted about a third sooner on a loaded 2-core host (the checks queue
# for SQLite's one writer, so more threads only wait for it; niceness 10 let other work starve them), with no
# consistent cost to the slowest acknowledgements, which still come first.
NICENESS = 5


@dataclass(frozen=True)
class DeferredConfig:
    """What the child needs to rebuild the app's parts: plain values, so they cross the process boundary."""
    database_url: str
    bot_token: str | None  # one office's token; None with many offices (each job's workspace's token)
    api_base_url: str
    threads: int = 2
    niceness: int = NICENESS  # added to the child's own, so the web process's acknowledgements go first
    log_level: str = "INFO"
    # A clock stopped at this moment instead of the real one: for a benchmark replaying a fixed day.
    fixed_now: dt.datetime | None = None
    slack_client_id: str | None = None  # many offices: tokens come from this app's installations

    def clients(self, db):
        """Each job's workspace's Web API client (handlers/slack_io/clients.py), as the web process's are made."""
        from bot.app_factory import web_client
        from handlers.slack_io.clients import Clients, bot_tokens

        tokens = bot_tokens(db, bot_token=self.bot_token, client_id=self.slack_client_id)
        return Clients(tokens, lambda token: web_client(token, self.api_base_url), db)
