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

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from rules.assistants import assistance_before_completion
from rules.calendar import DENVER
from rules.completion import CompletionDecision, complete_recount
from rules.conflicts import CaseStep
from rules.governing_body import governing_body_name

# What the card and the report show lives in services/completion/view.py; named here too, where callers have
# always found it.
from rules.laws.cites import Cites
from rules.ledger import EntryKind, LedgerEntry
from rules.margin import MultiSeatRule
from rules.money import ZERO, format_money, money
from rules.notices_owed import CITATION as NOTICES_CITATION
from rules.notices_owed import REASON_LIMIT as NOTICES_REASON_LIMIT
from rules.notices_owed import OwedNotice, notices_before_completion
from rules.serialize import to_jsonable
from rules.settlement import Settlement, SettlementOutcome, settle
from rules.tally import TallyIncomplete, amended_contest, compare_with_original
from services.completion.view import (  # noqa: F401
    SETTLEMENT_STEP,
    CertificateLine,
    CompletionView,
    LotView,
    Readiness,
    completion_view_of,
)
from services.conduct.money import (
    NAME_LIMIT,
    PAYMENT_METHODS,
    REFERENCE_LIMIT,
    ledger_of,
    received_date,
    within_limit,
)
from services.conduct.owed import note_duties
from services.conduct.tally import case_for_update, original_contest, tally_state
from services.documents.certificate import check_names
from services.election_law import law_of
from services.errors import UserError
from services.office.conflicts import authorize_step
from services.office.office_settings import OfficeSettings
from services.returns.versions import flat_counts, write_version
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import (
    AssistantRow,
    CaseKind,
    CaseStatus,
    Certificate,
    Choice,
    LedgerRow,
    LotDrawing,
    RecountCase,
    RecountRequestRow,
    SurveyVersion,
    Workspace,
)
from storage.repositories import latest_version

CERTIFICATE_LIFETIME = dt.timedelta(days=30)
# A winner's name the certificate cannot print stops the completion (services/documents/glyphs.py), before it records.
NOT_COMPLETED = ("Nothing was recorded: the recount is not completed. Correct the name where it was entered, or "
                 "have a font for it added to recount-bot, then complete the recount again.")
# (6) says only "notify the governing body"; the office records how: the ways of services.conduct.cases.NoticeMethod
# (not imported: services.conduct.cases shows a case's completion, so it imports this module).
RESULTS_NOTICE_METHODS = ("email", "phone", "letter", "in person", "hand delivery", "other")
BALANCE_STEP = "balance"


def _cites(case: RecountCase) -> Cites:
    """The provisions of the case's election's law that its texts and audit rows cite (issue 22)."""
    return Cites.of(law_of(case.contest.election))
AMENDED_REASON = "amended by the recount of {contest} (case #{case}), {citation}"


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
                        amended_within_margin=decision.amended_within_margin, result_changed=decision.outcome_changed,
                        law=law_of(case.contest.election))
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
    return write_version(session, election, counts, reason=AMENDED_REASON.format(contest=case.contest.name, case=case.id,
                                                                          citation=_cites(case).results),
                         evidence=[f"recount case #{case.id} tally sheets"], source_format="recount",
                         source_name=f"recount case #{case.id}", source_sha256=None, actor=actor, now=now)


def _result(case: RecountCase, newly: bool, certificates: list[Certificate], version_number: int | None,
            tokens: dict[int, str] | None = None) -> CompletionResult:
    tokens = tokens or {}
    return CompletionResult(case.id, newly, dict(case.completion or {}), dict((case.completion or {}).get(
        "comparison", {})), dict(case.settlement) if case.settlement else None, version_number,
        tuple((c.candidate, c.votes, tokens.get(c.id)) for c in certificates), tokens)


def owed_notices(case: RecountCase) -> tuple[OwedNotice, ...]:
    """The notices of the recount (1), (2)(b)(I) not recorded as given."""
    return tuple(OwedNotice(n.recipient_kind, n.recipient_name, n.citation) for n in case.notices if n.given_at is None)


def notices_refusal(decision) -> str:
    """What the official reads when completing is refused for notices owed: each one, and the two ways on."""
    owed = [OwedNotice(**n) for n in decision.numbers["owed"]]
    shown = "; ".join(n.label for n in owed[:10]) + (f"; and {len(owed) - 10} more" if len(owed) > 10 else "")
    return (f"Not completed: {len(owed)} notice{'' if len(owed) == 1 else 's'} of the recount "
            f"{'is' if len(owed) == 1 else 'are'} still owed ({NOTICES_CITATION}): {shown}. Record each on the card "
            "as it is given, or complete with your reason for completing before they are (it is recorded and "
            "shown).")


