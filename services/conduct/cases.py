"""Recount cases as the card shows them, the card's place in Slack, and the notices given under (1)."""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from rules.conflicts import Conflicted
from rules.decision import Decision
from rules.duties import Duty
from rules.governing_body import governing_body_name
from services.completion.complete import CompletionView, completion_view_of
from services.conduct.card_claims import CLAIM, CLAIM_STALE, claimed_at
from services.conduct.duties import duties_of_case
from services.conduct.money import MoneyView, money_view
from services.conduct.owed import note_duties
from services.conduct.view import ConductView, conduct_view
from services.conduct.waiver import WaiverView, may_offer, waiver_view
from services.election_law import ElectionLaw, election_law
from services.errors import NotFound, UserError
from services.observers.links import LinkLine, links_of
from services.office.conflicts import case_conflicts
from services.office.office_settings import OfficeSettings
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import CaseDeadline, CaseKind, Notice, RecountCase, RecountRequestRow
from storage.repositories import rows_updated


class NoticeMethod(str, enum.Enum):
    """'by any means reasonably expected to notify' (1): the office records which it used."""

    EMAIL = "email"
    PHONE = "phone"
    LETTER = "letter"
    IN_PERSON = "in person"
    HAND_DELIVERY = "hand delivery"
    OTHER = "other"


@dataclass(frozen=True)
class NoticeView:
    id: int
    recipient_kind: str
    recipient_name: str
    citation: str
    given_at: dt.datetime | None
    given_by: str | None
    method: str | None
    details: str | None
    recorded_by: str | None

    @property
    def given(self) -> bool:
        return self.given_at is not None


@dataclass(frozen=True)
class DeadlineView:
    name: str
    due_date: dt.date
    citation: str
    note: str
    reading: str | None
    rolled_from: dt.date | None
    estimated: bool
    falls_on: str | None


@dataclass(frozen=True)
class RequestSummary:
    """Who asked for a requested recount, and in whose favor (decides a (2)(d) refund)."""

    id: int
    requester_name: str
    requester_contact: str
    party_kind: str
    in_favor_of: str
    received_on: dt.date
    received_reference: str
    decided_by: str | None
    decision_note: str | None


@dataclass(frozen=True)
class CaseView:
    id: int
    team_id: str
    kind: str
    status: str
    contest: str
    contest_kind: str
    seats: int
    election: str
    election_date: dt.date
    local_government: str
    governing_body: str
    verdict: dict
    returns_version: int
    opened_at: dt.datetime
    opened_by: str
    channel_id: str | None
    card_ts: str | None
    deadlines: tuple[DeadlineView, ...]
    notices: tuple[NoticeView, ...]
    checklist: Decision | None = None  # (2)(b) for requested recounts
    money: MoneyView | None = None  # requested recounts only
    request: RequestSummary | None = None
    counting_started_at: dt.datetime | None = None
    counting_started_by: str | None = None
    completion: CompletionView | None = None  # (6): readiness to complete, then the completion and what followed
    conduct: ConductView | None = None  # (3)-(5): assistants, evidence and survey versions, the tally
    duties: tuple[Duty, ...] = ()  # what is still owed (rules.duties), as App Home and the reminders list it
    conflicts: tuple[Conflicted, ...] = ()  # candidates in the contest and the requester (rules.conflicts)
    money_returned: tuple[dt.datetime, str, str, str] | None = None  # (2)(d)/(f): when, by whom, how, reference
    observers: tuple[LinkLine, ...] = ()  # (1): the observers' links not revoked, newest first
    # (6): the name printed on the certificates' signature line (the office's setting official-name); None
    # when the office set none, and the certificates would carry only the official's title.
    certificate_signer: str | None = None
    law: ElectionLaw | None = None  # the law the contest's election is held under
    waiver: WaiverView | None = None  # 1-10.5-103: the automatic recount waived, as recorded
    waiver_offered: bool = False  # the card offers "Record waiver" (services/conduct/waiver.py)

    @property
    def requested(self) -> bool:
        return self.kind == CaseKind.REQUESTED.value

    def deadline(self, name: str) -> DeadlineView | None:
        return next((d for d in self.deadlines if d.name == name), None)

    @property
    def notices_outstanding(self) -> int:
        return sum(not n.given for n in self.notices)


