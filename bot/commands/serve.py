"""`recount-bot serve`: the Slack app over HTTP (Slack's Events API and interactivity), behind waitress.

    POST /slack/events   where Slack sends commands, button clicks and modal submissions
    GET  /healthz        200 when the database answers
    GET  /metrics        Prometheus text (bot/metrics.py): a bearer of METRICS_TOKEN, or this machine only

Settings come from the environment (see bot/settings.py): SLACK_BOT_TOKEN (one office) or SLACK_CLIENT_ID and
SLACK_CLIENT_SECRET (many offices, installing from /slack/install), SLACK_SIGNING_SECRET, DATABASE_URL, PORT,
SLACK_API_BASE_URL, PUBLIC_BASE_URL, METRICS_TOKEN, LOG_FORMAT. SIGTERM or Ctrl-C stops it cleanly.
"""
from __future__ import annotations

import argparse
import logging
import os
import socket

from bot.commands.errors import CommandFailed
from bot.commands.runtime import StopRequested, add_logging_argument, configure_logging, stop_on_signals

log = logging.getLogger("recount_bot.serve")


def register(subparsers) -> None:
    parser = subparsers.add_parser("serve", help="run the Slack app over HTTP (needs SLACK_SIGNING_SECRET and "
                                                 "SLACK_BOT_TOKEN, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET)")
    add_server_arguments(parser)
    parser.set_defaults(func=run)


DEFAULT_HOST = "0.0.0.0"


def add_server_arguments(parser: argparse.ArgumentParser, host_help: str = "") -> None:
    parser.add_argument("--host", default=None, help=f"address to listen on (default: {DEFAULT_HOST}; the port is "
                                                     f"PORT from the environment, default 3000){host_help}")
    parser.add_argument("--deferred-work", choices=("process", "thread"), default="process",
                        help="where the work after an acknowledgement runs (a check's verdict and cards): in a "
                             "child process, so it never slows other requests' answers (default), or on this "
                             "process's threads")
    parser.add_argument("--no-worker", action="store_true",
                        help="do not deliver reminders and queued posts in this process (run `recount-bot worker`)")
    add_logging_argument(parser)


def run(args: argparse.Namespace) -> int:
    from bot.commands.startup import slack_clients, start_app
    from bot.web.server import EVENTS_PATH, WebApp, serve_forever, settle_process
    from bot.worker.loop import Worker, start_in_thread, worker_client
    from storage.migrate import current_revision

    configure_logging(args.log_level)
    started = start_app(deferred_process=getattr(args, "deferred_work", "process") == "process",
                        log_level=logging.getLevelName(logging.getLogger().level))
    settings, db = started.settings, started.db
    host, port = args.host or DEFAULT_HOST, settings.port
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "") else host
    log.info("database: %s (revision %s)", db.describe(), current_revision(db))
    log.info("Slack API: %s (%s)", settings.slack_api_base_url, started.identity)
    if settings.many_offices:
        log.info("many offices: each office installs the app from %s/slack/install (Slack's redirect URL: "
                 "%s/slack/oauth_redirect)", settings.links_base_url, settings.links_base_url)
    log.info("starting recount-bot on http://%s:%s (Slack request URL: http://<this host>:%s%s; "
             "health: http://%s:%s/healthz)", host, port, port, EVENTS_PATH, shown_host, port)
    web_app = WebApp(started.app, db, metrics_token=settings.metrics_token_value)
    if started.deferred is not None:
        web_app.metrics.watch_deferred(started.deferred)
    log.info("metrics: http://%s:%s/metrics (%s)", shown_host, port,
             "for a bearer of METRICS_TOKEN" if settings.metrics_token is not None
             else "from this machine only; set METRICS_TOKEN to read them from elsewhere")
    worker_stop = None
    if not getattr(args, "no_worker", False):
        worker = Worker(db, slack_clients(settings, db, worker_client),
                        worker_id=f"serve:{socket.gethostname()}:{os.getpid()}",
                        wake=started.services.outbox_wake)
        web_app.metrics.watch_worker(worker)
        _, worker_stop = start_in_thread(worker)
        log.info("delivering reminders and queued posts in this process (--no-worker to leave it to "
                 "`recount-bot worker`)")
    settle_process()
    try:
        with stop_on_signals() as stop:
            try:
                serve_forever(web_app, host=host, port=port)
            except StopRequested:
                pass  # a signal before waitress's loop could catch it
        log.info("stopping (%s)", stop.signal or "the server returned")
    except StopRequested:  # a second signal while waitress shut down
        log.info("stopping")
    except OSError as exc:  # the port is taken, or the address is not this machine's
        raise CommandFailed(f"cannot listen on {host}:{port} (PORT): {exc.strerror or exc}") from None
    finally:
        if worker_stop is not None:
            worker_stop.stop_and_wake()
        started.close()
    log.info("stopped")
    return 0
