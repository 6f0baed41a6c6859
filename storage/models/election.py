"""Elections, their contests and choices, and the survey of returns as immutable versions."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storage.models.base import Base
from storage.models.office import LocalGovernment
from storage.types import UTCDateTime, utcnow

# What an election recorded before the law was chosen per election runs under: the only law the bot then applied.
LAW_BEFORE_CHOICE = "1-13.5-1306"


class Election(Base):
    __tablename__ = "elections"
    __table_args__ = (UniqueConstraint("local_government_id", "election_date", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    local_government_id: Mapped[int] = mapped_column(ForeignKey("local_governments.id"))
    name: Mapped[str] = mapped_column(String(300))
    election_date: Mapped[dt.date] = mapped_column(Date)
    # The actual canvass date once known; until then deadlines under (2)(e) are estimates.
    canvass_date: Mapped[dt.date | None] = mapped_column(Date, default=None)
    # Those who assisted in preparing the official abstract of votes: (3) says they assist in a recount.
    abstract_preparers: Mapped[list] = mapped_column(default=list, server_default="[]")
    # The recount law the election runs under (a rules.laws key). Rows written before the law was chosen per
    # election hold "1-13.5-1306", the only law the bot then applied (migration 0015).
    law: Mapped[str] = mapped_column(String(16), default=LAW_BEFORE_CHOICE, server_default=LAW_BEFORE_CHOICE)
    # How it was chosen: "given" (named in Slack or with --law), "default" (the CLI's import without --law) or
    # "before" (recorded before the law was chosen per election), so a verdict can say which.
    law_basis: Mapped[str] = mapped_column(String(16), default="before", server_default="before")
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    local_government: Mapped[LocalGovernment] = relationship(back_populates="elections")
    contests: Mapped[list["Contest"]] = relationship(back_populates="election", order_by="Contest.position")
    survey_versions: Mapped[list["SurveyVersion"]] = relationship(
        back_populates="election", order_by="SurveyVersion.number")


class Contest(Base):
    __tablename__ = "contests"
    __table_args__ = (UniqueConstraint("election_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    election_id: Mapped[int] = mapped_column(ForeignKey("elections.id"))
    name: Mapped[str] = mapped_column(String(300))
    kind: Mapped[str] = mapped_column(String(16))  # rules.contest.ContestKind value
    seats: Mapped[int] = mapped_column(Integer, default=1)
    position: Mapped[int] = mapped_column(Integer, default=0)

    election: Mapped[Election] = relationship(back_populates="contests")
    choices: Mapped[list["Choice"]] = relationship(back_populates="contest", order_by="Choice.position")
    issue_committees: Mapped[list["IssueCommittee"]] = relationship(back_populates="contest")


class Choice(Base):
    __tablename__ = "choices"
    __table_args__ = (UniqueConstraint("contest_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"))
    name: Mapped[str] = mapped_column(String(300))
    position: Mapped[int] = mapped_column(Integer, default=0)
    party: Mapped[str | None] = mapped_column(String(200), default=None)

    contest: Mapped[Contest] = relationship(back_populates="choices")


class IssueCommittee(Base):
    """An issue committee for a ballot issue or question: owed the (1) notice when affected."""

    __tablename__ = "issue_committees"
    __table_args__ = (UniqueConstraint("contest_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"))
    name: Mapped[str] = mapped_column(String(300))
    side: Mapped[str | None] = mapped_column(String(300), default=None)  # the choice it supports
    contact: Mapped[str | None] = mapped_column(String(300), default=None)

    contest: Mapped[Contest] = relationship(back_populates="issue_committees")


class SurveyVersion(Base):
    """One complete survey of returns for an election. Never updated: a correction is a new version."""

    __tablename__ = "survey_versions"
    __table_args__ = (UniqueConstraint("election_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    election_id: Mapped[int] = mapped_column(ForeignKey("elections.id"))
    number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    evidence: Mapped[list] = mapped_column(default=list)
    source_format: Mapped[str] = mapped_column(String(32))
    source_name: Mapped[str] = mapped_column(String(300), default="")
    source_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    election: Mapped[Election] = relationship(back_populates="survey_versions")
    counts: Mapped[list["VoteCount"]] = relationship(back_populates="version")


class VoteCount(Base):
    __tablename__ = "vote_counts"
    __table_args__ = (
        UniqueConstraint("survey_version_id", "choice_id", "unit"),
        Index("ix_vote_counts_version_contest", "survey_version_id", "contest_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    survey_version_id: Mapped[int] = mapped_column(ForeignKey("survey_versions.id"))
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"))
    choice_id: Mapped[int] = mapped_column(ForeignKey("choices.id"))
    unit: Mapped[str] = mapped_column(String(200), default="")
    votes: Mapped[int] = mapped_column(BigInteger)

    version: Mapped[SurveyVersion] = relationship(back_populates="counts")
    choice: Mapped[Choice] = relationship()
