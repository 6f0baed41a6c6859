"""Helpers shared by sub-commands: reading returns files and dates, with clerk-readable errors."""
from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

from bot.commands.errors import UsageError
from rules.contest import Returns
from rules.returns import FORMATS, ReturnsError, parse_returns


def add_returns_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="survey of returns: project CSV template, OpenElections CSV or NIST 1500-100 JSON")
    parser.add_argument("--input-format", choices=FORMATS, default=None,
                        help="override the format detected from the content")
    parser.add_argument("--seats", action="append", default=[], metavar="CONTEST=N",
                        help="seats to fill in a contest, for formats that do not say (repeatable)")


def parse_seats(values: list[str]) -> dict[str, int]:
    seats: dict[str, int] = {}
    for value in values:
        name, sep, number = value.rpartition("=")
        if not sep or not name.strip() or not number.strip().isdigit() or int(number) < 1:
            raise UsageError(f"--seats {value!r}: expected CONTEST=N with N a whole number of at least 1")
        seats[name.strip()] = int(number)
    return seats


def load_returns(args: argparse.Namespace) -> Returns:
    path: Path = args.file
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a returns file") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return parse_returns(data, format=args.input_format, seats=parse_seats(args.seats) or None)
    except ReturnsError as exc:
        count = len(exc.problems)
        lines = [f"{path}: {count} problem{'s' if count != 1 else ''} in the returns; nothing was checked"]
        lines += [f"  {p.location}: {p.message}" if p.location else f"  {p.message}" for p in exc.problems]
        raise UsageError("\n".join(lines)) from None


def parse_date(value: str, option: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{option} {value!r}: expected a date as YYYY-MM-DD") from None
