"""`recount-bot admin grant`: set a person's role from the console, the recovery path when no workspace
admin is available to become the first official in Slack. Recorded in the audit log as "cli:<os user>"."""
from __future__ import annotations

import argparse

from bot.commands.common import console_actor, open_database, slack_id
from bot.commands.errors import UsageError
from bot.terminal_text import said

ROLES = ["official", "staff", "viewer", "none"]  # storage.models.Role, and none to remove a role


def register(subparsers) -> None:
    parser = subparsers.add_parser("admin", help="roles from the console: `admin grant`")
    actions = parser.add_subparsers(dest="admin_command", required=True, parser_class=type(parser))
    grant = actions.add_parser("grant", help="give a Slack user a role in a workspace (none removes it)")
    grant.add_argument("--team", required=True, help="the workspace's Slack team id, e.g. T0123ABCD")
    grant.add_argument("--user", required=True, help="the person's Slack member id, e.g. U0456EFGH (in Slack: "
                                                     "their profile, ⋮, Copy member ID)")
    grant.add_argument("--role", required=True, type=str.lower, choices=ROLES)
    grant.set_defaults(func=run_grant, command_name="admin grant")


def run_grant(args: argparse.Namespace) -> int:
    from services.errors import UserError
    from services.office.operator import grant_role_from_console
    from services.services import Services
    from storage.models import Role

    team = slack_id(args.team, "--team", "TE", "T0123ABCD")
    user = slack_id(args.user, "--user", "UW", "U0456EFGH")
    role = None if args.role == "none" else Role(args.role)
    actor = console_actor()
    db = open_database()
    try:
        grant = grant_role_from_console(Services(db), team, user, role, actor)
    except UserError as exc:
        raise UsageError(said(exc.words)) from None
    finally:
        db.dispose()
    if grant.workspace_created:
        print(f"workspace {team} was new to the database at {db.describe()}: created")
    if not grant.changed:
        print(f"{user} in {team} already has {grant.after or 'no role'}; nothing changed")
    else:
        print(f"{user} in {team}: {grant.before or 'no role'} -> {grant.after or 'no role'} "
              f"(recorded in the audit log as {actor})")
    return 0
