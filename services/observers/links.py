"""Observers' links (C.R.S. 1-13.5-1306(1)): making one for a case, revoking it, and the links a case has.

A link carries an unguessable token (`secrets.token_urlsafe(32)`) of which only the SHA-256 is stored, as for
certificate links (services.completion.certificates): the token is shown once, only to the person who made the link,
and never logged whole (`services.completion.certificates.short`) nor written to the audit log (entries name the link by its id). It works until
it expires (LINK_LIFETIME after it was made) or is revoked. What its page shows is services.observers.page.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from services.election_law import cites_of
from services.errors import NotFound
from services.public_url import public_base_url
from services.services import Services
from storage import audit
from storage.models import ObserverLink, RecountCase

OBSERVE_PATH = "/observe/"
# Long enough to follow a recount from its start to the certificates and through the election contest window
# after it (1-13.5-1403, as the reminders count it); revocable at any time before.
LINK_LIFETIME = dt.timedelta(days=30)
# A second click of "Share observers' link" by the same person within this time is the same click: no new link.
SHARE_GRACE = dt.timedelta(minutes=1)


def observer_link(token: str, base: str | None = None) -> str:
    """The link to give observers: PUBLIC_BASE_URL (or http://localhost:PORT) + /observe/<token>."""
    return f"{(base or public_base_url()).rstrip('/')}{OBSERVE_PATH}{token}"


@dataclass(frozen=True)
class LinkLine:
    id: int
    case_id: int
    created_at: dt.datetime
    created_by: str
    expires_at: dt.datetime
    revoked_at: dt.datetime | None
    revoked_by: str | None
    views: int
    last_viewed_at: dt.datetime | None
    token: str | None = None  # only when the link was just made: its hash is all that is stored

    def active(self, now: dt.datetime) -> bool:
        return self.revoked_at is None and now < self.expires_at


def _line(row: ObserverLink, token: str | None = None) -> LinkLine:
    return LinkLine(row.id, row.case_id, row.created_at, row.created_by, row.expires_at, row.revoked_at,
                    row.revoked_by, row.views, row.last_viewed_at, token)


def links_of(session: Session, case_id: int) -> tuple[LinkLine, ...]:
    """A case's observers' links, newest first (the card shows the active ones)."""
    rows = session.scalars(select(ObserverLink).where(ObserverLink.case_id == case_id)
                           .order_by(ObserverLink.id.desc()))
    return tuple(_line(r) for r in rows)


@dataclass(frozen=True)
class LinkShared:
    link: LinkLine
    newly_made: bool  # False: the same person made one moments ago (a double click); its token is not known


def share_link(services: Services, *, workspace_id: int, case_id: int, actor: str) -> LinkShared:
    """A new observers' link for the case, good for LINK_LIFETIME. Audited without its token."""
    now = services.now()
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id, with_for_update=True)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound("That recount case does not exist in this office.")
        recent = session.scalar(select(ObserverLink).where(
            ObserverLink.case_id == case_id, ObserverLink.created_by == actor, ObserverLink.revoked_at.is_(None),
            ObserverLink.created_at > now - SHARE_GRACE).order_by(ObserverLink.id.desc()).limit(1))
        if recent is not None:
            return LinkShared(_line(recent), False)
        row = ObserverLink(case_id=case_id, created_at=now, created_by=actor, expires_at=now + LINK_LIFETIME,
                           views=0, views_audited=0)
        token = row.issue_token()
        session.add(row)
        session.flush()
        audit.append(session, actor=actor, action="observers.link_made", entity="recount_case", entity_id=case_id,
                     after={"link": row.id, "expires_at": row.expires_at, "citation": cites_of(case).notice},
                     workspace_id=workspace_id, at=now)
        return LinkShared(_line(row, token), True)


@dataclass(frozen=True)
class LinkRevoked:
    link: LinkLine
    newly_revoked: bool  # False: it had been revoked already (a double click); nothing changed


def revoke_link(services: Services, *, workspace_id: int, link_id: int, actor: str) -> LinkRevoked:
    """Revoke an observers' link: from now its page answers 410 Gone. Revoking twice changes nothing."""
    now = services.now()
    with services.db.transaction() as session:
        row = session.get(ObserverLink, link_id, with_for_update=True)
        case = session.get(RecountCase, row.case_id) if row is not None else None
        if row is None or case is None or case.workspace_id != workspace_id:
            raise NotFound("That observers' link does not exist in this office.")
        if row.revoked_at is not None:
            return LinkRevoked(_line(row), False)
        row.revoked_at, row.revoked_by = now, actor
        audit.append(session, actor=actor, action="observers.link_revoked", entity="recount_case",
                     entity_id=row.case_id, before={"link": row.id, "revoked_at": None},
                     after={"link": row.id, "revoked_at": now, "views": row.views}, workspace_id=workspace_id, at=now)
        session.flush()
        return LinkRevoked(_line(row), True)
