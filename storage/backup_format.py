"""The portable backup format: one tar file that any recount-bot database (SQLite or PostgreSQL) can be restored
from, whichever database it was made of.

    manifest.json                 what the file holds (below), written first
    tables/<table>.jsonl.gz       one line per row, rows in primary-key order: a JSON array of the row's values in
                                  the manifest's column order (the column names, sorted)
    native/...                    optional extras, not used by `restore`: the SQLite file itself (a SQLite source),
                                  or `pg_dump`'s output of the same snapshot (a PostgreSQL source, when installed)

The manifest: {"format": "recount-bot backup", "format_version": 1, "created_at", "alembic_revision",
"source_dialect", "source_database" (its URL without password), "audit_head": {"last_id", "last_hash"},
"tables": [{"name", "member", "rows", "sha256", "columns": [[name, kind], ...]}] in foreign-key order,
"native": [{"member", "sha256", "what"}]}. `sha256` is the SHA-256 of the member's uncompressed lines.

Values are typed by the column's kind so that they come back exactly: money and decimals as strings ("400.00"),
timestamps as ISO 8601 with their UTC offset to the microsecond, dates as ISO dates, JSON columns as JSON,
bytes as base64, integers and booleans as JSON numbers and booleans. JSON inside a line is written with sorted
keys, so the same rows give the same bytes (and the same checksum) on either database.

Each member is gzip-compressed on its own inside an uncompressed tar, so a damaged or cut-short file is reported
with the member where the damage is.
"""
from __future__ import annotations

import base64
import datetime as dt
import gzip
import hashlib
import json
import re
import tarfile
import zlib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import JSON, Boolean, Date, DateTime, Integer, LargeBinary, MetaData, Numeric, String, Table, select
from sqlalchemy.types import Float

from storage.models import Base
from storage.types import Money, UTCDateTime

FORMAT = "recount-bot backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
# The revision is in the manifest (restore migrates to it); OAuth states live ten minutes, for an install under way.
NOT_BACKED_UP = frozenset({"alembic_version", "slack_oauth_states"})
KINDS = ("money", "decimal", "timestamp", "date", "json", "bytes", "boolean", "integer", "text")
_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_CHUNK = 1 << 20


class BackupFileError(ValueError):
    """A file that is not a usable backup; the message names the member (or the manifest field) at fault."""


def member_of(table: str) -> str:
    return f"tables/{table}.jsonl.gz"


# ----------------------------------------------------------------------------- values
def column_kind(column_type: Any) -> str:
    """How a column's values are written; the models' own types first (Money before Integer, UTCDateTime)."""
    if isinstance(column_type, Money):
        return "money"
    if isinstance(column_type, (UTCDateTime, DateTime)):
        return "timestamp"
    if isinstance(column_type, Date):
        return "date"
    if isinstance(column_type, JSON):
        return "json"
    if isinstance(column_type, LargeBinary):
        return "bytes"
    if isinstance(column_type, Boolean):
        return "boolean"
    if isinstance(column_type, Integer):
        return "integer"
    if isinstance(column_type, Float):
        raise TypeError("a floating-point column cannot be backed up exactly")
    if isinstance(column_type, Numeric):
        return "decimal"
    if isinstance(column_type, String):
        return "text"
    raise TypeError(f"no backup encoding for the column type {column_type!r}")


def encode(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind in ("money", "decimal"):
        return str(value)
    if kind == "timestamp":
        if value.tzinfo is None:  # only a column outside the models (an older revision's) can be naive
            return value.isoformat(timespec="microseconds")
        return value.astimezone(dt.timezone.utc).isoformat(timespec="microseconds")
    if kind == "date":
        return value.isoformat()
    if kind == "bytes":
        return base64.b64encode(bytes(value)).decode("ascii")
    if kind == "boolean":
        return bool(value)
    if kind == "integer":
        return int(value)
    if kind == "text":
        return str(value)
    return value  # json


_NOUNS = {"money": "an amount like \"400.00\"", "decimal": "a decimal number as a string",
          "timestamp": "an ISO 8601 timestamp", "date": "an ISO date", "bytes": "base64 text",
          "boolean": "true or false", "integer": "a whole number", "text": "a string", "json": "JSON"}


def decode(kind: str, value: Any, where: str) -> Any:
    """The Python value of `value` as written by `encode`; BackupFileError naming `where` otherwise."""
    if value is None or kind == "json":
        return value
    try:
        if kind in ("money", "decimal") and isinstance(value, str):
            number = Decimal(value)
            if number.is_finite():
                return number
        elif kind == "timestamp" and isinstance(value, str):
            return dt.datetime.fromisoformat(value)
        elif kind == "date" and isinstance(value, str):
            return dt.date.fromisoformat(value)
        elif kind == "bytes" and isinstance(value, str):
            return base64.b64decode(value, validate=True)
        elif kind == "boolean" and isinstance(value, bool):
            return value
        elif kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return value
        elif kind == "text" and isinstance(value, str):
            return value
    except (ValueError, InvalidOperation):
        pass
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
    raise BackupFileError(f"{where}: {shown} is not {_NOUNS[kind]}")


def line_of(values: list[Any]) -> bytes:
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8") + b"\n"


# ----------------------------------------------------------------------------- the schema as it is
def typed_tables(connection) -> list[Table]:
    """Every table the database has now (whatever its revision), in foreign-key order, with the models' column
    types where the models know the column (so money, timestamps and JSON read and write as recount-bot's do)."""
    reflected = MetaData()
    reflected.reflect(bind=connection)
    tables = []
    for table in reflected.sorted_tables:
        if table.name in NOT_BACKED_UP:
            continue
        model = Base.metadata.tables.get(table.name)
        for column in table.columns:
            if model is not None and column.name in model.c:
                column.type = model.c[column.name].type
        tables.append(table)
    return tables


def columns_of(table: Table) -> list[tuple[str, str]]:
    return [(name, column_kind(table.c[name].type)) for name in sorted(table.c.keys())]


def table_lines(connection, table: Table, columns: list[tuple[str, str]]) -> Iterator[bytes]:
    """The table's rows as backup lines, in primary-key order (every column's order when it has no key)."""
    order = list(table.primary_key.columns) or [table.c[name] for name, _ in columns]
    query = select(*(table.c[name] for name, _ in columns)).order_by(*order).execution_options(yield_per=1000)
    for row in connection.execute(query):
        yield line_of([encode(kind, value) for (_, kind), value in zip(columns, row)])


# ----------------------------------------------------------------------------- reading a backup file
@dataclass(frozen=True)
class TableEntry:
    name: str
    member: str
    rows: int
    sha256: str
    columns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class VerifiedBackup:
    """A backup whose every member matched its manifest; each table's lines extracted to `folder`."""

    manifest: dict[str, Any]
    tables: tuple[TableEntry, ...]
    folder: Path

    @property
    def revision(self) -> str:
        return self.manifest["alembic_revision"]

    def lines(self, entry: TableEntry) -> Path:
        return self.folder / f"{entry.name}.jsonl"

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


def _field(manifest: dict, name: str, kind: type, where: str = MANIFEST) -> Any:
    value = manifest.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise BackupFileError(f"{where}: the field {name!r} is missing or malformed")
    return value


def _entries(manifest: dict) -> tuple[TableEntry, ...]:
    entries = []
    for index, raw in enumerate(_field(manifest, "tables", list)):
        where = f"{MANIFEST} tables[{index}]"
        if not isinstance(raw, dict):
            raise BackupFileError(f"{where}: not an object")
        name = _field(raw, "name", str, where)
        if not _NAME.match(name):
            raise BackupFileError(f"{where}: {name[:64]!r} is not a table name")
        member, rows, sha = _field(raw, "member", str, where), _field(raw, "rows", int, where), \
            _field(raw, "sha256", str, where)
        if member != member_of(name) or rows < 0 or not _SHA256.match(sha):
            raise BackupFileError(f"{where} ({name}): its member, row count or checksum is malformed")
        columns = _field(raw, "columns", list, where)
        if not columns or not all(isinstance(c, list) and len(c) == 2 and isinstance(c[0], str)
                                  and _NAME.match(c[0]) and c[1] in KINDS for c in columns):
            raise BackupFileError(f"{where} ({name}): its columns are malformed")
        entries.append(TableEntry(name, member, rows, sha, tuple((c[0], c[1]) for c in columns)))
    if len({e.name for e in entries}) != len(entries):
        raise BackupFileError(f"{MANIFEST}: a table is listed twice")
    return tuple(entries)


def _manifest(data: bytes) -> dict[str, Any]:
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BackupFileError(f"member {MANIFEST} is not valid JSON: the file was altered or damaged") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupFileError(f"member {MANIFEST} does not describe a recount-bot backup")
    version = manifest.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BackupFileError(f"{MANIFEST}: the field 'format_version' is missing or malformed")
    if version > FORMAT_VERSION:
        raise BackupFileError(f"{MANIFEST}: backup format version {version} was written by a newer recount-bot "
                              f"(this one reads up to version {FORMAT_VERSION}); restore it with that version")
    revision = _field(manifest, "alembic_revision", str)
    if not re.match(r"^[0-9A-Za-z_]{1,32}$", revision):
        raise BackupFileError(f"{MANIFEST}: the field 'alembic_revision' is malformed")
    _field(manifest, "created_at", str)
    _field(manifest, "source_dialect", str)
    return manifest


def _copy_member(tar: tarfile.TarFile, member: tarfile.TarInfo, out: Path | None) -> tuple[str, int]:
    """Decompress `member` (to `out` when given); its SHA-256 and line count."""
    digest, lines = hashlib.sha256(), 0
    source = tar.extractfile(member)
    assert source is not None
    with gzip.GzipFile(fileobj=source, mode="rb") as stream:
        sink = out.open("wb") if out is not None else None
        try:
            while chunk := stream.read(_CHUNK):
                digest.update(chunk)
                lines += chunk.count(b"\n")
                if sink is not None:
                    sink.write(chunk)
        finally:
            if sink is not None:
                sink.close()
    return digest.hexdigest(), lines


def read_backup(path: Path, folder: Path) -> VerifiedBackup:
    """Check every member of the backup at `path` against its manifest, extracting the tables' lines to `folder`.
    BackupFileError naming the member for a file that is damaged, cut short or altered; nothing else is read."""
    try:
        tar = tarfile.open(path, mode="r:")
    except tarfile.ReadError:
        raise BackupFileError("not a recount-bot backup (not a tar archive, or damaged in its first member "
                              f"{MANIFEST})") from None
    with tar:
        manifest: dict | None = None
        expected: dict[str, Any] = {}
        seen: set[str] = set()
        previous = None
        while True:
            try:
                member = tar.next()
            except (tarfile.TarError, EOFError, OSError) as exc:
                after = f"after member {previous}" if previous else "at its start"
                raise BackupFileError(f"the archive is damaged {after} ({exc}): the file was cut short or "
                                      "altered") from None
            if member is None:
                break
            name = member.name
            if manifest is None:
                if name != MANIFEST or not member.isfile() or member.size > 16 * 1024 * 1024:
                    raise BackupFileError(f"the first member is {name[:80]!r}, not {MANIFEST}: not a recount-bot "
                                          "backup")
                try:
                    data = tar.extractfile(member).read()  # type: ignore[union-attr]
                except (tarfile.TarError, EOFError, OSError) as exc:
                    raise BackupFileError(f"member {MANIFEST} is cut short ({exc})") from None
                manifest = _manifest(data)
                tables = _entries(manifest)
                expected = {t.member: t for t in tables}
                for extra in manifest.get("native") or []:
                    if isinstance(extra, dict) and isinstance(extra.get("member"), str) \
                            and extra["member"].startswith("native/") and _SHA256.match(str(extra.get("sha256"))):
                        expected[extra["member"]] = extra
                previous = name
                continue
            entry = expected.get(name)
            if entry is None or name in seen or not member.isfile():
                raise BackupFileError(f"member {name[:80]!r} is not listed in {MANIFEST}: the file was altered")
            out = folder / f"{entry.name}.jsonl" if isinstance(entry, TableEntry) else None
            try:
                sha, lines = _copy_member(tar, member, out)
            except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
                raise BackupFileError(f"member {name} is damaged or cut short ({exc}): the file was truncated or "
                                      "altered") from None
            want_sha = entry.sha256 if isinstance(entry, TableEntry) else entry["sha256"]
            if sha != want_sha:
                raise BackupFileError(f"member {name}: its contents do not match the SHA-256 in {MANIFEST}: the "
                                      "file was altered or damaged")
            if isinstance(entry, TableEntry) and lines != entry.rows:
                raise BackupFileError(f"member {name}: {lines:,} rows where {MANIFEST} lists {entry.rows:,}")
            seen.add(name)
            previous = name
    if manifest is None:
        raise BackupFileError(f"the file is empty: no member {MANIFEST}")
    missing = [m for m in expected if m not in seen]
    if missing:
        raise BackupFileError(f"member {missing[0]} is missing: the file was cut short (or damaged before it)"
                              + (f" ({len(missing) - 1} more missing)" if len(missing) > 1 else ""))
    return VerifiedBackup(manifest, tables, folder)


def parse_line(entry: TableEntry, number: int, line: bytes) -> dict[str, Any]:
    """One verified line as column -> Python value."""
    where = f"member {entry.member}, row {number}"
    try:
        values = json.loads(line)
    except ValueError:
        raise BackupFileError(f"{where}: not valid JSON") from None
    if not isinstance(values, list) or len(values) != len(entry.columns):
        raise BackupFileError(f"{where}: expected {len(entry.columns)} values")
    return {name: decode(kind, value, f"{where}, column {name}") for (name, kind), value in
            zip(entry.columns, values)}
