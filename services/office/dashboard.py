"""What the App Home and `/recount deadlines` show: open cases, coming deadlines, what waits on a person."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select

from rules.calendar import DENVER
from rules.duties import summary_lines
from services.conduct.duties import duties_of_case, subject_of
from services.conduct.money import money_view
from services.conduct.tally import tally_state
from services.office.access import ensure_workspace
from services.office.deadlines import LABEL, live_deadlines
from services.requests.deciders import may_decide_request
from services.requests.decision import may_decide
from services.services import Services
from storage.models import (
    CaseKind,
    Election,
    Membership,
    RecountCase,
    RecountRequestRow,
    RequestStatus,
    Role,
    TallySheetRow,
)

HORIZON = dt.timedelta(days=60)


@dataclass(frozen=True)
class DeadlineItem:
    due: dt.date
    what: str
    citation: str
    subject: str  # the contest (case #) or the election
    case_id: int | None
    days_left: int


@dataclass(frozen=True)
class CaseItem:
    id: int
    contest: str
    kind: str
    status: str
    due: dt.date | None
    notices_outstanding: int
    progress: str
    channel_id: str | None
    card_ts: str | None


@dataclass(frozen=True)
class Dashboard:
    office: str
    cases: tuple[CaseItem, ...]
    deadlines: tuple[DeadlineItem, ...]
    waiting_on_you: tuple[str, ...] = field(default_factory=tuple)


def _progress(session, case: RecountCase) -> str:
    if case.completed_at is not None:
        return "complete"
    if case.counting_started_at is None:
        if case.kind == CaseKind.REQUESTED.value:
            missing = money_view(session, case).checklist.numbers.get("missing", [])
            return f"before counting: {len(missing)} of 4 (2)(b) steps outstanding" if missing else "ready to count"
        return "counting not started"
    state = tally_state(session, case)
    if state is None:
        return "counting; the count is not set up"
    tallied, expected = state.progress
    return f"counting: {tallied:,} of {expected:,} units tallied"


def dashboard(services: Services, *, team_id: str, user_id: str | None = None) -> Dashboard:
    now = services.now()
    today = now.astimezone(DENVER).date()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        cases = list(session.scalars(select(RecountCase).where(RecountCase.workspace_id == workspace.id)
                                     .order_by(RecountCase.id)))
        items = []
        for case in cases:
            due = next((d.due_date for d in case.deadlines if d.name.endswith("recount_deadline")), None)
            items.append(CaseItem(case.id, case.contest.name, case.kind, case.status, due,
                                  sum(n.given_at is None for n in case.notices), _progress(session, case),
                                  case.channel_id, case.card_ts))
        by_case = {c.id: c for c in cases}
        deadlines = []
        for deadline in live_deadlines(session, workspace, now):
            if deadline.daily or deadline.due > today + HORIZON:
                continue
            of_case = by_case.get(deadline.case_id) if deadline.case_id is not None else None
            subject = (f"{of_case.contest.name} (case #{of_case.id})" if of_case
                       else session.get_one(Election, deadline.election_id).name)
            deadlines.append(DeadlineItem(deadline.due, LABEL.get(deadline.name, deadline.name), deadline.citation,
                                          subject, deadline.case_id, (deadline.due - today).days))
        deadlines.sort(key=lambda d: (d.due, d.subject))
        waiting: list[str] = []
        if user_id:
            if may_decide(session, workspace.id, user_id):
                pending = session.scalars(select(RecountRequestRow).where(
                    RecountRequestRow.workspace_id == workspace.id,
                    RecountRequestRow.status == RequestStatus.PENDING.value)).all()
                waiting += [f"Decide the recount request #{r.id} of {r.requester_name} on {r.contest.name}"
                            for r in pending if may_decide_request(session, r, user_id)]
            role = session.scalar(select(Membership.role).where(Membership.workspace_id == workspace.id,
                                                               Membership.slack_user_id == user_id))
            records_duties = role is not None and Role(role).allows(Role.STAFF)
            for case in cases:
                if records_duties:  # everything still owed for the case, done or not (rules.duties)
                    waiting += summary_lines(duties_of_case(session, case), subject=subject_of(case))
                if case.completed_at is not None:
                    continue
                if case.double_entry:
                    sheets = session.scalars(select(TallySheetRow).where(
                        TallySheetRow.case_id == case.id, TallySheetRow.withdrawn_at.is_(None))).all()
                    seconds = {s.sheet_id for s in sheets if s.entry == 2}
                    mine = [s.sheet_id for s in sheets if s.entry == 1 and s.sheet_id not in seconds
                            and s.entered_by != user_id]
                    if mine:
                        waiting.append(f"Enter the second entry of {len(mine)} tally sheet{'s' if len(mine) != 1 else ''}"
                                       f" of case #{case.id}: {', '.join(sorted(mine)[:5])}")
        return Dashboard(workspace.name or team_id, tuple(items), tuple(deadlines), tuple(waiting))