def _notice_view(notice: Notice) -> NoticeView:
    return NoticeView(notice.id, notice.recipient_kind, notice.recipient_name, notice.citation, notice.given_at,
                      notice.given_by, notice.method, notice.details, notice.recorded_by)


def load_case(session: Session, case_id: int, workspace_id: int | None = None) -> RecountCase:
    """The case, in `workspace_id` when given; NotFound otherwise (another office's case is not found either)."""
    case = session.get(RecountCase, case_id)
    if case is None or (workspace_id is not None and case.workspace_id != workspace_id):
        raise NotFound("That recount case does not exist in this office.")
    return case


def case_view_of(session: Session, case: RecountCase) -> CaseView:
    """What a case's card shows, read in the caller's session."""
    contest = case.contest
    election = contest.election
    government = election.local_government
    deadlines = session.scalars(select(CaseDeadline).where(CaseDeadline.case_id == case.id)
                                .order_by(CaseDeadline.due_date, CaseDeadline.id))
    money = request = checklist = None
    completion = completion_view_of(session, case)  # the card's, and what its duties are read from
    if case.kind == CaseKind.REQUESTED.value:
        money = money_view(session, case)
        checklist = money.checklist
        row = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        if row is not None:
            request = RequestSummary(row.id, row.requester_name, row.requester_contact, row.party_kind,
                                     row.in_favor_of, row.received_on, row.received_reference, row.decided_by,
                                     row.decision_note)
    return CaseView(
        id=case.id, team_id=government.workspace.slack_team_id, kind=case.kind, status=case.status,
        contest=contest.name, contest_kind=contest.kind, seats=contest.seats, election=election.name,
        election_date=election.election_date, local_government=government.name,
        governing_body=governing_body_name(government.governing_body, government.name), verdict=dict(case.verdict),
        returns_version=case.survey_version.number, opened_at=case.opened_at, opened_by=case.opened_by,
        channel_id=case.channel_id, card_ts=case.card_ts,
        deadlines=tuple(DeadlineView(d.name, d.due_date, d.citation, d.note, d.reading, d.rolled_from, d.estimated,
                                     d.falls_on) for d in deadlines),
        notices=tuple(_notice_view(n) for n in case.notices),
        checklist=checklist, money=money, request=request,
        counting_started_at=case.counting_started_at, counting_started_by=case.counting_started_by,
        completion=completion, law=election_law(election),
        conduct=conduct_view(session, case),
        duties=duties_of_case(session, case, completion), conflicts=case_conflicts(session, case),
        certificate_signer=OfficeSettings.of(government.workspace.settings).official_name,
        money_returned=(case.money_returned_at, case.money_returned_by or "", case.money_returned_method or "",
                        case.money_returned_reference or "") if case.money_returned_at else None,
        observers=tuple(link for link in links_of(session, case.id) if link.revoked_at is None),
        waiver=waiver_view(case.waiver), waiver_offered=may_offer(session, case),
    )


def case_view(services: Services, case_id: int, *, workspace_id: int | None = None) -> CaseView:
    with services.db.transaction() as session:
        return case_view_of(session, load_case(session, case_id, workspace_id))




def claim_card(services: Services, case_id: int) -> bool:
    """Claim the right to post the case's card. Exactly one caller wins, however many checks race;
    a claim left by a crash mid-post is taken over after two minutes."""
    now = services.now()
    with services.db.transaction() as session:
        card_ts = session.scalar(select(RecountCase.card_ts).where(RecountCase.id == case_id))
        claimed = claimed_at(card_ts)
        stale = claimed is not None and now - claimed > CLAIM_STALE
        if card_ts is not None and not stale:
            return False
        won = rows_updated(session, update(RecountCase).where(
            RecountCase.id == case_id, RecountCase.card_ts.is_(card_ts) if card_ts is None
            else RecountCase.card_ts == card_ts)
            .values(card_ts=f"{CLAIM}{now.timestamp():.0f}").execution_options(synchronize_session=False))
        return won == 1


