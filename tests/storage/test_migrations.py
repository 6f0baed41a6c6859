"""Migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""
from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from storage.db import Database
from storage.migrate import current_revision, head_revision, upgrade
from storage.models import Base


def test_upgrade_from_empty_reaches_head_and_matches_the_models(empty_database_url) -> None:
    db = Database(empty_database_url)
    try:
        before, after = upgrade(db)
        assert before is None and after == head_revision()
        with db.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        # A second upgrade is a no-op: starting the server twice never fails.
        assert upgrade(db) == (head_revision(), head_revision())
        assert current_revision(db) == head_revision()
    finally:
        db.dispose()


def test_upgrading_a_database_that_holds_data_keeps_it(empty_database_url) -> None:
    import datetime as dt

    from sqlalchemy import text

    db = Database(empty_database_url)
    try:
        upgrade(db, "0002")
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) "
                              "VALUES (1, 'T1', 'Office', '{}', :at)"), {"at": dt.datetime(2026, 11, 1)})
            conn.execute(text("INSERT INTO local_governments (id, workspace_id, name, governing_body) "
                              "VALUES (1, 1, 'District', 'Board')"))
            conn.execute(text("INSERT INTO elections (id, local_government_id, name, election_date, created_at) "
                              "VALUES (1, 1, 'Regular', :day, :at)"), {"day": dt.date(2026, 11, 3),
                                                                        "at": dt.datetime(2026, 11, 1)})
        upgrade(db)
        from storage.models import Election

        with db.transaction() as session:
            election = session.get(Election, 1)
            assert election.name == "Regular" and election.abstract_preparers == []
    finally:
        db.dispose()


def test_0013_leaves_every_case_unmarked_indexes_the_foreign_keys_and_goes_back(empty_database_url) -> None:
    """Issue 25: duties_done starts false for every case (the worker's first tick decides which completed ones owe
    nothing: tests/flows/test_settled_cases_flow.py), the foreign keys the poll filters by get their indexes, and
    the revision downgrades cleanly, keeping the rows."""
    import datetime as dt

    from alembic import command
    from sqlalchemy import inspect, text

    from storage.migrate import alembic_config

    db = Database(empty_database_url)
    try:
        upgrade(db, "0012")
        at = dt.datetime(2026, 11, 20, 16, 0)
        with db.engine.begin() as conn:
            for sql, values in (
                ("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) VALUES (1, 'T1', 'Office', "
                 "'{}', :at)", {}),
                ("INSERT INTO local_governments (id, workspace_id, name, governing_body) VALUES (1, 1, 'District', "
                 "'Board')", {}),
                ("INSERT INTO elections (id, local_government_id, name, election_date, abstract_preparers, created_at) "
                 "VALUES (1, 1, 'Regular', :day, '[]', :at)", {"day": dt.date(2026, 11, 3)}),
                ("INSERT INTO contests (id, election_id, name, kind, seats, position) VALUES (1, 1, 'Director', "
                 "'candidate', 1, 0)", {}),
                ("INSERT INTO survey_versions (id, election_id, number, reason, evidence, source_format, source_name, "
                 "created_by, created_at) VALUES (1, 1, 1, 'imported', '[]', 'csv', 'r.csv', 'U1', :at)", {}),
                ("INSERT INTO recount_cases (id, workspace_id, contest_id, kind, status, opened_at, opened_by, "
                 "survey_version_id, multi_seat_rule, verdict, double_entry, completed_at) VALUES (1, 1, 1, "
                 "'automatic', 'completed', :at, 'U1', 1, 'last-winner-first-loser', '{}', :no, :at)", {"no": False}),
            ):
                conn.execute(text(sql), {"at": at, **values})
        upgrade(db)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT id, status, duties_done FROM recount_cases")).all() == [
                (1, "completed", False)]
            indexes = {(table, ix["name"]) for table in ("recount_cases", "tally_sheets", "ledger_entries",
                                                        "cost_notices", "recount_requests", "reminders")
                       for ix in inspect(conn).get_indexes(table)}
        assert {("recount_cases", "ix_recount_cases_live"), ("tally_sheets", "ix_tally_sheets_case_id"),
                ("ledger_entries", "ix_ledger_entries_case_id"), ("cost_notices", "ix_cost_notices_case_id"),
                ("recount_requests", "ix_recount_requests_case_id"), ("reminders", "ix_reminders_case_id"),
                ("reminders", "ix_reminders_workspace_status")} <= indexes

        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0012")
        with db.engine.connect() as conn:
            assert "duties_done" not in {c["name"] for c in inspect(conn).get_columns("recount_cases")}
            assert "ix_recount_cases_live" not in {ix["name"] for ix in inspect(conn).get_indexes("recount_cases")}
            assert conn.execute(text("SELECT id, status FROM recount_cases")).all() == [(1, "completed")]
        upgrade(db)
        assert current_revision(db) == head_revision()
    finally:
        db.dispose()


def test_0015_an_election_recorded_before_reads_as_1_13_5_1306_and_goes_back(empty_database_url) -> None:
    """Issue 22: every election recorded before the law was chosen per election ran under 1-13.5-1306, the only law
    the bot applied; after the upgrade it is held under it, said to be recorded before the choice."""
    import datetime as dt

    from alembic import command
    from sqlalchemy import inspect, text

    from services.election_law import election_law
    from storage.migrate import alembic_config
    from storage.models import Election

    db = Database(empty_database_url)
    try:
        upgrade(db, "0014")
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) "
                              "VALUES (1, 'T1', 'Office', '{}', :at)"), {"at": dt.datetime(2026, 11, 1)})
            conn.execute(text("INSERT INTO local_governments (id, workspace_id, name, governing_body) "
                              "VALUES (1, 1, 'District', 'Board')"))
            conn.execute(text("INSERT INTO elections (id, local_government_id, name, election_date, "
                              "abstract_preparers, created_at) VALUES (1, 1, 'Regular', :day, '[]', :at)"),
                         {"day": dt.date(2025, 5, 6), "at": dt.datetime(2025, 5, 1)})
        upgrade(db)
        with db.transaction() as session:
            election = session.get(Election, 1)
            assert (election.law, election.law_basis) == ("1-13.5-1306", "before")
            law = election_law(election)
            assert law.profile.key == "1-13.5-1306"
            assert law.named == ("C.R.S. 1-13.5-1306 (special district or other local government election) "
                                 "(recorded before the law was chosen per election)")

        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0014")
        with db.engine.connect() as conn:
            assert "law" not in {c["name"] for c in inspect(conn).get_columns("elections")}
            assert conn.execute(text("SELECT id, name FROM elections")).all() == [(1, "Regular")]
        upgrade(db)
        assert current_revision(db) == head_revision()
    finally:
        db.dispose()


def test_0016_creates_the_waivers_table_empty_and_goes_back(empty_database_url) -> None:
    """Issue 22 item 3: 1-10.5-103's waiver has a table of its own, one row per case, created empty and dropped on
    the way back without touching the cases."""
    import datetime as dt

    from alembic import command
    from sqlalchemy import inspect, text

    from storage.migrate import alembic_config

    db = Database(empty_database_url)
    try:
        upgrade(db, "0015")
        with db.engine.begin() as conn:
            conn.execute(text("INSERT INTO workspaces (id, slack_team_id, name, settings, created_at) "
                              "VALUES (1, 'T1', 'Office', '{}', :at)"), {"at": dt.datetime(2026, 11, 1)})
        upgrade(db)
        with db.engine.connect() as conn:
            inspector = inspect(conn)
            columns = {c["name"] for c in inspector.get_columns("automatic_recount_waivers")}
            assert {"case_id", "waived_by", "capacity", "received_on", "reference", "citation", "decision",
                    "recorded_by", "recorded_at"} <= columns
            assert [u["column_names"] for u in inspector.get_unique_constraints("automatic_recount_waivers")] == [
                ["case_id"]]
            assert conn.execute(text("SELECT count(*) FROM automatic_recount_waivers")).scalar() == 0

        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0015")
        with db.engine.connect() as conn:
            assert "automatic_recount_waivers" not in inspect(conn).get_table_names()
            assert conn.execute(text("SELECT name FROM workspaces")).all() == [("Office",)]
        upgrade(db)
        assert current_revision(db) == head_revision()
    finally:
        db.dispose()


def test_0017_marks_bulk_seals_and_is_not_undone_once_one_exists(empty_database_url) -> None:
    """Issue 25 item 2: an import at 0017 seals its vote counts in bulk, which revision 0016's recount-bot cannot
    read; going back to 0016 is allowed while no bulk seal exists and refused, changing nothing, once one does."""
    import datetime as dt

    import pytest
    from alembic import command

    from rules.returns import parse_returns
    from services.returns.versions import import_returns
    from services.services import Services
    from storage import audit
    from storage.migrate import alembic_config

    db = Database(empty_database_url)
    try:
        upgrade(db)
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0016")
        assert current_revision(db) == "0016"
        upgrade(db)
        services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
        import_returns(services, team_id="T0MIGRATE", returns=parse_returns(
            b"contest,choice,votes,kind,unit\nWater - Director,Ada,7,candidate,P1\nWater - Director,Ben,6,candidate,P1"),
            election_name="E", election_date=dt.date(2026, 11, 3), local_government="W", governing_body="B",
            actor="test")
        with pytest.raises(RuntimeError, match="the audit log holds bulk seals"):
            with db.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.downgrade(config, "0016")
        assert current_revision(db) == head_revision() == "0017"
        with db.read() as s:
            assert audit.verify(s).ok
    finally:
        db.dispose()
