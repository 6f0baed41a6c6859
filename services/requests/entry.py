"""Entering a written request for a recount, (2)(a): the statute core decides whether it may be accepted.

A request the core refuses is not stored: the modal shows the reason on the field, and the clerk may
correct what was mistyped. An accepted request is stored as pending; deciding it is
`services.requests.decision`.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.requests import PartyKind, RecountRequest, RequestOutcome, evaluate_request, party_kind_of
from rules.serialize import to_jsonable
from services.election_law import law_of
from services.errors import NotFound, UserError
from services.office.access import ensure_workspace
from services.office.office_settings import OfficeSettings
from services.requests.views import RequestView, as_view
from services.returns.versions import rules_contests
from services.services import Services
from storage import audit
from storage.models import Contest, RecountCase, RecountRequestRow, RequestStatus
from storage.repositories import latest_version

# Which modal field a refusal belongs on.
REFUSAL_FIELD = {
    RequestOutcome.REFUSED_AUTOMATIC.value: "contest",
    RequestOutcome.REFUSED_LATE.value: "received_on",
    RequestOutcome.REFUSED_NOT_INTERESTED_PARTY.value: "party_kind",
    RequestOutcome.REFUSED_EARLY.value: "received_on",  # before the window opens (1-10.5-106(2): day 10)
    RequestOutcome.REFUSED_NOT_NOTARIZED.value: "notarized",
    RequestOutcome.REFUSED_ONCE_ONLY.value: "requester_name",  # this interested party asked already
}


class RequestRefused(UserError):
    def __init__(self, message: str, *, field: str, decision: dict) -> None:
        super().__init__(message, field=field)
        self.refused_field = field  # always one: the field the core's reason is about
        self.decision = decision


class InvalidRequest(UserError):
    """Several fields of the request at fault at once: {field: message}. `field` is the first."""

    def __init__(self, errors: dict[str, str]) -> None:
        first = next(iter(errors))
        super().__init__(errors[first], field=first)
        self.errors = dict(errors)


class AlreadyEntered(UserError):
    """The form was submitted before and recorded its request (Slack gave up waiting for the answer, the clerk
    submitted again): nothing is recorded twice. `request` is the one it recorded."""

    def __init__(self, request: RequestView) -> None:
        super().__init__(f"Recount request #{request.id} ({request.contest}) was already recorded from this "
                         "form; nothing was recorded twice.")
        self.request = request


@dataclass(frozen=True)
class RequestInput:
    contest_id: int
    requester_name: str
    requester_contact: str
    party_kind: str
    in_favor_of: str | None  # None: no choice named (optional for an eligible elector, (2)(a))
    received_on: dt.date
    received_reference: str
    requester_slack_user: str | None = None
    candidate_choice: str | None = None
    committee_side: str | None = None
    # The form it was entered in (handlers: "view:<Slack's view id>"): one request per form (AlreadyEntered).
    form_key: str | None = None
    notarized: bool | None = None  # where the law requires a notarized request (1-10.5-106(2)); None: not asked


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
    errors = {refused.refused_field: refused.message}
    for problem in refused.decision.get("numbers", {}).get("problems", [])[1:]:
        field = _problem_field(problem["outcome"], problem.get("problem", ""))
        text = problem.get("problem", "")
        text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
        errors[field] = f"{errors[field]} {text}" if field in errors else text
    return errors


# A stored request's status as the once-only rule counts it (rules.requests.COUNTED_EARLIER): one awaiting a
# decision or approved was made; one an official rejected is read as not made (the law's "once" is a recount
# requested, and a rejected request asked for none).
_EARLIER = {RequestStatus.PENDING.value: "pending", RequestStatus.APPROVED.value: "accepted",
            RequestStatus.REJECTED.value: "rejected"}


def _earlier_requests(session: Session, contest_id: int, requester_name: str) -> tuple[str, ...]:
    """The outcomes of the same interested party's earlier requests for this contest (by name, case and spacing
    aside), for a law that allows one request only (1-10.5-106(4))."""
    wanted = " ".join(requester_name.split()).casefold()
    rows = session.execute(select(RecountRequestRow.requester_name, RecountRequestRow.status)
                           .where(RecountRequestRow.contest_id == contest_id)).all()
    return tuple(_EARLIER.get(status, status) for name, status in rows
                 if " ".join(name.split()).casefold() == wanted)


def _refuse_if_entered(session: Session, workspace_id: int, form_key: str | None) -> None:
    if form_key is None:
        return
    row = session.scalar(select(RecountRequestRow).where(RecountRequestRow.workspace_id == workspace_id,
                                                         RecountRequestRow.form_key == form_key))
    if row is not None:
        raise AlreadyEntered(as_view(row))


def submit_request(services: Services, *, team_id: str, actor: str, settings: OfficeSettings,
                   data: RequestInput) -> RequestView:
    """Enter a written request. Refused requests raise RequestRefused (field + the core's reason); what the
    form lacks raises InvalidRequest (every field at fault) before the core is asked; a form that recorded its
    request already raises AlreadyEntered, however its fields read now."""
    try:
        return _submit(services, team_id=team_id, actor=actor, settings=settings, data=data)
    except IntegrityError:
        if data.form_key is None:
            raise
        # The same form submitted twice at once: the other submission's row won the unique index.
        with services.db.transaction() as session:
            _refuse_if_entered(session, ensure_workspace(session, team_id, actor=actor).id, data.form_key)
        raise


def _submit(services: Services, *, team_id: str, actor: str, settings: OfficeSettings,
            data: RequestInput) -> RequestView:
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
        _refuse_if_entered(session, workspace.id, data.form_key)
        stored = _contest(session, workspace.id, data.contest_id)
        election = stored.election
        version = latest_version(session, election.id)
        found = rules_contests(session, version, [stored.id]) if version else []
        if not found:
            raise UserError(f"{stored.name} has no returns yet; a recount needs a survey of returns.",
                            field="contest")
        contest = found[0][1]
        decision = evaluate_request(
            RecountRequest(requester_name=data.requester_name, party_kind=data.party_kind,
                           in_favor_of=data.in_favor_of, received_on=data.received_on,
                           candidate_choice=candidate_choice, committee_side=committee_side,
                           notarized=data.notarized),
            contest=contest, election_date=election.election_date, multi_seat_rule=settings.multi_seat_rule,
            calendar=settings.calendar, law=law_of(election),
            earlier_requests=_earlier_requests(session, stored.id, data.requester_name))
        evaluation = to_jsonable(decision)
        if decision.outcome != RequestOutcome.ACCEPTED.value:
            raise RequestRefused(decision.reason, field=_field_for(evaluation), decision=evaluation)
        existing = session.scalar(select(RecountCase).where(RecountCase.contest_id == stored.id))
        if existing is not None:
            raise UserError(f"A recount of {stored.name} is already under way (case #{existing.id}).",
                            field="contest")
        row = RecountRequestRow(
            workspace_id=workspace.id, contest_id=stored.id, requester_name=data.requester_name.strip(),
            requester_contact=data.requester_contact.strip(), requester_slack_user=data.requester_slack_user,
            party_kind=kind.value if kind else str(data.party_kind),
            candidate_choice=candidate_choice, committee_side=committee_side,
            # "" when the request named no choice (the column holds text; rules.requests.favored_label shows it)
            in_favor_of=decision.numbers.get("in_favor_of") or data.in_favor_of or "", received_on=data.received_on,
            received_reference=data.received_reference.strip(), entered_by=actor, entered_at=services.now(),
            evaluation=evaluation, form_key=data.form_key)
        session.add(row)
        session.flush()
        audit.append(session, actor=actor, action="request.entered", entity="recount_request", entity_id=row.id,
                     after={"contest": stored.name, "requester": row.requester_name, "party_kind": row.party_kind,
                            "in_favor_of": row.in_favor_of, "received_on": row.received_on,
                            "reference": row.received_reference, "notarized": data.notarized,
                            "decision": decision.reason,
                            "citation": decision.citation}, workspace_id=workspace.id, at=services.now())
        return as_view(row)
