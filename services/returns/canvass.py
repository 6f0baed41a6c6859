"""The canvass date: once entered, (2)(e)'s "twenty-eighth day after canvassing" is exact, not estimated."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select

from rules.deadlines import requested_recount_deadline
from rules.laws import LawProfile
from services.election_law import law_of
from services.errors import NotFound, UserError
from services.office.access import ensure_workspace
from services.office.office_settings import OfficeSettings
from services.services import Services
from storage import audit
from storage.models import CaseDeadline, CaseKind, Election, RecountCase
from storage.repositories import elections_of, latest_election, latest_election_day

DEADLINE = "requested_recount_deadline"


@dataclass(frozen=True)
class CanvassRecorded:
    election: str
    canvass_date: dt.date
    previous: dt.date | None
    moved: tuple[tuple[int, dt.date, dt.date], ...]  # (case id, old due date, new due date)
    note: str


@dataclass(frozen=True)
class ElectionCanvass:
    id: int
    name: str
    election_date: dt.date
    local_government: str
    canvass_date: dt.date | None
    law: LawProfile  # what the canvass date fixes depends on it: 1306 counts a requested recount from it

def elections(services: Services, *, team_id: str) -> list[ElectionCanvass]:
    """The office's elections, newest first, with the canvass date entered (if any)."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        return [ElectionCanvass(e.id, e.name, e.election_date, e.local_government.name, e.canvass_date, law_of(e))
                for e in elections_of(session, workspace.id)]


def set_canvass_date(services: Services, *, team_id: str, canvass_date: dt.date, actor: str,
                     settings: OfficeSettings, election_id: int | None = None) -> CanvassRecorded:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        if election_id is None:
            day = latest_election_day(session, workspace.id)
            if len(day) > 1:  # each district's canvass board certifies its own election, perhaps on another day
                names = "; ".join(f"{e.name} ({e.local_government.name})" for e in day[:8])
                raise UserError(f"{len(day)} elections were held on {day[0].election_date:%Y-%m-%d} ({names}"
                                f"{'; …' if len(day) > 8 else ''}); each canvass board certifies its own, perhaps on "
                                "another day. Type `/recount canvass` without a date and choose the election in the "
                                "form.", field="canvass_date")
        election = session.get(Election, election_id) if election_id else latest_election(session, workspace.id)
        if election is None or election.local_government.workspace_id != workspace.id:
            raise NotFound("No election to record a canvass date for.")
        if canvass_date <= election.election_date:
            raise UserError(f"The canvass follows the election of {election.election_date:%Y-%m-%d}; "
                            f"{canvass_date:%Y-%m-%d} cannot be its date.", field="canvass_date")
        if canvass_date > services.today():
            raise UserError("Enter the canvass date once the canvass has happened; it cannot be in the future.",
                            field="canvass_date")
        previous = election.canvass_date
        if previous == canvass_date:
            deadline = requested_recount_deadline(election.election_date, canvass_date,
                                                  rollover=settings.completion_rollover, calendar=settings.calendar,
                                                  law=law_of(election))
            return CanvassRecorded(election.name, canvass_date, previous, (), deadline.note)
        election.canvass_date = canvass_date
        deadline = requested_recount_deadline(election.election_date, canvass_date,
                                              rollover=settings.completion_rollover, calendar=settings.calendar,
                                                  law=law_of(election))
        moved = []
        rows = session.execute(select(CaseDeadline, RecountCase).join(RecountCase).where(
            RecountCase.kind == CaseKind.REQUESTED.value, CaseDeadline.name == DEADLINE,
            RecountCase.contest_id.in_([c.id for c in election.contests])))
        for row, case in rows:
            before = row.due_date
            row.due_date, row.note, row.reading = deadline.date, deadline.note, deadline.reading
            row.rolled_from, row.estimated, row.falls_on = deadline.rolled_from, deadline.estimated, deadline.falls_on
            moved.append((case.id, before, deadline.date))
            audit.append(session, actor=actor, action="deadline.moved", entity="case_deadline", entity_id=row.id,
                         before={"due_date": before}, after={"due_date": deadline.date, "note": deadline.note},
                         workspace_id=workspace.id, at=services.now())
        audit.append(session, actor=actor, action="election.canvass_date_set", entity="election",
                     entity_id=election.id, before={"canvass_date": previous},
                     after={"canvass_date": canvass_date, "requested_recount_deadline": deadline.date},
                     workspace_id=workspace.id, at=services.now())
        return CanvassRecorded(election.name, canvass_date, previous, tuple(moved), deadline.note)
