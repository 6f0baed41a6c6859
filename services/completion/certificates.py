"""Certificates of election (6): the PDF behind each unguessable link, its delivery to the candidate, a new link.

`complete_case` makes one certificate for each candidate who received the highest number of votes (the top N
for N seats; none for a ballot question; none for a seat tied and left to the lot, 1-13.5-1304, until
services.completion.lot records the lot and makes it for the winner). Each has a
token (`secrets.token_urlsafe(32)`) for `GET /certificates/<token>` on `recount-bot serve` until it expires;
a new link replaces the token, so the old link stops working.

Only a token's SHA-256 is stored (`Certificate.token_sha256`): the token is shown once, in the post that gives
the link, and a link is looked up by the hash of its token, so the database holds nothing that works as a link.
Tokens are never logged whole (`short()` is what a log line may show), and left out of the case record and the
audit log.
"""
from __future__ import annotations

import datetime as dt
import enum
import re
import unicodedata
import urllib.parse
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.calendar import DENVER
from rules.conflicts import CaseStep
from services.completion.complete import CERTIFICATE_LIFETIME, CertificateLine
from services.conduct.owed import note_duties
from services.documents.certificate import CertificateFacts, certificate_pdf
from services.election_law import cites_of, election_law
from services.errors import NotFound, UserError
from services.office.conflicts import authorize_step
from services.office.office_settings import OfficeSettings
from services.public_url import public_base_url
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import Certificate, LotDrawing, RecountCase, Workspace
from storage.models.conduct import link_token_sha256

CERTIFICATES_PATH = "/certificates/"
# secrets.token_urlsafe(32) gives 43 characters of [A-Za-z0-9_-]; anything else is not a token we made.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
# (6) says "deliver the certificate to such candidate"; the office records how.
DELIVERY_METHODS = ("in person", "mail", "certified mail", "email", "other")
NAME_LIMIT = 200
RENEW_GRACE = dt.timedelta(minutes=2)
# A candidate's name in a download's file name: at most this many characters (a name may be 300 characters,
# and more in a database that does not enforce its columns' lengths), so the header stays small.
FILENAME_NAME_LIMIT = 60


def short(token: str) -> str:
    """What a log line may show of a token: enough to tell two apart, not enough to use. A path that is no token
    (a newline, say, from %0A) shows as ????: whoever typed the path does not write into the log."""
    prefix = token[:4]
    return (prefix if re.fullmatch(r"[A-Za-z0-9_-]*", prefix) else "????") + "…"


def certificate_link(token: str, base: str | None = None) -> str:
    """The link posted in the case's thread: PUBLIC_BASE_URL (or http://localhost:PORT) + /certificates/<token>."""
    return f"{(base or public_base_url()).rstrip('/')}{CERTIFICATES_PATH}{token}"


class LinkState(str, enum.Enum):
    FOUND = "found"
    EXPIRED = "expired"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class CertificateDocument:
    state: LinkState
    facts: CertificateFacts | None = None
    expired_at: dt.datetime | None = None

    @property
    def filename(self) -> str:
        """An ASCII file name: ASCII letters and digits, accents dropped (José -> Jose), anything else a hyphen."""
        if self.facts is None:
            return "certificate.pdf"
        return _certificate_filename(_name_part(unicodedata.normalize("NFKD", self.facts.candidate), ascii_only=True))

    @property
    def unicode_filename(self) -> str:
        """The file name with the name as written: letters and digits of any script with their marks (vowel
        signs, accents), anything else (spaces, punctuation, emoji, direction controls) a hyphen."""
        if self.facts is None:
            return "certificate.pdf"
        return _certificate_filename(_name_part(unicodedata.normalize("NFC", self.facts.candidate), ascii_only=False))

    def content_disposition(self) -> str:
        """RFC 6266: `filename` (ASCII, quoted, nothing to escape) for every client, and `filename*` (RFC 5987,
        UTF-8, percent-encoded) when the name as written says more than the ASCII one."""
        value = f'inline; filename="{self.filename}"'
        if self.unicode_filename != self.filename:
            value += f"; filename*=UTF-8''{urllib.parse.quote(self.unicode_filename, safe='')}"
        return value

    def pdf(self) -> bytes:
        if self.facts is None:
            raise ValueError("no certificate behind this link")
        return certificate_pdf(self.facts)


