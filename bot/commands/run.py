"""`recount-bot run`: what the README's quick start runs.

With SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET in the environment it is `recount-bot serve`. Without them it
starts the offline sandbox: the real bot and a local Slack stand-in on this machine, the example returns
loaded, and (at a terminal) a console to use the bot as three people of the office would.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from typing import Mapping

from bot.commands import serve
from bot.commands.common import open_database
from bot.commands.errors import CommandFailed, UsageError
from bot.commands.runtime import StopRequested, configure_logging, stop_on_signals

OFFLINE_DATABASE_URL = "sqlite:///recount-bot-offline.sqlite3"  # never the production default file
log = logging.getLogger("recount_bot.offline")


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run recount-bot: the Slack app when SLACK_BOT_TOKEN and "
                                               "SLACK_SIGNING_SECRET are set, else the offline sandbox")
    serve.add_server_arguments(parser, host_help="; with Slack credentials only: the offline sandbox always "
                                                 "listens on 127.0.0.1")
    parser.set_defaults(func=run)


def slack_configured(environ: Mapping[str, str] = os.environ) -> bool:
    """Either credential set means Slack is meant; `serve` then names whichever is missing."""
    return bool(environ.get("SLACK_BOT_TOKEN") or environ.get("SLACK_SIGNING_SECRET"))


def run(args: argparse.Namespace) -> int:
    if slack_configured():
        return serve.run(args)
    return offline(args)


def _port() -> int:
    raw = os.environ.get("PORT") or "3000"
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise UsageError(f"PORT {raw!r}: expected a port number from 1 to 65535")
    return int(raw)


def offline(args: argparse.Namespace) -> int:
    from bot.offline.console import Console
    from bot.offline.sandbox import Sandbox

    # Quiet by default: the console is the interface; WARNING still shows the bot's problems.
    configure_logging(args.log_level, default="WARNING")
    port = _port()
    db = open_database(os.environ.get("DATABASE_URL") or OFFLINE_DATABASE_URL)
    sandbox = Sandbox(db, port=port)
    try:
        with stop_on_signals():
            try:
                sandbox.start()
            except OSError as exc:
                raise CommandFailed(f"cannot start the offline sandbox: {exc}") from None
            _announce(sandbox, db.describe())
            if sys.stdin is not None and sys.stdin.isatty():
                try:
                    import readline  # noqa: F401 - line editing and history for input(), where available
                except ImportError:
                    pass
                Console(sandbox).run()
            else:
                print("stdin is not a terminal, so there is no console: serving until interrupted "
                      "(Ctrl-C or SIGTERM).", flush=True)
                while True:
                    time.sleep(3600)
    except StopRequested as stop:
        print(f"stopping ({stop}).", flush=True)
    finally:
        sandbox.stop()
        db.dispose()
    print("recount-bot offline: stopped.", flush=True)
    return 0


def _announce(sandbox, database: str) -> None:
    lines = ["recount-bot offline: no SLACK_BOT_TOKEN / SLACK_SIGNING_SECRET, so the bot talks to a Slack "
             "stand-in on this machine."]
    if sandbox.port_note:
        lines.append(f"  note: {sandbox.port_note}")
    lines += [
        f"  bot:         {sandbox.events_url}  (health: {sandbox.url}/healthz)",
        f"  Slack API:   {sandbox.standin.base_url}  (the stand-in)",
        f"  database:    {database}",
    ]
    if sandbox.seeded:
        lines.append(f"  example:     {sandbox.seeded.describe()}")
    people = ", ".join(f"{p.real_name} (@{p.name}, {p.key})" for p in sandbox.people)
    lines.append(f"  people:      {people}; in #{sandbox.channel.name}")
    print("\n".join(lines), flush=True)
