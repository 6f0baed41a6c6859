"""Completing a recount (6) and settling its money ((2)(c), (2)(d), (2)(f)), in one transaction.

When every expected unit counts, the statute core computes the amended totals, who received the
highest number of votes, whether the outcome changed and whether it was reversed in favor of the
requester, and whether the amended margin falls within (1). This module then:

- writes the amended count as a new survey-of-returns version ("amended by the recount"), so the
  record and any later check see it, while every earlier version stays;
- for a requested recount, writes the settlement to the ledger: the actual cost as an expense (up to
  what is held), then a refund under (2)(d) — the governing body first making good what was spent, so
  the payment is refunded in full — or the return of the unused deposit under (2)(f); a balance due
  under (2)(c) is shown and collected later;
- creates the certificates of election (6) with unguessable, expiring links.

Completing twice changes nothing: the second call returns the first result.
"""
from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.services.case_money import ledger_of
from bot.services.context import Services
from bot.services.errors import UserError
from bot.services.survey import flat_counts, write_version
from bot.services.tally import case_for_update, original_contest, tally_state
from rules.completion import CompletionDecision, complete_recount
from rules.ledger import EntryKind, LedgerEntry
from rules.margin import MultiSeatRule
from rules.money import ZERO, money
from rules.serialize import to_jsonable
from rules.settlement import Settlement, SettlementOutcome, settle
from rules.tally import TallyIncomplete, amended_contest, compare_with_original
from storage import audit
from storage.models import (
    CaseKind, CaseStatus, Certificate, Choice, LedgerRow, RecountCase, RecountRequestRow, SurveyVersion,
)
from storage.repositories import latest_version

CERTIFICATE_LIFETIME = dt.timedelta(days=30)
AMENDED_REASON = "amended by the recount of {contest} (case #{case}), C.R.S. 1-13.5-1306(6)"


@dataclass(frozen=True)
class CompletionResult:
    case_id: int
    newly_completed: bool
    completion: dict  # rules.completion.CompletionDecision, JSON-ready
    comparison: dict  # rules.tally.TallyComparison, JSON-ready
    settlement: dict | None  # rules.settlement.Settlement, JSON-ready (requested recounts)
    amended_version: int
    certificates: tuple[tuple[str, int, str], ...]  # (candidate, votes, token)


def _ledger_row(session: Session, case_id: int, kind: EntryKind, amount: Decimal, memo: str, citation: str,
                actor: str, now: dt.datetime) -> None:
    session.add(LedgerRow(case_id=case_id, kind=kind.value, amount=amount, memo=memo,
                          details={"citation": citation}, recorded_by=actor, recorded_at=now))


def _settle_money(session: Session, case: RecountCase, decision: CompletionDecision, actual_cost: Decimal,
                  actor: str, now: dt.datetime) -> Settlement:
    ledger = ledger_of(session, case.id)
    spent_before = ledger.expenses
    settlement = settle(paid=ledger.paid, actual_cost=actual_cost,
                        reversed_in_favor_of_requester=bool(decision.reversed_in_favor_of_requester),
                        amended_within_margin=decision.amended_within_margin, result_changed=decision.outcome_changed)
    # The actual cost is paid from the funds held (2)(c), as far as they go; the rest is the balance due.
    to_spend = max(actual_cost - spent_before, ZERO)
    from_held = min(to_spend, ledger.held)
    entries: list[LedgerEntry] = []
    if from_held > ZERO:
        entries.append(LedgerEntry(EntryKind.EXPENSE, from_held, "actual cost of the recount, paid from the deposit"))
    if settlement.outcome == SettlementOutcome.REFUND.value and settlement.refund > ZERO:
        held_after = ledger.held - from_held
        if settlement.refund > held_after:
            entries.append(LedgerEntry(EntryKind.GOVERNING_BODY_PAYMENT, settlement.refund - held_after,
                                       "the governing body bears the cost (2)(d), so the payment is refunded in full"))
        entries.append(LedgerEntry(EntryKind.REFUND, settlement.refund, "refund of the payment (2)(d)"))
    elif settlement.deposit_return > ZERO:
        entries.append(LedgerEntry(EntryKind.DEPOSIT_RETURN, settlement.deposit_return,
                                   "return of the unused portion of the deposit (2)(f)"))
    check = ledger
    for entry in entries:
        check = check.add(entry)  # the rules refuse a sequence that would break the ledger
        _ledger_row(session, case.id, entry.kind, entry.amount, entry.memo, entry.citation, actor, now)
    return settlement


def _amended_version(session: Session, case: RecountCase, amended_units: dict[str, dict[str, int]], actor: str,
                     now: dt.datetime) -> SurveyVersion:
    election = case.contest.election
    previous = latest_version(session, election.id)
    counts = {k: v for k, v in flat_counts(session, previous).items() if k[0] != case.contest_id}
    choice_ids = {c.name: c.id for c in session.scalars(select(Choice).where(Choice.contest_id == case.contest_id))}
    for unit, per_choice in amended_units.items():
        for choice, votes in per_choice.items():
            counts[(case.contest_id, unit, choice_ids[choice])] = votes
    return write_version(session, election, counts, reason=AMENDED_REASON.format(contest=case.contest.name, case=case.id),
                         evidence=[f"recount case #{case.id} tally sheets"], source_format="recount",
                         source_name=f"recount case #{case.id}", source_sha256=None, actor=actor, now=now)


