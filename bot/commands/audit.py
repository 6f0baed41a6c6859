"""`recount-bot audit verify [--against CHECKPOINT]` and `recount-bot audit checkpoint FILE`.

verify: the audit log's hash chain, then (with --against) that the log still holds the head a checkpoint kept
outside the database recorded, then every sealed business row (returns, tally sheets, money: storage/seals.py)
against what the log recorded. Exit 0 intact, 1 broken (naming the first altered, removed or cut row), 2 for a
checkpoint that cannot be used (unreadable, another key, altered) or a missing key.

checkpoint: verifies the log the same way and, only when it is intact, writes its head signed with the audit
key (storage/checkpoint.py) to FILE ("-": standard output), replacing FILE at once, never half-written.

The key (HMAC-SHA256) is never in the database: --key-file PATH, else the file RECOUNT_AUDIT_KEY_FILE names,
else the RECOUNT_AUDIT_KEY variable itself; at least 32 bytes. Never printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from bot.commands.common import open_database, read_input_file, unreachable
from bot.commands.errors import CommandFailed, UsageError
from bot.commands.progress import add_quiet, bar

KEY_FILE_VARIABLE, KEY_VARIABLE = "RECOUNT_AUDIT_KEY_FILE", "RECOUNT_AUDIT_KEY"
MAKE_A_KEY = ("make one with: python3 -c \"import secrets; print(secrets.token_hex(32))\" > audit.key "
              "(keep it away from the database)")


def register(subparsers) -> None:
    parser = subparsers.add_parser("audit", help="the audit log: `audit verify` checks its hash chain and the "
                                                 "business rows, `audit checkpoint FILE` anchors it outside")
    actions = parser.add_subparsers(dest="audit_command", required=True, parser_class=type(parser))
    verify = actions.add_parser("verify", help="verify that no audit row or sealed business row was altered or "
                                               "removed (exit 0 intact, 1 broken)")
    verify.add_argument("--against", type=Path, metavar="CHECKPOINT", default=None,
                        help="a checkpoint made by `audit checkpoint`: also catches a rewritten chain or a cut tail")
    _key_argument(verify)
    add_quiet(verify)
    verify.set_defaults(func=run_verify, command_name="audit verify")
    checkpoint = actions.add_parser("checkpoint", help="write the audit chain's head, signed, to FILE (keep it "
                                                       "outside the database)")
    checkpoint.add_argument("file", metavar="FILE", help="where to write the checkpoint (\"-\": standard output)")
    _key_argument(checkpoint)
    checkpoint.set_defaults(func=run_checkpoint, command_name="audit checkpoint")


def _key_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--key-file", type=Path, default=None, metavar="PATH",
                        help=f"the audit key (default: the file {KEY_FILE_VARIABLE} names, else {KEY_VARIABLE})")


# ----------------------------------------------------------------------------- the key
def _read_key_file(path: Path, source: str) -> bytes:
    return read_input_file(path, named=f"{source} {path}", kind="a key file", missing_hint=f"; {MAKE_A_KEY}").strip()


def audit_key(args: argparse.Namespace) -> bytes:
    """The checkpoint key: --key-file, else RECOUNT_AUDIT_KEY_FILE, else RECOUNT_AUDIT_KEY."""
    file_setting = (os.environ.get(KEY_FILE_VARIABLE) or "").strip()
    value_setting = os.environ.get(KEY_VARIABLE) or ""
    if args.key_file is not None:
        key, source = _read_key_file(args.key_file, "--key-file"), "--key-file"
    elif file_setting and value_setting.strip():
        raise UsageError(f"{KEY_FILE_VARIABLE} and {KEY_VARIABLE} are both set: set one")
    elif file_setting:
        key, source = _read_key_file(Path(file_setting), KEY_FILE_VARIABLE), KEY_FILE_VARIABLE
    elif value_setting.strip():
        key, source = value_setting.strip().encode(), KEY_VARIABLE
    else:
        raise UsageError(f"no audit key: set {KEY_FILE_VARIABLE} to a key file (or give --key-file); {MAKE_A_KEY}")
    from storage.checkpoint import MIN_KEY_BYTES

    if len(key) < MIN_KEY_BYTES:
        raise UsageError(f"{source}: the audit key has {len(key)} bytes; it needs at least {MIN_KEY_BYTES} "
                         f"({MAKE_A_KEY})")
    return key


def _checkpoint_file(path: Path, key: bytes):
    from storage.checkpoint import MAX_CHECKPOINT_BYTES, CheckpointError, load

    data = read_input_file(path, named=f"--against {path}", kind="a checkpoint", limit=MAX_CHECKPOINT_BYTES)
    try:
        return load(data, key=key)
    except CheckpointError as exc:
        raise UsageError(f"--against {path}: {exc}; nothing was verified") from None


# ----------------------------------------------------------------------------- the commands
def verify_snapshot(db, anchor=None, progress=None):
    """Verify in one snapshot of the database (a server may be appending meanwhile): the chain, its head and
    the business rows as of one moment, so an append in between is neither a false alarm nor unverified."""
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.orm import Session

    from storage import audit

    try:
        with db.engine.connect() as connection:
            # PostgreSQL: one snapshot for the whole transaction. SQLite: a plain BEGIN (storage.db) takes no
            # write lock, and WAL keeps its snapshot until the end.
            options = {"isolation_level": "REPEATABLE READ"} if db.dialect == "postgresql" else {"read_only": True}
            with Session(bind=connection.execution_options(**options)) as session:
                try:
                    return audit.verify(session, anchor=anchor, progress=progress), audit.head(session)
                finally:
                    session.rollback()
    except DBAPIError as exc:
        raise unreachable(db, exc) from None


def run_verify(args: argparse.Namespace) -> int:
    anchor = found = None
    if args.against is not None:
        from storage.audit import Anchor

        found = _checkpoint_file(args.against, audit_key(args))
        anchor = Anchor(found.last_id, found.last_hash, found.label)
    db = open_database()
    try:
        with bar(args, what="verifying the audit log") as report:
            result, _ = verify_snapshot(db, anchor, report)
    finally:
        db.dispose()
    print(f"{result.describe()} (database at {db.describe()})")
    if found is not None and not result.ok and found.database != db.describe():
        # A restored copy verifies against its original's checkpoints; a checkpoint of another office's does not.
        print(f"note: the checkpoint was made of the database at {found.database}")
    return 0 if result.ok else 1


def run_checkpoint(args: argparse.Namespace) -> int:
    from storage import checkpoint
    from storage.types import utcnow

    key = audit_key(args)
    target = None if args.file == "-" else Path(args.file)
    if target is not None and target.is_dir():
        raise UsageError(f"{target}: is a directory; give the checkpoint file's name")
    db = open_database()
    try:
        result, (last_id, last_hash) = verify_snapshot(db)
    finally:
        db.dispose()
    if not result.ok:
        print(f"{result.describe()} (database at {db.describe()})")
        raise CommandFailed("no checkpoint written: a checkpoint vouches only for an intact log")
    text = checkpoint.dumps(checkpoint.make(last_id, last_hash, database=db.describe(), key=key, now=utcnow()))
    if target is None:
        sys.stdout.write(text)
        return 0
    _write_at_once(target, text)
    print(f"audit checkpoint written to {target}: row {last_id}, hash {last_hash[:12]}…, "
          f"{result.business_rows:,} business rows intact. Keep it where the database's users cannot change it; "
          f"`recount-bot audit verify --against {target}` checks the log against it.")
    return 0


def _write_at_once(target: Path, text: str) -> None:
    """Write beside the target and rename over it: a crash leaves the old checkpoint or the new, never half."""
    try:
        fd, temporary = tempfile.mkstemp(prefix=".checkpoint-", dir=target.parent if str(target.parent) else ".")
    except FileNotFoundError:
        raise UsageError(f"{target}: its folder {target.parent} does not exist") from None
    except OSError as exc:
        raise UsageError(f"{target}: cannot write there ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise UsageError(f"{target}: cannot write ({exc.strerror})") from None
