"""Recount cases: one per contest, with their deadlines and the notices owed and given."""
from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import Boolean, Date, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storage.models.base import Base
from storage.models.election import Contest, SurveyVersion
from storage.types import UTCDateTime, utcnow


class CaseKind(str, enum.Enum):
    AUTOMATIC = "automatic"  # 1306(1)
    REQUESTED = "requested"  # 1306(2)


class CaseStatus(str, enum.Enum):
    OPEN = "open"
    COUNTING = "counting"
    COMPLETED = "completed"
    # 1-10.5-103: the referring subdivision waived the automatic recount in writing; no recount is held.
    WAIVED = "waived"


class RecountCase(Base):
    __tablename__ = "recount_cases"
    __table_args__ = (
        # The worker's poll and App Home: an office's cases still owing something, and those completed lately
        # (their election-contest window), never the whole history (services/office/deadlines.py).
        Index("ix_recount_cases_live", "workspace_id", "duties_done", "completed_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id"))
    # A contest has at most one recount: (2)(a) allows a request only when (1) does not apply.
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default=CaseStatus.OPEN.value)
    opened_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    opened_by: Mapped[str] = mapped_column(String(64))
    survey_version_id: Mapped[int] = mapped_column(ForeignKey("survey_versions.id"))
    multi_seat_rule: Mapped[str] = mapped_column(String(40))
    # The verdict that opened the case, as shown (rules.margin.MarginDecision, JSON-ready).
    verdict: Mapped[dict] = mapped_column(default=dict)
    # Where the case's card lives; every later update goes into its thread.
    channel_id: Mapped[str | None] = mapped_column(String(32), default=None)
    card_ts: Mapped[str | None] = mapped_column(String(32), default=None)
    # When counting began: for a requested recount, only once the (2)(b) checklist was complete.
    counting_started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    counting_started_by: Mapped[str | None] = mapped_column(String(64), default=None)
    # How the recount is tallied (5): the method and the units expected (precincts, batches or machines).
    count_method: Mapped[str | None] = mapped_column(String(32), default=None)
    expected_units: Mapped[list | None] = mapped_column(default=None)
    double_entry: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # The identifiers of the tally sheets used at the election, as the office entered them at set-up: a recount
    # sheet with one of them is refused, since (5) has the votes "tallied on sheets other than those used at the
    # election". None: not entered (nothing to check against).
    election_sheet_ids: Mapped[list | None] = mapped_column(default=None)
    # Completion (6) and settlement ((2)(c), (d), (f)), as the statute core decided them.
    completed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    completed_by: Mapped[str | None] = mapped_column(String(64), default=None)
    completion: Mapped[dict | None] = mapped_column(default=None)
    settlement: Mapped[dict | None] = mapped_column(default=None)
    amended_version_id: Mapped[int | None] = mapped_column(ForeignKey("survey_versions.id"), default=None)
    # (6): the notice of the results to the governing body.
    results_notice_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    results_notice_by: Mapped[str | None] = mapped_column(String(200), default=None)
    results_notice_method: Mapped[str | None] = mapped_column(String(64), default=None)
    # (2)(d) / (2)(f): the refund or the unused deposit handed back to the requester (the settlement at completion
    # writes it to the ledger; this records that the money actually went back: when, how, by whom).
    money_returned_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    money_returned_by: Mapped[str | None] = mapped_column(String(200), default=None)
    money_returned_method: Mapped[str | None] = mapped_column(String(64), default=None)
    money_returned_reference: Mapped[str | None] = mapped_column(String(100), default=None)
    # Completed and nothing left owed (rules.duties): kept true to the records by every use case that records a
    # duty (services/conduct/owed.py), so the poll and App Home need not read the case again.
    duties_done: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")

    contest: Mapped[Contest] = relationship()
    survey_version: Mapped[SurveyVersion] = relationship(foreign_keys=[survey_version_id])
    deadlines: Mapped[list["CaseDeadline"]] = relationship(back_populates="case", order_by="CaseDeadline.due_date")
    notices: Mapped[list["Notice"]] = relationship(back_populates="case", order_by="Notice.id")
    waiver: Mapped["AutomaticRecountWaiver | None"] = relationship(back_populates="case", uselist=False)


class CaseDeadline(Base):
    __tablename__ = "case_deadlines"
    __table_args__ = (UniqueConstraint("case_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"))
    name: Mapped[str] = mapped_column(String(64))
    due_date: Mapped[dt.date] = mapped_column(Date)
    citation: Mapped[str] = mapped_column(String(100))
    note: Mapped[str] = mapped_column(Text)
    reading: Mapped[str | None] = mapped_column(Text, default=None)
    rolled_from: Mapped[dt.date | None] = mapped_column(Date, default=None)
    estimated: Mapped[bool] = mapped_column(Boolean, default=False)
    falls_on: Mapped[str | None] = mapped_column(String(100), default=None)
    done_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)

    case: Mapped[RecountCase] = relationship(back_populates="deadlines")


class RecipientKind(str, enum.Enum):
    GOVERNING_BODY = "governing_body"
    CANDIDATE = "candidate"
    ISSUE_COMMITTEE = "issue_committee"


class Notice(Base):
    """A notice owed under (1) (and (2)(b)(I)); `given_at` is set when the office records it."""

    __tablename__ = "notices"
    __table_args__ = (UniqueConstraint("case_id", "recipient_kind", "recipient_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"))
    recipient_kind: Mapped[str] = mapped_column(String(32))
    recipient_name: Mapped[str] = mapped_column(String(300))
    citation: Mapped[str] = mapped_column(String(100))
    given_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    given_by: Mapped[str | None] = mapped_column(String(200), default=None)
    method: Mapped[str | None] = mapped_column(String(64), default=None)
    details: Mapped[str | None] = mapped_column(Text, default=None)
    recorded_by: Mapped[str | None] = mapped_column(String(64), default=None)
    recorded_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)

    case: Mapped[RecountCase] = relationship(back_populates="notices")


class AutomaticRecountWaiver(Base):
    """1-10.5-103: the written notice by which the political subdivision that referred a ballot issue or question
    that failed waived its automatic recount, as the office received and recorded it. One per case; never changed
    once written (a waiver recorded in error is a matter for the official and the audit log, not an edit)."""

    __tablename__ = "automatic_recount_waivers"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), unique=True)
    waived_by: Mapped[str] = mapped_column(String(200))  # the subdivision (or the person signing for it)
    capacity: Mapped[str] = mapped_column(String(200))  # in what capacity the notice was given
    received_on: Mapped[dt.date] = mapped_column(Date)  # Colorado date the written notice reached the clerk
    reference: Mapped[str] = mapped_column(Text)  # the written waiver: its description or file reference
    citation: Mapped[str] = mapped_column(String(100))
    decision: Mapped[dict] = mapped_column(default=dict)  # rules.waiver.may_waive, JSON-ready
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)

    case: Mapped[RecountCase] = relationship(back_populates="waiver")
