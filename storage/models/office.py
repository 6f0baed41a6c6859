"""The office: its Slack workspace, who holds which role, and the local governments it serves."""
from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storage.models.base import Base
from storage.types import UTCDateTime, utcnow


class Role(str, enum.Enum):
    """Ordered by power: each role may do what those below it may."""

    VIEWER = "viewer"
    STAFF = "staff"
    OFFICIAL = "official"  # the designated election official

    @property
    def rank(self) -> int:
        return list(Role).index(self)

    def allows(self, needed: "Role") -> bool:
        return self.rank >= needed.rank


class Workspace(Base):
    __tablename__ = "workspaces"

    id: Mapped[int] = mapped_column(primary_key=True)
    slack_team_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    # Office settings (validated by services.office.office_settings.OfficeSettings before they are stored).
    settings: Mapped[dict] = mapped_column(default=dict)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    memberships: Mapped[list["Membership"]] = relationship(back_populates="workspace")
    local_governments: Mapped[list["LocalGovernment"]] = relationship(back_populates="workspace")


class Membership(Base):
    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("workspace_id", "slack_user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id"))
    slack_user_id: Mapped[str] = mapped_column(String(32))
    role: Mapped[str] = mapped_column(String(16))
    # A delegated approver may decide recount requests besides the designated election official.
    can_approve: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    granted_by: Mapped[str] = mapped_column(String(64))
    granted_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    workspace: Mapped[Workspace] = relationship(back_populates="memberships")


class CandidateUser(Base):
    """The office's roster: this Slack user is a candidate (a choice) in this contest. A candidate may not
    decide, complete or certify that contest's recount (rules.conflicts)."""

    __tablename__ = "candidate_users"
    __table_args__ = (UniqueConstraint("contest_id", "slack_user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id"), index=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"))
    choice_id: Mapped[int] = mapped_column(ForeignKey("choices.id"))
    slack_user_id: Mapped[str] = mapped_column(String(32))
    recorded_by: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class LocalGovernment(Base):
    __tablename__ = "local_governments"
    __table_args__ = (UniqueConstraint("workspace_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id"))
    name: Mapped[str] = mapped_column(String(300))
    # Who receives the (1) notice and the (6) notice of results, e.g. "Board of Directors".
    governing_body: Mapped[str] = mapped_column(String(300))

    workspace: Mapped[Workspace] = relationship(back_populates="local_governments")
    elections: Mapped[list["Election"]] = relationship(back_populates="local_government")  # noqa: F821
