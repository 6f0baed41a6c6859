"""Subsection (4): documentary evidence regarding the legality of a vote — demanded, then produced.

"The designated election official may require the production of any documentary evidence regarding the
legality of any vote cast or counted and may correct the survey of returns in accordance with the
designated election official's findings based on the evidence presented."

A demand records what was demanded, of whom and when; what was produced is recorded against it once, with
when. Every change is audited. Corrections of the survey that rest on the evidence are made with
`/recount returns` (services.returns.entry): a new version with its reason and evidence, every version kept.

Readings (the brief is silent; each is applied on purpose):

- The same demand submitted again (same case, text, person asked, moment, by the same person) while it is
  outstanding is one demand (a double click).
- Production is recorded once per demand: the same text again changes nothing; different text is refused
  (demand again for more).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rules.calendar import DENVER
from services.conduct.tally import case_for_update
from services.election_law import cites_of
from services.errors import NotFound, UserError
from services.services import Services
from services.typed_input import typed_text
from storage import audit
from storage.models import EvidenceDemand, RecountCase, SurveyVersion

TEXT_LIMIT = 2000
OF_WHOM_LIMIT = 300  # EvidenceDemand.demanded_of
FUTURE_SLACK = dt.timedelta(minutes=5)


@dataclass(frozen=True)
class DemandLine:
    id: int
    case_id: int
    description: str
    demanded_of: str
    demanded_at: dt.datetime
    demanded_by: str
    produced: str | None
    produced_at: dt.datetime | None
    recorded_by: str | None

    @property
    def outstanding(self) -> bool:
        return self.produced_at is None


@dataclass(frozen=True)
class EvidenceSummary:
    demands: tuple[DemandLine, ...]
    returns_version: int  # the version the case uses
    returns_versions: int  # how many versions of the election's survey exist (every one is kept)
    latest_version: int

    @property
    def outstanding(self) -> tuple[DemandLine, ...]:
        return tuple(d for d in self.demands if d.outstanding)


@dataclass(frozen=True)
class EvidenceRecorded:
    newly_recorded: bool
    demand: DemandLine
    summary: EvidenceSummary


def _line(row: EvidenceDemand) -> DemandLine:
    return DemandLine(row.id, row.case_id, row.description, row.demanded_of, row.demanded_at, row.demanded_by,
                      row.produced, row.produced_at, row.recorded_by)


def evidence_summary(session: Session, case: RecountCase) -> EvidenceSummary:
    rows = session.scalars(select(EvidenceDemand).where(EvidenceDemand.case_id == case.id).order_by(EvidenceDemand.id))
    election_id = case.contest.election_id
    count, latest = session.execute(select(func.count(SurveyVersion.id), func.max(SurveyVersion.number)).where(
        SurveyVersion.election_id == election_id)).one()
    return EvidenceSummary(tuple(_line(r) for r in rows), case.survey_version.number, int(count or 0),
                           int(latest or 0))


def _moment(services: Services, at: dt.datetime, *, field: str, not_before: dt.datetime | None, what: str) -> None:
    if at.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    if at > services.now() + FUTURE_SLACK:
        raise UserError(f"{what} cannot be in the future.", field=field)
    if not_before is not None and at < not_before:
        raise UserError(f"{what} cannot be before {not_before.astimezone(DENVER):%Y-%m-%d %H:%M %Z} (the demand).",
                        field=field)


def demand_evidence(services: Services, *, workspace_id: int, case_id: int, description: str, demanded_of: str,
                    demanded_at: dt.datetime, actor: str) -> EvidenceRecorded:
    """Record that documentary evidence regarding the legality of a vote was demanded (4)."""
    what = typed_text(description, field="description", limit=TEXT_LIMIT,
                      missing="Say what documentary evidence is demanded.")
    whom = typed_text(demanded_of, field="demanded_of", limit=OF_WHOM_LIMIT, missing="Say of whom it is demanded.")
    _moment(services, demanded_at, field="demanded_at", not_before=None, what="The demand")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is not None:
            raise UserError("This recount is complete; no more evidence can be demanded in it.")
        election_day = dt.datetime.combine(case.contest.election.election_date, dt.time(), tzinfo=dt.timezone.utc)
        if demanded_at < election_day - dt.timedelta(days=1):
            raise UserError("A demand for evidence about the votes cannot predate the election.", field="demanded_at")
        same = session.scalar(select(EvidenceDemand).where(
            EvidenceDemand.case_id == case.id, EvidenceDemand.description == what,
            EvidenceDemand.demanded_of == whom, EvidenceDemand.demanded_by == actor,
            EvidenceDemand.produced_at.is_(None)))
        if same is not None and abs((same.demanded_at - demanded_at).total_seconds()) < 60:
            return EvidenceRecorded(False, _line(same), evidence_summary(session, case))
        row = EvidenceDemand(case_id=case.id, description=what, demanded_of=whom, demanded_at=demanded_at,
                             demanded_by=actor)
        session.add(row)
        session.flush()
        audit.append(session, actor=actor, action="evidence.demanded", entity="evidence_demand", entity_id=row.id,
                     after={"case": case.id, "description": what, "demanded_of": whom, "demanded_at": demanded_at,
                            "citation": cites_of(case).evidence}, workspace_id=workspace_id, at=services.now())
        return EvidenceRecorded(True, _line(row), evidence_summary(session, case))


def demand_view(services: Services, *, workspace_id: int, demand_id: int) -> DemandLine:
    with services.db.transaction() as session:
        row = session.get(EvidenceDemand, demand_id)
        case = session.get(RecountCase, row.case_id) if row is not None else None
        if row is None or case is None or case.workspace_id != workspace_id:
            raise NotFound("That demand for evidence does not exist in this office.")
        return _line(row)


def record_production(services: Services, *, workspace_id: int, demand_id: int, produced: str,
                      produced_at: dt.datetime, actor: str) -> EvidenceRecorded:
    """Record what was produced in answer to a demand (4), and when. Once per demand."""
    text = typed_text(produced, field="produced", limit=TEXT_LIMIT, missing="Say what was produced.")
    with services.db.transaction() as session:
        row = session.get(EvidenceDemand, demand_id)
        if row is None:
            raise NotFound("That demand for evidence does not exist in this office.")
        case = case_for_update(session, row.case_id, workspace_id)
        session.refresh(row)
        if row.produced_at is not None:
            if row.produced == text:
                return EvidenceRecorded(False, _line(row), evidence_summary(session, case))
            raise UserError(f"What was produced for this demand was already recorded ({row.produced_at:%Y-%m-%d}). "
                            "For more evidence, make a new demand.", field="produced")
        if case.completed_at is not None:
            raise UserError("This recount is complete; its evidence can no longer change.")
        _moment(services, produced_at, field="produced_at", not_before=row.demanded_at - FUTURE_SLACK,
                what="The production")
        row.produced, row.produced_at, row.recorded_by = text, produced_at, actor
        session.flush()
        audit.append(session, actor=actor, action="evidence.produced", entity="evidence_demand", entity_id=row.id,
                     before={"produced": None},
                     after={"case": case.id, "produced": text, "produced_at": produced_at, "citation": cites_of(case).evidence},
                     workspace_id=workspace_id, at=services.now())
        return EvidenceRecorded(True, _line(row), evidence_summary(session, case))
