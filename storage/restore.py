"""Restoring a backup (storage/backup_format.py) into an empty database, SQLite or PostgreSQL, whichever the
backup was made of.

In order, and all of the database part in ONE transaction, so a failure at any step leaves nothing restored:
1. every member of the file is checked against its manifest (checksums, row counts) before the database is
   touched; a backup from a revision newer than this code is refused;
2. the database must hold no rows (alembic's own table aside); the tables that do are named otherwise;
3. its schema is migrated to the backup's revision (upgraded from nothing, or an empty schema moved there);
4. the rows are inserted table by table in foreign-key order (the reflected schema's sorted_tables);
5. PostgreSQL's sequences are set past the restored ids, so the next row does not collide;
6. every table is read back and its row count and SHA-256 compared with the manifest's;
7. the schema is upgraded to this code's head (a backup from an older revision is upgraded like the database
   it came from would have been);
8. the audit log is verified, its chain and every sealed row (storage/audit.py), still inside the transaction:
   a copy that does not verify (rows edited, the log cut or rewritten before the backup was made, or the
   backup's rows rewritten with their checksums) is refused and rolled back, so the database is as it was,
   unless the caller asks to keep it (`keep_unverified`, for inspection): then it is committed and the result
   says it does not verify.
"""
from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Table, func, inspect, select
from sqlalchemy import table as named_table
from sqlalchemy.orm import Session

from storage import audit
from storage import backup_format as fmt
from storage.db import Database
from storage.migrate import alembic_config

_BATCH = 1000


class RestoreRefused(Exception):
    """The restore cannot go ahead (the database is not empty, the backup is of a newer revision, ...); nothing
    was changed."""


class RestoreUnverified(RestoreRefused):
    """The copy was loaded but its audit log does not verify: rolled back, nothing was changed."""

    def __init__(self, verification: audit.VerifyResult) -> None:
        super().__init__(f"the copy's audit log does not verify: {verification.describe()}")
        self.verification = verification


@dataclass(frozen=True)
class RestoreSummary:
    manifest: dict
    tables: int
    rows: int
    revision: str  # the backup's
    head: str  # the database's after the restore
    verification: audit.VerifyResult  # the audit log's, before the commit (ok unless `keep_unverified`)


