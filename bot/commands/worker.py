"""`recount-bot worker`: deliver deadline reminders and queued Slack posts.

`recount-bot serve` already runs one in its own process; run this too (any number on PostgreSQL) to
deliver while the web server is down or to take the work out of the web process (`serve --no-worker`).
A reminder that fell due while no worker ran is sent once, marked late, when one starts.
"""
from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import socket
import threading

from bot.commands.runtime import StopRequested, add_logging_argument, configure_logging, stop_on_signals

log = logging.getLogger("recount_bot.worker")
# A lease shorter than a Web API call may take (the worker's client gives up after 15 s) would let a second
# worker take over a post the first is still making, and post it again.
MIN_LEASE = 30.0


def _lease(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not seconds >= MIN_LEASE:
        raise argparse.ArgumentTypeError(f"{value} is too short: at least {MIN_LEASE:.0f} seconds")
    return seconds


def register(subparsers) -> None:
    parser = subparsers.add_parser("worker", help="deliver deadline reminders and queued Slack posts")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between polls (default %(default)s)")
    parser.add_argument("--lease", type=_lease, default=None,
                        help="seconds a worker holds a post it claimed: when a worker dies holding one, another "
                             "takes it over after this, looking in Slack first (default 60, at least "
                             f"{MIN_LEASE:.0f}: longer than a Slack call may take)")
    parser.add_argument("--once", action="store_true", help="one poll, then exit (for cron or a check)")
    parser.add_argument("--metrics-port", type=int, default=None, metavar="PORT",
                        help="serve GET /metrics (this worker's lag, the outbox, reminders) on this port; "
                             "METRICS_TOKEN as for `serve` (unset: this machine only)")
    parser.add_argument("--metrics-host", default="127.0.0.1",
                        help="address for --metrics-port (default %(default)s)")
    add_logging_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.commands.common import open_database
    from bot.commands.startup import settings_or_exit, slack_clients, verify_token
    from bot.worker.loop import Worker, worker_client
    from handlers.slack_io.outbox import LEASE

    configure_logging(args.log_level)
    settings = settings_or_exit()
    db = open_database(settings.database_url)
    try:
        log.info("worker for %s, Slack API %s (%s)", db.describe(), settings.slack_api_base_url,
                 verify_token(settings, db))
        worker = Worker(db, slack_clients(settings, db, worker_client),
                        worker_id=f"worker:{socket.gethostname()}:{os.getpid()}", interval=args.interval,
                        lease=dt.timedelta(seconds=args.lease) if args.lease else LEASE)
        if args.once:
            report = worker.tick()
            print(f"reminders queued {report.queued}; posts sent {report.delivery.sent}, retried "
                  f"{report.delivery.retried}, given up {report.delivery.dead}, recovered {report.delivery.recovered}")
            return 0
        metrics_server = serve_metrics(args, settings, db, worker) if args.metrics_port is not None else None
        try:
            with stop_on_signals():
                # SIGTERM / Ctrl-C raise StopRequested out of the loop's wait; the database keeps all state.
                worker.run(threading.Event(), args.interval)
        except StopRequested:
            pass
        finally:
            if metrics_server is not None:
                metrics_server.stop()
        log.info("worker stopped")
        return 0
    finally:
        db.dispose()


def serve_metrics(args: argparse.Namespace, settings, db, worker):
    """GET /metrics for this worker on its own port (the web server's is in another process, or none)."""
    from bot.commands.errors import CommandFailed
    from bot.metrics import Metrics
    from bot.web.metrics import MetricsEndpoint, OnlyMetrics
    from bot.web.server import RunningServer

    metrics = Metrics(db)
    metrics.watch_worker(worker)
    try:
        server = RunningServer(OnlyMetrics(MetricsEndpoint(metrics, settings.metrics_token_value)),
                               host=args.metrics_host, port=args.metrics_port, threads=2).start()
    except OSError as exc:
        raise CommandFailed(f"cannot listen on {args.metrics_host}:{args.metrics_port} (--metrics-port): "
                            f"{exc.strerror or exc}") from None
    log.info("metrics: %s/metrics (%s)", server.url, "for a bearer of METRICS_TOKEN"
             if settings.metrics_token is not None else "from this machine only")
    return server
