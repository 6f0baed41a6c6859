"""Conducting and closing a recount (1306(3)-(6)): assistants, tally sheets, evidence, certificates."""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from decimal import Decimal

from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base
from storage.types import Money, UTCDateTime, utcnow


class AssistantRow(Base):
    """A person assisting in the recount (3), in the capacity the statute names, and their pay."""

    __tablename__ = "assistants"
    __table_args__ = (UniqueConstraint("case_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"))
    name: Mapped[str] = mapped_column(String(200))
    capacity: Mapped[str] = mapped_column(String(32))  # rules.assistants.Capacity
    days_served: Mapped[int] = mapped_column(Integer, default=0)
    compensation: Mapped[Decimal] = mapped_column(Money)
    on_governing_body: Mapped[bool] = mapped_column(Boolean, default=False)
    qualified_as_judge: Mapped[bool | None] = mapped_column(Boolean, default=None)
    served_as_judge: Mapped[bool | None] = mapped_column(Boolean, default=None)
    replaces: Mapped[str | None] = mapped_column(String(200), default=None)
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class TallySheetRow(Base):
    """One entry of one tally sheet (5). Rows are never changed; a wrong sheet is withdrawn, with a reason."""

    __tablename__ = "tally_sheets"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), index=True)
    sheet_id: Mapped[str] = mapped_column(String(100))
    unit: Mapped[str] = mapped_column(String(200))
    method: Mapped[str] = mapped_column(String(32))  # rules.tally.CountMethod
    counts: Mapped[dict] = mapped_column()  # {choice name: whole votes}
    entry: Mapped[int] = mapped_column(Integer, default=1)
    entered_by: Mapped[str] = mapped_column(String(64))
    entered_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    withdrawn_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    withdrawn_by: Mapped[str | None] = mapped_column(String(64), default=None)
    withdrawn_reason: Mapped[str | None] = mapped_column(Text, default=None)


class EvidenceDemand(Base):
    """(4): documentary evidence demanded about the legality of a vote, and what was produced."""

    __tablename__ = "evidence_demands"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), index=True)
    description: Mapped[str] = mapped_column(Text)
    demanded_of: Mapped[str] = mapped_column(String(300))
    demanded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    demanded_by: Mapped[str] = mapped_column(String(64))
    produced: Mapped[str | None] = mapped_column(Text, default=None)
    produced_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    recorded_by: Mapped[str | None] = mapped_column(String(64), default=None)


class Certificate(Base):
    """(6): a certificate of election for a candidate with the highest number of votes, and its delivery."""

    __tablename__ = "certificates"
    __table_args__ = (UniqueConstraint("case_id", "candidate"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"))
    candidate: Mapped[str] = mapped_column(String(300))
    votes: Mapped[int] = mapped_column(BigInteger)
    # The SHA-256 (hex) of the unguessable token in the link `recount-bot serve` answers until `expires_at`.
    # Only the hash is kept: whoever reads the database cannot make a working link from it. The token itself
    # is shown once, when the link is made (`issue_link`), and posted in the case's thread.
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    slack_file_id: Mapped[str | None] = mapped_column(String(32), default=None)
    delivered_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    delivered_by: Mapped[str | None] = mapped_column(String(200), default=None)
    delivery_method: Mapped[str | None] = mapped_column(String(64), default=None)
    # The signature line as it was when the certificate was made (the office's settings then): a later change of
    # official does not rewrite a certificate already issued. None (made before 0010): the settings now.
    signer_name: Mapped[str | None] = mapped_column(String(200), default=None)
    signer_title: Mapped[str | None] = mapped_column(String(200), default=None)

    def issue_link(self) -> str:
        """A new token for this certificate's link (any earlier link stops working): kept as its hash, returned
        to be shown once."""
        token = secrets.token_urlsafe(32)
        self.token_sha256 = link_token_sha256(token)
        return token


def link_token_sha256(token: str) -> str:
    """What is stored of a link token, and what a link's token is looked up by. A plain hash suffices: the token
    is 256 random bits, so there is nothing to guess and no need for a salt or a slow hash."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class LotDrawing(Base):
    """1-13.5-1304: the drawing of lots for a tie the completed recount did not break, as the official recorded it.
    One per case (the unique case_id): a double click or a retry finds the first and records nothing more."""

    __tablename__ = "lot_drawings"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), unique=True)
    drawn_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    place: Mapped[str] = mapped_column(String(300))
    conducted_by: Mapped[str] = mapped_column(Text)  # who drew it: the canvass board, by name
    witnesses: Mapped[str] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(64))  # rules.lot.LotMethod
    method_details: Mapped[str | None] = mapped_column(Text, default=None)
    tied: Mapped[list] = mapped_column()
    winners: Mapped[list] = mapped_column()
    # Each tied candidate's notice of the drawing: [{"candidate", "given_at", "method"}].
    candidate_notices: Mapped[list] = mapped_column()
    decision: Mapped[dict] = mapped_column()  # rules.lot.LotDecision, JSON-ready
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    # (6): the amended notice of the results to the governing body, owed when the first notice went before the lot.
    amended_notice_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    amended_notice_by: Mapped[str | None] = mapped_column(String(200), default=None)
    amended_notice_method: Mapped[str | None] = mapped_column(String(64), default=None)
