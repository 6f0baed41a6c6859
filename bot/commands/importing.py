"""`recount-bot import FILE`: load a survey of returns into an election, as a new version.

Any format `check` reads, with the same options (--input-format, --seats, --election-kind). A survey of
returns must be complete: a file with a contest `check` would list as undecided (a row it cannot read,
a hidden count, a primary it cannot tell from a general election) is refused whole, every problem
listed. A re-import of changed returns records version 2, 3, ...; an identical one
records nothing. Bad input exits 2 with every problem listed, and nothing is written.

--law names the recount law a new election runs under, stored with it (1-13.5-1306 when not given, and the answer
says so). An election already in the database keeps the law it is stored with: a re-import without --law uses it,
and a --law that disagrees is refused, naming both, before anything is written.
"""
from __future__ import annotations

import argparse

from bot.commands.common import (
    add_returns_arguments,
    console_actor,
    file_bytes,
    load_returns,
    open_database,
    parse_date,
    slack_id,
)
from bot.commands.errors import UsageError
from bot.commands.law_option import add_law_argument, chosen_law, stored_law_line
from bot.commands.progress import add_quiet, bar, elapsed
from bot.terminal_text import escaped, said


def register(subparsers) -> None:
    parser = subparsers.add_parser("import", help="load a survey of returns into an election (a new version)")
    add_returns_arguments(parser)
    parser.add_argument("--election-date", required=True, help="YYYY-MM-DD")
    add_law_argument(parser)
    parser.add_argument("--name", required=True, help='the election, e.g. "Regular Special District Election"')
    parser.add_argument("--local-government", help="the local government conducting it (may be left out when the "
                                                   "office serves only one)")
    parser.add_argument("--governing-body", help='who receives its notices, e.g. "Board of Directors"')
    parser.add_argument("--team", help="the Slack workspace (team id, e.g. T0123ABCD); may be left out when the "
                                       "database holds exactly one")
    add_quiet(parser)
    parser.set_defaults(func=run)


def choose_team(services, team: str | None) -> str:
    from services.office.operator import list_workspaces

    if team:
        return team
    workspaces = list_workspaces(services)
    if len(workspaces) == 1:
        return workspaces[0].team_id
    where = services.db.describe()
    if not workspaces:
        raise UsageError(f"no Slack workspace in the database at {where} yet. The bot records its workspace the "
                         "first time someone uses it in Slack (try `/recount help`); or pass --team with your "
                         "workspace's team id (e.g. T0123ABCD).")
    listed = ", ".join(f"{w.team_id} ({w.name})" if w.name else w.team_id for w in workspaces)
    raise UsageError(f"the database at {where} holds {len(workspaces)} workspaces; say which with --team: {listed}")


def run(args: argparse.Namespace) -> int:
    # Imported here, not at the top: bot/cli.py imports every command to list them, and `check` should not carry
    # this one's (hashlib loads OpenSSL, about 4 MiB; the services load the database layer).
    import hashlib

    from services.errors import UserError
    from services.returns.versions import import_returns
    from services.services import Services

    election_date = parse_date(args.election_date, "--election-date")
    team = slack_id(args.team, "--team", "TE", "T0123ABCD") if args.team else None
    law = chosen_law(args)  # checked before the file is read; the election's stored law is what the answer names
    with elapsed(args, what=f"reading {args.file.name}"):
        source = file_bytes(args)  # read once, to its size limit
        returns = load_returns(args, done="imported", data=source)  # every problem, before the database is opened
    sha256 = hashlib.sha256(source).hexdigest()
    del source  # the returns are read: the file's bytes are not held beside the counts being written
    db = open_database()
    services = Services(db)
    try:
        with bar(args, what="writing vote counts") as report:
            result = import_returns(
                services, team_id=choose_team(services, team), returns=returns, election_name=args.name,
                election_date=election_date, local_government=args.local_government,
                governing_body=args.governing_body, source_name=args.file.name, source_sha256=sha256,
                actor=console_actor(), progress=report, law=law.profile.key if law.given else None)
    except UserError as exc:
        raise UsageError(f"{said(exc.words)} Nothing was imported.") from None
    finally:
        db.dispose()
    print(escaped(result.describe()))
    print(stored_law_line(result.law, law))
    for reading in returns.readings:
        print(escaped(f"Reading: {reading}"))
    for aside in returns.set_aside:
        print(f"Set aside: {aside.count:,} {aside.kind} row{'s' if aside.count != 1 else ''} (not votes for a choice)")
    for note in returns.notes:
        print(escaped(f"Note: {note}"))
    return 0
