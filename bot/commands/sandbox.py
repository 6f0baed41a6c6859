"""`recount-bot sandbox`: the whole bot in a browser, without a Slack workspace, tokens or network.

The real bot server runs on SQLite against a local stand-in for Slack's Web API, with the example election
loaded, and a web page on 127.0.0.1 plays the Slack client: a channel with messages and threads, the App
Home, direct messages, modals, and a switch between the office's three people. Every click reaches the bot
as the signed request Slack would send. `--console` gives the terminal console instead.

`recount-bot run` without Slack credentials is this command.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

from bot.commands.common import open_database
from bot.commands.errors import CommandFailed, UsageError
from bot.commands.runtime import (
    StopRequested,
    add_logging_argument,
    configure_logging,
    stop_on_signals,
)

OFFLINE_DATABASE_URL = "sqlite:///recount-bot-offline.sqlite3"  # never the production default file
DEFAULT_PAGE_PORT = 3001
log = logging.getLogger("recount_bot.offline")


def register(subparsers) -> None:
    parser = subparsers.add_parser("sandbox", help="the whole bot in a browser, without a Slack workspace "
                                                   "(or --console: at the terminal)")
    add_sandbox_arguments(parser)
    add_logging_argument(parser)
    parser.set_defaults(func=run)


def add_sandbox_arguments(parser: argparse.ArgumentParser, *, prefix: str = "") -> None:
    """The sandbox's options (also offered by `run`, where they apply only without Slack credentials)."""
    parser.add_argument("--console", action="store_true",
                        help=f"{prefix}the terminal console instead of the web page")
    parser.add_argument("--page-port", type=int, default=None, metavar="PORT",
                        help=f"{prefix}the web page's port on 127.0.0.1 (default {DEFAULT_PAGE_PORT}; a free one "
                             "when it is taken; 0 for any)")
    parser.add_argument("--open", action="store_true", help=f"{prefix}open the page in the default web browser")
    parser.add_argument("--fresh", action="store_true",
                        help=f"{prefix}a new, empty database for this session only (the example seeded anew), "
                             "deleted when the sandbox stops")
    parser.add_argument("--clock", default=None, metavar="START",
                        help=f"{prefix}when the bot's clock starts: now (the real clock), YYYY-MM-DD or "
                             "YYYY-MM-DDTHH:MM in Colorado (default: 2026-11-06T09:00, three days after the "
                             "example election, or where the last session on this database stopped)")


def run(args: argparse.Namespace) -> int:
    return offline(args, banner="recount-bot sandbox: the real bot, against a Slack stand-in on this machine "
                                "(no Slack workspace, no tokens, no network).")


def bot_port() -> int:
    raw = os.environ.get("PORT") or "3000"
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise UsageError(f"PORT {raw!r}: expected a port number from 1 to 65535")
    return int(raw)


def _page_port(args: argparse.Namespace) -> int:
    port = DEFAULT_PAGE_PORT if args.page_port is None else args.page_port
    if not 0 <= port < 65536:
        raise UsageError(f"--page-port {port}: expected a port number from 0 to 65535")
    return port


def _clock_start(args: argparse.Namespace):
    from sandbox.clock import DEMO_START, parse_start

    if args.clock is None:
        return DEMO_START
    try:
        return parse_start(args.clock)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


REHEARSAL_ONLY = ("the offline sandbox is rehearsal tooling, not part of an office's install: rehearse from a "
                  "checkout of recount-bot with `python3 dev.py run`")
NO_CREDENTIALS = ("no SLACK_BOT_TOKEN / SLACK_SIGNING_SECRET is set, so `recount-bot run` would start the offline "
                  "sandbox, which is rehearsal tooling and not part of an office's install. Set both to serve Slack "
                  "(docs/admin/deploying.md), or rehearse from a checkout of recount-bot with `python3 dev.py run`")


def _require_sandbox(args: argparse.Namespace) -> None:
    """An office's install (`pip install .`) ships the product only: say so in one line, not an ImportError."""
    if importlib.util.find_spec("sandbox") is None:
        raise CommandFailed(NO_CREDENTIALS if getattr(args, "command", None) == "run" else REHEARSAL_ONLY)


