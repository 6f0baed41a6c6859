"""Observers' links (1306(1): candidates and issue committees "may be present and observe"): a read-only web page
of one recount, behind an unguessable link that expires and can be revoked."""
from __future__ import annotations

import datetime as dt
import secrets

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models.base import Base
from storage.models.conduct import link_token_sha256
from storage.types import UTCDateTime, utcnow


class ObserverLink(Base):
    """One link to a case's observers' page. As with certificate links, only the SHA-256 of the token is kept:
    the token is shown once, to the person who made the link, and a page is looked up by the hash of its token."""

    __tablename__ = "observer_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("recount_cases.id"), index=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    revoked_by: Mapped[str | None] = mapped_column(String(64), default=None)
    # Page loads (not the page's polls): all of them, and when the last audit entry about them was written
    # (services.observers.page.VIEW_AUDIT_INTERVAL keeps the audit log to one entry per link per interval).
    views: Mapped[int] = mapped_column(Integer, default=0)
    last_viewed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    view_audited_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    views_audited: Mapped[int] = mapped_column(Integer, default=0)

    def issue_token(self) -> str:
        """A new token (256 random bits): kept as its hash, returned to be shown once."""
        token = secrets.token_urlsafe(32)
        self.token_sha256 = link_token_sha256(token)
        return token
