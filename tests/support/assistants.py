"""Who assisted in a recount (1306(3)), recorded through the service seam: a recount is completed only once someone
is recorded as assisting (rules.assistants.assistance_before_completion), so tests about something else record one
preparer of the official abstract assisting first."""
from __future__ import annotations

from services.conduct.assistants import AssistantInput, record_assistants


def record_an_assistant(services, *, workspace_id: int, case_id: int, actor: str, name: str = "Ann Lee") -> None:
    """`name` prepared the official abstract and assisted in the recount for a day, paid the (3) floor."""
    record_assistants(services, workspace_id=workspace_id, case_id=case_id, actor=actor,
                      assistant=AssistantInput(name, "prepared_abstract", 1, "15.00"), preparers=[name])


def record_an_assistant_of(services, contest: str, *, actor: str = "sandbox-test") -> None:
    """One assistant recorded for the recount of the contest named `contest` (the only one of that name)."""
    from sqlalchemy import select

    from storage.models import Contest, RecountCase

    with services.db.transaction() as s:
        case = s.scalars(select(RecountCase).join(Contest, Contest.id == RecountCase.contest_id)
                         .where(Contest.name == contest)).one()
        workspace_id, case_id = case.workspace_id, case.id
    record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=actor)
