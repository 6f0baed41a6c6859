"""`recount-bot backup FILE` and `recount-bot restore FILE`.

backup: a consistent snapshot of DATABASE_URL while the bot runs, in the portable format of
storage/backup_format.py (restorable into SQLite or PostgreSQL). Never migrates the database it reads: a backup
taken before an upgrade is of the database as it was. Refuses to replace FILE without --force; a failed backup
leaves no file.

restore: loads FILE into DATABASE_URL, which must be empty (storage/restore.py), and verifies the audit log and
every sealed row (storage/audit.py, storage/seals.py) before committing: a copy that does not verify is rolled back
and the database left as it was, unless --keep-unverified asks to keep it (to inspect a damaged copy; the output
says so). Exit 0 restored and intact; 1 kept with --keep-unverified although its audit log does not verify, or the
database does not answer; 2 refused, nothing changed (a damaged file, a copy whose audit log does not verify, a
database that is not empty, a newer backup).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.commands.common import connect, unreachable
from bot.commands.errors import UsageError
from bot.commands.progress import add_quiet, bar


def register(subparsers) -> None:
    backup = subparsers.add_parser("backup", help="write a consistent backup of the database to FILE, while the bot "
                                                  "runs (restorable into SQLite or PostgreSQL)")
    backup.add_argument("file", type=Path, metavar="FILE",
                        help="the backup file to write (e.g. recount-2026-11-10.tar)")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    backup.add_argument("--no-pg-dump", dest="pg_dump", action="store_false",
                        help="PostgreSQL: do not add pg_dump's output of the same snapshot (added when pg_dump "
                             "is installed; restore never needs it)")
    add_quiet(backup)
    backup.set_defaults(func=run_backup, command_name="backup")
    restore = subparsers.add_parser("restore", help="load a backup FILE into an empty database, then verify its "
                                                    "audit log")
    restore.add_argument("file", type=Path, metavar="FILE", help="a file written by `recount-bot backup`")
    restore.add_argument("--keep-unverified", action="store_true",
                         help="keep the copy even when its audit log does not verify (to inspect a damaged or "
                              "tampered copy); without it such a copy is rolled back and nothing changes")
    add_quiet(restore)
    restore.set_defaults(func=run_restore, command_name="restore")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def run_backup(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from storage.backup import BackupRefused, make_backup

    db = connect()
    try:
        with bar(args, what="backing up") as report:
            summary = make_backup(db, args.file, force=args.force, pg_dump=args.pg_dump, progress=report)
    except BackupRefused as exc:
        raise UsageError(f"{exc}; no backup was written") from None
    except DBAPIError as exc:
        raise unreachable(db, exc) from None
    except OSError as exc:
        raise UsageError(f"{args.file}: cannot write ({exc.strerror or exc}); no backup was written") from None
    finally:
        db.dispose()
    for note in summary.notes:
        print(f"note: {note}", file=sys.stderr)
    manifest = summary.manifest
    head = manifest["audit_head"]["last_id"]
    extras = "".join(f"; with {n['member']}" for n in manifest["native"])
    print(f"backup written to {args.file}: {_count(len(manifest['tables']), 'table')}, {_count(summary.rows, 'row')}, "
          f"audit log up to row {head}, database revision {manifest['alembic_revision']}, of "
          f"{manifest['source_database']}{extras}. "
          "Keep a copy off this machine, encrypted; `recount-bot restore FILE` loads it into an empty database.")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from storage.backup_format import BackupFileError
    from storage.restore import RestoreRefused, RestoreUnverified, restore

    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file" if not args.file.exists() else f"{args.file}: not a file")
    db = connect()
    try:
        try:
            with bar(args, what="restoring") as report, bar(args, what="verifying the audit log") as verifying:
                summary = restore(db, args.file, keep_unverified=args.keep_unverified, progress=report,
                                  verify_progress=verifying)
        except BackupFileError as exc:
            raise UsageError(f"{args.file}: {exc}; nothing was restored") from None
        except RestoreUnverified as exc:
            raise UsageError(f"{args.file}: {exc}. Nothing was restored: the database is as it was. To load the "
                             "copy anyway, for inspection, give --keep-unverified") from None
        except RestoreRefused as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:
            raise UsageError(f"{args.file}: cannot read ({exc.strerror or exc}); nothing was restored") from None
        manifest = summary.manifest
        print(f"restored {args.file} (made {manifest['created_at']} of {manifest.get('source_database', '?')}) into "
              f"{db.describe()}: {_count(summary.tables, 'table')}, {_count(summary.rows, 'row')}; every table's row "
              "count and checksum match the backup")
        if summary.revision != summary.head:
            print(f"database migrated: the backup's revision {summary.revision} -> {summary.head}")
    except DBAPIError as exc:
        raise unreachable(db, exc) from None
    finally:
        db.dispose()
    result = summary.verification
    if result.ok:
        print(result.describe())
        return 0
    print(f"KEPT although its audit log does not verify, as --keep-unverified asked: {result.describe()}. Do not "
          "run recount-bot on this copy; restore a copy that verifies.")
    return 1
