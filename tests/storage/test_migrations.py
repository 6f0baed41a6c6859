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
