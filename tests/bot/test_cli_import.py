"""`recount-bot import FILE`: returns into an election, one version per change, nothing written on bad input.
Through the real console script, against SQLite and (with TEST_DATABASE_URL) PostgreSQL."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from services.office.access import ensure_workspace
from storage.db import Database
from storage.migrate import upgrade
from storage.models import AuditEntry, Election, SurveyVersion, Workspace
from tests.bot.test_cli_db import ROOT, assert_refused, recount_bot

EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"
ELECTION = ("--election-date", "2026-11-03", "--name", "Regular Special District Election")
PLACE = ("--local-government", "Front Range Special Districts", "--governing-body", "Board of Directors")


LAW_DEFAULT_LINE = ("Law: C.R.S. 1-13.5-1306 (special district or other local government election) — no --law given, "
                    "so the default, stored with the election; a new election under another law is imported with "
                    "--law 31-10-1207 or --law 1-10.5.")


@pytest.fixture
def database(empty_database_url):
    db = Database(empty_database_url)
    yield empty_database_url, db
    db.dispose()


def count(db: Database, model) -> int:
    with db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model))


def add_workspaces(db: Database, *teams: str) -> None:
    upgrade(db)
    with db.transaction() as s:
        for team in teams:
            ensure_workspace(s, team, name=f"Office {team}", actor="test")


def run_import(url: str, path: Path, *extra: str):
    return recount_bot("import", str(path), *ELECTION, *extra, database_url=url)


def test_first_identical_and_changed_imports(database, tmp_path) -> None:
    url, db = database
    first = run_import(url, EXAMPLE, "--team", "T0OFFICE1", *PLACE)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        "Regular Special District Election: survey of returns version 1 recorded (4 contests).",
        LAW_DEFAULT_LINE]

    again = run_import(url, EXAMPLE, *PLACE)  # --team inferred: the database holds one workspace now
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0] == ("Regular Special District Election: the returns are identical to version "
                                            "1; no new version was made.")
    assert count(db, SurveyVersion) == 1

    changed = tmp_path / "corrected.csv"
    changed.write_text(EXAMPLE.read_text(encoding="utf-8").replace(",Yes,2208,", ",Yes,2209,"), encoding="utf-8")
    assert changed.read_text(encoding="utf-8") != EXAMPLE.read_text(encoding="utf-8")
    third = run_import(url, changed)  # the local government inferred too: the office serves one
    assert third.returncode == 0, third.stderr
    assert "survey of returns version 2 recorded (4 contests; changed: Bear Creek Fire Protection District - " \
           "Ballot Issue 6A)" in third.stdout
    with db.transaction() as s:
        versions = s.scalars(select(SurveyVersion).order_by(SurveyVersion.number)).all()
        assert [(v.number, v.source_name) for v in versions] == [(1, EXAMPLE.name), (2, "corrected.csv")]
        assert all(v.created_by.startswith("cli:") for v in versions)
        actors = set(s.scalars(select(AuditEntry.actor)))
    assert len(actors) == 1 and actors.pop().startswith("cli:")


def test_a_bad_file_lists_every_problem_and_writes_nothing(database, tmp_path) -> None:
    url, db = database
    bad = tmp_path / "bad.csv"
    bad.write_text("contest,choice,votes\nMayor,Alice,12x\nMayor,Bob,-3\n", encoding="utf-8")
    result = run_import(url, bad, "--team", "T0OFFICE1", *PLACE)
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    stderr = result.stderr
    assert "2 problems in the returns; nothing was imported" in stderr
    assert "row 2" in stderr and "row 3" in stderr
    upgrade(db)
    assert (count(db, SurveyVersion), count(db, Election), count(db, Workspace), count(db, AuditEntry)) == (0, 0, 0, 0)


def test_a_refusal_by_the_service_rolls_everything_back(database) -> None:
    url, db = database
    # No local government named, and none set up: refused after the workspace was looked up (and made).
    result = run_import(url, EXAMPLE, "--team", "T0OFFICE1")
    assert_refused(result, 2, "Name the local government", "--local-government", "Nothing was imported.")
    assert (count(db, SurveyVersion), count(db, Election), count(db, Workspace), count(db, AuditEntry)) == (0, 0, 0, 0)


def test_a_bad_date_or_seats_option_is_named(database) -> None:
    url, _ = database
    assert_refused(recount_bot("import", str(EXAMPLE), "--election-date", "11/03/2026", "--name", "X",
                                      database_url=url), 2, "--election-date '11/03/2026': expected a date")
    assert_refused(run_import(url, EXAMPLE, "--seats", "Mayor=two"), 2, "--seats 'Mayor=two'")


def test_team_left_out_with_no_workspace_says_how_to_get_one(database) -> None:
    url, db = database
    stderr = assert_refused(run_import(url, EXAMPLE, *PLACE), 2, "no Slack workspace in the database",
                                   "first time someone uses it in Slack", "--team")
    assert "/recount help" in stderr
    assert count(db, SurveyVersion) == 0


def test_team_left_out_with_one_workspace_uses_it(database) -> None:
    url, db = database
    add_workspaces(db, "T0ONLYONE")
    result = run_import(url, EXAMPLE, *PLACE)
    assert result.returncode == 0, result.stderr
    with db.transaction() as s:
        assert s.scalars(select(Workspace.slack_team_id)).all() == ["T0ONLYONE"]
        assert s.scalar(select(func.count()).select_from(SurveyVersion)) == 1


def test_team_left_out_with_several_workspaces_lists_them(database) -> None:
    url, db = database
    add_workspaces(db, "T0FIRST01", "T0SECOND2")
    assert_refused(run_import(url, EXAMPLE, *PLACE), 2, "holds 2 workspaces", "--team",
                          "T0FIRST01 (Office T0FIRST01)", "T0SECOND2 (Office T0SECOND2)")
    assert count(db, SurveyVersion) == 0


PRIMARY = ROOT / "tests" / "fixtures" / "returns" / "openelections-co" / "20160628__co__primary__county.csv"


def test_a_real_file_imports_with_what_was_set_aside_and_the_readings_said(database, tmp_path) -> None:
    url, db = database
    result = run_import(url, PRIMARY, "--team", "T0OFFICE1", *PLACE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Regular Special District Election: survey of returns version 1 recorded (164 contests)."
    assert lines[1] == LAW_DEFAULT_LINE
    assert lines[2].startswith("Reading: party primary: the file's name says so (20160628__co__primary__county.csv)")
    # The same rows under a name that says nothing: a primary cannot be told from a general election, so
    # nothing is recorded until the clerk says which it is.
    unnamed = tmp_path / "returns.csv"
    unnamed.write_bytes(PRIMARY.read_bytes())
    refused = recount_bot("import", str(unnamed), "--election-date", "2026-06-28", "--name", "Primary",
                          "--team", "T0OFFICE1", *PLACE, database_url=url)
    assert refused.returncode == 2 and "nothing was imported" in refused.stderr
    assert "contest 'State Senate - District 25': the file does not say whether it is a party primary" in refused.stderr
    said = recount_bot("import", str(unnamed), "--election-date", "2026-06-28", "--name", "Primary",
                       "--election-kind", "primary", "--team", "T0OFFICE1", *PLACE, database_url=url)
    assert said.returncode == 0, said.stderr
    assert "Reading: party primary: as you said (--election-kind)" in said.stdout
    assert count(db, SurveyVersion) == 2


def test_the_law_is_stored_with_the_election_and_kept(database, tmp_path) -> None:
    url, db = database
    given = run_import(url, EXAMPLE, "--team", "T0OFFICE1", "--law", "31-10-1207", *PLACE)
    assert given.returncode == 0, given.stderr
    lines = given.stdout.splitlines()
    assert lines[1] == "Law: C.R.S. 31-10-1207 (municipal election) — stored with the election (--law 31-10-1207)."
    with db.transaction() as s:
        election = s.scalars(select(Election)).one()
        assert (election.law, election.law_basis) == ("31-10-1207", "given")
    # A re-import without --law keeps the stored law and says so.
    changed = tmp_path / "corrected.csv"
    changed.write_text(EXAMPLE.read_text(encoding="utf-8").replace(",Yes,2208,", ",Yes,2209,"), encoding="utf-8")
    kept = run_import(url, changed)
    assert kept.returncode == 0, kept.stderr
    assert kept.stdout.splitlines()[1] == ("Law: C.R.S. 31-10-1207 (municipal election) — the law the election is "
                                           "stored with (no --law given).")
    # A --law that disagrees with the stored one is refused, naming both, and nothing is written.
    refused = run_import(url, changed, "--law", "1-10.5")
    assert_refused(refused, 2, "held under C.R.S. 31-10-1207 (municipal election)", "C.R.S. 1-10.5 (coordinated "
                   "election)", "Nothing was imported")
    assert count(db, SurveyVersion) == 2
    # An unknown law is refused before anything is read or written.
    assert_refused(run_import(url, EXAMPLE, "--law", "1306", *PLACE), 2, "--law", "'1306'", "1-13.5-1306",
                   "31-10-1207", "1-10.5")
    assert count(db, SurveyVersion) == 2


def test_an_election_whose_law_was_never_chosen_takes_the_one_named_until_something_is_decided(database) -> None:
    """An election imported without --law (or recorded before the law was chosen per election) runs under
    1-13.5-1306 by default; a later import naming its real law sets it, audited, before any case or request.
    Once named, it is kept like any other."""
    url, db = database
    assert run_import(url, EXAMPLE, "--team", "T0OFFICE1", *PLACE).returncode == 0
    named = run_import(url, EXAMPLE, "--law", "1-10.5")
    assert named.returncode == 0, named.stderr
    assert named.stdout.splitlines()[1].startswith("Law: C.R.S. 1-10.5 (coordinated election)")
    with db.transaction() as s:
        election = s.scalars(select(Election)).one()
        assert (election.law, election.law_basis) == ("1-10.5", "given")
        audit = s.scalars(select(AuditEntry).where(AuditEntry.action == "election.law_named")).one()
        assert audit.before == {"law": "1-13.5-1306", "law_basis": "default"}
        assert audit.after == {"law": "1-10.5", "law_basis": "given"}
    assert_refused(run_import(url, EXAMPLE, "--law", "31-10-1207"), 2, "held under C.R.S. 1-10.5 (coordinated "
                   "election)", "C.R.S. 31-10-1207 (municipal election)", "Nothing was imported")


def test_a_refusal_names_what_was_typed_with_its_terminal_escapes_shown_not_obeyed(database) -> None:
    # Two local governments whose names carry what a terminal obeys (a title-setting escape, a right-to-left
    # override) and what Slack would read (`<!channel> &`): the refusal that lists them reaches the terminal
    # as the plain words the use case said, escapes visible, nothing of Slack's escaping.
    url, _ = database
    names = ("Pine \x1b]0;owned\x07 <!channel> & Co", "Aspen \u202eseY\u202c District")
    for name in names:
        result = run_import(url, EXAMPLE, "--team", "T0OFFICE1", "--local-government", name)
        assert result.returncode == 0, result.stderr
    stderr = assert_refused(run_import(url, EXAMPLE, "--team", "T0OFFICE1"), 2,
                            "recount-bot import: This office serves several local governments; name one with "
                            "--local-government", "Pine \\x1b]0;owned\\x07 <!channel> & Co",
                            "Aspen \\u202eseY\\u202c District", "Nothing was imported.")
    assert "\x1b" not in stderr and "\x07" not in stderr and "\u202e" not in stderr and "&lt;" not in stderr


def test_check_and_deadlines_of_a_stored_election_use_its_law(database) -> None:
    url, _ = database
    town = ROOT / "examples" / "town-election.csv"
    stored = recount_bot("import", str(town), "--election-date", "2026-04-07", "--name", "Regular Town Election",
                         "--law", "31-10-1207", "--team", "T0OFFICE1", "--local-government", "Town of Elk Springs",
                         "--governing-body", "Board of Trustees", database_url=url)
    assert stored.returncode == 0, stored.stderr
    # deadlines --election: the stored day and law (Tue 04-07 + 10 = Fri 04-17; + 15 = Wed 04-22).
    answer = recount_bot("deadlines", "--election", "regular town election", "--format", "json", database_url=url)
    assert answer.returncode == 0, answer.stderr
    data = json.loads(answer.stdout)
    assert (data["request_deadline"]["date"], data["request_deadline"]["citation"]) == ("2026-04-17",
                                                                                      "C.R.S. 31-10-1207(2)")
    assert data["automatic_recount_deadline"]["date"] == "2026-04-22"
    assert data["law"]["key"] == "31-10-1207" and data["law"]["election"] == {
        "name": "Regular Town Election", "election_date": "2026-04-07", "basis": "given",
        "named": "C.R.S. 31-10-1207 (municipal election)"}
    text = recount_bot("deadlines", "--election", "Regular Town Election", database_url=url).stdout
    assert ("Law: C.R.S. 31-10-1207 (municipal election) — the law the election Regular Town Election of 2026-04-07 "
            "is stored with.") in text
    # check FILE --election: the file's verdicts under the stored law.
    checked = recount_bot("check", str(town), "--election", "Regular Town Election", database_url=url).stdout
    assert "1 needs an automatic recount under C.R.S. 31-10-1207(1)" in checked.splitlines()[0]
    # A --law that disagrees is refused, naming both; an election not stored is refused too.
    assert_refused(recount_bot("deadlines", "--election", "Regular Town Election", "--law", "1-10.5",
                               database_url=url), 2, "held under C.R.S. 31-10-1207 (municipal election)",
                   "not C.R.S. 1-10.5 (coordinated election)")
    assert_refused(recount_bot("check", str(town), "--election", "Regular Town Election", "--law", "1-13.5-1306",
                               database_url=url), 2, "C.R.S. 31-10-1207", "C.R.S. 1-13.5-1306")
    assert_refused(recount_bot("deadlines", "--election", "Town Hall Election", database_url=url), 2,
                   "no election of that name is stored")