def _name_part(name: str, *, ascii_only: bool) -> str:
    out: list[str] = []
    for c in name:
        kind = unicodedata.category(c)[0]
        if (c.isascii() and c.isalnum()) or (not ascii_only and kind in "LN"):
            out.append(c)
        elif kind == "M":  # a mark belongs to the letter before it: dropped with it, or kept with it
            if not ascii_only and out and out[-1] != "-":
                out.append(c)
        elif not out or out[-1] != "-":
            out.append("-")
    return "".join(out)


def _certificate_filename(name: str) -> str:
    name = name.strip("-")[:FILENAME_NAME_LIMIT].strip("-") or "candidate"
    return f"certificate-of-election-{name}.pdf"


def facts_of(session: Session, certificate: Certificate) -> CertificateFacts:
    case = session.get_one(RecountCase, certificate.case_id)
    contest, election = case.contest, case.contest.election
    law = election_law(election)
    # Made when the recount was completed, or when the lot decided a tie it left (1-13.5-1304).
    issued = certificate.created_at.astimezone(DENVER).date()
    lot = session.scalar(select(LotDrawing).where(LotDrawing.case_id == case.id))
    by_lot = lot.drawn_at.astimezone(DENVER).date() if lot is not None and certificate.candidate in lot.winners \
        else None
    if certificate.signer_title is not None:  # the signature line as it was when the certificate was made
        name, title = certificate.signer_name, certificate.signer_title
    else:  # made before the line was kept with it: the office's settings now
        settings = OfficeSettings.of(session.get_one(Workspace, case.workspace_id).settings)
        name, title = settings.official_name, settings.official_title
    return CertificateFacts(candidate=certificate.candidate, votes=certificate.votes, office=contest.name,
                            election=election.name, election_date=election.election_date,
                            local_government=election.local_government.name, issued_on=issued, case_id=case.id,
                            seats=contest.seats, official_title=title, official_name=name,
                            by_lot_on=by_lot, law=law.profile, law_named=law.named)


def document_for_token(services: Services, token: str, *, now: dt.datetime | None = None) -> CertificateDocument:
    """The certificate behind a link: FOUND (with its facts) until it expires, EXPIRED after, UNKNOWN otherwise."""
    if not _TOKEN.match(token or ""):
        return CertificateDocument(LinkState.UNKNOWN)
    moment = now or services.now()
    with services.db.transaction() as session:
        certificate = session.scalar(select(Certificate).where(Certificate.token_sha256 == link_token_sha256(token)))
        if certificate is None:
            return CertificateDocument(LinkState.UNKNOWN)
        if moment >= certificate.expires_at:
            return CertificateDocument(LinkState.EXPIRED, expired_at=certificate.expires_at)
        return CertificateDocument(LinkState.FOUND, facts_of(session, certificate))


def _certificate(session: Session, certificate_id: int, workspace_id: int, *, lock: bool = False) -> Certificate:
    certificate = session.get(Certificate, certificate_id, with_for_update=lock)
    case = session.get(RecountCase, certificate.case_id) if certificate is not None else None
    if certificate is None or case is None or case.workspace_id != workspace_id:
        raise NotFound("That certificate of election does not exist in this office.")
    return certificate


def _line(certificate: Certificate, token: str | None = None) -> CertificateLine:
    """`token`: the link's token when it was just made (only its hash is stored)."""
    return CertificateLine(certificate.id, certificate.candidate, certificate.votes, token,
                           certificate.created_at, certificate.expires_at, certificate.delivered_at,
                           certificate.delivered_by, certificate.delivery_method, certificate.slack_file_id)


def certificate(services: Services, *, workspace_id: int, certificate_id: int) -> tuple[CertificateLine, int]:
    """A certificate and its case's id."""
    with services.db.transaction() as session:
        row = _certificate(session, certificate_id, workspace_id)
        return _line(row), row.case_id


def certificate_document(services: Services, *, workspace_id: int, certificate_id: int) -> CertificateDocument:
    """The PDF's facts for an upload into Slack (no link involved)."""
    with services.db.transaction() as session:
        return CertificateDocument(LinkState.FOUND, facts_of(session, _certificate(session, certificate_id,
                                                                                   workspace_id)))


