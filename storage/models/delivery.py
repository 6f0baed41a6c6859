"""Deadline reminders and the outbox of Slack posts that must not be lost (delivered by `recount-bot worker`)."""
from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import Boolean, Date, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base
from storage.types import UTCDateTime, utcnow


class ReminderStatus(str, enum.Enum):
    PENDING = "pending"
    QUEUED = "queued"  # turned into an outbox row (in the same transaction)
    CANCELLED = "cancelled"  # the date moved or the step was done
    SUPERSEDED = "superseded"  # missed while the worker was down; folded into a later reminder of the same deadline


class Reminder(Base):
    __tablename__ = "reminders"
    __table_args__ = (
        # The worker's poll: pending reminders due by now, oldest first. Reads grow with the number due.
        Index("ix_reminders_due", "status", "fire_at"),
        # `sync`: an office's pending reminders, and those already sent of the deadlines still live.
        Index("ix_reminders_workspace_status", "workspace_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id"))
    # A case's deadline, or (case_id None) an election's: the request window is open to everyone.
    case_id: Mapped[int | None] = mapped_column(ForeignKey("recount_cases.id"), default=None, index=True)
    election_id: Mapped[int] = mapped_column(ForeignKey("elections.id"), index=True)
    deadline_name: Mapped[str] = mapped_column(String(64))
    due_date: Mapped[dt.date] = mapped_column(Date)  # the deadline's date when this reminder was scheduled
    kind: Mapped[str] = mapped_column(String(16))  # rules.reminders.ReminderKind
    days: Mapped[int] = mapped_column(Integer)
    fire_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    status: Mapped[str] = mapped_column(String(16), default=ReminderStatus.PENDING.value)
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    queued_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class OutboxStatus(str, enum.Enum):
    PENDING = "pending"
    SENDING = "sending"  # claimed by a worker until `lease_until`
    SENT = "sent"
    DEAD = "dead"  # gave up after the retries; kept, with the last error, for a person to look at


class OutboxMessage(Base):
    """A Slack Web API call to make, written in the same transaction as the change it reports."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_ready", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int | None] = mapped_column(ForeignKey("workspaces.id"), default=None)
    method: Mapped[str] = mapped_column(String(64))  # chat.postMessage, chat.update, ...
    payload: Mapped[dict] = mapped_column()
    # A message for a person's DM: the channel is opened (conversations.open) at delivery.
    dm_user: Mapped[str | None] = mapped_column(String(32), default=None)
    dedupe_key: Mapped[str | None] = mapped_column(String(200), unique=True, default=None)
    status: Mapped[str] = mapped_column(String(16), default=OutboxStatus.PENDING.value)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    lease_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    claimed_by: Mapped[str | None] = mapped_column(String(64), default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    result: Mapped[dict | None] = mapped_column(default=None)  # e.g. {"channel": ..., "ts": ...}
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    sent_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)


class WorkerHeartbeat(Base):
    """One row per running worker (`recount-bot worker`, or the worker thread of `serve`), written at every tick,
    so `recount-bot doctor` can tell whether reminders and queued posts are being delivered at all."""

    __tablename__ = "worker_heartbeats"

    worker_id: Mapped[str] = mapped_column(String(128), primary_key=True)  # "worker:host:pid", "serve:host:pid"
    # How often it polls, in milliseconds: a heartbeat is late after a few polls missed, not after a fixed time.
    interval_ms: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    beat_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
