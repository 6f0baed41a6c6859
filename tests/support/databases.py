"""Databases for tests: a fresh SQLite file, and, when TEST_DATABASE_URL names a PostgreSQL server,
a fresh schema on it. Every storage and flow test runs against each available backend."""
from __future__ import annotations

import os
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from storage.db import Database, normalise_url
from storage.migrate import upgrade


def backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get("TEST_DATABASE_URL") else ["sqlite"]


def postgres_base_url() -> str:
    return normalise_url(os.environ["TEST_DATABASE_URL"])


@contextmanager
def fresh_database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A URL to an empty database of `backend`, dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'recount-bot-test.sqlite3'}"
        return
    base = postgres_base_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def migrated_database(backend: str, tmp_path: Path) -> Iterator[Database]:
    with fresh_database_url(backend, tmp_path) as url:
        db = Database(url)
        try:
            upgrade(db)
            yield db
        finally:
            db.dispose()
