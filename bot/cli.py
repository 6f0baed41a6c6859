"""`recount-bot`: the command line. One sub-command per module in `bot/commands/`.

The CLI never shows a Python traceback to a user: bad input (and bad settings) exit 2 with every problem
listed; a failure outside the input (a database that does not answer) exits 1 with one line; anything
unexpected exits 1 with one line and a reference to rerun with --debug.
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

from bot.commands import admin as admin_command
from bot.commands import audit as audit_command
from bot.commands import backup as backup_command
from bot.commands import case_record as case_record_command
from bot.commands import check as check_command
from bot.commands import db as db_command
from bot.commands import deadlines as deadlines_command
from bot.commands import doctor as doctor_command
from bot.commands import importing as import_command
from bot.commands import laws as laws_command
from bot.commands import run as run_command
from bot.commands import sandbox as sandbox_command
from bot.commands import serve as serve_command
from bot.commands import socket_mode as socket_command
from bot.commands import worker as worker_command
from bot.commands.errors import CommandFailed, UsageError

EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2

# Each command, by name, and the module whose `register(subparsers)` adds its parser and sets `func` on it
# (tests/bot/test_cli_parser.py holds this to what the modules register). In the order `--help` lists them.
BY_NAME = {"run": run_command, "sandbox": sandbox_command, "check": check_command, "deadlines": deadlines_command,
           "laws": laws_command, "import": import_command, "serve": serve_command, "socket": socket_command,
           "db": db_command, "audit": audit_command, "admin": admin_command, "worker": worker_command,
           "case-record": case_record_command, "doctor": doctor_command, "backup": backup_command,
           "restore": backup_command}
COMMANDS = tuple(dict.fromkeys(BY_NAME.values()))  # each module once (backup registers backup and restore)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's default is fine but we want our exit code contract
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


class _NotJustThatCommand(Exception):
    """The command line did not parse with its command's parser alone: parsed again with every command's."""


class _OneCommandParser(_Parser):
    def error(self, message: str) -> None:  # say nothing: the full parser says what is wrong, with every command
        raise _NotJustThatCommand(message)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, that command's alone. Building all fifteen costs some 16 ms
    (argparse looks up translations and the terminal's width for every option), paid by every command run."""
    parser = (_Parser if only is None else _OneCommandParser)(prog="recount-bot", description=__doc__.splitlines()[0])
    parser.add_argument("--debug", action="store_true", help="show tracebacks for unexpected errors")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in COMMANDS if only is None else (BY_NAME[only],):
        module.register(subparsers)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command `argv` runs, when only --debug comes before it (`-h` there asks for every command's help)."""
    for arg in argv:
        if arg != "--debug":
            return arg if arg in BY_NAME else None
    return None


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    only = _command_of(sys.argv[1:] if argv is None else argv)
    if only is not None:
        try:
            return build_parser(only).parse_args(argv)
        except _NotJustThatCommand:
            pass
    return build_parser().parse_args(argv)


def _tolerate_unencodable_output() -> None:
    """A console or redirect in a legacy encoding (cp1252 on Windows, ASCII) cannot encode every name in
    a returns file (OpenElections files carry U+FFFD): print a "?" there rather than fail the command."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding != "utf8" and getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerate_unencodable_output()
    args = _parse(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    name = getattr(args, "command_name", None) or args.command  # "db upgrade", not just "db"
    try:
        status = func(args)
        # Flush here, not at interpreter exit: a reader that left (`| head`) must surface as a
        # BrokenPipeError below, not as "Exception ignored ... BrokenPipeError" and exit status 120.
        sys.stdout.flush()
        return status
    except UsageError as exc:
        print(f"recount-bot {name}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except CommandFailed as exc:
        print(f"recount-bot {name}: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `recount-bot check big.csv | head`: the reader left; that is not an error.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # the last line of defence: no traceback for a clerk
        if args.debug:
            raise
        print(f"recount-bot {name}: unexpected error: {type(exc).__name__}: {exc} "
              "(rerun with --debug for details)", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
