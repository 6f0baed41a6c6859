"""Recording the drawing of lots for a tie the completed recount did not break (1-13.5-1304), in one transaction:
the drawing as the official records it (when, where, by whom, the witnesses, the method, each tied candidate's
notice of it, who won), the decision of rules.lot, the certificate of election (6) withheld at completion made
for the winner of the lot, and an audit row with all of it.

Recording twice changes nothing: one drawing per case (the table's unique case_id, read under the case's lock),
so a double click or a retried submission finds the first and says so.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from rules.conflicts import CaseStep
from rules.lot import CandidateNotice, LotInvalid, LotMethod, TieForLot, decide_lot, tie_to_draw
from rules.serialize import to_jsonable
from services.completion.complete import CERTIFICATE_LIFETIME
from services.completion.view import LotView, lot_view_of
from services.conduct.cases import NoticeMethod
from services.conduct.owed import note_duties
from services.conduct.tally import case_for_update
from services.documents.certificate import check_names
from services.election_law import law_of
from services.errors import NotFound, UserError
from services.office.conflicts import authorize_step
from services.services import Services
from services.typed_input import typed_text
from services.wording import echoed
from storage import audit
from storage.models import Certificate, LotDrawing, RecountCase

NAME_LIMIT = 300
TEXT_LIMIT = 1000
NOT_RECORDED = "Nothing was recorded: correct the name where it was entered, then record the lot again."


@dataclass(frozen=True)
class LotInput:
    drawn_at: dt.datetime
    place: str
    conducted_by: str
    witnesses: str
    method: str
    winners: tuple[str, ...]
    notices: tuple[CandidateNotice, ...]
    method_details: str | None = None


@dataclass(frozen=True)
class LotRecorded:
    case_id: int
    newly_recorded: bool
    lot: LotView
    # Certificate id -> its link's token, for the certificates this call made (only their hashes are stored).
    tokens: dict[int, str] = field(default_factory=dict)


def record_lot(services: Services, *, workspace_id: int, case_id: int, data: LotInput, actor: str) -> LotRecorded:
    """1-13.5-1304, then (6): record the drawing, make the winner's certificate of election."""
    place = typed_text(data.place, field="place", missing="Say where the lot was drawn.", limit=NAME_LIMIT,
                       one_line=True)
    conducted_by = typed_text(data.conducted_by, field="conducted_by", limit=TEXT_LIMIT, one_line=True,
                              missing="Say who drew the lot (the canvass board).")
    witnesses = typed_text(data.witnesses, field="witnesses", limit=TEXT_LIMIT,  # one a line, as typed
                           missing="Say who witnessed the drawing (or “no one”).")
    details = typed_text(data.method_details, field="method_details", missing=None, limit=TEXT_LIMIT,
                         one_line=True) or None
    if data.method not in {m.value for m in LotMethod}:
        raise UserError(f"“{echoed(data.method)}” is not a method of drawing lots this office records.", field="method")
    if data.method == LotMethod.OTHER.value and not details:
        raise UserError("Describe how the lot was drawn.", field="method_details")
    methods = {m.value for m in NoticeMethod}
    for notice in data.notices:
        if notice.method not in methods:
            raise UserError(f"“{echoed(notice.method)}” is not a way of giving notice this office records.",
                            field="notices")
    now = services.now()
    if data.drawn_at.tzinfo is None or any(n.given_at.tzinfo is None for n in data.notices):
        raise ValueError("times must be timezone-aware")
    if data.drawn_at > now + dt.timedelta(minutes=5):
        raise UserError("The lot cannot have been drawn in the future.", field="drawn_at")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        authorize_step(session, case, actor, CaseStep.CERTIFY)  # the lot makes a certificate of election (6)
        existing = lot_view_of(session, case.id)
        if existing is not None:  # a double click, a retry or a colleague's modal: the first drawing stands
            return LotRecorded(case.id, False, existing)
        law = law_of(case.contest.election)  # who draws the lot, and by what citation, is the election's law's
        tie_citation = law.tie.provision.citation
        if case.completed_at is None:
            raise UserError("The lot decides a tie the completed recount did not break: complete the recount first "
                            f"({tie_citation}).")
        tie = tie_to_draw(case.completion)
        if tie is None:
            raise UserError(f"This recount left no tie to decide by lot ({tie_citation}); nothing was recorded.")
        if data.drawn_at < case.completed_at - dt.timedelta(minutes=5):
            raise UserError("The lot decides the tie the recount left: it cannot have been drawn before the recount "
                            "was completed.", field="drawn_at")
        try:
            decision = decide_lot(tie, winners=data.winners, notices=data.notices, drawn_at=data.drawn_at, law=law)
        except LotInvalid as exc:
            raise UserError(exc.message, field=exc.field) from None
        government = case.contest.election.local_government
        for name in decision.winners:  # no certificate without the whole name, before anything is written
            check_names(candidate=name, office=case.contest.name, election=case.contest.election.name,
                        local_government=government.name, consequence=NOT_RECORDED)
        row = LotDrawing(case_id=case.id, drawn_at=data.drawn_at, place=place, conducted_by=conducted_by,
                         witnesses=witnesses, method=data.method, method_details=details, tied=list(tie.tied),
                         winners=list(decision.winners),
                         candidate_notices=[{"candidate": n.candidate, "given_at": n.given_at.isoformat(),
                                             "method": n.method} for n in sorted(
                                                 data.notices, key=lambda n: tie.tied.index(n.candidate))],
                         decision=decision.as_dict(), recorded_by=actor, recorded_at=now)
        session.add(row)
        made: list[tuple[Certificate, str]] = []
        for name in decision.winners:
            certificate = Certificate(case_id=case.id, candidate=name, votes=decision.votes, created_at=now,
                                      expires_at=now + CERTIFICATE_LIFETIME)
            made.append((certificate, certificate.issue_link()))
            session.add(certificate)
        session.flush()
        note_duties(session, case)  # its certificates are owed now, and an amended notice may be
        audit.append(session, actor=actor, action="lot.drawn", entity="recount_case", entity_id=case.id,
                     after={"outcome": decision.outcome, "citation": decision.citation, "reason": decision.reason,
                            "reading": decision.reading, "drawn_at": data.drawn_at, "place": place,
                            "conducted_by": conducted_by, "witnesses": witnesses, "method": data.method,
                            "method_details": details, "tied": list(tie.tied), "winners": list(decision.winners),
                            "not_elected": list(decision.not_elected), "votes_each": decision.votes,
                            "candidate_notices": to_jsonable(row.candidate_notices),
                            "certificates": [c.candidate for c, _ in made]},
                     workspace_id=workspace_id, at=now)
        view = lot_view_of(session, case.id)
        if view is None:  # the drawing was written above, in this transaction
            raise RuntimeError(f"case {case.id}: the lot just recorded cannot be read back")
        return LotRecorded(case.id, True, view, {c.id: token for c, token in made})


def lot_owed(services: Services, *, workspace_id: int, case_id: int) -> TieForLot | None:
    """The tie still to draw for a case, or None (not completed, no tie, or already drawn); for the modal."""
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound("That recount case does not exist in this office.")
        if case.completed_at is None or lot_view_of(session, case.id) is not None:
            return None
        return tie_to_draw(case.completion)
