"""Helpers shared by sub-commands: reading returns files and dates, opening the database, with
clerk-readable errors."""
from __future__ import annotations

import argparse
import datetime as dt
import getpass
import logging
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from bot.commands.errors import CommandFailed, UsageError
from bot.terminal_text import escaped
from rules.contest import Returns
from rules.returns import FORMATS, ElectionKind, Pieces, ReadLimits, ReturnsError, parse_returns, read_returns
from rules.returns.limits import DEFAULT_LIMITS, MIB

if TYPE_CHECKING:  # the database layer (SQLAlchemy, Alembic) is imported by the commands that use it
    from storage.db import Database

log = logging.getLogger("recount_bot.cli")


def add_returns_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `check` and `import` share, so a file reads the same way in both."""
    parser.add_argument("file", type=Path, help="a results file: " + ", ".join(FORMATS) + " (detected from the content)")
    parser.add_argument("--input-format", choices=FORMATS, default=None,
                        help="override the format detected from the content")
    parser.add_argument("--seats", action="append", default=[], metavar="CONTEST=N",
                        help="seats to fill in a contest, for formats that do not say (repeatable)")
    parser.add_argument("--election-kind", choices=[k.value for k in ElectionKind], default=None,
                        help="a party primary (one contest per party) or a general election; default: what the "
                             "file's name or content says, and where neither does, contests whose verdict "
                             "depends on it are left undecided")
    parser.add_argument("--max-size", type=_megabytes, default=DEFAULT_LIMITS.max_file_bytes // MIB, metavar="MB",
                        help="refuse a results file larger than this many MiB, before reading it (default: "
                             "%(default)s; a statewide precinct file is some 20)")


def _megabytes(value: str) -> int:
    if not value.strip().isdigit() or not 1 <= int(value) <= 64 * 1024:
        raise argparse.ArgumentTypeError(f"{value!r}: expected a whole number of MiB, 1 to 65536")
    return int(value)


def parse_seats(values: list[str]) -> dict[str, int]:
    seats: dict[str, int] = {}
    for value in values:
        name, sep, number = value.rpartition("=")
        if not sep or not name.strip() or not number.strip().isdigit() or int(number) < 1:
            raise UsageError(f"--seats {value!r}: expected CONTEST=N with N a whole number of at least 1")
        seats[name.strip()] = int(number)
    return seats


def read_input_file(path: Path, *, named: str, kind: str, missing_hint: str = "", limit: int | None = None) -> bytes:
    """The bytes of a file a person named on the command line, or a UsageError that says `named` (how the line
    names it: the path, or the option and the path) and what was wrong. `kind`: what a directory is not ("a
    returns file"). `limit`: read at most that many bytes and one more, so a file too large is known as such
    without holding it whole."""
    try:
        if limit is None:
            return path.read_bytes()
        with path.open("rb") as handle:
            return handle.read(limit + 1)
    except FileNotFoundError:
        raise UsageError(f"{named}: no such file{missing_hint}") from None
    except IsADirectoryError:
        raise UsageError(f"{named}: is a directory, not {kind}") from None
    except OSError as exc:
        raise UsageError(f"{named}: cannot read ({exc.strerror})") from None


def file_bytes(args: argparse.Namespace) -> bytes:
    """The file's bytes, read no further than the size limit (and one byte) so a file too large is never held."""
    limit = _limits(args).max_file_bytes
    try:
        too_large = args.file.stat().st_size > limit  # known before a byte is read (a pipe says 0: read to the limit)
    except OSError:
        too_large = False  # read_input_file names what is wrong with the path
    data = b"" if too_large else read_input_file(args.file, named=str(args.file), kind="a returns file", limit=limit)
    if too_large or len(data) > limit:
        raise UsageError(f"{args.file}: is larger than {limit // MIB:,} MiB, the limit for a results file; nothing was "
                         "read (--max-size MB to raise it)")
    return data


def _limits(args: argparse.Namespace) -> ReadLimits:
    return ReadLimits(max_file_bytes=getattr(args, "max_size", DEFAULT_LIMITS.max_file_bytes // MIB) * MIB)


def _reading_options(args: argparse.Namespace) -> dict:
    return {"format": args.input_format, "seats": parse_seats(args.seats) or None,
            "election_kind": getattr(args, "election_kind", None), "file_name": args.file.name,
            "limits": _limits(args)}


READ_PIECE = 1 << 20  # bytes read from disk at a time when a file is streamed


def read_returns_file(args: argparse.Namespace) -> Returns:
    """What `args.file` lets us decide (rules.returns.read_returns); ReturnsError if it cannot be read at all.

    A regular file is streamed from disk, a piece at a time on every pass, so a statewide file's bytes are never
    held whole; anything else (a pipe, a device) can be read only once and is read whole, to its size limit."""
    return read_returns(file_pieces(args) or file_bytes(args), **_reading_options(args))


def file_pieces(args: argparse.Namespace) -> Pieces | None:
    """`args.file` as `Pieces` when it is a regular file within the size limit (UsageError when over it), else None."""
    path: Path = args.file
    try:
        info = path.stat()
        with path.open("rb"):  # the reasons it cannot be read are found now, named as read_input_file names them
            pass
    except OSError:
        return None  # file_bytes says what is wrong with the path
    if not stat.S_ISREG(info.st_mode):
        return None
    file_bytes_limit = _limits(args).max_file_bytes
    if info.st_size > file_bytes_limit:
        file_bytes(args)  # raises the refusal that names the limit
    return Pieces(lambda: _pieces_of(path))


def _pieces_of(path: Path) -> Iterator[bytes]:
    try:
        with path.open("rb") as handle:
            while piece := handle.read(READ_PIECE):
                yield piece
    except OSError as exc:  # the file went away or became unreadable between two passes
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None


def load_returns(args: argparse.Namespace, *, done: str = "checked", data: bytes | None = None) -> Returns:
    """The complete returns in `args.file` (or its `data`, already read); UsageError listing every problem
    ("nothing was <done>") otherwise."""
    if data is None:
        data = file_bytes(args)
    try:
        return parse_returns(data, **_reading_options(args))
    except ReturnsError as exc:
        raise UsageError(refusal(args.file, exc, done)) from None


def refusal(path: Path, exc: ReturnsError, done: str) -> str:
    """Every problem of a file that cannot be read, one a line, names from the file escaped (a name must not be
    able to repaint the terminal or forge a line)."""
    count = len(exc.problems)
    lines = [f"{path}: {count} problem{'s' if count != 1 else ''} in the returns; nothing was {done}"]
    lines += [f"  {p.location}: {p.message}" if p.location else f"  {p.message}" for p in exc.problems]
    return "\n".join(escaped(line) for line in lines)


def parse_date(value: str, option: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{option} {value!r}: expected a date as YYYY-MM-DD") from None


# ----------------------------------------------------------------------------- the database
# Imported inside the functions: `check` and `deadlines` start without loading SQLAlchemy and Alembic.

def database_url(url: str | None = None) -> str:
    """`url` when given, else DATABASE_URL from the environment, else the default SQLite file."""
    from storage.db import DEFAULT_DATABASE_URL

    return url if url is not None else (os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)


def connect(url: str | None = None) -> Database:
    """A Database for `url` (see `database_url`), not yet migrated. A malformed URL is a UsageError naming
    DATABASE_URL; its value is not repeated, since it may hold a password."""
    from storage.db import Database, DatabaseUrlError

    try:
        return Database(database_url(url))
    except DatabaseUrlError as exc:
        said = f" {exc}" if str(exc).startswith("is ") else f": {exc}"
        raise UsageError(f"DATABASE_URL{said}; expected e.g. sqlite:///recount-bot.sqlite3 or "
                         "postgresql://user:password@host:5432/name") from None
    except ImportError as exc:  # a driver that is not installed
        raise UsageError(f"DATABASE_URL names a database driver that is not installed ({exc.name})") from None


def unreachable(db: "Database", exc: Exception) -> CommandFailed:
    """One line for a database that does not answer (server down, wrong password, unwritable file)."""
    cause = getattr(exc, "orig", None) or exc
    detail = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    return CommandFailed(f"cannot use the database at {db.describe()}: {detail}")


def migrate(db: "Database") -> tuple[str | None, str | None]:
    """Apply pending migrations; (revision before, revision after). CommandFailed if the database does not answer."""
    from alembic.util.exc import CommandError
    from sqlalchemy.exc import DBAPIError

    from storage.migrate import upgrade

    try:
        return upgrade(db)
    except DBAPIError as exc:
        db.dispose()
        raise unreachable(db, exc) from None
    except CommandError as exc:  # e.g. a database migrated by a newer recount-bot than this one
        db.dispose()
        raise CommandFailed(f"cannot migrate the database at {db.describe()}: {exc}") from None


def open_database(url: str | None = None) -> "Database":
    """The database every command and the server use: opened from `url` / DATABASE_URL / the default, with
    pending migrations applied."""
    db = connect(url)
    before, after = migrate(db)
    if before != after:
        log.info("database at %s migrated: revision %s -> %s", db.describe(), before or "(empty)", after)
    return db


def slack_id(value: str, option: str, kinds: str, example: str) -> str:
    """A Slack id as people paste it (lower case, or a <@U123|name> mention), checked and upper-cased."""
    cleaned = value.strip().removeprefix("<@").removesuffix(">").split("|")[0].upper()
    if len(cleaned) < 3 or cleaned[0] not in kinds or not cleaned.isalnum():
        raise UsageError(f"{option} {value!r}: expected a Slack id like {example}")
    return cleaned


def console_actor() -> str:
    """Who the audit log names for a change made at this console: "cli:<operating-system user>"."""
    try:
        user = getpass.getuser()
    except Exception:  # no login name (some containers): still say it came from the console
        user = "unknown"
    return f"cli:{user}"
