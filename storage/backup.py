"""Making a backup (storage/backup_format.py describes the file) of a database that may be in use.

Consistency while the bot writes:
- SQLite: the online backup API (sqlite3.Connection.backup) copies the whole file in one step under one read
  transaction, so the copy is the database as of one commit; the portable export is then read from that copy,
  and the copy itself travels in the file too (native/recount-bot.sqlite3.gz, openable with sqlite3).
- PostgreSQL: every table is read in one SERIALIZABLE READ ONLY DEFERRABLE transaction (one snapshot, and no
  serialization failure to retry). When `pg_dump` is installed, it dumps the same snapshot (pg_export_snapshot)
  to native/pg_dump.sql.gz as an extra; the portable export never needs it.

The file is written beside its target and renamed onto it when complete (fsync'd first), so a failed backup
leaves no partial file; an existing file is replaced only when the caller says so. The file is created readable
by its owner only: it holds every name and contact a case recorded.
"""
from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import make_url

from storage import backup_format as fmt
from storage.db import Database
from storage.migrate import alembic_config

Progress = Callable[[int, int], None]  # (rows done, rows in all): a command's progress bar
PROGRESS_EVERY = 1000


class BackupRefused(Exception):
    """The backup cannot be made as asked (the target exists, the database is of an unknown revision, ...)."""


@dataclass
class BackupSummary:
    target: Path
    manifest: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(t["rows"] for t in self.manifest["tables"])


def make_backup(db: Database, target: Path, *, force: bool = False, pg_dump: bool = True,
                now: dt.datetime | None = None, progress: Progress | None = None) -> BackupSummary:
    """`progress(rows written, rows in all)` as the tables are written (a command's progress bar)."""
    if target.is_dir():
        raise BackupRefused(f"{target}: is a folder; give the backup file's name")
    if target.exists() and not force:
        raise BackupRefused(f"{target}: already exists; give --force to replace it")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise BackupRefused(f"{target}: its folder {folder} does not exist")
    created = (now or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc)
    with tempfile.TemporaryDirectory(prefix=".recount-bot-backup-", dir=folder) as work_dir:
        work = Path(work_dir)
        notes: list[str] = []
        if db.dialect == "sqlite":
            manifest = _from_sqlite(db, work, progress)
        else:
            manifest = _from_postgresql(db, work, pg_dump, notes, progress)
        manifest.update(created_at=created.isoformat(timespec="seconds"), source_database=db.describe())
        manifest = {"format": fmt.FORMAT, "format_version": fmt.FORMAT_VERSION, **manifest}
        _pack(work, manifest, target, force=force)
    return BackupSummary(target, manifest, notes)


# ----------------------------------------------------------------------------- reading one snapshot
def _revision(connection) -> str:
    revision = MigrationContext.configure(connection).get_current_revision()
    if revision is None:
        raise BackupRefused("the database holds no recount-bot tables (it was never migrated): nothing to back up")
    try:
        known = ScriptDirectory.from_config(alembic_config()).get_revision(revision)
    except CommandError:
        known = None
    if known is None:
        raise BackupRefused(f"the database is at revision {revision}, which this recount-bot does not know (a newer "
                            "version migrated it): back up with that version")
    return revision


