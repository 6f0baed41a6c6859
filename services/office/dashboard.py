"""What the App Home and `/recount deadlines` show: open cases, coming deadlines, what waits on a person."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select

from rules.calendar import DENVER
from rules.duties import DutyKind, summary_lines
from services.completion.view import chunks
from services.conduct.duties import subject_of
from services.conduct.money import money_view
from services.conduct.tally import tally_state
from services.election_law import election_law
from services.office.access import ensure_workspace
from services.office.deadlines import LABEL, read_live
from services.requests.deciders import may_decide_request
from services.requests.decision import may_decide
from services.services import Services
from storage.models import (
    CaseDeadline,
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
    law: str = ""  # the law the election is held under, named ("C.R.S. 1-10.5 (coordinated election)")


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
    cases: tuple[CaseItem, ...]  # the open ones (not completed): App Home lists them
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


def _election_subject(election: Election) -> str:
    """An election's deadline names its local government too: an office conducting several districts' elections
    on one day has one election of the same name per district, and each has its own request window."""
    return f"{election.name} — {election.local_government.name}"


def dashboard(services: Services, *, team_id: str, user_id: str | None = None) -> Dashboard:
    """What App Home shows, read as the worker's poll reads it (services/office/deadlines.py): the cases still
    owing something and the live deadlines, never the office's history of cases done."""
    now = services.now()
    today = now.astimezone(DENVER).date()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        office = read_live(session, workspace, now)
        owing = sorted((c for c in office.cases.values() if not c.duties_done), key=lambda c: c.id)
        open_cases = [c for c in owing if c.completed_at is None]
        due_of: dict[int, dt.date] = {}
        for chunk in chunks([c.id for c in open_cases]):
            for case_id, name, due in session.execute(select(CaseDeadline.case_id, CaseDeadline.name,
                                                             CaseDeadline.due_date)
                                                      .where(CaseDeadline.case_id.in_(chunk))
                                                      .order_by(CaseDeadline.due_date)):
                if name.endswith("recount_deadline"):
                    due_of.setdefault(case_id, due)
        items = [CaseItem(case.id, case.contest.name, case.kind, case.status, due_of.get(case.id),
                          sum(d.kind is DutyKind.NOTICE for d in office.duties.get(case.id, ())),
                          _progress(session, case), case.channel_id, case.card_ts) for case in open_cases]
        deadlines = []
        for deadline in office.deadlines:
            if deadline.daily or deadline.due > today + HORIZON:
                continue
            case = office.cases.get(deadline.case_id) if deadline.case_id else None
            subject = (f"{case.contest.name} (case #{case.id})" if case
                       else _election_subject(office.elections[deadline.election_id]))
            election = case.contest.election if case else office.elections[deadline.election_id]
            deadlines.append(DeadlineItem(deadline.due, LABEL.get(deadline.name, deadline.name), deadline.citation,
                                          subject, deadline.case_id, (deadline.due - today).days,
                                          election_law(election).named))
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
            seconds = _second_entries(session, [c for c in open_cases if c.double_entry], user_id)
            for case in owing:
                if records_duties:  # everything still owed for the case (rules.duties)
                    waiting += summary_lines(office.duties.get(case.id, ()), subject=subject_of(case))
                waiting += seconds.get(case.id, [])
        return Dashboard(workspace.name or team_id, tuple(items), tuple(deadlines), tuple(waiting))


def _second_entries(session, cases: list[RecountCase], user_id: str) -> dict[int, list[str]]:
    """The tally sheets of double-entry counts entered once by someone else: this person may enter the second."""
    sheets: dict[int, list[TallySheetRow]] = {c.id: [] for c in cases}
    for chunk in chunks(list(sheets)):
        for sheet in session.scalars(select(TallySheetRow).where(TallySheetRow.case_id.in_(chunk),
                                                                 TallySheetRow.withdrawn_at.is_(None))):
            sheets[sheet.case_id].append(sheet)
    waiting = {}
    for case in cases:
        seconds = {s.sheet_id for s in sheets[case.id] if s.entry == 2}
        mine = [s.sheet_id for s in sheets[case.id] if s.entry == 1 and s.sheet_id not in seconds
                and s.entered_by != user_id]
        if mine:
            waiting[case.id] = [f"Enter the second entry of {len(mine)} tally sheet{'s' if len(mine) != 1 else ''}"
                                f" of case #{case.id}: {', '.join(sorted(mine)[:5])}"]
    return waiting