def _result(case: RecountCase, newly: bool, certificates: list[Certificate], version_number: int) -> CompletionResult:
    return CompletionResult(case.id, newly, dict(case.completion or {}), dict((case.completion or {}).get(
        "comparison", {})), dict(case.settlement) if case.settlement else None, version_number,
        tuple((c.candidate, c.votes, c.token) for c in certificates))


def complete_case(services: Services, *, workspace_id: int, case_id: int, actor: str,
                  actual_cost: Decimal | str | None = None) -> CompletionResult:
    """Complete the recount once every expected unit is tallied. A requested recount needs its actual cost."""
    now = services.now()
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        certificates = list(session.scalars(select(Certificate).where(Certificate.case_id == case.id)
                                            .order_by(Certificate.id)))
        if case.completed_at is not None:
            amended = session.get(SurveyVersion, case.amended_version_id)
            return _result(case, False, certificates, amended.number if amended else 0)
        if case.counting_started_at is None:
            raise UserError("Counting has not started for this recount.")
        state = tally_state(session, case)
        if state is None:
            raise UserError("Set up the count and enter the tally sheets first (C.R.S. 1-13.5-1306(5)).")
        original = original_contest(session, case)
        try:
            amended = amended_contest(original, state)
        except TallyIncomplete as exc:
            raise UserError(f"Not every unit is tallied yet: {exc}") from None
        requested = case.kind == CaseKind.REQUESTED.value
        cost = None
        if requested:
            if actual_cost is None:
                raise UserError("Give the actual cost of the recount: the settlement depends on it "
                                "(C.R.S. 1-13.5-1306(2)(c), (d), (f)).", field="actual_cost")
            try:
                cost = money(actual_cost, field="actual cost")
            except (TypeError, ValueError) as exc:
                raise UserError(str(exc), field="actual_cost") from None
        request = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        government = case.contest.election.local_government
        decision = complete_recount(original, amended, requested_in_favor_of=request.in_favor_of if request else None,
                                    governing_body=f"{government.governing_body} of {government.name}",
                                    multi_seat_rule=MultiSeatRule(case.multi_seat_rule))
        comparison = compare_with_original(original, amended)
        settlement = _settle_money(session, case, decision, cost, actor, now) if requested else None
        version = _amended_version(session, case, {u: dict(c) for u, c in amended.votes_by_unit.items()}, actor, now)

        case.completion = {**to_jsonable(decision), "comparison": to_jsonable(comparison)}
        case.settlement = to_jsonable(settlement) if settlement else None
        case.completed_at, case.completed_by = now, actor
        case.status, case.amended_version_id = CaseStatus.COMPLETED.value, version.id
        for name in decision.certificates:
            certificates.append(Certificate(case_id=case.id, candidate=name, votes=decision.amended_totals[name],
                                            token=secrets.token_urlsafe(32), created_at=now,
                                            expires_at=now + CERTIFICATE_LIFETIME))
            session.add(certificates[-1])
        session.flush()
        audit.append(session, actor=actor, action="case.completed", entity="recount_case", entity_id=case.id,
                     after={"outcome": decision.outcome, "reason": decision.reason, "citation": decision.citation,
                            "amended_totals": dict(decision.amended_totals), "winners": list(decision.winners_after),
                            "outcome_changed": decision.outcome_changed,
                            "reversed_in_favor_of_requester": decision.reversed_in_favor_of_requester,
                            "amended_within_margin": decision.amended_within_margin,
                            "settlement": settlement.reason if settlement else None,
                            "amended_survey_version": version.number, "certificates": list(decision.certificates)},
                     workspace_id=workspace_id, at=now)
        return _result(case, True, certificates, version.number)


def record_results_notice(services: Services, *, workspace_id: int, case_id: int, given_at: dt.datetime,
                          given_by: str, method: str, actor: str) -> bool:
    """(6): the governing body was notified of the results. Recording twice changes nothing."""
    if not given_by.strip():
        raise UserError("Say who gave the notice of the results.", field="given_by")
    if given_at > services.now() + dt.timedelta(minutes=5):
        raise UserError("The notice cannot have been given in the future.", field="given_at")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is None:
            raise UserError("The recount is not complete yet; the results are notified after it is completed.")
        if given_at < case.completed_at - dt.timedelta(minutes=5):
            raise UserError("The results cannot have been notified before the recount was completed.",
                            field="given_at")
        if case.results_notice_at is not None:
            return False
        case.results_notice_at, case.results_notice_by, case.results_notice_method = given_at, given_by.strip(), method
        audit.append(session, actor=actor, action="results.notified", entity="recount_case", entity_id=case.id,
                     after={"given_at": given_at, "given_by": given_by.strip(), "method": method,
                            "citation": "C.R.S. 1-13.5-1306(6)"}, workspace_id=workspace_id, at=services.now())
        return True
