"""Alembic, driven from code: `recount-bot db upgrade`, and every start of the server and CLI."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from storage.db import Database

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Several `serve` replicas (and workers) started at once on one PostgreSQL each migrate at start: they take turns,
# and the later ones find the schema already at head. (storage.audit's lock is "RCNT", the reminders' "REMD".)
ADVISORY_LOCK_KEY = 0x4D494752  # "MIGR"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(db: Database) -> str | None:
    with db.engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(db: Database, revision: str = "head") -> tuple[str | None, str | None]:
    """Apply pending migrations; returns (revision before, revision after)."""
    before = current_revision(db)
    config = alembic_config()
    with db.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return before, current_revision(db)