def complete_case(services: Services, *, workspace_id: int, case_id: int, actor: str,
                  actual_cost: Decimal | str | None = None, notices_reason: str | None = None) -> CompletionResult:
    """Complete the recount once every expected unit is tallied. A requested recount needs its actual cost. While a
    notice under (1) is owed it is refused, unless `notices_reason` says why the official completes anyway
    (rules.notices_owed: the reading OWED_WITH_REASON, recorded with the completion)."""
    now = services.now()
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        authorize_step(session, case, actor, CaseStep.COMPLETE)  # never a candidate in the contest or its requester
        certificates = list(session.scalars(select(Certificate).where(Certificate.case_id == case.id)
                                            .order_by(Certificate.id)))
        if case.completed_at is not None:
            amended_row = session.get(SurveyVersion, case.amended_version_id)
            return _result(case, False, certificates, amended_row.number if amended_row else None)
        if case.counting_started_at is None:
            raise UserError("Counting has not started for this recount.")
        state = tally_state(session, case)
        if state is None:
            raise UserError(f"Set up the count and enter the tally sheets first ({_cites(case).tally}).")
        original = original_contest(session, case)
        try:
            amended = amended_contest(original, state)
        except TallyIncomplete as exc:
            raise UserError(f"Not every unit is tallied yet: {exc}") from None
        assisted = assistance_before_completion(session.scalar(
            select(func.count()).select_from(AssistantRow).where(AssistantRow.case_id == case.id)) or 0)
        if assisted.outcome == "refused":  # (3): no reason overrides it, unlike a notice owed
            raise UserError(assisted.reason)
        if len(" ".join((notices_reason or "").split())) > NOTICES_REASON_LIMIT:
            raise UserError(f"At most {NOTICES_REASON_LIMIT:,} characters here.", field="notices_reason")
        notices = notices_before_completion(owed_notices(case), reason=notices_reason)
        if notices.outcome == "refused":
            raise UserError(notices_refusal(notices), field="notices_reason")
        requested = case.kind == CaseKind.REQUESTED.value
        cost = None
        if requested:
            if actual_cost is None:
                raise UserError("Give the actual cost of the recount: the settlement depends on it "
                                f"({_cites(case).settlement}).", field="actual_cost")
            try:
                cost = money(actual_cost, field="actual cost")
            except (TypeError, ValueError) as exc:
                raise UserError(str(exc), field="actual_cost") from None
            within_limit(cost, label="Actual cost", field="actual_cost")  # the ledger's column has a bound
        request = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        government = case.contest.election.local_government
        decision = complete_recount(original, amended, requested_in_favor_of=(request.in_favor_of or None) if request else None,
                                    governing_body=governing_body_name(government.governing_body, government.name),
                                    multi_seat_rule=MultiSeatRule(case.multi_seat_rule),
                                    law=law_of(case.contest.election))
        signer = OfficeSettings.of(session.get_one(Workspace, case.workspace_id).settings)  # the signature line (6)
        for name in decision.certificates:  # before anything is written: no certificate without the whole name
            check_names(candidate=name, office=case.contest.name, election=case.contest.election.name,
                        local_government=government.name, official_title=signer.official_title,
                        official_name=signer.official_name, consequence=NOT_COMPLETED)
        comparison = compare_with_original(original, amended, law=law_of(case.contest.election))
        settlement = _settle_money(session, case, decision, cost, actor, now) if cost is not None else None
        # No vote changed: the survey of returns stands; a new version would only repeat the last. Counted by other
        # units than the survey's (machines against precincts), every unit "differs" while no vote changed: the
        # totals say whether one did, and the survey keeps its own units (its precinct breakdown) when none did.
        vote_changed = bool(comparison.changes) if comparison.same_units else any(comparison.total_changes.values())
        version = _amended_version(session, case, {u: dict(c) for u, c in amended.votes_by_unit.items()}, actor,
                                   now) if vote_changed else None

        case.completion = {**to_jsonable(decision), "comparison": to_jsonable(comparison),
                           "notices_before_completion": notices.as_dict()}
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
        note_duties(session, case)  # the notice of the results is owed now, at least
        tokens = {c.id: token for c, token in zip(certificates[len(certificates) - len(new_tokens):], new_tokens,
                                                     strict=True)}
        audit.append(session, actor=actor, action="case.completed", entity="recount_case", entity_id=case.id,
                     after={"outcome": decision.outcome, "reason": decision.reason, "citation": decision.citation,
                            "amended_totals": dict(decision.amended_totals), "winners": list(decision.winners_after),
                            "outcome_changed": decision.outcome_changed,
                            "reversed_in_favor_of_requester": decision.reversed_in_favor_of_requester,
                            "amended_within_margin": decision.amended_within_margin,
                            "settlement": settlement.reason if settlement else None,
                            "amended_survey_version": version.number if version else None, "certificates": list(decision.certificates),
                            "notices": {"outcome": notices.outcome, "reason": notices.reason,
                                        "reading": notices.reading, "citation": notices.citation}},
                     workspace_id=workspace_id, at=now)
        return _result(case, True, certificates, version.number if version else None, tokens)


