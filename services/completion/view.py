"""What the card, the report and the record show of a case's completion (6): whether it can be completed now,
then the decision, the settlement, the certificates, the notice of the results, and the lot for a tie the recount
did not break (1-13.5-1304). Read-only."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

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
    return tuple(_certificate_line(c) for c in rows)


def _certificate_line(c: Certificate) -> CertificateLine:
    return CertificateLine(c.id, c.candidate, c.votes, None, c.created_at, c.expires_at, c.delivered_at,
                           c.delivered_by, c.delivery_method, c.slack_file_id)


def _lot_view(row: LotDrawing) -> LotView:
    return LotView(row.id, row.drawn_at, row.place, row.conducted_by, row.witnesses, row.method, row.method_details,
                   tuple(row.tied), tuple(row.winners), tuple(row.candidate_notices), dict(row.decision),
                   row.recorded_by, row.recorded_at, row.amended_notice_at, row.amended_notice_by,
                   row.amended_notice_method)


def lot_view_of(session: Session, case_id: int) -> LotView | None:
    row = session.scalar(select(LotDrawing).where(LotDrawing.case_id == case_id))
    return _lot_view(row) if row is not None else None


@dataclass
class _CompletionRecords:
    """What the completion views of many cases are read from, in one statement per table whatever their number
    (the worker's poll and App Home read every case still owing something at once)."""

    ledger: dict[int, list[LedgerRow]]
    certificates: dict[int, tuple[CertificateLine, ...]]
    lots: dict[int, LotView]
    versions: dict[int, int]  # survey version id -> its number

    @classmethod
    def read(cls, session: Session, case_ids: list[int], amended_ids: Sequence[int] = ()) -> "_CompletionRecords":
        ledger: dict[int, list[LedgerRow]] = {i: [] for i in case_ids}
        certificates: dict[int, list[CertificateLine]] = {i: [] for i in case_ids}
        lots: dict[int, LotView] = {}
        versions: dict[int, int] = {}
        for chunk in chunks(case_ids):
            for row in session.scalars(select(LedgerRow).where(LedgerRow.case_id.in_(chunk)).order_by(LedgerRow.id)):
                ledger[row.case_id].append(row)
            for c in session.scalars(select(Certificate).where(Certificate.case_id.in_(chunk))
                                     .order_by(Certificate.id)):
                certificates[c.case_id].append(_certificate_line(c))
            for lot in session.scalars(select(LotDrawing).where(LotDrawing.case_id.in_(chunk))):
                lots[lot.case_id] = _lot_view(lot)
        for chunk in chunks(list(amended_ids)):
            versions.update((version_id, number) for version_id, number in session.execute(
                select(SurveyVersion.id, SurveyVersion.number).where(SurveyVersion.id.in_(chunk))))
        return cls(ledger, {i: tuple(lines) for i, lines in certificates.items()}, lots, versions)

    def view(self, case: RecountCase) -> CompletionView:
        """A completed case's view (completed_at set)."""
        rows = self.ledger.get(case.id, [])
        entries = tuple((r.kind, r.amount, r.memo) for r in rows if (r.details or {}).get("step") == SETTLEMENT_STEP)
        collected = sum((r.amount for r in rows if r.kind == EntryKind.BALANCE_COLLECTED.value), ZERO)
        return CompletionView(
            case.id, case.kind == CaseKind.REQUESTED.value, None, completed_at=case.completed_at,
            completed_by=case.completed_by, completion=dict(case.completion or {}),
            settlement=dict(case.settlement) if case.settlement else None,
            amended_version=self.versions.get(case.amended_version_id) if case.amended_version_id else None,
            certificates=self.certificates.get(case.id, ()), results_notice_at=case.results_notice_at,
            results_notice_by=case.results_notice_by, results_notice_method=case.results_notice_method,
            settlement_entries=entries, balance_collected=collected, lot=self.lots.get(case.id))


def chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """`ids` in lists short enough for one IN (...) on any database (SQLite's oldest limit is 999 parameters)."""
    ordered = sorted(set(ids))
    return [ordered[i:i + size] for i in range(0, len(ordered), size)]


def completion_views_of(session: Session, cases: list[RecountCase]) -> dict[int, CompletionView]:
    """The completion views of the completed ones of `cases`, read together; a case not yet completed has none
    here (its readiness is read by `completion_view_of`, for the one case a card shows)."""
    done = [c for c in cases if c.completed_at is not None]
    records = _CompletionRecords.read(session, [c.id for c in done],
                                      [c.amended_version_id for c in done if c.amended_version_id])
    return {c.id: records.view(c) for c in done}


def completion_view_of(session: Session, case: RecountCase) -> CompletionView:
    requested = case.kind == CaseKind.REQUESTED.value
    if case.completed_at is None:
        return CompletionView(case.id, requested, readiness_of(session, case) if case.counting_started_at else None)
    return completion_views_of(session, [case])[case.id]
