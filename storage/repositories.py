"""Small queries shared by the use cases. No statute logic here: only finding and loading rows."""
from __future__ import annotations

from collections import defaultdict

from sqlalchemy import CursorResult, Update, select
from sqlalchemy.orm import Session

from storage.models import Choice, Contest, Election, LocalGovernment, SurveyVersion, VoteCount


def rows_updated(session: Session, statement: Update) -> int:
    """How many rows an UPDATE changed: the one caller of a compare-and-set that wins sees 1."""
    result = session.execute(statement)
    if not isinstance(result, CursorResult):  # an UPDATE runs through a cursor; its result says how many rows
        raise TypeError(f"an UPDATE gave a {type(result).__name__}, not a CursorResult")
    return result.rowcount


def elections_of(session: Session, workspace_id: int) -> list[Election]:
    """Newest first: by election day, then by when it was entered."""
    return list(session.scalars(
        select(Election).join(LocalGovernment).where(LocalGovernment.workspace_id == workspace_id)
        .order_by(Election.election_date.desc(), Election.id.desc())))


def latest_election(session: Session, workspace_id: int) -> Election | None:
    found = elections_of(session, workspace_id)
    return found[0] if found else None


def latest_election_day(session: Session, workspace_id: int) -> list[Election]:
    """Every election held on the latest election day, oldest entry first. An office conducting the elections of
    several local governments on one day (each district with its own governing body) has one election for each."""
    found = elections_of(session, workspace_id)
    return sorted((e for e in found if e.election_date == found[0].election_date), key=lambda e: e.id) if found else []


def find_contest_on_day(session: Session, elections: list[Election], name: str) -> Contest | None:
    """`find_contest` across the elections of one day: the first election holding a contest of that name."""
    for election in elections:
        contest = find_contest(session, election.id, name)
        if contest is not None:
            return contest
    return None


def latest_version(session: Session, election_id: int) -> SurveyVersion | None:
    return session.scalar(select(SurveyVersion).where(SurveyVersion.election_id == election_id)
                          .order_by(SurveyVersion.number.desc()).limit(1))


def counts_of_version(session: Session, version_id: int, contest_id: int | None = None
                      ) -> dict[int, dict[str, dict[int, int]]]:
    """{contest_id: {unit: {choice_id: votes}}} for one survey version (optionally one contest)."""
    query = select(VoteCount.contest_id, VoteCount.unit, VoteCount.choice_id, VoteCount.votes).where(
        VoteCount.survey_version_id == version_id)
    if contest_id is not None:
        query = query.where(VoteCount.contest_id == contest_id)
    query = query.order_by(VoteCount.contest_id, VoteCount.id)  # units in the order they were written
    out: dict[int, dict[str, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    for cid, unit, choice_id, votes in session.execute(query):
        out[cid][unit][choice_id] = votes
    return out


def contests_of(session: Session, election_id: int) -> list[Contest]:
    return list(session.scalars(select(Contest).where(Contest.election_id == election_id)
                                .order_by(Contest.position, Contest.id)))


def choices_of(session: Session, contest_ids: list[int]) -> dict[int, list[Choice]]:
    out: dict[int, list[Choice]] = defaultdict(list)
    if not contest_ids:
        return out
    for choice in session.scalars(select(Choice).where(Choice.contest_id.in_(contest_ids))
                                  .order_by(Choice.contest_id, Choice.position, Choice.id)):
        out[choice.contest_id].append(choice)
    return out


def find_contest(session: Session, election_id: int, name: str) -> Contest | None:
    """Exact name, else the one contest whose name matches ignoring case and outer spaces."""
    contests = contests_of(session, election_id)
    for contest in contests:
        if contest.name == name:
            return contest
    folded = name.strip().casefold()
    matches = [c for c in contests if c.name.casefold() == folded]
    if len(matches) == 1:
        return matches[0]
    partial = [c for c in contests if folded and folded in c.name.casefold()]
    return partial[0] if len(partial) == 1 else None
