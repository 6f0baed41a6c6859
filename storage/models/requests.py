"""Requested recounts (1306(2)): the written request, its approval, and the money held for it."""
from __future__ import annotations

import datetime as dt
import enum
from decimal import Decimal

from sqlalchemy import Date, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storage.models.base import Base
from storage.models.election import Contest
from storage.types import Money, UTCDateTime, utcnow


class RequestStatus(str, enum.Enum):
    PENDING = "pending"  # accepted by the core, awaiting the official's decision
    APPROVED = "approved"
    REJECTED = "rejected"
    # The requester took the request back before it was decided; staff record how they said so. Nothing in
    # 1-13.5-1306 forbids it, and a request withdrawn is no longer one the office must decide.
    WITHDRAWN = "withdrawn"


class RecountRequestRow(Base):
    """A written request for a recount, as received (2)(a), and what the office decided about it."""

    __tablename__ = "recount_requests"
    # One request per form: a form submitted again (Slack gave up waiting for the first answer, the clerk clicked
    # Submit twice) finds the request it recorded.
    __table_args__ = (Index("ix_recount_requests_form_key", "workspace_id", "form_key", unique=True),
                      Index("ix_recount_requests_workspace_status", "workspace_id", "status"))

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id"))
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"))
    requester_name: Mapped[str] = mapped_column(String(300))
    requester_contact: Mapped[str] = mapped_column(String(500))
    requester_slack_user: Mapped[str | None] = mapped_column(String(32), default=None)
    party_kind: Mapped[str] = mapped_column(String(32))
    candidate_choice: Mapped[str | None] = mapped_column(String(300), default=None)
    committee_side: Mapped[str | None] = mapped_column(String(300), default=None)
    in_favor_of: Mapped[str] = mapped_column(String(300))
    received_on: Mapped[dt.date] = mapped_column(Date)
    received_reference: Mapped[str] = mapped_column(String(300))
    entered_by: Mapped[str] = mapped_column(String(64))
    entered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    # The statute core's decision on the request when it was entered (rules.requests.evaluate_request).
    evaluation: Mapped[dict] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default=RequestStatus.PENDING.value)
    decided_by: Mapped[str | None] = mapped_column(String(64), default=None)
    decided_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    decision_note: Mapped[str | None] = mapped_column(Text, default=None)
    # A decision made under a named reading, with the decider's reason: the official who entered the request on
    # the requester's behalf decides it only when no one else may (rules.requests, "one office, one person").
    decision_reading: Mapped[str | None] = mapped_column(Text, default=None)
    channel_id: Mapped[str | None] = mapped_column(String(32), default=None)
    card_ts: Mapped[str | None] = mapped_column(String(32), default=None)
    case_id: Mapped[int | None] = mapped_column(ForeignKey("recount_cases.id"), default=None, index=True)
    # The form it was entered in ("view:<Slack's view id>"); None for a request entered otherwise.
    form_key: Mapped[str | None] = mapped_column(String(64), default=None)

    contest: Mapped[Contest] = relationship()


class LedgerRow(Base):
    """One entry of a case's money ledger (rules.ledger.LedgerEntry), never updated or deleted."""

    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    amount: Mapped[Decimal] = mapped_column(Money)
    memo: Mapped[str] = mapped_column(Text, default="")
    # Itemisation of a cost, or a payment's method, reference and who received it.
    details: Mapped[dict] = mapped_column(default=dict)
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class CostNotice(Base):
    """(2)(b)(III): the requester was notified of the cost — which cost, how, when, by whom."""

    __tablename__ = "cost_notices"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), index=True)
    cost: Mapped[Decimal] = mapped_column(Money)
    notified_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    method: Mapped[str] = mapped_column(String(64))
    notified_by: Mapped[str] = mapped_column(String(200))
    details: Mapped[str | None] = mapped_column(Text, default=None)
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
