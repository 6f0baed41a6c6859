"""The deadlines still live in an office: what the worker keeps reminders for (bot/worker/reminders.py) and what
App Home and `/recount deadlines` list (services/office/dashboard.py), read in one place so both say the same.

What is read costs what is live, not the office's history: the cases still owing something (those not marked
`duties_done`: services/conduct/owed.py), the cases completed with nothing owed whose election-contest window
(1-13.5-1403) is still open, and the elections whose request window (1306(2)(a)) is still open; each found by an
index (migration 0013), the two windows' first days computed by the statute's rules
(rules.deadlines.request_window_open_since, contest_window_open_since). What those cases need is then read in
one statement per table for all of them, never a round of statements per case.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import false, select, true
from sqlalchemy.orm import Session, joinedload

from rules.calendar import DENVER
from rules.deadlines import (
    contest_filing_deadline,
    contest_window_open_since,
    request_deadline,
    request_window_open_since,
)
from rules.duties import Duty
from rules.laws import LAWS
from services.completion.view import chunks
from services.conduct.money import ledger_from
from services.conduct.owed import duties_of_cases
from services.election_law import law_of, payment_wait_citation
from services.office.office_settings import OfficeSettings
from storage.models import (
    CaseDeadline,
    CaseKind,
    CaseStatus,
    Contest,
    CostNotice,
    Election,
    LedgerRow,
    LocalGovernment,
    RecountCase,
    Workspace,
)

LABEL = {
    "automatic_recount_deadline": "the automatic recount must be complete",
    "requested_recount_deadline": "the requested recount must be complete",
    "contest_filing_deadline": "the last day to file an election contest (information)",
    "request_deadline": "the last day to file a written request for a recount",
    "payment_pending": "the requester has not paid the cost of the recount",
    "duties_owed": "still owed after the recount's completion",
}
DUTIES_OWED = "duties_owed"


@dataclass(frozen=True)
class LiveDeadline:
    """A deadline reminders are kept for. `overdue` says whether reminders continue after the day (the
    office's own step) or stop (a window that simply closes); `daily` for a pending payment."""

    name: str
    due: dt.date
    citation: str
    overdue: bool
    case_id: int | None
    election_id: int
    since: dt.datetime  # reminders are owed from this moment on (the case opened, the election was entered)
    daily: bool = False


@dataclass
class OfficeNow:
    """What `read_live` read, for the callers that show more of it (App Home) or keep the marks (the worker)."""

    deadlines: list[LiveDeadline]
    cases: dict[int, RecountCase]  # the cases read: those not marked, and the marked ones whose window is open
    duties: dict[int, tuple[Duty, ...]]  # what each case not marked still owes
    elections: dict[int, Election] = field(default_factory=dict)  # the elections whose request window is open

    @property
    def settled(self) -> list[RecountCase]:
        """Completed, owing nothing, and not yet marked so (cases completed before the mark existed)."""
        return [self.cases[i] for i, owed in self.duties.items()
                if not owed and self.cases[i].completed_at is not None and not self.cases[i].duties_done]


def _cases(session: Session, workspace_id: int, today: dt.date, calendar) -> dict[int, RecountCase]:
    # The widest bounds of every law: an office's elections may run under any of them.
    bounds = [contest_window_open_since(today, calendar, law=law) for law in LAWS.values()]
    concluded_since, election_since = min(b[0] for b in bounds), min(b[1] for b in bounds)
    # The first moment of that Colorado day, as the stored UTC timestamps count it.
    moment = dt.datetime.combine(concluded_since, dt.time(), DENVER).astimezone(dt.timezone.utc)
    base = (select(RecountCase).options(joinedload(RecountCase.contest).joinedload(Contest.election)))
    cases: dict[int, RecountCase] = {}
    # `= false`, not `IS false`: PostgreSQL uses an index for the one, not the other.
    for query in (base.where(RecountCase.workspace_id == workspace_id, RecountCase.duties_done == false()),
                  base.where(RecountCase.workspace_id == workspace_id, RecountCase.duties_done == true(),
                             RecountCase.completed_at >= moment)):
        cases.update((c.id, c) for c in session.scalars(query))
    # The contests of the elections recent enough: found first, so that their cases are looked up by contest (one
    # index entry each) rather than by the office's cases marked done (all of its history).
    recent = list(session.scalars(select(Contest.id).join(Election).join(LocalGovernment).where(
        LocalGovernment.workspace_id == workspace_id, Election.election_date >= election_since)))
    for chunk in chunks(recent):
        cases.update((c.id, c) for c in session.scalars(base.where(RecountCase.contest_id.in_(chunk))))
    return cases


def _payments_pending(session: Session, cases: list[RecountCase]) -> dict[int, dt.datetime]:
    """Requested cases not yet counting whose requester was notified of a cost still unpaid: when the latest
    notice went ((2)(b)(IV): counting waits for the payment)."""
    ids = [c.id for c in cases if c.kind == CaseKind.REQUESTED.value and c.counting_started_at is None
           and c.completed_at is None]
    rows: dict[int, list[LedgerRow]] = {i: [] for i in ids}
    notified: dict[int, dt.datetime] = {}
    for chunk in chunks(ids):
        for row in session.scalars(select(LedgerRow).where(LedgerRow.case_id.in_(chunk)).order_by(LedgerRow.id)):
            rows[row.case_id].append(row)
        for case_id, at in session.execute(select(CostNotice.case_id, CostNotice.notified_at)
                                           .where(CostNotice.case_id.in_(chunk)).order_by(CostNotice.id)):
            notified[case_id] = at  # the latest, read last
    return {i: notified[i] for i in ids if i in notified and ledger_from(rows[i]).due > 0}


def read_live(session: Session, workspace: Workspace, now: dt.datetime) -> OfficeNow:
    today = now.astimezone(DENVER).date()
    calendar = OfficeSettings.of(workspace.settings).calendar  # with the days the office entered (24-11-101(1))
    cases = _cases(session, workspace.id, today, calendar)
    unmarked = [c for c in cases.values() if not c.duties_done]
    duties = duties_of_cases(session, unmarked)
    deadlines: dict[int, dict[str, CaseDeadline]] = {i: {} for i in cases}
    for chunk in chunks(list(cases)):
        for row in session.scalars(select(CaseDeadline).where(CaseDeadline.case_id.in_(chunk))):
            deadlines[row.case_id][row.name] = row
    payments = _payments_pending(session, unmarked)
    live: list[LiveDeadline] = []
    for case in sorted(cases.values(), key=lambda c: c.id):
        live += _case_deadlines(case, deadlines[case.id], duties.get(case.id, ()), payments.get(case.id),
                                today, calendar)
    since = min(request_window_open_since(today, calendar, law=law) for law in LAWS.values())
    elections = {e.id: e for e in session.scalars(select(Election).join(LocalGovernment).options(
        joinedload(Election.local_government)).where(
        LocalGovernment.workspace_id == workspace.id, Election.election_date >= since).order_by(Election.id))}
    for election in elections.values():
        window = request_deadline(election.election_date, calendar, law=law_of(election))
        if window.date >= today:
            live.append(LiveDeadline("request_deadline", window.date, window.citation, False, None, election.id,
                                     election.created_at))
    return OfficeNow(live, cases, duties, elections)


def _case_deadlines(case: RecountCase, deadlines: dict[str, CaseDeadline], owed: tuple[Duty, ...],
                    notified: dt.datetime | None, today: dt.date, calendar) -> list[LiveDeadline]:
    election_id = case.contest.election_id
    live: list[LiveDeadline] = []
    completion = deadlines.get("automatic_recount_deadline" if case.kind == CaseKind.AUTOMATIC.value
                               else "requested_recount_deadline")
    # A waived recount (1-10.5-103) is not held: its completion deadline is not owed.
    if completion is not None and case.completed_at is None and case.status != CaseStatus.WAIVED.value:
        live.append(LiveDeadline(completion.name, completion.due_date, completion.citation, True, case.id,
                                 election_id, case.opened_at))
    filing = deadlines.get("contest_filing_deadline")
    if filing is not None:
        due = filing.due_date
        if case.completed_at is not None:  # 1-13.5-1403: the later of the window and the recount's end
            election = case.contest.election
            due = contest_filing_deadline(election.election_date,
                                          recount_concluded=case.completed_at.astimezone(DENVER).date(),
                                          calendar=calendar, law=law_of(election),
                                          canvass_date=election.canvass_date).date
        if due >= today:
            live.append(LiveDeadline(filing.name, due, filing.citation, False, case.id, election_id, case.opened_at))
    if case.completed_at is not None and owed:
        # What follows the completion (rules.duties): one daily reminder listing what is still owed, from the
        # day after the completion until the last of it is recorded done (rules.duties.DUTIES_READING).
        citations = ", ".join(dict.fromkeys(d.citation for d in owed))
        live.append(LiveDeadline(DUTIES_OWED, case.completed_at.astimezone(DENVER).date(), citations, True,
                                 case.id, election_id, case.completed_at, daily=True))
    if notified is not None:
        # Counting waits for the payment: 1306(2)(b)(IV), 31-10-1207(2), 1-10.5-106(3), as the law's profile cites.
        live.append(LiveDeadline("payment_pending", notified.astimezone(DENVER).date(),
                                 payment_wait_citation(law_of(case.contest.election)), True, case.id, election_id,
                                 notified, daily=True))
    return live


def live_deadlines(session: Session, workspace: Workspace, now: dt.datetime) -> list[LiveDeadline]:
    return read_live(session, workspace, now).deadlines