def _export(connection, work: Path, dialect: str, progress: Progress | None = None) -> dict[str, Any]:
    """Every table of `connection`'s snapshot, as members in `work`; the manifest's data part."""
    revision = _revision(connection)
    tables = []
    typed = fmt.typed_tables(connection)
    total = sum(connection.execute(select(func.count()).select_from(t)).scalar_one() for t in typed) \
        if progress is not None else 0
    done = 0
    for table in typed:
        columns = fmt.columns_of(table)
        digest, rows = hashlib.sha256(), 0
        path = work / fmt.member_of(table.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(path, "wb", compresslevel=6) as out:
            for line in fmt.table_lines(connection, table, columns):
                digest.update(line)
                out.write(line)
                rows += 1
                if progress is not None and rows % PROGRESS_EVERY == 0:
                    progress(done + rows, total)
        done += rows
        if progress is not None:
            progress(done, total)
        tables.append({"name": table.name, "member": fmt.member_of(table.name), "rows": rows,
                       "sha256": digest.hexdigest(), "columns": [list(c) for c in columns]})
    head = {"last_id": 0, "last_hash": "0" * 64}
    from storage.models import AuditHead

    if any(t["name"] == AuditHead.__tablename__ for t in tables):
        found = connection.execute(select(AuditHead.last_id, AuditHead.last_hash)).first()
        if found:
            head = {"last_id": found[0], "last_hash": found[1]}
    return {"alembic_revision": revision, "source_dialect": dialect, "audit_head": head, "tables": tables,
            "native": []}


def _native(work: Path, source: Path, member: str, what: str) -> dict[str, Any]:
    """Compress `source` to the member; its manifest entry (the SHA-256 of the uncompressed bytes)."""
    digest = hashlib.sha256()
    path = work / member
    path.parent.mkdir(parents=True, exist_ok=True)
    with source.open("rb") as raw, gzip.open(path, "wb", compresslevel=6) as out:
        while chunk := raw.read(1 << 20):
            digest.update(chunk)
            out.write(chunk)
    return {"member": member, "sha256": digest.hexdigest(), "what": what}


def _from_sqlite(db: Database, work: Path, progress: Progress | None = None) -> dict[str, Any]:
    name = make_url(db.url).database
    if not name or name == ":memory:":
        raise BackupRefused("an in-memory SQLite database cannot be backed up")
    path = Path(name).expanduser().resolve()
    if not path.is_file():
        raise BackupRefused(f"no database file at {path}")
    copy = work / "snapshot.sqlite3"
    # Read-only: a backup never creates or changes the source. One step (pages=-1): one consistent copy.
    source = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
        finally:
            target.close()
    finally:
        source.close()
    engine = create_engine(f"sqlite:///{copy}")
    try:
        with engine.connect() as connection:
            manifest = _export(connection, work, "sqlite", progress)
    finally:
        engine.dispose()
    manifest["native"].append(_native(work, copy, "native/recount-bot.sqlite3.gz",
                                      "the SQLite database file itself (sqlite3.Connection.backup)"))
    copy.unlink()
    return manifest


def _from_postgresql(db: Database, work: Path, pg_dump: bool, notes: list[str],
                     progress: Progress | None = None) -> dict[str, Any]:
    with db.engine.connect() as plain:
        connection = plain.execution_options(isolation_level="SERIALIZABLE", postgresql_readonly=True,
                                             postgresql_deferrable=True)
        with connection.begin():
            snapshot = connection.exec_driver_sql("SELECT pg_export_snapshot()").scalar() if pg_dump else None
            manifest = _export(connection, work, "postgresql", progress)
            if pg_dump:
                schema = connection.exec_driver_sql("SELECT current_schema()").scalar()
                extra = _pg_dump(db, snapshot, schema, work, notes)
                if extra is not None:
                    manifest["native"].append(extra)
    return manifest


def _conninfo_value(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _pg_dump(db: Database, snapshot: str, schema: str, work: Path, notes: list[str]) -> dict[str, Any] | None:
    """`pg_dump` of the same snapshot, when installed; a note (not a failure) when it is absent or fails."""
    program = shutil.which("pg_dump")
    if program is None:
        notes.append("pg_dump is not installed: the backup holds the portable export only (all `restore` needs)")
        return None
    url = make_url(db.url)
    parts = {"host": url.host, "port": url.port, "user": url.username, "dbname": url.database}
    parts.update({k: v for k, v in url.query.items() if isinstance(v, str)})
    conninfo = " ".join(f"{k}={_conninfo_value(str(v))}" for k, v in parts.items() if v not in (None, ""))
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)  # not on the command line, where `ps` would show it
    out = work / "pg_dump.sql"
    command = [program, "--dbname", conninfo, f"--snapshot={snapshot}", f"--schema={schema}", "--no-owner",
               "--no-privileges", "--file", str(out)]
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        notes.append(f"pg_dump did not run ({exc}): the backup holds the portable export only")
        return None
    if result.returncode != 0:
        detail = (result.stderr.strip().splitlines() or ["no message"])[-1]
        notes.append(f"pg_dump failed ({detail}): the backup holds the portable export only")
        return None
    extra = _native(work, out, "native/pg_dump.sql.gz", f"pg_dump of the same snapshot (schema {schema})")
    out.unlink()
    return extra


# ----------------------------------------------------------------------------- the file
def _pack(work: Path, manifest: dict[str, Any], target: Path, *, force: bool) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=folder)  # mode 0600
    stamp = int(dt.datetime.fromisoformat(manifest["created_at"]).timestamp())
    try:
        with os.fdopen(fd, "wb") as raw:
            with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
                data = json.dumps(manifest, indent=1, ensure_ascii=False).encode("utf-8")
                info = tarfile.TarInfo(fmt.MANIFEST)
                info.size, info.mtime, info.mode = len(data), stamp, 0o600
                tar.addfile(info, io.BytesIO(data))
                members = [t["member"] for t in manifest["tables"]] + [n["member"] for n in manifest["native"]]
                for member in members:
                    path = work / member
                    info = tarfile.TarInfo(member)
                    info.size, info.mtime, info.mode = path.stat().st_size, stamp, 0o600
                    with path.open("rb") as stream:
                        tar.addfile(info, stream)
            raw.flush()
            os.fsync(raw.fileno())
        if force:
            os.replace(temporary, target)
        else:
            try:
                os.link(temporary, target)  # fails if the target appeared meanwhile: never overwritten unasked
            except FileExistsError:
                raise BackupRefused(f"{target}: already exists; give --force to replace it") from None
            except OSError:  # a file system without hard links (some network shares): check, then rename
                if target.exists():
                    raise BackupRefused(f"{target}: already exists; give --force to replace it") from None
                os.replace(temporary, target)
            else:
                os.unlink(temporary)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    try:  # the rename itself survives a crash once the folder is synced
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass
