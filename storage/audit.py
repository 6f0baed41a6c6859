"""The append-only, hash-chained audit log.

Each row's hash covers its own fields and the previous row's hash:
    hash = sha256(canonical JSON of {id, at, workspace_id, actor, action, entity, entity_id,
                                     before, after, prev_hash})
so altering any field of any row, or removing a row, breaks the chain from that row on, and
`verify` names the first row that does not match. `audit_head` holds the last id and hash, so
cutting rows off the end is caught as well.

Appends are serialised: on PostgreSQL by a transaction-scoped advisory lock; on SQLite every
write transaction already holds the database's write lock (BEGIN IMMEDIATE, see storage.db).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterator

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from rules.serialize import to_jsonable
from storage.models import AuditEntry, AuditHead
from storage.types import utcnow

GENESIS = "0" * 64
HEAD_ID = 1
_ADVISORY_LOCK_KEY = 0x52434E54  # "RCNT": one chain, one lock


def _canonical(fields: dict[str, Any]) -> bytes:
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _at_text(at: dt.datetime) -> str:
    # Microseconds and UTC fixed, so the text is identical after a database round trip.
    return at.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def compute_hash(entry: AuditEntry) -> str:
    fields = {
        "id": entry.id, "at": _at_text(entry.at), "workspace_id": entry.workspace_id, "actor": entry.actor,
        "action": entry.action, "entity": entry.entity, "entity_id": entry.entity_id,
        "before": entry.before, "after": entry.after, "prev_hash": entry.prev_hash,
    }
    return hashlib.sha256(_canonical(fields)).hexdigest()


def append(
    session: Session, *, actor: str, action: str, entity: str, entity_id: Any,
    before: Any = None, after: Any = None, workspace_id: int | None = None, at: dt.datetime | None = None,
) -> AuditEntry:
    """Add one audit row in the caller's transaction (it commits or rolls back with the change)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK_KEY})
    head = session.get(AuditHead, HEAD_ID, with_for_update=True)
    last_id, last_hash = (head.last_id, head.last_hash) if head else (0, GENESIS)
    if at is not None and at.tzinfo is None:
        raise ValueError("audit timestamps must be timezone-aware")
    stamp = (at or utcnow()).astimezone(dt.timezone.utc)
    entry = AuditEntry(
        id=last_id + 1, at=stamp, workspace_id=workspace_id,
        actor=actor, action=action, entity=entity, entity_id=str(entity_id),
        before=to_jsonable(before), after=to_jsonable(after), prev_hash=last_hash,
    )
    entry.hash = compute_hash(entry)
    session.add(entry)
    if head is None:
        session.add(AuditHead(id=HEAD_ID, last_id=entry.id, last_hash=entry.hash))
    else:
        head.last_id, head.last_hash = entry.id, entry.hash
    session.flush()
    return entry


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    rows_checked: int
    first_bad_id: int | None = None
    problem: str | None = None

    def describe(self) -> str:
        if self.ok:
            return f"audit log intact: {self.rows_checked} rows, hash chain verified"
        return f"audit log BROKEN at row {self.first_bad_id}: {self.problem} ({self.rows_checked} rows checked)"


def _rows(session: Session, batch: int = 1000) -> Iterator[AuditEntry]:
    last = 0
    while True:
        rows = session.scalars(
            select(AuditEntry).where(AuditEntry.id > last).order_by(AuditEntry.id).limit(batch)).all()
        if not rows:
            return
        yield from rows
        last = rows[-1].id
        session.expunge_all()


def verify(session: Session) -> VerifyResult:
    expected_id, prev_hash, checked = 1, GENESIS, 0
    for row in _rows(session):
        if row.id != expected_id:
            return VerifyResult(False, checked, expected_id,
                                f"row {expected_id} is missing (next row present is {row.id})")
        if row.prev_hash != prev_hash:
            return VerifyResult(False, checked, row.id, "its link to the previous row does not match "
                                "(the previous row was altered or removed)")
        if compute_hash(row) != row.hash:
            return VerifyResult(False, checked, row.id, "its contents were altered after it was written")
        checked += 1
        prev_hash, expected_id = row.hash, row.id + 1
    head = session.get(AuditHead, HEAD_ID)
    last_id = expected_id - 1
    if head is None and last_id == 0:
        return VerifyResult(True, 0)
    if head is None or head.last_id != last_id or head.last_hash != prev_hash:
        recorded = head.last_id if head else 0
        return VerifyResult(False, checked, last_id + 1 if recorded > last_id else recorded,
                            f"the log ends at row {last_id} but the chain head records row {recorded}: "
                            "rows were removed from the end or the head was altered")
    return VerifyResult(True, checked)
