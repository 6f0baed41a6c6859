"""The observers' page of a recount (C.R.S. 1-13.5-1306(1): "An affected candidate or issue committee is
allowed to be present during and observe the recount"), read-only and for people without a Slack account. The
links themselves (made, revoked, hashed) are services.observers.links; the HTTP side is bot.web.observers.

What the page shows (`observer_state`) is read through the same service-layer queries as the case card
(services.conduct.cases), in one read: the status, the tally as it proceeds (services.conduct.tally), the result and the
certificates. It leaves out what is the office's own business: who entered which sheet (Slack user ids), the
requester's contact, the money.

A revoked or expired link finds nothing (REVOKED, EXPIRED: the page answers 410); a token never made, or one
altered by a character, is UNKNOWN (404).

Page views are in the audit log (`record_view`): the first load of each link, then at most one entry per link per
VIEW_AUDIT_INTERVAL, each carrying the link's running count of loads (so loads in between are counted in the next
entry and on the card). The page's polls are not views. Entries name the link by its id, never its token.
"""
from __future__ import annotations

import datetime as dt
import enum
import hashlib
import json
import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.laws import DEFAULT_LAW
from rules.laws.profile import Part
from rules.serialize import to_jsonable
from services.completion.certificates import facts_of, short  # noqa: F401 (short: what the server may log of a token)
from services.conduct.cases import CaseView, case_view_of, load_case
from services.conduct.tally import original_contest, tally_state
from services.documents.certificate import CertificateFacts
from services.election_law import cites_of
from services.services import Services
from storage import audit
from storage.models import Certificate, ObserverLink, RecountCase
from storage.models.conduct import link_token_sha256

# The audit log gets the first load of a link, then at most one entry per link per this interval.
VIEW_AUDIT_INTERVAL = dt.timedelta(minutes=10)
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
STATUS_LABEL = {"open": "Open: the recount has not started counting", "counting": "Counting",
                "completed": "Completed",
                "waived": "Waived: the automatic recount is not held (written notice under C.R.S. 1-10.5-103)"}
OUTCOME_LABEL = {"confirmed": "The recount confirms the result", "changed": "The recount changes the result",
                 "tie_by_lot": "A tie for the last seat, left to the lot"}


class LinkState(str, enum.Enum):
    FOUND = "found"
    EXPIRED = "expired"
    REVOKED = "revoked"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Lookup:
    state: LinkState
    link_id: int | None = None
    case_id: int | None = None


def _find(session: Session, token: str, now: dt.datetime) -> tuple[Lookup, ObserverLink | None]:
    if not _TOKEN.match(token or ""):
        return Lookup(LinkState.UNKNOWN), None
    row = session.scalar(select(ObserverLink).where(ObserverLink.token_sha256 == link_token_sha256(token)))
    if row is None:
        return Lookup(LinkState.UNKNOWN), None
    if row.revoked_at is not None:
        return Lookup(LinkState.REVOKED, row.id, row.case_id), row
    if now >= row.expires_at:
        return Lookup(LinkState.EXPIRED, row.id, row.case_id), row
    return Lookup(LinkState.FOUND, row.id, row.case_id), row


def record_view(services: Services, token: str) -> Lookup:
    """A load of the page (not a poll): counted on the link, and in the audit log when it is the link's first or
    VIEW_AUDIT_INTERVAL has passed since its last entry."""
    now = services.now()
    with services.db.read() as session:  # most requests are polls or refusals: no write lock for those
        found, _ = _find(session, token, now)
    if found.state is not LinkState.FOUND:
        return found
    with services.db.transaction() as session:
        row = session.get_one(ObserverLink, found.link_id, with_for_update=True)  # found a moment ago
        row.views += 1
        row.last_viewed_at = now
        if row.view_audited_at is None or now - row.view_audited_at >= VIEW_AUDIT_INTERVAL:
            case = session.get_one(RecountCase, row.case_id)
            audit.append(session, actor=f"observer-link:{row.id}", action="observers.page_viewed",
                         entity="recount_case", entity_id=row.case_id,
                         after={"link": row.id, "views": row.views, "views_since_last_entry":
                                row.views - row.views_audited, "first_view": row.view_audited_at is None,
                                "citation": cites_of(case).notice},
                         workspace_id=case.workspace_id, at=now)
            row.view_audited_at, row.views_audited = now, row.views
    return found


@dataclass(frozen=True)
class UnitLine:
    unit: str
    status: str  # "counted", "awaiting second entry", "disagreement", "not yet entered"
    counts: tuple[tuple[str, int], ...] | None  # the sheet that counts, in the contest's order of choices


@dataclass(frozen=True)
class TallyLine:
    method_label: str
    double_entry: bool
    tallied: int
    expected: int
    choices: tuple[str, ...]
    running_totals: tuple[tuple[str, int], ...]  # the units counted so far, per choice
    returns_totals: tuple[tuple[str, int], ...]  # the whole contest as the survey of returns had it
    units: tuple[UnitLine, ...]
    disagreements: tuple[tuple[str, str, tuple[tuple[str, int, int], ...]], ...]  # (unit, sheet, differences)
    reason: str
    citation: str


@dataclass(frozen=True)
class ResultLine:
    outcome: str
    winners: tuple[str, ...]
    totals: tuple[tuple[str, int, int], ...]  # (choice, survey, recount), most votes first
    seats: int
    question: bool
    tied_for_last_seat: tuple[str, ...]
    reason: str
    citation: str


