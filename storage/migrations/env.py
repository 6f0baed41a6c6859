"""Alembic environment: runs on the connection handed over by storage.migrate (or a URL for the CLI)."""
from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from storage.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url"))
        with engine.begin() as connection:
            _run_on(connection)
        return
    _run_on(connection)


def _run_on(connection) -> None:
    context.configure(
        connection=connection, target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite needs batch mode to alter tables
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run()
