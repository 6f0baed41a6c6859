"""`recount-bot audit verify`: check the audit log's hash chain; exit 1 naming the first altered or removed
row when it is broken."""
from __future__ import annotations

import argparse

from bot.commands.common import open_database, unreachable


def register(subparsers) -> None:
    parser = subparsers.add_parser("audit", help="the audit log: `audit verify` checks its hash chain")
    actions = parser.add_subparsers(dest="audit_command", required=True, parser_class=type(parser))
    verify = actions.add_parser("verify", help="verify that no audit row was altered or removed "
                                               "(exit 0 intact, 1 broken)")
    verify.set_defaults(func=run_verify, command_name="audit verify")


def run_verify(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from storage import audit

    db = open_database()
    try:
        with db.transaction() as session:
            result = audit.verify(session)
    except DBAPIError as exc:
        raise unreachable(db, exc) from None
    finally:
        db.dispose()
    print(f"{result.describe()} (database at {db.describe()})")
    return 0 if result.ok else 1
