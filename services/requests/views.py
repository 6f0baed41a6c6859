"""Requested recounts, (2)(a): a written request is entered (`services.requests.entry`), the statute core
decides whether it may be accepted, and a designated election official (or a delegated approver) approves or
rejects it (`services.requests.decision`).

This module holds what a request is as the handlers see it (`RequestView`), what the request form offers,
the pending requests, and the claim on posting a request's card (exactly one poster wins).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session, object_session

from rules.conflicts import Conflicted
from rules.deadlines import request_deadline, request_window_opens
from services.conduct.card_claims import CLAIM as CARD_CLAIM
from services.conduct.card_claims import CLAIM_STALE as CARD_CLAIM_STALE
from services.conduct.card_claims import claimed_at
from services.election_law import ElectionLaw, election_law
from services.errors import NotFound
from services.office.access import ensure_workspace
from services.office.conflicts import request_conflicts
from services.office.office_settings import OfficeSettings
from services.returns.versions import rules_contests
from services.services import Services
from storage import audit
from storage.models import Contest, RecountCase, RecountRequestRow, RequestStatus
from storage.repositories import latest_election_day, latest_version, rows_updated


@dataclass(frozen=True)
class RequestView:
    id: int
    contest_id: int
    contest: str
    contest_kind: str
    election: str
    election_date: dt.date
    requester_name: str
    requester_contact: str
    requester_slack_user: str | None
    party_kind: str
    in_favor_of: str
    received_on: dt.date
    received_reference: str
    entered_by: str
    entered_at: dt.datetime
    evaluation: dict
    status: str
    decided_by: str | None
    decided_at: dt.datetime | None
    decision_note: str | None
    channel_id: str | None
    card_ts: str | None
    case_id: int | None
    # The reading the decision was made under, with the decider's reason ("one office, one person: ..."), if any.
    decision_reading: str | None = None
    conflicts: tuple[Conflicted, ...] = ()  # candidates in the contest and the requester (rules.conflicts)
    workspace_id: int | None = None  # the office's: its card edits go out with that workspace's token


def as_view(row: RecountRequestRow) -> RequestView:
    contest = row.contest
    return RequestView(
        row.id, contest.id, contest.name, contest.kind, contest.election.name, contest.election.election_date,
        row.requester_name, row.requester_contact, row.requester_slack_user, row.party_kind, row.in_favor_of,
        row.received_on, row.received_reference, row.entered_by, row.entered_at, dict(row.evaluation), row.status,
        row.decided_by, row.decided_at, row.decision_note, row.channel_id,
        None if (row.card_ts or "").startswith(CARD_CLAIM) else row.card_ts, row.case_id, row.decision_reading,
        request_conflicts(session, row) if (session := object_session(row)) is not None else (), row.workspace_id)


@dataclass(frozen=True)
class ChoiceOption:
    id: int
    name: str
    votes: int


@dataclass(frozen=True)
class ContestOption:
    id: int
    name: str
    kind: str
    seats: int
    choices: tuple[ChoiceOption, ...]  # the choices with returns, in ballot order
    case_id: int | None  # a recount already open for the contest


@dataclass(frozen=True)
class RequestForm:
    """What the request form offers: the latest election's contests that have returns."""

    election: str
    election_date: dt.date
    window_closes: dt.date  # the last day under the election's law, rolled as its filing rule says
    window_note: str
    contests: tuple[ContestOption, ...]
    window_opens: dt.date | None = None  # the first day, where the law opens the window later (1-10.5-106(1))
    window_citation: str = ""
    law: ElectionLaw | None = None

    def contest(self, contest_id: int | None) -> ContestOption | None:
        return next((c for c in self.contests if c.id == contest_id), None)


