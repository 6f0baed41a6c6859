"""`recount-bot admin grant`: roles from the console, recorded in the audit log as the operating-system user."""
from __future__ import annotations

import getpass

from sqlalchemy import select

from storage.db import Database
from storage.models import AuditEntry, Membership, Workspace
from tests.bot.test_cli_db import assert_refused, recount_bot

ME = f"cli:{getpass.getuser()}"


def grant(url: str, user: str, role: str, team: str = "T0OFFICE1"):
    return recount_bot("admin", "grant", "--team", team, "--user", user, "--role", role, database_url=url)


def test_granting_roles_from_the_console(empty_database_url) -> None:
    url = empty_database_url
    first = grant(url, "U0DANA001", "official")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.strip().splitlines()
    assert lines[0].startswith("workspace T0OFFICE1 was new to the database at ") and lines[0].endswith(": created")
    assert lines[1] == f"U0DANA001 in T0OFFICE1: no role -> official (recorded in the audit log as {ME})"

    same = grant(url, "u0dana001", "OFFICIAL", team="t0office1")  # ids and roles as people type them
    assert same.returncode == 0, same.stderr
    assert same.stdout.strip() == "U0DANA001 in T0OFFICE1 already has official; nothing changed"

    assert grant(url, "<@U0SAM0001>", "staff").returncode == 0
    removed = grant(url, "U0SAM0001", "none")
    assert removed.stdout.strip() == f"U0SAM0001 in T0OFFICE1: staff -> no role (recorded in the audit log as {ME})"

    db = Database(url)
    try:
        with db.transaction() as s:
            members = s.execute(select(Membership.slack_user_id, Membership.role, Membership.granted_by)).all()
            assert members == [("U0DANA001", "official", ME)]
            assert s.scalars(select(Workspace.slack_team_id)).all() == ["T0OFFICE1"]
            roles = s.execute(select(AuditEntry.actor, AuditEntry.after).where(AuditEntry.action == "role.set")
                              .order_by(AuditEntry.id)).all()
    finally:
        db.dispose()
    assert [actor for actor, _ in roles] == [ME, ME, ME]
    assert [after["role"] for _, after in roles] == ["official", "staff", None]
    assert roles[0][1]["note"] == "granted from the console"


def test_the_only_official_cannot_be_removed(empty_database_url) -> None:
    url = empty_database_url
    assert grant(url, "U0DANA001", "official").returncode == 0
    assert_refused(grant(url, "U0DANA001", "staff"), 2, "U0DANA001 is the only designated election official",
                   "make someone else an official first")
    assert grant(url, "U0SAM0001", "official").returncode == 0
    assert grant(url, "U0DANA001", "none").returncode == 0


def test_bad_ids_and_roles_are_refused_before_the_database_is_touched(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'never.sqlite3'}"
    assert_refused(grant(url, "dana", "official"), 2, "--user 'dana': expected a Slack id like U0456EFGH")
    assert_refused(grant(url, "U0DANA001", "official", team="office"), 2, "--team 'office'")
    bad_role = grant(url, "U0DANA001", "boss")
    assert bad_role.returncode == 2 and "invalid choice: 'boss'" in bad_role.stderr
    assert not (tmp_path / "never.sqlite3").exists()
