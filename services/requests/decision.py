"""Deciding a recount request, (2)(a): a designated election official (or a delegated approver) approves it,
opening the requested recount's case, or rejects it.

Two people deciding at once: the decision is a conditional update (`WHERE status = 'pending'`), so
exactly one wins on any database and the other is told who decided first.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from rules.calendar import DENVER
from rules.deadlines import contest_filing_deadline, cost_determination_deadline, requested_recount_deadline
from rules.governing_body import governing_body_name
from rules.requests import ONE_OFFICE_ONE_PERSON
from services.election_law import before_counting_citation, law_of
from services.errors import UserError
from services.office.access import ensure_workspace
from services.office.office_settings import OfficeSettings
from services.requests import deciders as request_deciders
from services.requests.views import RequestView, as_view, office_request
from services.returns.checking import notices_owed  # the (1) list, which (2)(b)(I) incorporates
from services.services import Services
from services.wording import Person, words
from storage import audit, seals
from storage.models import CaseDeadline, CaseKind, Notice, RecountCase, RecountRequestRow, RequestStatus
from storage.repositories import latest_version, rows_updated


class AlreadyDecided(UserError):
    pass


def may_decide(session: Session, workspace_id: int, user_id: str) -> bool:
    """A designated election official, or staff delegated as approvers (a delegation outlives a lowered role in
    the row, but a viewer may not decide). Whether they may decide a given request: request_deciders."""
    return user_id in request_deciders.deciders(session, workspace_id)


def already_decided(row: RecountRequestRow) -> AlreadyDecided:
    when = row.decided_at.astimezone(DENVER).strftime("%a %Y-%m-%d %H:%M %Z") if row.decided_at else "earlier"
    if row.status == RequestStatus.WITHDRAWN.value:
        return AlreadyDecided(words("The requester withdrew this request (recorded by ", Person(row.decided_by),
                                    f", {when}); nothing was recorded now."))
    return AlreadyDecided(words(f"This request was already {row.status} by ", Person(row.decided_by),
                                f" ({when}); your decision was not recorded."))


@dataclass(frozen=True)
class DeciderView:
    request: RequestView
    # An official deciding a request they entered, no one else in the office being able to: the decision form
    # asks why, and the decision is recorded under the reading "one office, one person".
    needs_reason: bool


def check_decider(services: Services, *, team_id: str, request_id: int, actor: str) -> DeciderView:
    """Before the decision form opens: may `actor` decide this request, and is it still pending? Raises Denied
    (saying who may decide instead), AlreadyDecided or NotFound; decide_request checks all of it again."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        row = office_request(session, request_id, workspace.id)
        if row.status != RequestStatus.PENDING.value:
            raise already_decided(row)
        check = request_deciders.authorize(session, row, actor)
        return DeciderView(as_view(row), check.needs_reason)


def _open_requested_case(session: Session, row: RecountRequestRow, settings: OfficeSettings, actor: str,
                         now: dt.datetime) -> RecountCase:
    contest = row.contest
    election = contest.election
    if session.scalar(select(RecountCase.id).where(RecountCase.contest_id == contest.id)) is not None:
        raise UserError(f"A recount of {contest.name} already exists; this request cannot open a second.")
    version = latest_version(session, election.id)
    if version is None:  # a request is entered only for a contest with returns (services.requests.entry)
        raise UserError(f"{contest.name} has no returns; a recount needs a survey of returns.")
    case = RecountCase(workspace_id=row.workspace_id, contest_id=contest.id, kind=CaseKind.REQUESTED.value,
                       opened_at=now, opened_by=actor, survey_version_id=version.id,
                       multi_seat_rule=settings.multi_seat_rule.value, verdict=dict(row.evaluation))
    session.add(case)
    session.flush()
    law = law_of(election)
    # Under 1-10.5-106(2) the cost is set within four days of the request and no later than day 24: a deadline of
    # the case too; the other laws set none (cost_determination_deadline gives None).
    cost = cost_determination_deadline(election.election_date, row.received_on, settings.completion_rollover,
                                       settings.calendar, law=law)
    for deadline in (requested_recount_deadline(election.election_date, election.canvass_date,
                                                rollover=settings.completion_rollover, calendar=settings.calendar,
                                                law=law),
                     contest_filing_deadline(election.election_date, calendar=settings.calendar, law=law),
                     *((cost,) if cost is not None else ())):
        session.add(CaseDeadline(case_id=case.id, name=deadline.name, due_date=deadline.date,
                                 citation=deadline.citation, note=deadline.note, reading=deadline.reading,
                                 rolled_from=deadline.rolled_from, estimated=deadline.estimated,
                                 falls_on=deadline.falls_on))
    for kind, name in notices_owed(session, contest, governing_body_name(election.local_government.governing_body,
                                                                     election.local_government.name), law):
        session.add(Notice(case_id=case.id, recipient_kind=kind.value, recipient_name=name,
                           citation=before_counting_citation(law)))
    session.flush()
    return case


def decide_request(services: Services, *, team_id: str, request_id: int, actor: str, approve: bool, note: str,
                   settings: OfficeSettings, own_entry_reason: str | None = None) -> RequestView:
    """Approve (opening the requested recount's case) or reject. Exactly one decision ever wins.

    `own_entry_reason`: why an official decides a request they entered themselves, required when no one else
    in the office may decide it (and refused, naming who may, when someone else may)."""
    if not note.strip():
        raise UserError("Add a note explaining the decision; it is kept in the record.", field="note")
    now = services.now()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        row = office_request(session, request_id, workspace.id)
        check = request_deciders.authorize(session, row, actor)
        reason = request_deciders.own_entry_reason(check, own_entry_reason)
        reading = f"{ONE_OFFICE_ONE_PERSON}: {reason}" if reason else None
        status = RequestStatus.APPROVED if approve else RequestStatus.REJECTED
        won = rows_updated(session, update(RecountRequestRow)
                           .where(RecountRequestRow.id == request_id,
                                  RecountRequestRow.status == RequestStatus.PENDING.value)
                           .values(status=status.value, decided_by=actor, decided_at=now, decision_note=note.strip(),
                                   decision_reading=reading)
                           .execution_options(synchronize_session=False))
        if won != 1:
            session.refresh(row)
            raise already_decided(row)
        session.refresh(row)
        seals.mark(session, row)  # the decision was written by the Core UPDATE above, unseen by the ORM
        if approve:
            case = _open_requested_case(session, row, settings, actor, now)
            row.case_id = case.id
            audit.append(session, actor=actor, action="case.opened", entity="recount_case", entity_id=case.id,
                         after={"contest": row.contest.name, "kind": case.kind, "request": row.id},
                         workspace_id=workspace.id, at=now)
        audit.append(session, actor=actor, action=f"request.{status.value}", entity="recount_request",
                     entity_id=row.id, before={"status": RequestStatus.PENDING.value},
                     after={"status": status.value, "note": note.strip(), "case": row.case_id,
                            "entered_by": row.entered_by, "requester_slack_user": row.requester_slack_user,
                            **({"reading": check.reading, "reason": reason} if reason else {})},
                     workspace_id=workspace.id, at=now)
        session.flush()
        return as_view(row)
