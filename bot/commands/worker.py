"""`recount-bot worker`: deliver deadline reminders and queued Slack posts.

`recount-bot serve` already runs one in its own process; run this too (any number on PostgreSQL) to
deliver while the web server is down or to take the work out of the web process (`serve --no-worker`).
A reminder that fell due while no worker ran is sent once, marked late, when one starts.
"""
from __future__ import annotations

import argparse
import logging
import os
import socket
import threading

from bot.commands.runtime import StopRequested, add_logging_argument, configure_logging, stop_on_signals

log = logging.getLogger("recount_bot.worker")


def register(subparsers) -> None:
    parser = subparsers.add_parser("worker", help="deliver deadline reminders and queued Slack posts")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between polls (default %(default)s)")
    parser.add_argument("--once", action="store_true", help="one poll, then exit (for cron or a check)")
    add_logging_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.commands.common import open_database
    from bot.commands.startup import settings_or_exit, slack_clients, verify_token
    from bot.worker.loop import Worker, worker_client

    configure_logging(args.log_level)
    settings = settings_or_exit()
    db = open_database(settings.database_url)
    try:
        log.info("worker for %s, Slack API %s (%s)", db.describe(), settings.slack_api_base_url,
                 verify_token(settings, db))
        worker = Worker(db, slack_clients(settings, db, worker_client),
                        worker_id=f"worker:{socket.gethostname()}:{os.getpid()}", interval=args.interval)
        if args.once:
            report = worker.tick()
            print(f"reminders queued {report.queued}; posts sent {report.delivery.sent}, retried "
                  f"{report.delivery.retried}, given up {report.delivery.dead}, recovered {report.delivery.recovered}")
            return 0
        try:
            with stop_on_signals():
                # SIGTERM / Ctrl-C raise StopRequested out of the loop's wait; the database keeps all state.
                worker.run(threading.Event(), args.interval)
        except StopRequested:
            pass
        log.info("worker stopped")
        return 0
    finally:
        db.dispose()
