"""`/recount check`: the (1) verdicts for the latest election, and a recount case for each contest inside
the margin, opened once (checking again finds the case; it never opens a second)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.contest import ContestKind, Undecided
from rules.deadlines import automatic_recount_deadline, contest_filing_deadline
from rules.governing_body import governing_body_name
from rules.laws import LawProfile
from rules.laws.profile import BodyNotice
from rules.margin import MarginDecision
from rules.serialize import to_jsonable
from rules.verdicts import decide_contest
from services.election_law import ElectionLaw, election_law, law_of
from services.errors import NotFound
from services.office.access import ensure_workspace
from services.office.office_settings import OfficeSettings
from services.returns.versions import require_election, rules_contests
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import (
    CaseDeadline,
    CaseKind,
    Contest,
    Election,
    IssueCommittee,
    Notice,
    RecipientKind,
    RecountCase,
    SurveyVersion,
)
from storage.repositories import find_contest, latest_election_day, latest_version


@dataclass(frozen=True)
class ContestVerdict:
    contest_id: int
    decision: MarginDecision
    case_id: int | None
    case_opened_now: bool
    card_posted: bool = False  # the case's card is already in Slack (or being posted)
    law: ElectionLaw | None = None  # the law of the contest's election, which decided it


@dataclass(frozen=True)
class CheckOutcome:
    """Every election of the latest election day: one per local government (each has its own governing body)."""
    election_name: str  # the day's election names, joined when they differ
    election_date: dt.date
    local_government: str  # the local governments, joined
    version_number: int  # the newest survey version among them
    multi_seat_rule: str
    verdicts: tuple[ContestVerdict, ...]  # closest first
    # Contests the rules cannot decide from the survey (no votes counted yet, only write-ins): no case
    # is opened for them, and the answer says why.
    undecided: tuple[Undecided, ...] = ()
    laws: tuple[ElectionLaw, ...] = ()  # the laws the day's elections are held under, each once

    @property
    def held_under(self) -> str:
        """"Held under C.R.S. 1-10.5 (coordinated election)." (every law of the day, when its elections differ)."""
        return "Held under " + "; ".join(law.named for law in self.laws) + "." if self.laws else ""

    @property
    def opened(self) -> list[ContestVerdict]:
        return [v for v in self.verdicts if v.case_opened_now]


def _latest_day(session: Session, workspace_id: int) -> list[tuple[Election, SurveyVersion]]:
    """The elections of the latest election day that have a survey of returns, each with its newest version."""
    elections = latest_election_day(session, workspace_id)
    if not elections:
        raise NotFound("No election has returns yet. Enter them with `/recount returns`, or import a file with "
                       "`recount-bot import FILE --election-date YYYY-MM-DD --name NAME`.")
    found = [(e, v) for e in elections if (v := latest_version(session, e.id)) is not None]
    if not found:
        raise NotFound(f"{elections[0].name} has no survey of returns yet. Enter it with `/recount returns`.")
    return found


def _one_election(session: Session, workspace_id: int, election_id: int) -> list[tuple[Election, SurveyVersion]]:
    """One election of the office, whatever its day, with its newest version."""
    election = require_election(session, workspace_id, election_id)
    version = latest_version(session, election.id)
    if version is None:
        raise NotFound(f"{election.name} has no survey of returns yet. Enter it with `/recount returns`.")
    return [(election, version)]


def _joined(names: list[str]) -> str:
    return ", ".join(dict.fromkeys(names))


def notices_owed(session: Session, contest: Contest, governing_body: str,
                 law: LawProfile) -> list[tuple[RecipientKind, str]]:
    """Who the law's notice of a recount goes to: the governing body where the law names it (1-13.5-1306(1) for
    every contest; 1-10.5-105 for a ballot issue or question; not 31-10-1207(1)), all candidates and, for a ballot
    issue or question, any issue committee affected by the result."""
    question = contest.kind != ContestKind.CANDIDATE.value
    body = law.notice.governing_body
    owed = [(RecipientKind.GOVERNING_BODY, governing_body)] if (
        body is BodyNotice.EVERY_CONTEST or (body is BodyNotice.BALLOT_QUESTIONS and question)) else []
    if not question:
        owed += [(RecipientKind.CANDIDATE, choice.name) for choice in contest.choices]
    else:
        committees = session.scalars(select(IssueCommittee).where(IssueCommittee.contest_id == contest.id)
                                     .order_by(IssueCommittee.id))
        owed += [(RecipientKind.ISSUE_COMMITTEE, committee.name) for committee in committees]
    return owed


def _open_automatic_case(session: Session, *, workspace_id: int, election: Election, version: SurveyVersion,
                         contest: Contest, decision: MarginDecision, settings: OfficeSettings, actor: str,
                         now: dt.datetime) -> tuple[int, bool]:
    existing = session.scalar(select(RecountCase.id).where(RecountCase.contest_id == contest.id))
    if existing is not None:
        return existing, False
    try:
        with session.begin_nested():  # a concurrent check may open it first: the unique contest wins
            case = RecountCase(
                workspace_id=workspace_id, contest_id=contest.id, kind=CaseKind.AUTOMATIC.value, opened_at=now,
                opened_by=actor, survey_version_id=version.id, multi_seat_rule=settings.multi_seat_rule.value,
                verdict=to_jsonable(decision))
            session.add(case)
            session.flush()
    except IntegrityError:  # the concurrent check's case: it is there
        return session.execute(select(RecountCase.id).where(RecountCase.contest_id == contest.id)).scalar_one(), False

    law = law_of(election)
    completion = automatic_recount_deadline(election.election_date, rollover=settings.completion_rollover,
                                            calendar=settings.calendar, law=law)
    filing = contest_filing_deadline(election.election_date, calendar=settings.calendar, law=law)
    for deadline in (completion, filing):
        session.add(CaseDeadline(
            case_id=case.id, name=deadline.name, due_date=deadline.date, citation=deadline.citation,
            note=deadline.note, reading=deadline.reading, rolled_from=deadline.rolled_from,
            estimated=deadline.estimated, falls_on=deadline.falls_on))
    for kind, name in notices_owed(session, contest, governing_body_name(election.local_government.governing_body,
                                                                     election.local_government.name), law):
        session.add(Notice(case_id=case.id, recipient_kind=kind.value, recipient_name=name,
                           citation=law.notice.provision.citation))
    session.flush()
    audit.append(session, actor=actor, action="case.opened", entity="recount_case", entity_id=case.id,
                 after={"contest": contest.name, "kind": case.kind, "survey_version": version.number,
                        "verdict": decision.reason, "citation": decision.citation, "rule": decision.rule,
                        "completion_deadline": completion.date},
                 workspace_id=workspace_id, at=now)
    return case.id, True


def check(services: Services, *, team_id: str, actor: str, settings: OfficeSettings,
          contest_name: str | None = None, election_id: int | None = None) -> CheckOutcome:
    """Check one contest (by name) or every contest of every election of the latest election day; open cases as
    (1) requires. Each case's notice to the governing body names its own election's body. `election_id`: that
    election instead of the latest day's (an older election just uploaded: its upload's *Check this election*)."""
    now = services.now()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        day = _one_election(session, workspace.id, election_id) if election_id is not None \
            else _latest_day(session, workspace.id)
        wanted = None
        if contest_name:
            found = [(e, v, c) for e, v in day if (c := find_contest(session, e.id, contest_name)) is not None]
            if not found:
                names = ", ".join(c.name for _, v in day for c, _ in rules_contests(session, v))
                names = ", ".join(names.split(", ")[:8])
                raise NotFound(f"No contest called “{echoed(contest_name)}” in {_joined([e.name for e, _ in day])}. "
                               f"Contests: {names}.")
            election, version, named = found[0]
            day, wanted = [(election, version)], [named.id]
        verdicts, undecided, laws = [], [], []
        for election, version in day:
            checked, undecided_here = [], []
            law = election_law(election)  # each election of the day is decided under its own law
            if law not in laws:
                laws.append(law)
            for stored, contest in rules_contests(session, version, wanted):
                decision = decide_contest(contest, settings.multi_seat_rule, law=law.profile)
                if isinstance(decision, Undecided):
                    undecided_here.append(decision)
                    continue
                case_id, opened = None, False
                if decision.automatic_recount:
                    case_id, opened = _open_automatic_case(
                        session, workspace_id=workspace.id, election=election, version=version, contest=stored,
                        decision=decision, settings=settings, actor=actor, now=now)
                else:
                    case_id = session.scalar(select(RecountCase.id).where(RecountCase.contest_id == stored.id))
                card = session.scalar(select(RecountCase.card_ts).where(RecountCase.id == case_id)) if case_id else None
                checked.append(ContestVerdict(stored.id, decision, case_id, opened, card is not None, law))
            verdicts += checked
            undecided += undecided_here
            audit.append(session, actor=actor, action="survey.checked", entity="survey_version", entity_id=version.id,
                         after={"contests": len(checked), "automatic": [v.decision.contest for v in checked
                                                                        if v.decision.automatic_recount],
                                "undecided": [u.contest for u in undecided_here],
                                "rule": settings.multi_seat_rule.value, "law": law.key},
                         workspace_id=workspace.id, at=now)
        if wanted and not verdicts and not undecided:
            raise NotFound(f"{echoed(contest_name)} has no returns in version {day[0][1].number} yet.")
        verdicts.sort(key=lambda v: v.decision.closeness)
        return CheckOutcome(_joined([e.name for e, _ in day]), day[0][0].election_date,
                            _joined([e.local_government.name for e, _ in day]), max(v.number for _, v in day),
                            settings.multi_seat_rule.value, tuple(verdicts), tuple(undecided), tuple(laws))
