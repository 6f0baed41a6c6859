"""Completing a recount (6) and settling its money ((2)(c), (2)(d), (2)(f)), in one transaction.

When every expected unit counts, the statute core computes the amended totals, who received the
highest number of votes, whether the outcome changed and whether it was reversed in favor of the
requester, and whether the amended margin falls within (1). This module then:

- writes the amended count as a new survey-of-returns version ("amended by the recount"), so the
  record and any later check see it, while every earlier version stays;
- for a requested recount, writes the settlement to the ledger: the actual cost as an expense (up to
  what is held), then a refund under (2)(d) — the governing body first making good what was spent, so
  the payment is refunded in full, and paying any part of the actual cost the deposit did not cover — or
  the return of the unused deposit under (2)(f); a balance due under (2)(c) is shown and collected later
  (`record_balance_collected`: the payment in, then the rest of the actual cost as an expense);
- creates the certificates of election (6) with unguessable, expiring links.

Completing twice changes nothing: the second call returns the first result.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.documents.certificate import check_names
from bot.office_settings import OfficeSettings
from bot.services.case_money import (
    NAME_LIMIT, PAYMENT_METHODS, REFERENCE_LIMIT, ledger_of, received_date, within_limit,
)
from bot.services.context import Services
from bot.services.errors import NotFound, UserError
from bot.services.survey import flat_counts, write_version
from bot.services.tally import case_for_update, original_contest, tally_state
from bot.slack_text import echo, esc
from rules.calendar import DENVER
from rules.completion import CompletionDecision, complete_recount
from rules.ledger import EntryKind, LedgerEntry
from rules.margin import MultiSeatRule
from rules.money import ZERO, format_money, money
from rules.serialize import to_jsonable
from rules.settlement import Settlement, SettlementOutcome, settle
from rules.tally import TallyIncomplete, amended_contest, compare_with_original
from storage import audit
from storage.models import (
    CaseKind, CaseStatus, Certificate, Choice, LedgerRow, RecountCase, RecountRequestRow, SurveyVersion, Workspace,
)
from storage.repositories import latest_version

CERTIFICATE_LIFETIME = dt.timedelta(days=30)
# A winner's name the certificate cannot print stops the completion (bot/documents/glyphs.py), before it records.
NOT_COMPLETED = ("Nothing was recorded: the recount is not completed. Correct the name where it was entered, or "
                 "have a font for it added to recount-bot, then complete the recount again.")
# (6) says only "notify the governing body"; the office records how: the ways of bot.services.cases.NoticeMethod
# (not imported: bot.services.cases shows a case's completion, so it imports this module).
RESULTS_NOTICE_METHODS = ("email", "phone", "letter", "in person", "hand delivery", "other")
SETTLEMENT_STEP = "settlement"
BALANCE_STEP = "balance"
AMENDED_REASON = "amended by the recount of {contest} (case #{case}), C.R.S. 1-13.5-1306(6)"


@dataclass(frozen=True)
class CompletionResult:
    case_id: int
    newly_completed: bool
    completion: dict  # rules.completion.CompletionDecision, JSON-ready
    comparison: dict  # rules.tally.TallyComparison, JSON-ready
    settlement: dict | None  # rules.settlement.Settlement, JSON-ready (requested recounts)
    amended_version: int | None  # None: no vote changed, so no new survey version was written
    certificates: tuple[tuple[str, int, str | None], ...]  # (candidate, votes, link token: None if not just made)
    # Certificate id -> its link's token, for the certificates this call made (only their hashes are stored, so
    # the post announcing them is the one place the links can be shown).
    tokens: dict[int, str] = field(default_factory=dict)


def _ledger_row(session: Session, case_id: int, kind: EntryKind, amount: Decimal, memo: str, citation: str,
                actor: str, now: dt.datetime, *, step: str = SETTLEMENT_STEP, extra: dict | None = None) -> None:
    # `step` names the use case that wrote the row ("settlement" at completion, "balance" when the balance
    # due is collected), so the report can show exactly what completing wrote to the ledger.
    session.add(LedgerRow(case_id=case_id, kind=kind.value, amount=amount, memo=memo,
                          details={"citation": citation, "step": step, **(extra or {})}, recorded_by=actor,
                          recorded_at=now))


def _settle_money(session: Session, case: RecountCase, decision: CompletionDecision, actual_cost: Decimal,
                  actor: str, now: dt.datetime) -> Settlement:
    ledger = ledger_of(session, case.id)
    spent_before = ledger.expenses
    settlement = settle(paid=ledger.paid, actual_cost=actual_cost,
                        reversed_in_favor_of_requester=decision.reversed_in_favor_of_requester,  # None: no choice named
                        amended_within_margin=decision.amended_within_margin, result_changed=decision.outcome_changed)
    # The actual cost is paid from the funds held (2)(c), as far as they go; the rest is the balance due.
    to_spend = max(actual_cost - spent_before, ZERO)
    from_held = min(to_spend, ledger.held)
    entries: list[LedgerEntry] = []
    if from_held > ZERO:
        entries.append(LedgerEntry(EntryKind.EXPENSE, from_held, "actual cost of the recount, paid from the deposit"))
    if settlement.outcome == SettlementOutcome.REFUND.value:
        # (2)(d): the governing body bears the whole actual cost, as under (1): what the deposit paid (made good
        # so the payment is refunded in full) and any part of the cost the deposit did not cover.
        held_after = ledger.held - from_held
        uncovered = to_spend - from_held
        make_good = max(settlement.refund - held_after, ZERO)
        if make_good + uncovered > ZERO:
            entries.append(LedgerEntry(EntryKind.GOVERNING_BODY_PAYMENT, make_good + uncovered,
                                       "the governing body bears the cost (2)(d), so the payment is refunded in full"))
        if uncovered > ZERO:
            entries.append(LedgerEntry(EntryKind.EXPENSE, uncovered,
                                       "rest of the actual cost of the recount, borne by the governing body (2)(d)"))
        if settlement.refund > ZERO:
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


def _result(case: RecountCase, newly: bool, certificates: list[Certificate], version_number: int | None,
            tokens: dict[int, str] | None = None) -> CompletionResult:
    tokens = tokens or {}
    return CompletionResult(case.id, newly, dict(case.completion or {}), dict((case.completion or {}).get(
        "comparison", {})), dict(case.settlement) if case.settlement else None, version_number,
        tuple((c.candidate, c.votes, tokens.get(c.id)) for c in certificates), tokens)


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
            return _result(case, False, certificates, amended.number if amended else None)
        if case.counting_started_at is None:
            raise UserError("Counting has not started for this recount.")
        state = tally_state(session, case)
        if state is None:
            raise UserError("Set up the count and enter the tally sheets first (C.R.S. 1-13.5-1306(5)).")
        original = original_contest(session, case)
        try:
            amended = amended_contest(original, state)
        except TallyIncomplete as exc:
            raise UserError(f"Not every unit is tallied yet: {esc(str(exc))}") from None
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
            within_limit(cost, label="Actual cost", field="actual_cost")  # the ledger's column has a bound
        request = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        government = case.contest.election.local_government
        decision = complete_recount(original, amended, requested_in_favor_of=(request.in_favor_of or None) if request else None,
                                    governing_body=f"{government.governing_body} of {government.name}",
                                    multi_seat_rule=MultiSeatRule(case.multi_seat_rule))
        signer = OfficeSettings.of(session.get(Workspace, case.workspace_id).settings)  # the signature line (6)
        for name in decision.certificates:  # before anything is written: no certificate without the whole name
            check_names(candidate=name, office=case.contest.name, election=case.contest.election.name,
                        local_government=government.name, official_title=signer.official_title,
                        official_name=signer.official_name, consequence=NOT_COMPLETED)
        comparison = compare_with_original(original, amended)
        settlement = _settle_money(session, case, decision, cost, actor, now) if requested else None
        # No vote changed in any unit: the survey of returns stands; a new version would only repeat the last.
        version = _amended_version(session, case, {u: dict(c) for u, c in amended.votes_by_unit.items()}, actor,
                                   now) if comparison.changes else None

        case.completion = {**to_jsonable(decision), "comparison": to_jsonable(comparison)}
        case.settlement = to_jsonable(settlement) if settlement else None
        case.completed_at, case.completed_by = now, actor
        case.status, case.amended_version_id = CaseStatus.COMPLETED.value, version.id if version else None
        new_tokens = []
        for name in decision.certificates:
            certificates.append(Certificate(case_id=case.id, candidate=name, votes=decision.amended_totals[name],
                                            created_at=now, expires_at=now + CERTIFICATE_LIFETIME,
                                            signer_name=signer.official_name, signer_title=signer.official_title))
            new_tokens.append(certificates[-1].issue_link())
            session.add(certificates[-1])
        session.flush()
        tokens = {c.id: token for c, token in zip(certificates[len(certificates) - len(new_tokens):], new_tokens)}
        audit.append(session, actor=actor, action="case.completed", entity="recount_case", entity_id=case.id,
                     after={"outcome": decision.outcome, "reason": decision.reason, "citation": decision.citation,
                            "amended_totals": dict(decision.amended_totals), "winners": list(decision.winners_after),
                            "outcome_changed": decision.outcome_changed,
                            "reversed_in_favor_of_requester": decision.reversed_in_favor_of_requester,
                            "amended_within_margin": decision.amended_within_margin,
                            "settlement": settlement.reason if settlement else None,
                            "amended_survey_version": version.number if version else None,
                            "certificates": list(decision.certificates)},
                     workspace_id=workspace_id, at=now)
        return _result(case, True, certificates, version.number if version else None, tokens)


def record_results_notice(services: Services, *, workspace_id: int, case_id: int, given_at: dt.datetime,
                          given_by: str, method: str, actor: str) -> bool:
    """(6): the governing body was notified of the results. Recording twice changes nothing."""
    if not given_by.strip():
        raise UserError("Say who gave the notice of the results.", field="given_by")
    if len(given_by.strip()) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="given_by")
    if method not in RESULTS_NOTICE_METHODS:
        raise UserError(f"“{echo(method)}” is not a way of giving notice this office records.", field="method")
    if given_at.tzinfo is None:
        raise ValueError("given_at must be timezone-aware")
    if given_at > services.now() + dt.timedelta(minutes=5):
        raise UserError("The notice cannot have been given in the future.", field="given_at")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is None:
            raise UserError("The recount is not complete yet; the results are notified after it is completed.")
        if case.results_notice_at is not None:
            return False
        if given_at < case.completed_at - dt.timedelta(minutes=5):
            raise UserError("The results cannot have been notified before the recount was completed.",
                            field="given_at")
        case.results_notice_at, case.results_notice_by, case.results_notice_method = given_at, given_by.strip(), method
        audit.append(session, actor=actor, action="results.notified", entity="recount_case", entity_id=case.id,
                     after={"given_at": given_at, "given_by": given_by.strip(), "method": method,
                            "citation": "C.R.S. 1-13.5-1306(6)"}, workspace_id=workspace_id, at=services.now())
        return True


# ---------------------------------------------------------------------------- what the card and report show
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
        results_notice_method=case.results_notice_method, settlement_entries=entries, balance_collected=collected)


def completion_view(services: Services, case_id: int, *, workspace_id: int) -> CompletionView:
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound("That recount case does not exist in this office.")
        return completion_view_of(session, case)


# ---------------------------------------------------------------------------- (2)(c): a balance due, collected
@dataclass(frozen=True)
class BalanceCollected:
    amount: Decimal
    outstanding: Decimal  # what is still due after this collection
    expense: Decimal  # the part of the actual cost this collection paid


def record_balance_collected(services: Services, *, workspace_id: int, case_id: int, amount: Decimal | str,
                             method: str, reference: str, received_by: str, actor: str,
                             received_on: dt.date | None = None) -> BalanceCollected:
    """(2)(c): the requester paid (part of) the balance due on demand after the recount. The ledger gets the
    money in (BALANCE_COLLECTED) and, paid from it, the rest of the actual cost (EXPENSE); rules.ledger checks
    both. A payment larger than what is still due is refused: nothing is collected beyond the actual cost."""
    if method not in PAYMENT_METHODS:
        raise UserError(f"“{echo(method)}” is not a payment method this office records.", field="method")
    reference, received_by = reference.strip(), received_by.strip()
    if not reference:
        raise UserError("Give the receipt, check or transaction number.", field="reference")
    if len(reference) > REFERENCE_LIMIT:
        raise UserError(f"At most {REFERENCE_LIMIT} characters here.", field="reference")
    if not received_by:
        raise UserError("Say who received the payment.", field="received_by")
    if len(received_by) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="received_by")
    try:
        amount = money(amount, field="Amount")
    except (TypeError, ValueError) as exc:
        raise UserError(str(exc), field="amount") from None
    if amount == ZERO:
        raise UserError("Amount: a payment of $0.00 moves no money.", field="amount")
    received_on = received_date(services, received_on)  # default today; never in the future
    now = services.now()
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is None or not case.settlement:
            raise UserError("A balance is collected after the recount is completed and settled "
                            "(C.R.S. 1-13.5-1306(2)(c)).")
        view = completion_view_of(session, case)
        if view.balance_due == ZERO:
            raise UserError(f"No balance is due for this recount: {esc(case.settlement.get('reason', ''))}")
        outstanding = view.balance_outstanding
        if outstanding == ZERO:
            raise UserError(f"The balance of {format_money(view.balance_due)} was already collected in full; "
                            "nothing changed.")
        if amount > outstanding:
            raise UserError(f"Only {format_money(outstanding)} is still due (C.R.S. 1-13.5-1306(2)(c)).",
                            field="amount")
        rows = session.scalars(select(LedgerRow).where(LedgerRow.case_id == case.id))
        if any(r.kind in (EntryKind.PAYMENT.value, EntryKind.BALANCE_COLLECTED.value)
               and (r.details or {}).get("reference") == reference for r in rows):
            raise UserError(f"A payment with reference {esc(reference)} is already recorded for this recount.",
                            field="reference")
        ledger = ledger_of(session, case.id)
        actual_cost = money(case.settlement["actual_cost"], field="actual cost")
        collected = LedgerEntry(EntryKind.BALANCE_COLLECTED, amount, f"{method} {reference}")
        ledger = ledger.add(collected)
        expense_amount = min(max(actual_cost - ledger.expenses, ZERO), amount)
        expense = None
        if expense_amount > ZERO:
            expense = LedgerEntry(EntryKind.EXPENSE, expense_amount,
                                  "rest of the actual cost of the recount, paid from the balance collected")
            ledger = ledger.add(expense)  # the rules refuse what would break the ledger
        if received_on < case.completed_at.astimezone(DENVER).date():
            raise UserError(f"A balance is demanded after the recount: it cannot have been received on "
                            f"{received_on:%a %Y-%m-%d}, before the recount was completed.", field="received_on")
        details = {"method": method, "reference": reference, "received_by": received_by,
                   "received_on": received_on.isoformat()}
        _ledger_row(session, case.id, collected.kind, collected.amount, collected.memo, collected.citation, actor, now,
                    step=BALANCE_STEP, extra=details)
        if expense is not None:
            _ledger_row(session, case.id, expense.kind, expense.amount, expense.memo, expense.citation, actor, now,
                        step=BALANCE_STEP)
        after = outstanding - amount
        audit.append(session, actor=actor, action="balance.collected", entity="recount_case", entity_id=case.id,
                     after={"amount": amount, "method": method, "reference": reference, "received_by": received_by,
                            "received_on": received_on, "expense": expense_amount, "still_due": after, "citation": "C.R.S. 1-13.5-1306(2)(c)"},
                     workspace_id=workspace_id, at=now)
        return BalanceCollected(amount, after, expense_amount)
