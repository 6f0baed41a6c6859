"""Rows written with SQLAlchemy Core and sealed as they stream (storage/seals.py seals the ORM's rows at commit):
the vote counts of a survey version, hundreds of thousands for a statewide file."""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy import Table
from sqlalchemy.orm import Session

from storage import audit_chain as audit
from storage import seal_batches
from storage.seals import ACTION, ENTITY, ROWS_PER_ENTRY, _all_fixed, _columns, _table


def insert_sealed(session: Session, name: str, rows: Iterable[dict[str, Any]], *, actor: str,
                  workspace_id: int | None, at: dt.datetime | None, batch: int = 5000,
                  progress: Callable[[int], None] | None = None) -> int:
    """Insert `rows` into the sealed table `name` with SQLAlchemy Core, sealing them as they are written: a batch
    at a time, each row as the database stored it (`INSERT ... RETURNING` every column) hashed as `seal` would,
    one audit entry per ROWS_PER_ENTRY rows in the bulk form (storage/seal_batches.py: the rows as a whole and
    each row). For the survey of returns: a statewide file is hundreds of thousands
    of vote counts, which as ORM objects (and a read-back at commit) cost many times the database's own work and
    held the whole file in memory. `rows` is read lazily, so it may be a generator. `progress(rows)` after each
    batch. The number of rows written."""
    table = _table(name)
    columns = _columns(name)
    if not _all_fixed(name, tuple(columns)):
        raise ValueError(f"{name}: rows that change later are sealed through the ORM, not streamed")
    statement = table.insert().returning(*table.c)
    keys = [c.key for c in table.c]  # the order of the values in a row the database returns
    stored_rows: list[Any] = []
    written = 0

    def append() -> None:
        audit.append(session, actor=actor, action=ACTION, entity=ENTITY, entity_id=name,
                     after=seal_batches.entry(name, columns, stored_rows, keys), workspace_id=workspace_id, at=at)
        stored_rows.clear()

    for chunk in _batches(rows, batch):
        for stored in _insert_returning(session, table, statement, chunk):
            stored_rows.append(stored)
            if len(stored_rows) == ROWS_PER_ENTRY:
                append()
        written += len(chunk)
        if progress is not None:
            progress(written)
    if stored_rows:
        append()
    return written


def _insert_returning(session: Session, table: Table, statement, chunk: list[dict[str, Any]]):
    """Insert `chunk`, returning every column of the rows as stored, in the table's column order.

    PostgreSQL: one `INSERT ... SELECT * FROM unnest(<one array per column>) RETURNING ...`, still through
    SQLAlchemy Core's connection. SQLAlchemy's own many-rows INSERT writes a VALUES list of a thousand rows with
    five named parameters each, which psycopg parses afresh every time (too long for its cache): that parsing cost
    three times the database's own work. SQLite: SQLAlchemy's many-rows INSERT ... RETURNING, which it runs well."""
    dialect = session.get_bind().dialect
    if dialect.name != "postgresql":
        return session.execute(statement, chunk).all()
    quote = dialect.identifier_preparer.quote
    columns = [c for c in table.c if c.key != "id"]
    arrays = tuple([row.get(c.key) for row in chunk] for c in columns)
    casts = ", ".join(f"%s::{c.type.compile(dialect=dialect)}[]" for c in columns)
    sql = (f"INSERT INTO {quote(table.name)} ({', '.join(quote(c.name) for c in columns)}) "
           f"SELECT * FROM unnest({casts}) RETURNING {', '.join(quote(c.name) for c in table.c)}")
    return session.connection().exec_driver_sql(sql, arrays).all()


def _batches(rows: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
