"""Recording the waiver of an automatic recount (C.R.S. 1-10.5-103): the political subdivision that referred a
ballot issue or question that failed waives its automatic recount by written notice to the county clerk and recorder
within twenty-three days after the election. rules.waiver decides whether the law allows it; this use case records
the written notice as received, in one transaction with its audit row, and closes the case: no recount is held, so
nothing more is owed for it (its deadlines and notices of the recount stop; services/office/deadlines.py)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy.orm import Session

from rules.calendar import DENVER
from rules.contest import ContestKind
from rules.deadlines import waiver_deadline
from rules.decision import Decision
from rules.waiver import FIELD_RECEIVED, FIELD_WHO, REFERENCE_LIMIT, WHO_LIMIT, WaiverFacts, may_waive
from services.conduct.tally import case_for_update
from services.election_law import law_of
from services.errors import UserError
from services.office.office_settings import OfficeSettings
from services.services import Services
from storage import audit
from storage.models import AutomaticRecountWaiver, CaseKind, CaseStatus, RecountCase

FIELD_CAPACITY = "capacity"
FIELD_REFERENCE = "reference"


@dataclass(frozen=True)
class WaiverView:
    """A recorded waiver, as the card and the thread say it."""

    waived_by: str
    capacity: str
    received_on: dt.date
    reference: str
    citation: str
    recorded_by: str
    recorded_at: dt.datetime


@dataclass(frozen=True)
class WaiverRecorded:
    waiver: WaiverView
    newly_recorded: bool


def waiver_view(row: AutomaticRecountWaiver | None) -> WaiverView | None:
    if row is None:
        return None
    return WaiverView(row.waived_by, row.capacity, row.received_on, row.reference, row.citation, row.recorded_by,
                      row.recorded_at)


def _standings(case: RecountCase) -> tuple[tuple[str, int], ...]:
    """The two leading choices as the verdict that opened the case had them (a measure has two)."""
    verdict = case.verdict or {}
    found = [verdict.get("highest"), verdict.get("next_highest")]
    return tuple((s["choice"], int(s["votes"])) for s in found if isinstance(s, dict))


def waiver_decision(session: Session, case: RecountCase, *, received_on: dt.date, today: dt.date) -> Decision:
    """rules.waiver.may_waive for this case: its law, its contest, the waiver deadline on the office's calendar."""
    election = case.contest.election
    law = law_of(election)
    calendar = OfficeSettings.of(case.contest.election.local_government.workspace.settings).calendar
    deadline = waiver_deadline(election.election_date, calendar, law=law)
    return may_waive(WaiverFacts(
        automatic=case.kind == CaseKind.AUTOMATIC.value, kind=ContestKind(case.contest.kind),
        standings=_standings(case), counting_started=case.counting_started_at is not None or case.status in (
            CaseStatus.COUNTING.value, CaseStatus.COMPLETED.value),
        received_on=received_on, deadline=deadline.date if deadline is not None else None, today=today), law=law)


def may_offer(session: Session, case: RecountCase) -> bool:
    """Whether the card offers "Record waiver": the law would allow this case's waiver if received by its deadline
    (the day it is received is checked when the form is sent, and refused on its field after the deadline)."""
    law = law_of(case.contest.election)
    if case.status == CaseStatus.WAIVED.value or law.waiver is None or case.kind != CaseKind.AUTOMATIC.value:
        return False
    election = case.contest.election
    deadline = waiver_deadline(election.election_date,
                               OfficeSettings.of(election.local_government.workspace.settings).calendar, law=law)
    last = deadline.date if deadline is not None else election.election_date
    return waiver_decision(session, case, received_on=last, today=last).outcome == "waived"


def _text(value: str | None, field: str, missing: str, limit: int) -> str:
    value = " ".join((value or "").split())
    if not value:
        raise UserError(missing, field=field)
    if len(value) > limit:
        raise UserError(f"At most {limit} characters here.", field=field)
    return value


def record_waiver(services: Services, *, workspace_id: int, case_id: int, waived_by: str, capacity: str,
                  received_on: dt.date, reference: str, actor: str) -> WaiverRecorded:
    """Record the written waiver received on `received_on` (a Colorado date). Refused, on the field at fault, where
    1-10.5-103 does not allow it (rules.waiver). Recording twice changes nothing: the first record stands."""
    waived_by = _text(waived_by, FIELD_WHO, "Say who waived the recount (the subdivision that referred the measure).",
                      WHO_LIMIT)
    capacity = _text(capacity, FIELD_CAPACITY, "Say in what capacity they signed the waiver.", WHO_LIMIT)
    reference = _text(reference, FIELD_REFERENCE, "Describe the written waiver (e.g. the resolution or letter).",
                      REFERENCE_LIMIT)
    if not isinstance(received_on, dt.date):
        raise UserError("Say when the written waiver was received.", field=FIELD_RECEIVED)
    now = services.now()
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.waiver is not None:
            return WaiverRecorded(waiver_view(case.waiver), False)  # type: ignore[arg-type]
        decision = waiver_decision(session, case, received_on=received_on, today=now.astimezone(DENVER).date())
        if decision.outcome != "waived":
            cited = "" if decision.citation in decision.reason else f" ({decision.citation})"
            raise UserError(f"{decision.reason[0].upper()}{decision.reason[1:]}{cited}.",
                            field=decision.numbers.get("field"))
        row = AutomaticRecountWaiver(case_id=case.id, waived_by=waived_by, capacity=capacity, received_on=received_on,
                                     reference=reference, citation=decision.citation, decision=decision.as_dict(),
                                     recorded_by=actor, recorded_at=now)
        session.add(row)
        before = case.status
        # No recount is held: the case is closed as waived and owes nothing more (its reminders stop).
        case.status, case.duties_done = CaseStatus.WAIVED.value, True
        session.flush()
        audit.append(session, actor=actor, action="case.waived", entity="recount_case", entity_id=case.id,
                     before={"status": before},
                     after={"status": case.status, "waived_by": waived_by, "capacity": capacity,
                            "received_on": received_on, "reference": reference, "citation": decision.citation,
                            "reason": decision.reason}, workspace_id=workspace_id, at=now)
        return WaiverRecorded(waiver_view(row), True)  # type: ignore[arg-type]


@dataclass(frozen=True)
class WaiverForm:
    """What the waiver's form needs: whether the law offers it for the case, its last day, and today (Colorado)."""

    offered: bool
    deadline: dt.date | None
    today: dt.date


def waiver_form(services: Services, *, workspace_id: int, case_id: int) -> WaiverForm:
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        election = case.contest.election
        calendar = OfficeSettings.of(election.local_government.workspace.settings).calendar
        deadline = waiver_deadline(election.election_date, calendar, law=law_of(election))
        return WaiverForm(may_offer(session, case), deadline.date if deadline is not None else None,
                          services.now().astimezone(DENVER).date())
