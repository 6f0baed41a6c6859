"""`recount-bot run`: what the README's quick start runs.

With SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET in the environment it is `recount-bot serve`. Without them it
is `recount-bot sandbox`: the real bot and a local Slack stand-in on this machine, the example returns
loaded, and a web page that plays the Slack client (`--console`: a console at the terminal instead).
"""
from __future__ import annotations

import argparse
import os
from typing import Mapping

from bot.commands import sandbox, serve
from bot.commands.errors import UsageError

OFFLINE_DATABASE_URL = sandbox.OFFLINE_DATABASE_URL


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run recount-bot: the Slack app when SLACK_BOT_TOKEN and "
                                               "SLACK_SIGNING_SECRET are set, else the offline sandbox")
    serve.add_server_arguments(parser, host_help="; with Slack credentials only: the offline sandbox always "
                                                 "listens on 127.0.0.1")
    sandbox.add_sandbox_arguments(parser, prefix="offline only: ")
    parser.set_defaults(func=run)


def slack_configured(environ: Mapping[str, str] = os.environ) -> bool:
    """Any credential set means Slack is meant (one office's token or many offices' client id); `serve` then
    names whichever is missing."""
    return any(environ.get(name) for name in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_CLIENT_ID",
                                              "SLACK_CLIENT_SECRET"))


OFFLINE_ONLY = ("console", "open", "fresh")


def run(args: argparse.Namespace) -> int:
    if slack_configured():
        given = [f"--{name}" for name in OFFLINE_ONLY if getattr(args, name, False)]
        given += [f"--{name.replace('_', '-')}" for name in ("page_port", "clock") if getattr(args, name) is not None]
        if given:
            raise UsageError(f"{', '.join(given)}: only for the offline sandbox, and SLACK_BOT_TOKEN or "
                             "SLACK_SIGNING_SECRET is set (use `recount-bot sandbox`, which never uses them)")
        return serve.run(args)
    return offline(args)


def offline(args: argparse.Namespace) -> int:
    return sandbox.offline(args, banner="recount-bot offline: no SLACK_BOT_TOKEN / SLACK_SIGNING_SECRET, so the "
                                        "bot talks to a Slack stand-in on this machine.")