def release_card(services: Services, case_id: int) -> None:
    """Give up a claim when posting failed, so the next check posts the card."""
    with services.db.transaction() as session:
        session.execute(update(RecountCase).where(RecountCase.id == case_id, RecountCase.card_ts.like(f"{CLAIM}%"))
                        .values(card_ts=None).execution_options(synchronize_session=False))


def set_card(services: Services, case_id: int, *, channel_id: str, ts: str, actor: str) -> None:
    """Remember where the case's card is, so later updates thread under it and edit it."""
    with services.db.transaction() as session:
        case = load_case(session, case_id)
        before = {"channel_id": case.channel_id,
                  "card_ts": None if (case.card_ts or "").startswith(CLAIM) else case.card_ts}
        if (case.channel_id, case.card_ts) == (channel_id, ts):
            return
        case.channel_id, case.card_ts = channel_id, ts
        audit.append(session, actor=actor, action="case.card_posted", entity="recount_case", entity_id=case.id,
                     before=before, after={"channel_id": channel_id, "card_ts": ts}, workspace_id=case.workspace_id)


def notice_view(services: Services, notice_id: int, *, workspace_id: int) -> tuple[NoticeView, CaseView]:
    with services.db.transaction() as session:
        notice = session.get(Notice, notice_id)
        if notice is None:
            raise NotFound("That notice does not exist.")
        case = load_case(session, notice.case_id, workspace_id)
        return _notice_view(notice), case_view_of(session, case)


@dataclass(frozen=True)
class NoticeRecorded:
    notice: NoticeView
    case: CaseView
    newly_recorded: bool


def record_notice(services: Services, *, workspace_id: int, notice_id: int, given_by: str, method: str,
                  given_at: dt.datetime, details: str | None, actor: str) -> NoticeRecorded:
    """Record that a notice under (1) was given: by whom, how, when. Recording twice changes nothing."""
    if not given_by or not given_by.strip():
        raise UserError("Say who gave the notice.", field="given_by")
    try:
        method_value = NoticeMethod(method).value
    except ValueError:
        raise UserError(f"“{echoed(method)}” is not a way of giving notice this office records.",
                        field="method") from None
    if given_at.tzinfo is None:
        raise ValueError("given_at must be timezone-aware")
    now = services.now()
    if given_at > now + dt.timedelta(minutes=5):
        raise UserError("The notice cannot have been given in the future.", field="given_at")
    with services.db.transaction() as session:
        notice = session.get(Notice, notice_id, with_for_update=True)
        if notice is None:
            raise NotFound("That notice does not exist.")
        case = load_case(session, notice.case_id, workspace_id)
        if given_at.date() < case.contest.election.election_date:
            raise UserError("A recount notice cannot predate the election.", field="given_at")
        if notice.given_at is not None:  # a double click or a second modal: the first record stands
            return NoticeRecorded(_notice_view(notice), case_view_of(session, case), False)
        notice.given_at, notice.given_by, notice.method = given_at, given_by.strip(), method_value
        notice.details = (details or "").strip() or None
        notice.recorded_by, notice.recorded_at = actor, now
        session.flush()
        note_duties(session, case)
        audit.append(session, actor=actor, action="notice.recorded", entity="notice", entity_id=notice.id,
                     before={"given_at": None},
                     after={"case": case.id, "recipient": f"{notice.recipient_kind}: {notice.recipient_name}",
                            "given_at": given_at, "given_by": notice.given_by, "method": method_value,
                            "details": notice.details, "citation": notice.citation},
                     workspace_id=case.workspace_id, at=now)
        return NoticeRecorded(_notice_view(notice), case_view_of(session, case), True)
