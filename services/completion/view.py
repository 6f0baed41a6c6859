"""What the card, the report and the record show of a case's completion (6): whether it can be completed now,
then the decision, the settlement, the certificates, the notice of the results, and the lot for a tie the recount
did not break (1-13.5-1304). Read-only."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.ledger import EntryKind
from rules.money import ZERO
from services.conduct.tally import tally_state
from storage.models import CaseKind, Certificate, LedgerRow, LotDrawing, RecountCase, SurveyVersion

SETTLEMENT_STEP = "settlement"


@dataclass(frozen=True)
class CertificateLine:
    id: int
    candidate: str
    votes: int
    token: str | None  # the link's token when it was just made; None after (only its hash is stored)
    created_at: dt.datetime
    expires_at: dt.datetime
    delivered_at: dt.datetime | None
    delivered_by: str | None
    delivery_method: str | None
    slack_file_id: str | None = None

    @property
    def delivered(self) -> bool:
        return self.delivered_at is not None

    def expired(self, now: dt.datetime) -> bool:
        return now >= self.expires_at


@dataclass(frozen=True)
class Readiness:
    """Whether the recount can be completed now: counting started, the count set up, every unit tallied."""

    counting_started: bool
    set_up: bool
    progress: tuple[int, int] | None  # (units tallied, units expected)
    missing_units: tuple[str, ...] = ()
    blocking: tuple[str, ...] = ()  # disagreements on units that do not yet count, as a clerk reads them
    awaiting_second_entry: tuple[str, ...] = ()

    @property
    def ready(self) -> bool:
        return self.counting_started and self.set_up and not self.missing_units


@dataclass(frozen=True)
class LotView:
    """1-13.5-1304: the drawing of lots recorded for a tie the recount did not break."""

    id: int
    drawn_at: dt.datetime
    place: str
    conducted_by: str
    witnesses: str
    method: str
    method_details: str | None
    tied: tuple[str, ...]
    winners: tuple[str, ...]
    candidate_notices: tuple[dict, ...]  # {"candidate", "given_at" (ISO), "method"}
    decision: dict  # rules.lot.LotDecision, JSON-ready
    recorded_by: str
    recorded_at: dt.datetime
    amended_notice_at: dt.datetime | None
    amended_notice_by: str | None
    amended_notice_method: str | None


@dataclass(frozen=True)
class CompletionView:
    """A case's completion as the card, the report and the notices show it. Before completion only `readiness`
    is set; after it, the decision (rules.completion), the settlement (rules.settlement) and what followed."""

    case_id: int
    requested: bool
    readiness: Readiness | None
    completed_at: dt.datetime | None = None
    completed_by: str | None = None
    completion: dict | None = None
    settlement: dict | None = None
    amended_version: int | None = None
    certificates: tuple[CertificateLine, ...] = ()
    results_notice_at: dt.datetime | None = None
    results_notice_by: str | None = None
    results_notice_method: str | None = None
    settlement_entries: tuple[tuple[str, Decimal, str], ...] = ()  # (kind, amount, memo) written at completion
    balance_collected: Decimal = ZERO
    lot: LotView | None = None

    @property
    def lot_owed(self) -> bool:
        """A tie the recount left to the lot (1-13.5-1304), not yet drawn."""
        return bool((self.completion or {}).get("tie_for_last_seat")) and self.lot is None

    @property
    def amended_notice_owed(self) -> bool:
        """The notice of the results went to the governing body before the lot was drawn: an amended one is owed (6)."""
        return (self.lot is not None and self.results_notice_at is not None
                and self.results_notice_at < self.lot.drawn_at and self.lot.amended_notice_at is None)

    @property
    def completed(self) -> bool:
        return self.completed_at is not None

    @property
    def balance_due(self) -> Decimal:
        return Decimal((self.settlement or {}).get("balance_due") or "0.00")

    @property
    def balance_outstanding(self) -> Decimal:
        return max(self.balance_due - self.balance_collected, ZERO)


def readiness_of(session: Session, case: RecountCase) -> Readiness:
    state = tally_state(session, case)
    if state is None:
        return Readiness(case.counting_started_at is not None, False, None)
    blocking = tuple(str(d) for d in state.disagreements if d.unit not in state.counted)
    return Readiness(case.counting_started_at is not None, True, state.progress, state.missing_units, blocking,
                     tuple(state.awaiting_second_entry))


def certificate_lines(session: Session, case_id: int) -> tuple[CertificateLine, ...]:
    rows = session.scalars(select(Certificate).where(Certificate.case_id == case_id).order_by(Certificate.id))
    return tuple(CertificateLine(c.id, c.candidate, c.votes, None, c.created_at, c.expires_at, c.delivered_at,
                                 c.delivered_by, c.delivery_method, c.slack_file_id) for c in rows)


def lot_view_of(session: Session, case_id: int) -> LotView | None:
    row = session.scalar(select(LotDrawing).where(LotDrawing.case_id == case_id))
    if row is None:
        return None
    return LotView(row.id, row.drawn_at, row.place, row.conducted_by, row.witnesses, row.method, row.method_details,
                   tuple(row.tied), tuple(row.winners), tuple(row.candidate_notices), dict(row.decision),
                   row.recorded_by, row.recorded_at, row.amended_notice_at, row.amended_notice_by,
                   row.amended_notice_method)


def completion_view_of(session: Session, case: RecountCase) -> CompletionView:
    requested = case.kind == CaseKind.REQUESTED.value
    if case.completed_at is None:
        return CompletionView(case.id, requested, readiness_of(session, case) if case.counting_started_at else None)
    rows = list(session.scalars(select(LedgerRow).where(LedgerRow.case_id == case.id).order_by(LedgerRow.id)))
    entries = tuple((r.kind, r.amount, r.memo) for r in rows if (r.details or {}).get("step") == SETTLEMENT_STEP)
    collected = sum((r.amount for r in rows if r.kind == EntryKind.BALANCE_COLLECTED.value), ZERO)
    amended = session.get(SurveyVersion, case.amended_version_id) if case.amended_version_id else None
    return CompletionView(
        case.id, requested, None, completed_at=case.completed_at, completed_by=case.completed_by,
        completion=dict(case.completion or {}), settlement=dict(case.settlement) if case.settlement else None,
        amended_version=amended.number if amended else None, certificates=certificate_lines(session, case.id),
        results_notice_at=case.results_notice_at, results_notice_by=case.results_notice_by,
        results_notice_method=case.results_notice_method, settlement_entries=entries, balance_collected=collected,
        lot=lot_view_of(session, case.id))
