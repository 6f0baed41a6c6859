"""`recount-bot db upgrade`: apply pending database migrations (the server and every command that uses the
database also do it on start)."""
from __future__ import annotations

import argparse

from bot.commands.common import connect, migrate


def register(subparsers) -> None:
    parser = subparsers.add_parser("db", help="the database: `db upgrade` applies pending migrations")
    actions = parser.add_subparsers(dest="db_command", required=True, parser_class=type(parser))
    upgrade = actions.add_parser("upgrade", help="apply pending migrations to DATABASE_URL (default: the SQLite "
                                                 "file recount-bot.sqlite3 in this directory)")
    upgrade.set_defaults(func=run_upgrade, command_name="db upgrade")


def run_upgrade(args: argparse.Namespace) -> int:
    db = connect()
    try:
        before, after = migrate(db)
    finally:
        db.dispose()
    if before == after:
        print(f"database at {db.describe()}: already at head {after}")
    else:
        print(f"database at {db.describe()}: revision {before or '(empty)'} -> {after}")
    return 0
