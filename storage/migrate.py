"""Alembic, driven from code: `recount-bot db upgrade`, and every start of the server and CLI."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from storage.db import Database

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


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
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return before, current_revision(db)
