"""Requested recounts, (2)(a): a written request is entered, the statute core decides whether it may be
accepted, and a designated election official (or a delegated approver) approves or rejects it.

A request the core refuses is not stored: the modal shows the reason on the field, and the clerk may
correct what was mistyped. An accepted request is stored as pending; its approval opens the case.
Two people deciding at once: the decision is a conditional update (`WHERE status = 'pending'`), so
exactly one wins on any database and the other is told who decided first.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bot.office_settings import OfficeSettings
from bot.services.access import ensure_workspace
from bot.services.checking import notices_owed  # the (1) list, which (2)(b)(I) incorporates
from bot.services.context import Services
from bot.services.errors import Denied, NotFound, UserError
from bot.services.survey import rules_contests
from rules.calendar import DENVER
from rules.deadlines import contest_filing_deadline, request_deadline, requested_recount_deadline
from rules.requests import PartyKind, RecountRequest, RequestOutcome, evaluate_request, party_kind_of
from rules.serialize import to_jsonable
from rules.statute import cite
from storage import audit
from storage.models import (
    CaseDeadline, CaseKind, Contest, Membership, Notice, RecountCase, RecountRequestRow, RequestStatus, Role,
)
from storage.repositories import latest_election, latest_version

NOTICE_BEFORE_COUNTING = cite("(2)(b)(I)")
# Which modal field a refusal belongs on.
REFUSAL_FIELD = {
    RequestOutcome.REFUSED_AUTOMATIC.value: "contest",
    RequestOutcome.REFUSED_LATE.value: "received_on",
    RequestOutcome.REFUSED_NOT_INTERESTED_PARTY.value: "party_kind",
}


class RequestRefused(UserError):
    def __init__(self, message: str, *, field: str, decision: dict) -> None:
        super().__init__(message, field=field)
        self.decision = decision


class AlreadyDecided(UserError):
    pass


class InvalidRequest(UserError):
    """Several fields of the request at fault at once: {field: message}. `field` is the first."""

    def __init__(self, errors: dict[str, str]) -> None:
        first = next(iter(errors))
        super().__init__(errors[first], field=first)
        self.errors = dict(errors)


@dataclass(frozen=True)
class RequestInput:
    contest_id: int
    requester_name: str
    requester_contact: str
    party_kind: str
    in_favor_of: str
    received_on: dt.date
    received_reference: str
    requester_slack_user: str | None = None
    candidate_choice: str | None = None
    committee_side: str | None = None


@dataclass(frozen=True)
class RequestView:
    id: int
    contest_id: int
    contest: str
    contest_kind: str
    election: str
    election_date: dt.date
    requester_name: str
    requester_contact: str
    requester_slack_user: str | None
    party_kind: str
    in_favor_of: str
    received_on: dt.date
    received_reference: str
    entered_by: str
    entered_at: dt.datetime
    evaluation: dict
    status: str
    decided_by: str | None
    decided_at: dt.datetime | None
    decision_note: str | None
    channel_id: str | None
    card_ts: str | None
    case_id: int | None


def _view(row: RecountRequestRow) -> RequestView:
    contest = row.contest
    return RequestView(
        row.id, contest.id, contest.name, contest.kind, contest.election.name, contest.election.election_date,
        row.requester_name, row.requester_contact, row.requester_slack_user, row.party_kind, row.in_favor_of,
        row.received_on, row.received_reference, row.entered_by, row.entered_at, dict(row.evaluation), row.status,
        row.decided_by, row.decided_at, row.decision_note, row.channel_id,
        None if (row.card_ts or "").startswith(CARD_CLAIM) else row.card_ts, row.case_id)


def _contest(session: Session, workspace_id: int, contest_id: int) -> Contest:
    contest = session.get(Contest, contest_id)
    if contest is None or contest.election.local_government.workspace_id != workspace_id:
        raise NotFound("That contest is not one of this office's.", field="contest")
    return contest


def _problem_field(outcome: str, text: str) -> str:
    if outcome in REFUSAL_FIELD:
        return REFUSAL_FIELD[outcome]
    if "election day" in text or "window had not opened" in text:
        return "received_on"
    if "name the requester" in text:
        return "requester_name"
    return "in_favor_of"


def _field_for(decision: dict) -> str:
    problems = decision.get("numbers", {}).get("problems", [])
    if decision["outcome"] in REFUSAL_FIELD or not problems:
        return _problem_field(decision["outcome"], "")
    # The first problem is the one the reason states.
    return _problem_field(problems[0]["outcome"], problems[0].get("problem", ""))


def refusal_errors(refused: RequestRefused) -> dict[str, str]:
    """Every problem the core found, by the field it belongs on: the reason (the first problem, as the core
    words it) on its field, each further problem on its own (one field may collect several)."""
    errors = {refused.field: refused.message}
    for problem in refused.decision.get("numbers", {}).get("problems", [])[1:]:
        field = _problem_field(problem["outcome"], problem.get("problem", ""))
        text = problem.get("problem", "")
        text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
        errors[field] = f"{errors[field]} {text}" if field in errors else text
    return errors


def submit_request(services: Services, *, team_id: str, actor: str, settings: OfficeSettings,
                   data: RequestInput) -> RequestView:
    """Enter a written request. Refused requests raise RequestRefused (field + the core's reason); what the
    form lacks raises InvalidRequest (every field at fault) before the core is asked."""
    errors: dict[str, str] = {}
    if not data.requester_contact.strip():
        errors["requester_contact"] = "Give the requester's contact (address, email or phone) for the cost notice."
    if not data.received_reference.strip():
        errors["received_reference"] = "Give a reference to the written request (e.g. its receipt or file number)."
    if data.received_on > services.today():
        errors["received_on"] = "The request cannot have been received in the future."
    for field, value, limit in (("requester_name", data.requester_name, 300),
                                ("requester_contact", data.requester_contact, 500),
                                ("received_reference", data.received_reference, 300)):
        if len(value.strip()) > limit:  # the columns' sizes (PostgreSQL refuses longer text)
            errors[field] = f"At most {limit} characters here."
    if errors:
        raise InvalidRequest(errors)
    kind = party_kind_of(data.party_kind)
    # A candidate requests in their own favor, an issue committee for its side (rules.requests).
    candidate_choice = data.candidate_choice or (data.in_favor_of if kind is PartyKind.CANDIDATE else None)
    committee_side = data.committee_side or (data.in_favor_of if kind is PartyKind.ISSUE_COMMITTEE else None)
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        stored = _contest(session, workspace.id, data.contest_id)
        election = stored.election
        version = latest_version(session, election.id)
        found = rules_contests(session, version, [stored.id]) if version else []
        if not found:
            raise UserError(f"{stored.name} has no returns yet; a recount needs a survey of returns.", field="contest")
        contest = found[0][1]
        decision = evaluate_request(
            RecountRequest(requester_name=data.requester_name, party_kind=data.party_kind,
                           in_favor_of=data.in_favor_of, received_on=data.received_on,
                           candidate_choice=candidate_choice, committee_side=committee_side),
            contest=contest, election_date=election.election_date, multi_seat_rule=settings.multi_seat_rule)
        evaluation = to_jsonable(decision)
        if decision.outcome != RequestOutcome.ACCEPTED.value:
            raise RequestRefused(decision.reason, field=_field_for(evaluation), decision=evaluation)
        existing = session.scalar(select(RecountCase).where(RecountCase.contest_id == stored.id))
        if existing is not None:
            raise UserError(f"A recount of {stored.name} is already under way (case #{existing.id}).", field="contest")
        row = RecountRequestRow(
            workspace_id=workspace.id, contest_id=stored.id, requester_name=data.requester_name.strip(),
            requester_contact=data.requester_contact.strip(), requester_slack_user=data.requester_slack_user,
            party_kind=kind.value if kind else str(data.party_kind),
            candidate_choice=candidate_choice, committee_side=committee_side,
            in_favor_of=decision.numbers.get("in_favor_of") or data.in_favor_of, received_on=data.received_on,
            received_reference=data.received_reference.strip(), entered_by=actor, entered_at=services.now(),
            evaluation=evaluation)
        session.add(row)
        session.flush()
        audit.append(session, actor=actor, action="request.entered", entity="recount_request", entity_id=row.id,
                     after={"contest": stored.name, "requester": row.requester_name, "party_kind": row.party_kind,
                            "in_favor_of": row.in_favor_of, "received_on": row.received_on,
                            "reference": row.received_reference, "decision": decision.reason,
                            "citation": decision.citation}, workspace_id=workspace.id, at=services.now())
        return _view(row)


@dataclass(frozen=True)
class ChoiceOption:
    id: int
    name: str
    votes: int


@dataclass(frozen=True)
class ContestOption:
    id: int
    name: str
    kind: str
    seats: int
    choices: tuple[ChoiceOption, ...]  # the choices with returns, in ballot order
    case_id: int | None  # a recount already open for the contest


@dataclass(frozen=True)
class RequestForm:
    """What the request form offers: the latest election's contests that have returns."""

    election: str
    election_date: dt.date
    window_closes: dt.date  # (2)(a), rolled under 1-1-106(4)
    window_note: str
    contests: tuple[ContestOption, ...]

    def contest(self, contest_id: int | None) -> ContestOption | None:
        return next((c for c in self.contests if c.id == contest_id), None)


def request_form(services: Services, *, team_id: str) -> RequestForm:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        election = latest_election(session, workspace.id)
        version = latest_version(session, election.id) if election else None
        if election is None or version is None:
            raise NotFound("No election has returns yet, and a recount request is about a contest's returns. Enter "
                           "them with `/recount returns`, or import a file with `recount-bot import`.")
        cases = dict(session.execute(select(RecountCase.contest_id, RecountCase.id).join(Contest).where(
            Contest.election_id == election.id)).all())
        contests = []
        for stored, contest in rules_contests(session, version):
            totals = contest.totals
            choices = tuple(ChoiceOption(ch.id, ch.name, totals[ch.name]) for ch in stored.choices
                            if ch.name in totals)
            contests.append(ContestOption(stored.id, stored.name, stored.kind, stored.seats, choices,
                                          cases.get(stored.id)))
        window = request_deadline(election.election_date)
        return RequestForm(election.name, election.election_date, window.date, window.note, tuple(contests))


def request_view(services: Services, request_id: int, *, workspace_id: int) -> RequestView:
    with services.db.transaction() as session:
        row = session.get(RecountRequestRow, request_id)
        if row is None or row.workspace_id != workspace_id:
            raise NotFound("That recount request does not exist in this office.")
        return _view(row)


CARD_CLAIM = "posting:"
CARD_CLAIM_STALE = dt.timedelta(minutes=2)


def claim_request_card(services: Services, request_id: int) -> bool:
    """Claim the right to post the request's card: exactly one caller wins (the submission, or a later
    `/recount requests` when the first post failed); a claim left by a crash is taken over after two
    minutes."""
    now = services.now()
    with services.db.transaction() as session:
        card_ts = session.scalar(select(RecountRequestRow.card_ts).where(RecountRequestRow.id == request_id))
        stale = (card_ts is not None and card_ts.startswith(CARD_CLAIM)
                 and now.timestamp() - float(card_ts[len(CARD_CLAIM):]) > CARD_CLAIM_STALE.total_seconds())
        if card_ts is not None and not stale:
            return False
        condition = (RecountRequestRow.card_ts.is_(None) if card_ts is None
                     else RecountRequestRow.card_ts == card_ts)
        won = session.execute(
            update(RecountRequestRow).where(RecountRequestRow.id == request_id, condition)
            .values(card_ts=f"{CARD_CLAIM}{now.timestamp():.0f}").execution_options(synchronize_session=False)).rowcount
        return won == 1


def release_request_card(services: Services, request_id: int) -> None:
    """Give up a claim when posting failed, so `/recount requests` can post the card later."""
    with services.db.transaction() as session:
        session.execute(update(RecountRequestRow).where(RecountRequestRow.id == request_id,
                                                        RecountRequestRow.card_ts.like(f"{CARD_CLAIM}%"))
                        .values(card_ts=None).execution_options(synchronize_session=False))


def set_request_card(services: Services, request_id: int, *, channel_id: str, ts: str, actor: str) -> None:
    with services.db.transaction() as session:
        row = session.get(RecountRequestRow, request_id)
        row.channel_id, row.card_ts = channel_id, ts
        audit.append(session, actor=actor, action="request.card_posted", entity="recount_request", entity_id=row.id,
                     after={"channel_id": channel_id, "card_ts": ts}, workspace_id=row.workspace_id,
                     at=services.now())


def may_decide(session: Session, workspace_id: int, user_id: str) -> bool:
    """A designated election official, or staff delegated as approvers (a delegation outlives a lowered role in
    the row, but a viewer may not decide)."""
    member = session.scalar(select(Membership).where(Membership.workspace_id == workspace_id,
                                                     Membership.slack_user_id == user_id))
    return member is not None and (member.role == Role.OFFICIAL.value
                                   or (member.role == Role.STAFF.value and bool(member.can_approve)))


NOT_AN_APPROVER = ("Only a designated election official or a delegated approver may decide a recount request "
                   "(an official delegates with `/recount admin approver @person on`).")
OWN_REQUEST = "You made this request; someone else must decide it."


def _already_decided(row: RecountRequestRow) -> AlreadyDecided:
    when = row.decided_at.astimezone(DENVER).strftime("%a %Y-%m-%d %H:%M %Z") if row.decided_at else "earlier"
    return AlreadyDecided(f"This request was already {row.status} by <@{row.decided_by}> ({when}); your decision "
                          "was not recorded.")


def check_decider(services: Services, *, team_id: str, request_id: int, actor: str) -> RequestView:
    """Before the decision form opens: may `actor` decide this request, and is it still pending? Raises Denied,
    AlreadyDecided or NotFound; decide_request checks all of it again when the decision is made."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        row = session.get(RecountRequestRow, request_id)
        if row is None or row.workspace_id != workspace.id:
            raise NotFound("That recount request does not exist in this office.")
        if row.status != RequestStatus.PENDING.value:
            raise _already_decided(row)
        if not may_decide(session, workspace.id, actor):
            raise Denied(NOT_AN_APPROVER)
        if row.requester_slack_user == actor:
            raise Denied(OWN_REQUEST)
        return _view(row)


def _open_requested_case(session: Session, row: RecountRequestRow, settings: OfficeSettings, actor: str,
                         now: dt.datetime) -> RecountCase:
    contest = row.contest
    election = contest.election
    if session.scalar(select(RecountCase.id).where(RecountCase.contest_id == contest.id)) is not None:
        raise UserError(f"A recount of {contest.name} already exists; this request cannot open a second.")
    case = RecountCase(workspace_id=row.workspace_id, contest_id=contest.id, kind=CaseKind.REQUESTED.value,
                       opened_at=now, opened_by=actor, survey_version_id=latest_version(session, election.id).id,
                       multi_seat_rule=settings.multi_seat_rule.value, verdict=dict(row.evaluation))
    session.add(case)
    session.flush()
    for deadline in (requested_recount_deadline(election.election_date, election.canvass_date,
                                                rollover=settings.completion_rollover),
                     contest_filing_deadline(election.election_date)):
        session.add(CaseDeadline(case_id=case.id, name=deadline.name, due_date=deadline.date,
                                 citation=deadline.citation, note=deadline.note, reading=deadline.reading,
                                 rolled_from=deadline.rolled_from, estimated=deadline.estimated,
                                 falls_on=deadline.falls_on))
    for kind, name in notices_owed(session, contest, election.local_government.governing_body):
        session.add(Notice(case_id=case.id, recipient_kind=kind.value, recipient_name=name,
                           citation=NOTICE_BEFORE_COUNTING))
    session.flush()
    return case


def decide_request(services: Services, *, team_id: str, request_id: int, actor: str, approve: bool, note: str,
                   settings: OfficeSettings) -> RequestView:
    """Approve (opening the requested recount's case) or reject. Exactly one decision ever wins."""
    if not note.strip():
        raise UserError("Add a note explaining the decision; it is kept in the record.", field="note")
    now = services.now()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        row = session.get(RecountRequestRow, request_id)
        if row is None or row.workspace_id != workspace.id:
            raise NotFound("That recount request does not exist in this office.")
        if not may_decide(session, workspace.id, actor):
            raise Denied(NOT_AN_APPROVER)
        if row.requester_slack_user == actor:
            raise Denied(OWN_REQUEST)
        status = RequestStatus.APPROVED if approve else RequestStatus.REJECTED
        won = session.execute(
            update(RecountRequestRow)
            .where(RecountRequestRow.id == request_id, RecountRequestRow.status == RequestStatus.PENDING.value)
            .values(status=status.value, decided_by=actor, decided_at=now, decision_note=note.strip())
            .execution_options(synchronize_session=False)).rowcount
        if won != 1:
            session.refresh(row)
            raise _already_decided(row)
        session.refresh(row)
        if approve:
            case = _open_requested_case(session, row, settings, actor, now)
            row.case_id = case.id
            audit.append(session, actor=actor, action="case.opened", entity="recount_case", entity_id=case.id,
                         after={"contest": row.contest.name, "kind": case.kind, "request": row.id},
                         workspace_id=workspace.id, at=now)
        audit.append(session, actor=actor, action=f"request.{status.value}", entity="recount_request",
                     entity_id=row.id, before={"status": RequestStatus.PENDING.value},
                     after={"status": status.value, "note": note.strip(), "case": row.case_id},
                     workspace_id=workspace.id, at=now)
        session.flush()
        return _view(row)


def pending_requests(services: Services, *, team_id: str) -> list[RequestView]:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        rows = session.scalars(select(RecountRequestRow).where(
            RecountRequestRow.workspace_id == workspace.id,
            RecountRequestRow.status == RequestStatus.PENDING.value).order_by(RecountRequestRow.id))
        return [_view(r) for r in rows]

