"""Conducting the recount as its card shows it: the tally (5), the assistants (3), the evidence and the survey
versions (4). Read in the case view's own transaction (services.conduct.cases), so the card is one picture."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from services.conduct.assistants import AssistantsSummary, assistants_summary
from services.conduct.evidence import EvidenceSummary, evidence_summary
from services.conduct.tally_forms import TallySummary, tally_summary
from storage.models import RecountCase


@dataclass(frozen=True)
class ConductView:
    counting: bool  # counting has started
    completed: bool
    tally: TallySummary | None  # None before the count is set up
    assistants: AssistantsSummary
    evidence: EvidenceSummary


def conduct_view(session: Session, case: RecountCase) -> ConductView:
    return ConductView(counting=case.counting_started_at is not None, completed=case.completed_at is not None,
                       tally=tally_summary(session, case), assistants=assistants_summary(session, case),
                       evidence=evidence_summary(session, case))
