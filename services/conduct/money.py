"""The money of a requested recount, (2)(b)(II)-(IV) and (2)(c): the cost, the notice of it, the payments.

The ledger is rebuilt from its rows with `rules.ledger.Ledger`, which refuses any sequence that would
break it (a refund larger than what is held, say); rows are only ever added.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.calendar import DENVER
from rules.checklist import PreCountChecklist, counting_may_start
from rules.cost import CostDetermination, CostItem, determine_cost
from rules.decision import Decision
from rules.laws.profile import Part
from rules.ledger import EntryKind, Ledger, LedgerEntry
from rules.money import format_money
from services.election_law import law_of
from services.errors import NotFound, UserError
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import CaseKind, CostNotice, LedgerRow, RecountCase, RecountRequestRow

PAYMENT_METHODS = ("check", "cash", "money order", "card", "electronic transfer")
# (2)(b)(III) says only "notify"; the office records how it did.
COST_NOTICE_METHODS = ("email", "letter", "phone", "in person", "other")
# The columns' sizes: PostgreSQL refuses longer text, so it is refused here first, on its field.
NAME_LIMIT = 200
REFERENCE_LIMIT = 100
# The most one amount of money may be. The ledger keeps whole cents in a 64-bit column (about $92 quadrillion;
# beyond it the database refuses the row and the person saw only "something went wrong"), and totals add
# amounts up. No recount of a local government's election costs anywhere near a billion dollars, so an
# amount beyond this is a slip of the keyboard, refused on its field.
MAX_AMOUNT = Decimal("999999999.99")


def within_limit(amount: Decimal, *, label: str, field: str) -> Decimal:
    """`amount` if it is at most MAX_AMOUNT; else UserError on `field`, naming it by `label` (the value itself is
    not echoed: it may be hundreds of digits)."""
    if amount > MAX_AMOUNT:
        raise UserError(f"{label}: at most {format_money(MAX_AMOUNT)}; an amount this large is surely a typo.",
                        field=field)
    return amount


def received_date(services: Services, received_on: dt.date | None, *, what: str = "The payment",
                  field: str = "received_on") -> dt.date:
    """The day money was received (or returned, or a step done), recorded after the fact: today in Colorado when
    not given; never a day after today (refused on `field`)."""
    today = services.today()
    if received_on is None:
        return today
    if received_on > today:
        raise UserError(f"{what} cannot have been received in the future: {received_on:%a %Y-%m-%d} is after today, "
                        f"{today:%a %Y-%m-%d} (America/Denver).", field=field)
    return received_on


def received_on_of(details: dict, recorded_at: dt.datetime) -> dt.date:
    """The day a ledger entry's money was received: as entered, else (entries from before the date was asked
    for) the day it was recorded."""
    entered = (details or {}).get("received_on")
    return dt.date.fromisoformat(entered) if entered else recorded_at.astimezone(DENVER).date()


class CostRefused(UserError):
    """(2)(b)(II) refused: `field` is the first problem's ("item<N>.<field>"); `determination.problems`
    lists every one, each with its item (1-based, in the order given) and field."""

    def __init__(self, determination: CostDetermination) -> None:
        problem = determination.problems[0]
        super().__init__(determination.reason, field=f"item{problem['item']}.{problem['field']}")
        self.determination = determination


def _local(moment: dt.datetime) -> str:
    return moment.astimezone(DENVER).strftime("%a %Y-%m-%d %H:%M %Z")


@dataclass(frozen=True)
class LedgerLine:
    id: int
    kind: str
    amount: Decimal
    memo: str
    details: dict
    recorded_by: str
    recorded_at: dt.datetime


@dataclass(frozen=True)
class CostNoticeView:
    cost: Decimal
    notified_at: dt.datetime
    method: str
    notified_by: str
    details: str | None
    recorded_by: str


@dataclass(frozen=True)
class MoneyView:
    cost_determined: Decimal | None
    cost_items: tuple[str, ...]
    paid: Decimal
    due: Decimal
    held: Decimal
    lines: tuple[LedgerLine, ...]
    cost_notices: tuple[CostNoticeView, ...]
    checklist: Decision

    @property
    def requester_notified_of_current_cost(self) -> bool:
        return bool(self.cost_notices) and self.cost_notices[-1].cost == self.cost_determined


def _rows(session: Session, case_id: int) -> list[LedgerRow]:
    return list(session.scalars(select(LedgerRow).where(LedgerRow.case_id == case_id).order_by(LedgerRow.id)))


def ledger_of(session: Session, case_id: int) -> Ledger:
    return ledger_from(_rows(session, case_id))


def ledger_from(rows: list[LedgerRow]) -> Ledger:
    """The ledger of a case's rows (read in id order), for a caller that read many cases' rows at once."""
    return Ledger(tuple(LedgerEntry(EntryKind(r.kind), r.amount, r.memo) for r in rows))


def _cost_notices(session: Session, case_id: int) -> list[CostNotice]:
    return list(session.scalars(select(CostNotice).where(CostNotice.case_id == case_id).order_by(CostNotice.id)))


def checklist_of(session: Session, case: RecountCase) -> Decision:
    """(2)(b)(I)-(IV) for this case, from what is recorded."""
    ledger = ledger_of(session, case.id)
    notices = case.notices
    notice_given = bool(notices) and all(n.given_at is not None for n in notices)
    latest = _cost_notices(session, case.id)
    notified = bool(latest) and ledger.cost_determined is not None and latest[-1].cost == ledger.cost_determined
    return counting_may_start(PreCountChecklist(
        notice_given=notice_given, cost_determined=ledger.cost_determined,
        requester_notified_of_cost=notified, collected=ledger.paid), law=law_of(case.contest.election))


def money_view(session: Session, case: RecountCase) -> MoneyView:
    rows = _rows(session, case.id)
    ledger = ledger_of(session, case.id)
    cost_rows = [r for r in rows if r.kind == EntryKind.COST_DETERMINED.value]
    return MoneyView(
        cost_determined=ledger.cost_determined,
        cost_items=tuple(cost_rows[-1].details.get("lines", [])) if cost_rows else (),
        paid=ledger.paid, due=ledger.due, held=ledger.held,
        lines=tuple(LedgerLine(r.id, r.kind, r.amount, r.memo, dict(r.details), r.recorded_by, r.recorded_at)
                    for r in rows),
        cost_notices=tuple(CostNoticeView(n.cost, n.notified_at, n.method, n.notified_by, n.details, n.recorded_by)
                           for n in _cost_notices(session, case.id)),
        checklist=checklist_of(session, case),
    )


def _requested_case(session: Session, case_id: int, workspace_id: int, *, lock: bool = True) -> RecountCase:
    case = session.get(RecountCase, case_id, with_for_update=lock)
    if case is None or case.workspace_id != workspace_id:
        raise NotFound("That recount case does not exist in this office.")
    if case.kind != CaseKind.REQUESTED.value:
        payer = law_of(case.contest.election).automatic_payer
        raise UserError(f"An automatic recount is paid for by {payer.who} ({payer.provision.citation}); there is "
                        "no cost to determine or collect from anyone.")
    return case


def record_cost(services: Services, *, workspace_id: int, case_id: int, items: list[CostItem],
                actor: str) -> CostDetermination:
    """(2)(b)(II): determine (or redetermine, before counting) the cost. Refused items change nothing."""
    with services.db.transaction() as session:
        case = _requested_case(session, case_id, workspace_id)
        # The fee floors are the election's law's (refused before anything is written: the transaction rolls back).
        determination = determine_cost(items, law=law_of(case.contest.election))
        if not determination.determined:
            raise CostRefused(determination)
        for index, item in enumerate(determination.items, start=1):
            within_limit(item.amount, label=item.kind.label, field=f"item{index}.amount")
        within_limit(determination.total, label="The total cost", field="total")
        if case.counting_started_at is not None:
            raise UserError("Counting has started; the cost determined before the recount can no longer change. "
                            "Record what the recount actually cost as its expenses.")
        before = ledger_of(session, case.id).cost_determined
        ledger_of(session, case.id).add(LedgerEntry(EntryKind.COST_DETERMINED, determination.total))
        session.add(LedgerRow(case_id=case.id, kind=EntryKind.COST_DETERMINED.value, amount=determination.total,
                              memo=determination.reason,
                              details={"lines": determination.numbers["lines"], "citation": determination.citation,
                                       "items": [_item_record(item) for item in determination.items]},
                              recorded_by=actor, recorded_at=services.now()))
        audit.append(session, actor=actor, action="cost.determined", entity="recount_case", entity_id=case.id,
                     before={"cost": before}, after={"cost": determination.total, "lines": determination.numbers["lines"],
                                                     "citation": determination.citation},
                     workspace_id=workspace_id, at=services.now())
    return determination


def _item_record(item: CostItem) -> dict:
    """A cost item as stored beside its line: enough to rebuild it (and to prefill a redetermination)."""
    return {"kind": item.kind.value, "description": item.description, "rate": str(item.rate),
            "quantity": str(item.quantity), "persons": item.persons,
            "governing_body_members": item.governing_body_members, "amount": str(item.amount)}


def latest_cost_items(services: Services, *, workspace_id: int, case_id: int) -> list[CostItem]:
    """The items of the cost determined last (empty if none, or if it was stored without them)."""
    with services.db.transaction() as session:
        case = _requested_case(session, case_id, workspace_id, lock=False)
        rows = [r for r in _rows(session, case.id) if r.kind == EntryKind.COST_DETERMINED.value]
        if not rows:
            return []
        return [CostItem(kind=i["kind"], description=i["description"], rate=Decimal(i["rate"]),
                         quantity=Decimal(i["quantity"]), persons=i["persons"],
                         governing_body_members=i["governing_body_members"])
                for i in rows[-1].details.get("items", [])]


def record_cost_notice(services: Services, *, workspace_id: int, case_id: int, notified_at: dt.datetime,
                       method: str, notified_by: str, details: str | None, actor: str) -> CostNoticeView:
    """(2)(b)(III): the requester was told the cost — of the cost as it stands now."""
    if method not in COST_NOTICE_METHODS:
        raise UserError(f"“{echoed(method)}” is not a way of notifying this office records.", field="method")
    if not notified_by.strip():
        raise UserError("Say who notified the requester.", field="notified_by")
    if len(notified_by.strip()) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="notified_by")
    if notified_at.tzinfo is None:
        raise ValueError("notified_at must be timezone-aware")
    if notified_at > services.now() + dt.timedelta(minutes=5):
        raise UserError("The requester cannot have been notified in the future.", field="notified_at")
    with services.db.transaction() as session:
        case = _requested_case(session, case_id, workspace_id)
        cost = ledger_of(session, case.id).cost_determined
        if cost is None:
            raise UserError(f"Determine the cost first ({law_of(case.contest.election).cost.provision.citation}); then "
                            "notify the requester of it.")
        latest = _cost_notices(session, case.id)
        if latest and latest[-1].cost == cost:
            raise UserError(f"The requester was already notified of {format_money(cost)}: "
                            f"{_local(latest[-1].notified_at)} by {latest[-1].notified_by} "
                            f"({latest[-1].method}).",
                            field="notified_at")
        request = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        if request is not None and notified_at.astimezone(DENVER).date() < request.received_on:
            raise UserError(f"The requester cannot have been notified of the cost before the request was received "
                            f"({request.received_on:%a %Y-%m-%d}).", field="notified_at")
        notice = CostNotice(case_id=case.id, cost=cost, notified_at=notified_at, method=method,
                            notified_by=notified_by.strip(), details=(details or "").strip() or None,
                            recorded_by=actor, recorded_at=services.now())
        session.add(notice)
        session.flush()
        audit.append(session, actor=actor, action="cost.notified", entity="recount_case", entity_id=case.id,
                     after={"cost": cost, "notified_at": notified_at, "method": method, "by": notice.notified_by,
                            "citation": law_of(case.contest.election).cite(Part.COST_NOTICE)},
                     workspace_id=workspace_id, at=services.now())
        return CostNoticeView(cost, notified_at, method, notice.notified_by, notice.details, actor)


def record_payment(services: Services, *, workspace_id: int, case_id: int, amount: Decimal, method: str,
                   reference: str, received_by: str, actor: str, received_on: dt.date | None = None) -> MoneyView:
    """(2)(b)(IV), (2)(c): a payment from the requester, held for the expenses of the recount. `received_on`: the
    day it was received (default today in Colorado; never in the future, nor before the request was received)."""
    if method not in PAYMENT_METHODS:
        raise UserError(f"“{echoed(method)}” is not a payment method this office records.", field="method")
    if not reference.strip():
        raise UserError("Give the receipt, check or transaction number.", field="reference")
    if len(reference.strip()) > REFERENCE_LIMIT:
        raise UserError(f"At most {REFERENCE_LIMIT} characters here.", field="reference")
    if not received_by.strip():
        raise UserError("Say who received the payment.", field="received_by")
    if len(received_by.strip()) > NAME_LIMIT:
        raise UserError(f"At most {NAME_LIMIT} characters here.", field="received_by")
    within_limit(amount, label="Amount", field="amount")
    received_on = received_date(services, received_on)
    with services.db.transaction() as session:
        case = _requested_case(session, case_id, workspace_id)
        request = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        if request is not None and received_on < request.received_on:
            raise UserError(f"The payment cannot have been received on {received_on:%a %Y-%m-%d}, before the request "
                            f"was ({request.received_on:%a %Y-%m-%d}).", field="received_on")
        rows = _rows(session, case.id)
        if any(r.kind == EntryKind.PAYMENT.value and r.details.get("reference") == reference.strip() for r in rows):
            raise UserError(f"A payment with reference {reference.strip()} is already recorded for this "
                            "recount.",
                            field="reference")
        try:
            entry = LedgerEntry(EntryKind.PAYMENT, amount, f"{method} {reference.strip()}")
            ledger_of(session, case.id).add(entry)
        except (TypeError, ValueError) as exc:
            raise UserError(str(exc), field="amount") from None
        session.add(LedgerRow(case_id=case.id, kind=EntryKind.PAYMENT.value, amount=entry.amount, memo=entry.memo,
                              details={"method": method, "reference": reference.strip(),
                                       "received_by": received_by.strip(), "received_on": received_on.isoformat(),
                                       "citation": entry.citation},
                              recorded_by=actor, recorded_at=services.now()))
        session.flush()
        view = money_view(session, case)
        audit.append(session, actor=actor, action="payment.recorded", entity="recount_case", entity_id=case.id,
                     after={"amount": entry.amount, "method": method, "reference": reference.strip(),
                            "received_by": received_by.strip(), "received_on": received_on, "paid": view.paid, "due": view.due,
                            "held": view.held}, workspace_id=workspace_id, at=services.now())
        return view
