"""The append-only audit log, hash-chained, and the idempotency record of Slack deliveries."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base
from storage.types import UTCDateTime, utcnow


class AuditEntry(Base):
    """One change: who, what, when, the values before and after.

    `id` is assigned by `storage.audit.append` (one more than the last), not by the database, because
    it is part of what the hash covers: a removed row leaves a gap that `audit verify` reports.
    """

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    workspace_id: Mapped[int | None] = mapped_column(Integer, default=None)
    actor: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(64))
    entity: Mapped[str] = mapped_column(String(64))
    entity_id: Mapped[str] = mapped_column(String(64))
    before: Mapped[dict | None] = mapped_column(default=None)
    after: Mapped[dict | None] = mapped_column(default=None)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class AuditHead(Base):
    """The chain's last id and hash, updated with every append: a truncated tail shows as a mismatch."""

    __tablename__ = "audit_head"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    last_id: Mapped[int] = mapped_column(Integer)
    last_hash: Mapped[str] = mapped_column(String(64))


class ProcessedDelivery(Base):
    """A Slack delivery already handled (event_id, or a retried interaction), so a retry is not redone."""

    __tablename__ = "processed_deliveries"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    received_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
