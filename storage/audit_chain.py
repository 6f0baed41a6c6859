"""The audit log's hash chain: appending a row and computing its hash (the verifying is storage/audit.py).

Each row's hash covers its own fields and the previous row's hash:
    hash = sha256(canonical JSON of {id, at, workspace_id, actor, action, entity, entity_id,
                                     before, after, prev_hash})
`audit_head` holds the last id and hash. Appends are serialised: on PostgreSQL by a transaction-scoped advisory
lock; on SQLite every write transaction already holds the database's write lock (BEGIN IMMEDIATE, see storage.db).
Both the audit log's users and the seals of business rows (storage/seals.py) append through here.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from rules.serialize import to_jsonable
from storage.models import AuditEntry, AuditHead
from storage.types import utcnow

LAST_AUDIT = "recount_bot.audit.last_entry"  # session.info: (actor, workspace_id, at) of the last row appended
GENESIS = "0" * 64
HEAD_ID = 1
ADVISORY_LOCK_KEY = 0x52434E54  # "RCNT": one chain, one lock


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
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK_KEY})
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
    # The seals written at commit (storage/seals.py) are signed off by the person who made the change.
    session.info[LAST_AUDIT] = (actor, workspace_id, stamp)
    session.add(entry)
    if head is None:
        session.add(AuditHead(id=HEAD_ID, last_id=entry.id, last_hash=entry.hash))
    else:
        head.last_id, head.last_hash = entry.id, entry.hash
    session.flush()
    return entry


def head(session: Session) -> tuple[int, str]:
    """The chain's last id and hash (0 and the genesis hash for an empty log)."""
    row = session.get(AuditHead, HEAD_ID)
    return (row.last_id, row.last_hash) if row else (0, GENESIS)
