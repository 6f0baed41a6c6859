"""Engines and transactions for SQLite (the default, a file) and PostgreSQL (psycopg 3).

One use case = one transaction: `with db.transaction() as session: ...` commits on success and rolls
back on any exception, so nothing is ever half-written.

SQLite: every transaction starts with BEGIN IMMEDIATE (SQLAlchemy's documented pysqlite recipe), so
two writers queue instead of one failing half-way with "database is locked" after reading stale
data; foreign keys are enforced; WAL lets readers run beside the writer.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from storage import seals

DEFAULT_DATABASE_URL = "sqlite:///recount-bot.sqlite3"


class DatabaseUrlError(ValueError):
    pass


def normalise_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, postgresql://) and pick the psycopg 3 driver."""
    url = url.strip()
    if not url:
        raise DatabaseUrlError("is empty")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    try:
        parsed = make_url(url)
    except Exception as exc:  # sqlalchemy raises ArgumentError; keep the message for the one-line error
        raise DatabaseUrlError(f"is not a database URL ({exc})") from None
    if parsed.get_backend_name() not in {"sqlite", "postgresql"}:
        raise DatabaseUrlError(f"only sqlite and postgresql are supported, not {parsed.get_backend_name()}")
    return url


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=15000")
        if engine.url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn) -> None:
        # Reads (Database.read) take no write lock, so they never queue behind a writer (WAL).
        conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get("read_only") else "BEGIN IMMEDIATE")


# The transaction open in this thread (or task), with its database: nested `transaction()` and `read()`
# calls join it instead of opening a second connection (which on SQLite would wait on its own lock).
_OPEN: ContextVar[tuple["Database", Session] | None] = ContextVar("recount_bot_open_transaction", default=None)


class Database:
    def __init__(self, url: str = DEFAULT_DATABASE_URL, *, echo: bool = False) -> None:
        self.url = normalise_url(url)
        parsed = make_url(self.url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
        kwargs = {"echo": echo, "pool_pre_ping": True}
        if parsed.get_backend_name() == "postgresql":
            kwargs.update(pool_size=10, max_overflow=20)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            _configure_sqlite(self.engine)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)
        seals.install(self.sessionmaker)  # every business row written is sealed into the audit chain
        self.read_sessionmaker = sessionmaker(self.engine.execution_options(read_only=True), expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One transaction; or, inside another of this database in the same thread, a savepoint of it.

        Joining lets a handler make one unit of the use case and the Slack posts that report it (the outbox
        rows): the change and its posts commit together or not at all. A failure inside the savepoint undoes
        only what was done inside it."""
        outer = _OPEN.get()
        if outer is not None and outer[0] is self:
            with outer[1].begin_nested():
                yield outer[1]
            return
        with self.sessionmaker() as session, session.begin():
            token = _OPEN.set((self, session))
            try:
                yield session
            finally:
                _OPEN.reset(token)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A transaction that only reads: on SQLite it takes no write lock. Nothing it does is committed.
        Inside a `transaction()` of this database it reads through that one, so it sees what the unit wrote."""
        outer = _OPEN.get()
        if outer is not None and outer[0] is self:
            yield outer[1]
            return
        session = self.read_sessionmaker()
        try:
            yield session
        finally:
            session.rollback()
            session.close()

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    def dispose(self) -> None:
        self.engine.dispose()

    def describe(self) -> str:
        """The URL without its password, for logs and start-up lines."""
        return make_url(self.url).render_as_string(hide_password=True)
