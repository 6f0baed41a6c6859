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