def record_results_notice(services: Services, *, workspace_id: int, case_id: int, given_at: dt.datetime,
                          given_by: str, method: str, actor: str) -> bool:
    """(6): the governing body was notified of the results. Recording twice changes nothing. When the first notice
    went before a lot decided a tie (1-13.5-1304), the next one recorded is the amended notice."""
    if not given_by.strip():
        raise UserError("Say who gave the notice of the results.", field="given_by")
    if len(given_by.strip()) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="given_by")
    if method not in RESULTS_NOTICE_METHODS:
        raise UserError(f"“{echoed(method)}” is not a way of giving notice this office records.", field="method")
    if given_at.tzinfo is None:
        raise ValueError("given_at must be timezone-aware")
    if given_at > services.now() + dt.timedelta(minutes=5):
        raise UserError("The notice cannot have been given in the future.", field="given_at")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is None:
            raise UserError("The recount is not complete yet; the results are notified after it is completed.")
        if case.results_notice_at is not None:
            amended = _record_amended_notice(session, case, notified_at=case.results_notice_at, given_at=given_at,
                                             given_by=given_by.strip(), method=method, actor=actor,
                                             workspace_id=workspace_id, now=services.now())
            note_duties(session, case)
            return amended
        if given_at < case.completed_at - dt.timedelta(minutes=5):
            raise UserError("The results cannot have been notified before the recount was completed.",
                            field="given_at")
        case.results_notice_at, case.results_notice_by, case.results_notice_method = given_at, given_by.strip(), method
        note_duties(session, case)
        audit.append(session, actor=actor, action="results.notified", entity="recount_case", entity_id=case.id,
                     after={"given_at": given_at, "given_by": given_by.strip(), "method": method,
                            "citation": _cites(case).results}, workspace_id=workspace_id, at=services.now())
        return True


def _record_amended_notice(session: Session, case: RecountCase, *, notified_at: dt.datetime, given_at: dt.datetime,
                           given_by: str, method: str, actor: str, workspace_id: int, now: dt.datetime) -> bool:
    lot = session.scalar(select(LotDrawing).where(LotDrawing.case_id == case.id).with_for_update())
    if lot is None or lot.amended_notice_at is not None or notified_at >= lot.drawn_at:
        return False
    if given_at < lot.drawn_at - dt.timedelta(minutes=5):
        raise UserError("The amended notice gives the result of the lot: it cannot have been given before the lot "
                        "was drawn.", field="given_at")
    lot.amended_notice_at, lot.amended_notice_by, lot.amended_notice_method = given_at, given_by, method
    audit.append(session, actor=actor, action="results.amended_notified", entity="recount_case", entity_id=case.id,
                 after={"given_at": given_at, "given_by": given_by, "method": method, "winners_of_lot": lot.winners,
                        "citation": _cites(case).results, "lot_citation": _cites(case).tie},
                 workspace_id=workspace_id, at=now)
    return True


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
        raise UserError(f"“{echoed(method)}” is not a payment method this office records.", field="method")
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
                            f"({_cites(case).payment}).")
        view = completion_view_of(session, case)
        if view.balance_due == ZERO:
            raise UserError(f"No balance is due for this recount: {case.settlement.get('reason', '')}")
        outstanding = view.balance_outstanding
        if outstanding == ZERO:
            raise UserError(f"The balance of {format_money(view.balance_due)} was already collected in full; "
                            "nothing changed.")
        if amount > outstanding:
            raise UserError(f"Only {format_money(outstanding)} is still due ({_cites(case).payment}).",
                            field="amount")
        rows = session.scalars(select(LedgerRow).where(LedgerRow.case_id == case.id))
        if any(r.kind in (EntryKind.PAYMENT.value, EntryKind.BALANCE_COLLECTED.value)
               and (r.details or {}).get("reference") == reference for r in rows):
            raise UserError(f"A payment with reference {reference} is already recorded for this recount.",
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
        note_duties(session, case)
        audit.append(session, actor=actor, action="balance.collected", entity="recount_case", entity_id=case.id,
                     after={"amount": amount, "method": method, "reference": reference, "received_by": received_by,
                            "received_on": received_on, "expense": expense_amount, "still_due": after, "citation": _cites(case).payment},
                     workspace_id=workspace_id, at=now)
        return BalanceCollected(amount, after, expense_amount)