def _chain() -> list[str]:
    """This code's revisions, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def restore(db: Database, path: Path, *, keep_unverified: bool = False,
            progress: Callable[[int, int], None] | None = None,
            verify_progress: Callable[[int, int], None] | None = None) -> RestoreSummary:
    """Load the backup at `path` into the empty `db` (see the module's doc). Raises RestoreRefused, with nothing
    changed; RestoreUnverified when the copy's audit log does not verify and `keep_unverified` is not given.
    `progress(rows loaded, rows in the backup)` as the tables are loaded, then `verify_progress(rows checked, rows
    in all)` as the copy's audit log is verified (a command's two progress bars)."""
    chain = _chain()
    with tempfile.TemporaryDirectory(prefix="recount-bot-restore-") as folder:
        backup = fmt.read_backup(path, Path(folder))
        if backup.revision not in chain:
            raise RestoreRefused(
                f"the backup was made at database revision {backup.revision}, newer than this recount-bot "
                f"knows (its newest is {chain[-1]}): restore it with the recount-bot version that made it, or a "
                "newer one; nothing was changed")
        with db.engine.connect() as connection:
            with connection.begin():
                if connection.dialect.name == "sqlite":
                    connection.exec_driver_sql("PRAGMA defer_foreign_keys=ON")  # checked at commit
                _refuse_unless_empty(connection, db)
                _migrate(connection, backup.revision, chain)
                tables = _matching_tables(connection, backup)
                loaded = 0
                for entry in backup.tables:
                    _insert(connection, tables[entry.name], entry, backup.lines(entry),
                            (lambda rows, base=loaded: progress(base + rows, backup.rows)) if progress else None)
                    loaded += entry.rows
                if connection.dialect.name == "postgresql":
                    _reset_sequences(connection, [tables[e.name] for e in backup.tables])
                for entry in backup.tables:
                    _compare(connection, tables[entry.name], entry)
                _migrate(connection, chain[-1], chain)
                verification = _verify(connection, verify_progress)
                if not verification.ok and not keep_unverified:
                    raise RestoreUnverified(verification)  # leaving the block rolls everything back
        return RestoreSummary(backup.manifest, len(backup.tables), backup.rows, backup.revision, chain[-1],
                              verification)


def _verify(connection, progress: Callable[[int, int], None] | None) -> audit.VerifyResult:
    """The restored copy's audit log, read inside the restore's transaction (the session joins it, and closing it
    neither commits nor rolls it back)."""
    with Session(bind=connection) as session:
        return audit.verify(session, progress=progress)


def _refuse_unless_empty(connection, db: Database) -> None:
    inspector = inspect(connection)
    holding = []
    for name in sorted(inspector.get_table_names()):
        if name in fmt.NOT_BACKED_UP:
            continue
        count = connection.execute(select(func.count()).select_from(named_table(name))).scalar_one()
        if count:
            holding.append(f"{name} ({count:,} row{'s' if count != 1 else ''})")
    if holding:
        raise RestoreRefused(
            f"the database at {db.describe()} is not empty: {', '.join(holding)}. A backup is restored only into "
            "an empty database (a new SQLite file, or a new PostgreSQL database or schema); nothing was changed")


def _migrate(connection, revision: str, chain: list[str]) -> None:
    current = MigrationContext.configure(connection).get_current_revision()
    if current == revision:
        return
    if current is not None and current not in chain:
        raise RestoreRefused(f"the database is at revision {current}, which this recount-bot does not know (a "
                             "newer version migrated it): restore with that version; nothing was changed")
    config = alembic_config()
    config.attributes["connection"] = connection
    try:
        if current is None or chain.index(current) < chain.index(revision):
            command.upgrade(config, revision)
        else:  # an empty schema already at a newer revision (the server migrated it): move it back first
            command.downgrade(config, revision)
    except CommandError as exc:
        raise RestoreRefused(f"cannot migrate the database to revision {revision}: {exc}; nothing was changed") \
            from None


def _matching_tables(connection, backup: fmt.VerifiedBackup) -> dict[str, Table]:
    """The schema at the backup's revision, which must have exactly the backup's tables and columns."""
    tables = {t.name: t for t in fmt.typed_tables(connection)}
    listed = {e.name for e in backup.tables}
    if set(tables) != listed:
        odd = sorted(set(tables) ^ listed)
        raise RestoreRefused(f"the backup's tables do not match revision {backup.revision}'s schema (differing: "
                             f"{', '.join(odd)}): the manifest was altered; nothing was changed")
    for entry in backup.tables:
        have = tuple(fmt.columns_of(tables[entry.name]))
        if have != entry.columns:
            raise RestoreRefused(f"table {entry.name}: the backup's columns do not match revision "
                                 f"{backup.revision}'s schema: the manifest was altered; nothing was changed")
    return tables


def _insert(connection, table: Table, entry: fmt.TableEntry, lines: Path,
            progress: Callable[[int], None] | None = None) -> None:
    batch: list[dict] = []
    number = 0
    with lines.open("rb") as stream:
        for number, line in enumerate(stream, start=1):
            batch.append(fmt.parse_line(entry, number, line))
            if len(batch) == _BATCH:
                connection.execute(table.insert(), batch)
                batch = []
                if progress is not None:
                    progress(number)
    if batch:
        connection.execute(table.insert(), batch)
    if progress is not None:
        progress(number)


def _reset_sequences(connection, tables: list[Table]) -> None:
    """After rows were inserted with their ids, the next id a sequence hands out is past the largest."""
    quote = connection.dialect.identifier_preparer.quote
    for table in tables:
        keys = list(table.primary_key.columns)
        if len(keys) != 1:
            continue
        sequence = connection.exec_driver_sql(
            "SELECT pg_get_serial_sequence(%(table)s, %(column)s)",
            {"table": quote(table.name), "column": keys[0].name}).scalar()
        if sequence is None:  # no sequence behind this key (ids given by recount-bot, e.g. the audit log)
            continue
        largest = connection.execute(select(func.max(keys[0]))).scalar()
        connection.exec_driver_sql("SELECT setval(%(sequence)s, %(value)s, false)",
                                   {"sequence": sequence, "value": (largest or 0) + 1})


def _compare(connection, table: Table, entry: fmt.TableEntry) -> None:
    digest, rows = hashlib.sha256(), 0
    for line in fmt.table_lines(connection, table, list(entry.columns)):
        digest.update(line)
        rows += 1
    if rows != entry.rows or digest.hexdigest() != entry.sha256:
        raise RestoreRefused(f"table {entry.name}: read back after loading, it holds {rows:,} rows that do not "
                             f"match the backup's {entry.rows:,} (checksum); nothing was restored")
