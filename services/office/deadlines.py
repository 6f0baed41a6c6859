"""The deadlines still live in an office: what the worker keeps reminders for (bot/worker/reminders.py) and what
App Home and `/recount deadlines` list (services/office/dashboard.py), read in one place so both say the same."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.calendar import DENVER
from rules.deadlines import contest_filing_deadline, request_deadline
from services.conduct.duties import duties_of_case
from services.conduct.money import money_view
from services.office.office_settings import OfficeSettings
from storage.models import CaseDeadline, CaseKind, Election, LocalGovernment, RecountCase, Workspace

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


def live_deadlines(session: Session, workspace: Workspace, now: dt.datetime) -> list[LiveDeadline]:
    today = now.astimezone(DENVER).date()
    calendar = OfficeSettings.of(workspace.settings).calendar  # with the days the office entered (24-11-101(1))
    live: list[LiveDeadline] = []
    cases = session.scalars(select(RecountCase).where(RecountCase.workspace_id == workspace.id))
    for case in cases:
        election_id = case.contest.election_id
        deadlines = {d.name: d for d in session.scalars(select(CaseDeadline).where(CaseDeadline.case_id == case.id))}
        completion = deadlines.get("automatic_recount_deadline" if case.kind == CaseKind.AUTOMATIC.value
                                   else "requested_recount_deadline")
        if completion is not None and case.completed_at is None:
            live.append(LiveDeadline(completion.name, completion.due_date, completion.citation, True, case.id,
                                     election_id, case.opened_at))
        filing = deadlines.get("contest_filing_deadline")
        if filing is not None:
            due = filing.due_date
            if case.completed_at is not None:  # 1-13.5-1403: the later of the window and the recount's end
                due = contest_filing_deadline(case.contest.election.election_date,
                                              recount_concluded=case.completed_at.astimezone(DENVER).date(),
                                              calendar=calendar).date
            if due >= today:
                live.append(LiveDeadline(filing.name, due, filing.citation, False, case.id, election_id,
                                         case.opened_at))
        if case.completed_at is not None:
            # What follows the completion (rules.duties): one daily reminder listing what is still owed, from the
            # day after the completion until the last of it is recorded done (rules.duties.DUTIES_READING).
            owed = duties_of_case(session, case)
            if owed:
                citations = ", ".join(dict.fromkeys(d.citation for d in owed))
                live.append(LiveDeadline(DUTIES_OWED, case.completed_at.astimezone(DENVER).date(), citations, True,
                                         case.id, election_id, case.completed_at, daily=True))
        if case.kind == CaseKind.REQUESTED.value and case.counting_started_at is None:
            money = money_view(session, case)
            if money.cost_notices and money.due > 0:
                notice = money.cost_notices[-1].notified_at
                live.append(LiveDeadline("payment_pending", notice.astimezone(DENVER).date(),
                                         "C.R.S. 1-13.5-1306(2)(b)(IV)", True, case.id, election_id, notice,
                                         daily=True))
    elections = session.scalars(select(Election).join(LocalGovernment).where(
        LocalGovernment.workspace_id == workspace.id))
    for election in elections:
        window = request_deadline(election.election_date, calendar)
        if window.date >= today:
            live.append(LiveDeadline("request_deadline", window.date, window.citation, False, None, election.id,
                                     election.created_at))
    return live