def offline(args: argparse.Namespace, *, banner: str) -> int:
    _require_sandbox(args)
    from sandbox.clock import clock_file, sandbox_clock, save_moment, saved_moment
    from sandbox.office import Sandbox
    from sandbox.ports import page_port_file, save_port, saved_port

    # Quiet by default: the page (or the console) is the interface; WARNING still shows the bot's problems.
    configure_logging(args.log_level, default="WARNING")
    port, page_port, start = bot_port(), _page_port(args), _clock_start(args)
    with contextlib.ExitStack() as cleanup:
        url = os.environ.get("DATABASE_URL") or OFFLINE_DATABASE_URL
        if args.fresh:
            folder = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="recount-bot-sandbox-"))
            url = f"sqlite:///{Path(folder) / 'sandbox.sqlite3'}"
        db = open_database(url)
        cleanup.callback(db.dispose)
        kept = clock_file(url) if start is not None and not args.fresh else None
        port_file = None if args.fresh else page_port_file(url)
        sandbox = Sandbox(db, port=port, clock=sandbox_clock(start, resume_after=saved_moment(kept)))
        web = None
        try:
            with stop_on_signals():
                try:
                    sandbox.start()
                    # The links the bot posts (certificates of election) lead to this bot, not a production URL.
                    os.environ["PUBLIC_BASE_URL"] = sandbox.url
                    if not args.console:
                        from sandbox.web import WebSandbox

                        web = WebSandbox(sandbox, port=page_port, fallback_port=saved_port(port_file)).start()
                        save_port(port_file, web.server.port)
                except OSError as exc:
                    raise CommandFailed(f"cannot start the offline sandbox: {exc}") from None
                _announce(banner, sandbox, web, "a new database for this session" if args.fresh else db.describe())
                if web is not None:
                    if args.open:
                        import webbrowser  # only here: with shlex and subprocess it is 0.4 MiB every command carried

                        webbrowser.open(web.url)
                    _serve(f"open {web.url} in a web browser; serving until interrupted (Ctrl-C or SIGTERM).")
                elif sys.stdin is not None and sys.stdin.isatty():
                    _console(sandbox)
                else:
                    _serve("stdin is not a terminal, so there is no console: serving until interrupted "
                           "(Ctrl-C or SIGTERM).")
        except StopRequested as stop:
            print(f"stopping ({stop}).", flush=True)
        finally:
            if web is not None:
                web.stop()
            sandbox.stop()
            save_moment(kept, sandbox.services.now())
    print("recount-bot offline: stopped.", flush=True)
    return 0


def _serve(message: str) -> None:
    print(message, flush=True)
    while True:
        time.sleep(3600)


def _console(sandbox) -> None:
    from sandbox.console import Console

    try:
        import readline  # noqa: F401 - line editing and history for input(), where available
    except ImportError:
        pass
    Console(sandbox).run()


def _announce(banner: str, sandbox, web, database: str) -> None:
    lines = [banner]
    for note in (sandbox.port_note, web.port_note if web else None):
        if note:
            lines.append(f"  note: {note}")
    if web is not None:
        lines.append(f"  page:        {web.url}  (the Slack client: open it in a browser)")
    lines += [
        f"  bot:         {sandbox.events_url}  (health: {sandbox.url}/healthz)",
        f"  Slack API:   {sandbox.standin.base_url}  (the stand-in)",
        f"  database:    {database}",
        f"  clock:       {_clock_line(sandbox)}",
    ]
    if sandbox.seeded:
        lines.append(f"  example:     {sandbox.seeded.describe()}")
    people = ", ".join(f"{p.real_name} (@{p.name}, {p.key})" for p in sandbox.people)
    lines.append(f"  people:      {people}; in #{sandbox.channel.name}")
    print("\n".join(lines), flush=True)


def _clock_line(sandbox) -> str:
    from rules.calendar import DENVER
    from sandbox.clock import SandboxClock

    now = sandbox.services.now().astimezone(DENVER)
    kind = ("the example's calendar, running; --clock now for the real one"
            if isinstance(sandbox.services.clock, SandboxClock) else "the real clock")
    return f"{now:%a %Y-%m-%d %H:%M %Z} ({kind})"
