"""Conflicts of interest (rules.conflicts): the office's roster of candidates' Slack users, who is conflicted on a
recount, and the refusal of a step — completing, certifying — to a candidate in the contest or its requester,
naming the officials who may take it instead. Deciding a request goes through services.requests.deciders,
which passes the roster to rules.requests.check_decider."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.conflicts import CaseStep, Conflicted, StepCheck, check_step, conflicts_in
from services.errors import Denied, UserError
from services.office.access import ensure_workspace
from services.services import Services
from services.wording import Message, echoed, either_of, words
from storage import audit
from storage.models import (
    CandidateUser,
    Choice,
    Contest,
    Election,
    LocalGovernment,
    Membership,
    RecountCase,
    RecountRequestRow,
    Role,
)


def candidates_of(session: Session, contest_id: int) -> dict[str, str]:
    """{Slack user: the choice they are a candidate as} in one contest, from the office's roster."""
    rows = session.execute(select(CandidateUser.slack_user_id, Choice.name).join(
        Choice, Choice.id == CandidateUser.choice_id).where(CandidateUser.contest_id == contest_id)
        .order_by(CandidateUser.id)).all()
    return {user: choice for user, choice in rows}


def requester_of(session: Session, case: RecountCase) -> str | None:
    return session.scalar(select(RecountRequestRow.requester_slack_user).where(
        RecountRequestRow.case_id == case.id))


def _who_may_act(session: Session, workspace_id: int, found: tuple[Conflicted, ...]) -> tuple[Conflicted, ...]:
    """The conflicted people the cards flag: those whose role would otherwise let them decide, complete or certify
    (staff, who may be made approvers, and officials). An elector who asked for the recount and has no role in the
    office could not act on it anyway: a warning about them says nothing a clerk can use. The refusal of a step
    (`authorize_step`) does not depend on this: it checks whoever acts."""
    if not found:
        return found
    roles = dict(session.execute(select(Membership.slack_user_id, Membership.role).where(
        Membership.workspace_id == workspace_id, Membership.slack_user_id.in_([c.person for c in found]))).all())
    return tuple(c for c in found if roles.get(c.person) in (Role.STAFF.value, Role.OFFICIAL.value))


def case_conflicts(session: Session, case: RecountCase) -> tuple[Conflicted, ...]:
    """Who the case's card flags as conflicted (rules.conflicts), among those who may act."""
    return _who_may_act(session, case.workspace_id, conflicts_in(candidates=candidates_of(session, case.contest_id),
                                                                 requester=requester_of(session, case)))


def request_conflicts(session: Session, row: RecountRequestRow) -> tuple[Conflicted, ...]:
    """Who the request's card flags as conflicted (rules.conflicts), among those who may act."""
    return _who_may_act(session, row.workspace_id, conflicts_in(candidates=candidates_of(session, row.contest_id),
                                                                requester=row.requester_slack_user))


def _officials(session: Session, workspace_id: int) -> list[str]:
    return list(session.scalars(select(Membership.slack_user_id).where(
        Membership.workspace_id == workspace_id, Membership.role == Role.OFFICIAL.value)
        .order_by(Membership.slack_user_id)))


def step_check(session: Session, case: RecountCase, actor: str) -> StepCheck:
    return check_step(actor, officials=_officials(session, case.workspace_id),
                      candidates=candidates_of(session, case.contest_id), requester=requester_of(session, case))


def instead(others: tuple[str, ...], *, what: str = "do it") -> Message:
    """Who may do a step a conflicted person may not: the other officials, named."""
    if not others:
        return (f"No other official in this office may {what} yet: make another person an official with "
                "`/recount admin role @person official`.")
    return words(either_of(others), f" may {what} instead.")


def authorize_step(session: Session, case: RecountCase, actor: str, step: CaseStep) -> None:
    """Denied, naming who may instead, when `actor` is a candidate in the case's contest or its requester."""
    check = step_check(session, case, actor)
    if check.conflict is None:  # allowed: StepCheck.allowed is "no conflict"
        return
    raise Denied(words(f"You are {check.conflict.describe()}: you may not {step.value} {case.contest.name}; "
                       "another official must (conflict of interest). ", instead(check.others)))


def check_case_step(services: Services, *, workspace_id: int, case_id: int, actor: str, step: CaseStep) -> None:
    """The same refusal before a form opens, so a conflicted person is told at the click."""
    with services.db.read() as session:
        case = session.get(RecountCase, case_id)
        if case is not None and case.workspace_id == workspace_id:
            authorize_step(session, case, actor, step)


