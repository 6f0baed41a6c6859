"""Starting to count. A requested recount may not begin until (2)(b)(I)-(IV) are done."""
from __future__ import annotations

from rules.decision import Decision
from services.conduct.money import checklist_of
from services.errors import NotFound, UserError
from services.services import Services
from storage import audit
from storage.models import CaseKind, CaseStatus, RecountCase


class CountingBlocked(UserError):
    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.reason)
        self.decision = decision


def start_counting(services: Services, *, workspace_id: int, case_id: int, actor: str) -> bool:
    """Record that counting began. Returns False when it had already begun (a double click)."""
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id, with_for_update=True)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound("That recount case does not exist in this office.")
        if case.counting_started_at is not None:
            return False
        if case.status == CaseStatus.WAIVED.value:
            raise UserError("This automatic recount was waived (C.R.S. 1-10.5-103); it is not held.")
        decision = None
        if case.kind == CaseKind.REQUESTED.value:
            decision = checklist_of(session, case)
            if decision.outcome != "ready":
                raise CountingBlocked(decision)
        before = case.status
        case.counting_started_at, case.counting_started_by = services.now(), actor
        case.status = CaseStatus.COUNTING.value
        audit.append(session, actor=actor, action="counting.started", entity="recount_case", entity_id=case.id,
                     before={"status": before},
                     after={"status": case.status, "checklist": decision.reason if decision else None,
                            "citation": decision.citation if decision else None},
                     workspace_id=workspace_id, at=services.now())
        return True
