"""`recount-bot case-record CASE`: the whole record of one recount case — the timeline from the audit log, the
numbers, each decision with its citation — as JSON (to stdout by default) or PDF, for a court or a records
request. Read-only; certificate links' tokens are left out.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.commands.common import open_database, slack_id, unreachable
from bot.commands.errors import CommandFailed, UsageError
from bot.terminal_text import said


def register(subparsers) -> None:
    parser = subparsers.add_parser("case-record", help="the whole record of a recount case as JSON or PDF")
    parser.add_argument("case", metavar="CASE", help="the case number, as on its card (e.g. 12 or #12)")
    parser.add_argument("--format", choices=("json", "pdf"), default="json", dest="record_format",
                        help="json (default) or pdf")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="write to this file instead of stdout (a PDF is written to stdout only when it is "
                             "not a terminal)")
    parser.add_argument("--team", metavar="TEAM", help="only a case of this Slack workspace (team id, e.g. T0123ABCD)")
    parser.set_defaults(func=run)


def case_number(value: str) -> int:
    cleaned = value.strip().removeprefix("#")
    if not cleaned.isdigit() or int(cleaned) < 1:
        raise UsageError(f"CASE {value!r}: expected a case number like 12 (it is at the foot of the case card)")
    return int(cleaned)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy import select
    from sqlalchemy.exc import DBAPIError

    from services.completion.case_record import build_case_record
    from services.errors import UserError
    from services.services import Services
    from storage.models import Workspace

    case_id = case_number(args.case)
    team = slack_id(args.team, "--team", "TE", "T0123ABCD") if args.team else None
    if args.record_format == "pdf" and args.out is None and sys.stdout.isatty():
        raise UsageError("a PDF is not for a terminal: give --out FILE (or redirect stdout to a file)")
    db = open_database()
    try:
        services = Services(db)
        workspace_id = None
        if team is not None:
            with db.transaction() as session:
                workspace_id = session.scalar(select(Workspace.id).where(Workspace.slack_team_id == team))
            if workspace_id is None:
                raise UsageError(f"--team {team}: no such workspace in the database at {db.describe()}")
        try:
            record = build_case_record(services, case_id=case_id, workspace_id=workspace_id)
        except UserError as exc:
            where = f" of {team}" if team else ""
            raise UsageError(f"no recount case #{case_id}{where} in the database at {db.describe()}"
                             if "no recount case" in exc.message else said(exc.words)) from None
    except DBAPIError as exc:
        raise unreachable(db, exc) from None
    finally:
        db.dispose()
    if args.record_format == "json":
        data = (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    else:
        from services.documents.case_record_pdf import case_record_pdf
        from services.documents.glyphs import UnprintableText

        try:
            data = case_record_pdf(record)
        except UnprintableText as exc:  # a name no bundled font prints: said, nothing written
            raise CommandFailed(said(exc.words)) from None
    if args.out is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    try:
        args.out.write_bytes(data)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    print(f"recount case #{case_id} ({record['case']['contest']}): {args.record_format.upper()} record written to "
          f"{args.out}")
    return 0