# ---------------------------------------------------------------------------- the roster
@dataclass(frozen=True)
class Candidacy:
    user_id: str
    contest: str
    choice: str


def _choices_named(session: Session, workspace_id: int, choice: str, contest: str | None) -> list[Choice]:
    folded = choice.strip().casefold()
    query = (select(Choice).join(Contest, Contest.id == Choice.contest_id).join(Election)
             .join(LocalGovernment).where(LocalGovernment.workspace_id == workspace_id, Contest.kind == "candidate")
             .order_by(Election.election_date.desc(), Contest.id))
    found = [c for c in session.scalars(query) if c.name.casefold() == folded]
    if contest:
        wanted = contest.strip().casefold()
        exact = [c for c in found if session.get_one(Contest, c.contest_id).name.casefold() == wanted]
        found = exact or [c for c in found if wanted in session.get_one(Contest, c.contest_id).name.casefold()]
    return found


def record_candidate(services: Services, *, team_id: str, actor: str, actor_role: Role | None, user_id: str,
                     choice: str, contest: str | None = None) -> tuple[Candidacy, bool]:
    """The office records that `user_id` is the candidate `choice` (in `contest`, when the name is in several).
    Returns the candidacy and whether it is new (recording it again changes nothing)."""
    if actor_role is not Role.OFFICIAL:
        raise Denied("Only a designated election official may record who the candidates are.")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        found = _choices_named(session, workspace.id, choice, contest)
        if not found:
            where = f" in a contest named “{echoed(contest)}”" if contest else ""
            raise UserError(f"No candidate “{echoed(choice)}”{where} in this office's elections: give the name as "
                            "on the survey of returns.", field="choice")
        contests = {c.contest_id for c in found}
        if len(contests) > 1:
            names = ", ".join(f"“{session.get_one(Contest, c).name}”" for c in sorted(contests))
            raise UserError(f"“{echoed(choice)}” is a candidate in several contests ({names}): add the contest, like "
                            f"`/recount admin candidate @person \"{echoed(choice)}\" \"contest\"`.", field="contest")
        row = found[0]
        contest_row = session.get_one(Contest, row.contest_id)
        existing = session.scalar(select(CandidateUser).where(CandidateUser.contest_id == row.contest_id,
                                                              CandidateUser.slack_user_id == user_id))
        if existing is not None and existing.choice_id == row.id:
            return Candidacy(user_id, contest_row.name, row.name), False
        before = None
        if existing is not None:
            before = {"choice": session.get_one(Choice, existing.choice_id).name}
            existing.choice_id, existing.recorded_by = row.id, actor
        else:
            session.add(CandidateUser(workspace_id=workspace.id, contest_id=row.contest_id, choice_id=row.id,
                                      slack_user_id=user_id, recorded_by=actor, recorded_at=services.now()))
        session.flush()
        audit.append(session, actor=actor, action="candidate.recorded", entity="membership", entity_id=user_id,
                     before=before, after={"contest": contest_row.name, "choice": row.name},
                     workspace_id=workspace.id, at=services.now())
        return Candidacy(user_id, contest_row.name, row.name), True


def remove_candidate(services: Services, *, team_id: str, actor: str, actor_role: Role | None,
                     user_id: str) -> int:
    """The person is no candidate after all (a wrong entry): every candidacy of theirs removed. Returns how many."""
    if actor_role is not Role.OFFICIAL:
        raise Denied("Only a designated election official may record who the candidates are.")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        rows = list(session.scalars(select(CandidateUser).where(CandidateUser.workspace_id == workspace.id,
                                                                CandidateUser.slack_user_id == user_id)))
        for row in rows:
            audit.append(session, actor=actor, action="candidate.removed", entity="membership", entity_id=user_id,
                         before={"contest": session.get_one(Contest, row.contest_id).name,
                                 "choice": session.get_one(Choice, row.choice_id).name}, after=None,
                         workspace_id=workspace.id, at=services.now())
            session.delete(row)
        return len(rows)


def roster(services: Services, team_id: str) -> list[Candidacy]:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        rows = session.execute(select(CandidateUser.slack_user_id, Contest.name, Choice.name)
                               .join(Contest, Contest.id == CandidateUser.contest_id)
                               .join(Choice, Choice.id == CandidateUser.choice_id)
                               .where(CandidateUser.workspace_id == workspace.id)
                               .order_by(Contest.name, Choice.name)).all()
        return [Candidacy(*row) for row in rows]
