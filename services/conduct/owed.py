"""What is still owed for recount cases, read from what is recorded and decided by rules.duties — the one list that
App Home's "Waiting on you", the case card and the daily reminders show — for one case or for many at once, and
the mark a case carries once nothing is owed (RecountCase.duties_done).

Many at once: the worker's poll and App Home read every case still owing something on every tick and every
opening of the Home tab, so the facts are read in one statement per table for all of them (`facts_of_cases`),
never a round of statements per case.

The mark: a completed case whose duties are all done is marked so, and the poll and App Home never read it again
(but for the few days its election-contest window stays open: services/office/deadlines.py). Every use case that
records a duty, or makes one owed again (an issue committee added after the completion is owed its notice), calls
`note_duties` in its transaction, so the mark is kept true to the records; and the worker marks the completed
cases it finds owing nothing (those completed before the mark existed: migration 0013 leaves every case unmarked).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.duties import CaseFacts, Duty, OwedCertificate, OwedNotice, duties_of
from rules.governing_body import governing_body_name
from rules.money import ZERO
from services.completion.view import CompletionView, chunks, completion_views_of
from services.election_law import law_of
from storage.models import CaseKind, Contest, Election, LocalGovernment, Notice, RecountCase, RecountRequestRow


def facts_of_cases(session: Session, cases: Iterable[RecountCase],
                   views: dict[int, CompletionView] | None = None) -> dict[int, CaseFacts]:
    """Each case's facts as far as duties go. `views`: completion views the caller has already (a card builds
    one); the others are read here, together."""
    cases = list(cases)
    ids = [c.id for c in cases]
    views = dict(views or {})
    views.update(completion_views_of(session, [c for c in cases if c.id not in views]))
    requesters: dict[int, str] = {}
    owed: dict[int, list[OwedNotice]] = {i: [] for i in ids}
    bodies: dict[int, str] = {}
    for chunk in chunks(ids):
        for case_id, name in session.execute(select(RecountRequestRow.case_id, RecountRequestRow.requester_name)
                                             .where(RecountRequestRow.case_id.in_(chunk))
                                             .order_by(RecountRequestRow.id)):
            if case_id is not None:  # the query asks for rows of these cases only
                requesters.setdefault(case_id, name)
        for n in session.scalars(select(Notice).where(Notice.case_id.in_(chunk), Notice.given_at.is_(None))
                                 .order_by(Notice.id)):
            owed[n.case_id].append(OwedNotice(n.id, n.recipient_kind, n.recipient_name, n.citation))
        bodies.update((case_id, governing_body_name(body, name)) for case_id, body, name in session.execute(
            select(RecountCase.id, LocalGovernment.governing_body, LocalGovernment.name)
            .join(Contest, Contest.id == RecountCase.contest_id).join(Election, Election.id == Contest.election_id)
            .join(LocalGovernment, LocalGovernment.id == Election.local_government_id)
            .where(RecountCase.id.in_(chunk))))
    facts = {}
    for case in cases:
        requested = case.kind == CaseKind.REQUESTED.value
        view = views.get(case.id) or CompletionView(case.id, requested, None)
        settlement = view.settlement or {}
        completion = view.completion or {}
        facts[case.id] = CaseFacts(
            case_id=case.id, contest=case.contest.name, requested=requested, completed=view.completed,
            governing_body=completion.get("notice_of_results_to") or bodies[case.id],
            notices=tuple(owed[case.id]), results_notified=case.results_notice_at is not None,
            certificates=tuple(OwedCertificate(c.id, c.candidate, c.delivered) for c in view.certificates),
            settlement_outcome=settlement.get("outcome"),
            refund=Decimal(settlement.get("refund") or "0"),
            deposit_return=Decimal(settlement.get("deposit_return") or "0"),
            money_returned=case.money_returned_at is not None,
            requester=requesters.get(case.id, "the requester"),
            balance_outstanding=view.balance_outstanding if view.completed else ZERO,
            tied_for_lot=tuple(completion.get("tied_for_last_seat") or ()) if view.lot_owed else (),
            amended_notice_owed=view.amended_notice_owed)
    return facts


def duties_of_cases(session: Session, cases: Iterable[RecountCase],
                    views: dict[int, CompletionView] | None = None) -> dict[int, tuple[Duty, ...]]:
    cases = list(cases)  # read twice: for each case's law, and for its facts
    laws = {case.id: law_of(case.contest.election) for case in cases}
    return {case_id: duties_of(facts, law=laws[case_id])
            for case_id, facts in facts_of_cases(session, cases, views).items()}


def note_duties(session: Session, case: RecountCase) -> bool:
    """Keep the case's mark true to its records, after a duty was recorded (or one became owed): marked done when
    it is completed and nothing is owed. Returns the mark."""
    case.duties_done = case.completed_at is not None and not duties_of_cases(session, [case])[case.id]
    return case.duties_done