@dataclass(frozen=True)
class CertificateLink:
    id: int
    candidate: str
    votes: int


@dataclass(frozen=True)
class ObserverState:
    """What an observers' page shows. Everything in it is as the database holds it: escape before showing."""

    case_id: int
    kind: str
    status: str
    contest: str
    election: str
    election_date: dt.date
    local_government: str
    deadline: tuple[dt.date, bool, str] | None  # (date, estimated, citation)
    counting_started_at: dt.datetime | None
    tally: TallyLine | None
    result: ResultLine | None
    certificates: tuple[CertificateLink, ...]
    completed_at: dt.datetime | None
    link_expires_at: dt.datetime
    # The election's law's provisions the page cites: who may observe, the certificates, a tie decided by lot.
    observers_citation: str
    certificate_citation: str
    tie_citation: str

    def as_json(self) -> dict:
        """JSON-ready, for state.json."""
        return to_jsonable(self)

    def version(self) -> str:
        """Changes when anything the page shows changes: the page's ETag."""
        data = json.dumps(self.as_json(), sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(data.encode()).hexdigest()[:32]


def _tally_line(session: Session, case: RecountCase, view: CaseView) -> TallyLine | None:
    summary = view.conduct.tally if view.conduct else None
    state = tally_state(session, case)
    if summary is None or state is None:
        return None
    choices = summary.choices
    totals = {c: 0 for c in choices}
    for counted in state.counted.values():
        for c in choices:
            totals[c] += int(counted.counts.get(c, 0))
    disagreeing = {d.unit for d in summary.disagreements}
    units = []
    for unit in summary.units:
        sheet = state.counted.get(unit)
        if sheet is not None:
            units.append(UnitLine(unit, "counted", tuple((c, int(sheet.counts.get(c, 0))) for c in choices)))
        elif unit in disagreeing:
            units.append(UnitLine(unit, "disagreement", None))
        elif unit in summary.awaiting_second_entry:
            units.append(UnitLine(unit, "awaiting second entry", None))
        else:
            units.append(UnitLine(unit, "not yet entered", None))
    returns_totals = original_contest(session, case).totals
    return TallyLine(summary.method_label, summary.double_entry, summary.tallied, summary.expected, choices,
                     tuple(totals.items()), tuple((c, int(returns_totals.get(c, 0))) for c in choices), tuple(units),
                     tuple((d.unit, d.sheet_id, d.differences) for d in summary.disagreements), summary.reason,
                     summary.citation)


def _result_line(view: CaseView) -> ResultLine | None:
    completion = view.completion.completion if view.completion and view.completion.completed else None
    if not completion:
        return None
    before, after = completion.get("original_totals", {}), completion.get("amended_totals", {})
    totals = sorted(((c, int(before.get(c, 0)), int(v)) for c, v in after.items()), key=lambda r: (-r[2], r[0]))
    tied = tuple(completion.get("tied_for_last_seat") or ())
    return ResultLine(completion.get("outcome", ""), tuple(completion.get("winners_after") or ()), tuple(totals),
                      int(completion.get("seats", 1)), completion.get("kind") == "question", tied,
                      completion.get("reason", ""), completion.get("tie_citation") or completion.get("citation")
                      or (view.law.profile if view.law else DEFAULT_LAW).cite(Part.RESULTS))


def observer_state(services: Services, token: str) -> tuple[Lookup, ObserverState | None]:
    """The page behind a link, read-only: FOUND with what it shows, or why not (EXPIRED, REVOKED, UNKNOWN)."""
    now = services.now()
    with services.db.read() as session:
        found, row = _find(session, token, now)
        if found.state is not LinkState.FOUND or row is None:  # FOUND comes with its row
            return found, None
        case = load_case(session, row.case_id)
        view = case_view_of(session, case)  # the card's own queries
        cited = cites_of(case)
        name = "automatic_recount_deadline" if view.kind == "automatic" else "requested_recount_deadline"
        deadline = view.deadline(name)
        certificates = tuple(CertificateLink(c.id, c.candidate, c.votes)
                             for c in (view.completion.certificates if view.completion else ()))
        return found, ObserverState(
            case_id=view.id, kind=view.kind, status=view.status, contest=view.contest, election=view.election,
            election_date=view.election_date, local_government=view.local_government,
            deadline=(deadline.due_date, deadline.estimated, deadline.citation) if deadline else None,
            counting_started_at=view.counting_started_at, tally=_tally_line(session, case, view),
            result=_result_line(view), certificates=certificates,
            completed_at=view.completion.completed_at if view.completion else None,
            link_expires_at=row.expires_at, observers_citation=cited.notice,
            certificate_citation=cited.certificate, tie_citation=cited.tie)


def certificate_for_observers(services: Services, token: str, certificate_id: int
                              ) -> tuple[Lookup, CertificateFacts | None]:
    """A certificate of election of the link's case, for its page (certificate links' own tokens are stored only
    as hashes, so the page cannot point at them). None when the certificate is not of that case."""
    now = services.now()
    with services.db.read() as session:
        found, row = _find(session, token, now)
        if found.state is not LinkState.FOUND or row is None:  # FOUND comes with its row
            return found, None
        certificate = session.get(Certificate, certificate_id)
        if certificate is None or certificate.case_id != row.case_id:
            return Lookup(LinkState.UNKNOWN), None
        return found, facts_of(session, certificate)