def request_form(services: Services, *, team_id: str) -> RequestForm:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        # Every election of the latest election day: an office conducting several local governments' elections on
        # one day (each district with its own governing body) takes requests for any of their contests.
        day = [(e, v) for e in latest_election_day(session, workspace.id)
               if (v := latest_version(session, e.id)) is not None]
        if not day:
            raise NotFound("No election has returns yet, and a recount request is about a contest's returns. Enter "
                           "them with `/recount returns`, or import a file with `recount-bot import`.")
        election = day[0][0]
        cases = dict(session.execute(select(RecountCase.contest_id, RecountCase.id).join(Contest).where(
            Contest.election_id.in_([e.id for e, _ in day]))).all())
        contests = []
        for stored, contest in [pair for _, version in day for pair in rules_contests(session, version)]:
            totals = contest.totals
            choices = tuple(ChoiceOption(ch.id, ch.name, totals[ch.name]) for ch in stored.choices
                            if ch.name in totals)
            contests.append(ContestOption(stored.id, stored.name, stored.kind, stored.seats, choices,
                                          cases.get(stored.id)))
        law = election_law(election)
        calendar = OfficeSettings.of(workspace.settings).calendar
        window = request_deadline(election.election_date, calendar, law=law.profile)
        opens = request_window_opens(election.election_date, calendar, law=law.profile)
        name = ", ".join(dict.fromkeys(e.name for e, _ in day))
        return RequestForm(name, election.election_date, window.date, window.note, tuple(contests),
                           opens.date if opens is not None else None, window.citation, law)


def office_request(session: Session, request_id: int, workspace_id: int) -> RecountRequestRow:
    """Request `request_id` of this office; NotFound for none, or another office's (never shown across offices)."""
    row = session.get(RecountRequestRow, request_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("That recount request does not exist in this office.")
    return row


def request_view(services: Services, request_id: int, *, workspace_id: int) -> RequestView:
    with services.db.transaction() as session:
        return as_view(office_request(session, request_id, workspace_id))



def card_claim(services: Services, request_id: int) -> dt.datetime | None:
    """When an unconfirmed or under-way post of the request's card was claimed (the earliest it can be in
    Slack), or None when no claim stands."""
    with services.db.transaction() as session:
        return claimed_at(session.scalar(select(RecountRequestRow.card_ts).where(RecountRequestRow.id == request_id)))


def claim_request_card(services: Services, request_id: int) -> bool:
    """Claim the right to post the request's card: exactly one caller wins (the submission, or a later
    `/recount requests` when the first post failed); a claim left by a crash is taken over after two
    minutes."""
    now = services.now()
    with services.db.transaction() as session:
        card_ts = session.scalar(select(RecountRequestRow.card_ts).where(RecountRequestRow.id == request_id))
        claimed = claimed_at(card_ts)
        stale = claimed is not None and now - claimed > CARD_CLAIM_STALE
        if card_ts is not None and not stale:
            return False
        condition = (RecountRequestRow.card_ts.is_(None) if card_ts is None
                     else RecountRequestRow.card_ts == card_ts)
        won = rows_updated(session, update(RecountRequestRow).where(RecountRequestRow.id == request_id, condition)
                           .values(card_ts=f"{CARD_CLAIM}{now.timestamp():.0f}")
                           .execution_options(synchronize_session=False))
        return won == 1


def release_request_card(services: Services, request_id: int) -> None:
    """Give up a claim when posting failed, so `/recount requests` can post the card later."""
    with services.db.transaction() as session:
        session.execute(update(RecountRequestRow).where(RecountRequestRow.id == request_id,
                                                        RecountRequestRow.card_ts.like(f"{CARD_CLAIM}%"))
                        .values(card_ts=None).execution_options(synchronize_session=False))


def set_request_card(services: Services, request_id: int, *, channel_id: str, ts: str, actor: str) -> None:
    with services.db.transaction() as session:
        row = session.get_one(RecountRequestRow, request_id)
        row.channel_id, row.card_ts = channel_id, ts
        audit.append(session, actor=actor, action="request.card_posted", entity="recount_request", entity_id=row.id,
                     after={"channel_id": channel_id, "card_ts": ts}, workspace_id=row.workspace_id,
                     at=services.now())


def pending_requests(services: Services, *, team_id: str) -> list[RequestView]:
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        rows = session.scalars(select(RecountRequestRow).where(
            RecountRequestRow.workspace_id == workspace.id,
            RecountRequestRow.status == RequestStatus.PENDING.value).order_by(RecountRequestRow.id))
        return [as_view(r) for r in rows]