@dataclass(frozen=True)
class DeliveryRecorded:
    certificate: CertificateLine
    case_id: int
    newly_recorded: bool


def record_delivery(services: Services, *, workspace_id: int, certificate_id: int, delivered_at: dt.datetime,
                    delivered_by: str, method: str, actor: str, details: str | None = None) -> DeliveryRecorded:
    """(6): the certificate was delivered to the candidate: when, how, by whom. Recording twice changes nothing."""
    delivered_by = (delivered_by or "").strip()
    if not delivered_by:
        raise UserError("Say who delivered the certificate.", field="delivered_by")
    if len(delivered_by) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="delivered_by")
    if method not in DELIVERY_METHODS:
        raise UserError(f"“{echoed(method)}” is not a way of delivering this office records.", field="method")
    if delivered_at.tzinfo is None:
        raise ValueError("delivered_at must be timezone-aware")
    now = services.now()
    if delivered_at > now + dt.timedelta(minutes=5):
        raise UserError("The certificate cannot have been delivered in the future.", field="delivered_at")
    with services.db.transaction() as session:
        row = _certificate(session, certificate_id, workspace_id, lock=True)
        if row.delivered_at is not None:  # a double click or a colleague's modal: the first record stands
            return DeliveryRecorded(_line(row), row.case_id, False)
        case = session.get_one(RecountCase, row.case_id)
        authorize_step(session, case, actor, CaseStep.CERTIFY)
        if delivered_at < row.created_at - dt.timedelta(minutes=5):
            raise UserError("The certificate cannot have been delivered before the recount was completed "
                            "and the certificate made.", field="delivered_at")
        row.delivered_at, row.delivered_by, row.delivery_method = delivered_at, delivered_by, method
        note_duties(session, case)
        after = {"certificate": row.id, "candidate": row.candidate, "votes": row.votes, "delivered_at": delivered_at,
                 "delivered_by": delivered_by, "method": method, "citation": cites_of(case).certificate}
        if details and details.strip():
            after["details"] = details.strip()
        # Entity "recount_case", so the delivery is in the case record's timeline.
        audit.append(session, actor=actor, action="certificate.delivered", entity="recount_case", entity_id=case.id,
                     after=after, workspace_id=workspace_id, at=now)
        session.flush()
        return DeliveryRecorded(_line(row), row.case_id, True)


@dataclass(frozen=True)
class LinkRenewed:
    certificate: CertificateLine
    case_id: int
    renewed: bool  # False: the link was made moments ago (a double click) and is kept; its token is not known


def renew_link(services: Services, *, workspace_id: int, certificate_id: int, actor: str) -> LinkRenewed:
    """A new link for a certificate (the old one stops working), good for CERTIFICATE_LIFETIME from now. A link
    made in the last RENEW_GRACE is kept: a double click must not kill the link the first click posted (and, only
    its hash being stored, the kept link cannot be shown again: `certificate.token` is None then)."""
    now = services.now()
    with services.db.transaction() as session:
        row = _certificate(session, certificate_id, workspace_id, lock=True)
        authorize_step(session, session.get_one(RecountCase, row.case_id), actor, CaseStep.CERTIFY)
        if row.expires_at - now > CERTIFICATE_LIFETIME - RENEW_GRACE:
            return LinkRenewed(_line(row), row.case_id, False)
        before = {"expires_at": row.expires_at}
        token, row.expires_at = row.issue_link(), now + CERTIFICATE_LIFETIME
        audit.append(session, actor=actor, action="certificate.link_renewed", entity="recount_case",
                     entity_id=row.case_id, before=before,
                     after={"certificate": row.id, "candidate": row.candidate, "expires_at": row.expires_at},
                     workspace_id=workspace_id, at=now)
        session.flush()
        return LinkRenewed(_line(row, token), row.case_id, True)


def set_slack_file(services: Services, *, certificate_id: int, file_id: str) -> None:
    """Remember the certificate's PDF uploaded into the case's thread."""
    with services.db.transaction() as session:
        row = session.get(Certificate, certificate_id)
        if row is not None:
            row.slack_file_id = file_id
