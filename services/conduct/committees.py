"""Issue committees of a ballot issue or question: owed notice of a recount under (1)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from rules.contest import ContestKind
from rules.statute import AUTOMATIC_RECOUNT_MARGIN
from services.conduct.owed import note_duties
from services.errors import NotFound, UserError
from services.office.access import ensure_workspace
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import IssueCommittee, Notice, RecipientKind, RecountCase
from storage.repositories import find_contest_on_day, latest_election_day


@dataclass(frozen=True)
class CommitteeAdded:
    contest: str
    committee: str
    side: str | None
    case_id: int | None  # the open case that now owes this committee a notice


def add_issue_committee(services: Services, *, team_id: str, contest_name: str, committee: str,
                        side: str | None, contact: str | None, actor: str) -> CommitteeAdded:
    if not committee.strip():
        raise UserError("Name the issue committee.", field="committee")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        elections = latest_election_day(session, workspace.id)
        if not elections:
            raise NotFound("No election is set up yet.")
        contest = find_contest_on_day(session, elections, contest_name)
        if contest is None:
            raise NotFound(f"No contest called “{echoed(contest_name)}” in {elections[0].name}.", field="contest")
        if contest.kind != ContestKind.QUESTION.value:
            raise UserError(f"{contest.name} is an office, not a ballot issue or question; issue committees "
                            "belong to ballot issues and questions.", field="contest")
        if side is not None:
            names = {c.name.casefold(): c.name for c in contest.choices}
            if side.casefold() not in names:
                raise UserError(f"“{echoed(side)}” is not a choice of {contest.name} "
                                f"({', '.join(names.values())}).",
                                field="side")
            side = names[side.casefold()]
        exists = session.scalar(select(IssueCommittee).where(
            IssueCommittee.contest_id == contest.id, IssueCommittee.name == committee.strip()))
        if exists is not None:
            raise UserError(f"{echoed(committee)} is already recorded for {contest.name}.", field="committee")
        row = IssueCommittee(contest_id=contest.id, name=committee.strip(), side=side, contact=contact)
        session.add(row)
        session.flush()
        case = session.scalar(select(RecountCase).where(RecountCase.contest_id == contest.id))
        if case is not None:
            session.add(Notice(case_id=case.id, recipient_kind=RecipientKind.ISSUE_COMMITTEE.value,
                               recipient_name=row.name, citation=AUTOMATIC_RECOUNT_MARGIN.citation))
            note_duties(session, case)  # owed even after the completion: the poll must read the case again
        audit.append(session, actor=actor, action="issue_committee.added", entity="issue_committee",
                     entity_id=row.id, after={"contest": contest.name, "name": row.name, "side": side,
                                              "contact": contact, "notice_owed_in_case": case.id if case else None},
                     workspace_id=workspace.id)
        return CommitteeAdded(contest.name, row.name, side, case.id if case else None)
