"""The money paid for a requested recount, held and spent: 1-13.5-1306(2)(c) by default ("held and used"); under
31-10-1207(2) and 1-10.5-106(2) it is "placed in escrow". Each entry's citation follows the election's law
(`entry_citation`); the arithmetic is the same under every law.

"(c) The interested party that requested the recount shall pay on demand the cost of the recount to
the designated election official. The funds paid to the designated election official for the recount
must be held and used for payment of all expenses incurred in the recount."

A `Ledger` is an immutable list of entries; every figure is derived from them, and every entry is
checked as it is added (and again when a ledger is rebuilt from stored entries), so a ledger that
exists is a ledger that balances:

    held = paid + governing_body_paid - expenses - refunded - returned - to_officials   (never negative)
    due  = max(cost_determined - paid, 0)

Readings the brief and the statute leave open:
- Expenses are paid from the held funds (2)(c), so an expense larger than what is held is refused:
  collect the balance from the requester first (BALANCE_COLLECTED, (2)(c) "pay on demand").
- A refund under (2)(d) returns "the payment for expenses" in full even when part of it was spent; the
  part already spent is made good by the governing body, which bears the cost as under (1). That
  money comes in as GOVERNING_BODY_PAYMENT, so the refund can be paid out of the held funds.
- Refunds and returns together can never exceed what the requester paid.
- A new COST_DETERMINED entry replaces the earlier one (a redetermination); it moves no money.
- Money-moving entries must be more than $0.00; a cost may be determined at $0.00.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from rules.laws import DEFAULT_LAW, LawProfile
from rules.money import ZERO, format_money, money
from rules.statute import cite

LEDGER_CITATION = cite("(2)(c)")


class EntryKind(str, enum.Enum):
    COST_DETERMINED = "cost_determined"  # (2)(b)(II): the cost; the latest replaces earlier ones
    PAYMENT = "payment"  # (2)(b)(IV)/(2)(c): paid by the requester before the recount
    BALANCE_COLLECTED = "balance_collected"  # (2)(c): paid by the requester on demand after settlement
    EXPENSE = "expense"  # (2)(c): an expense of the recount, paid from the held funds
    REFUND = "refund"  # (2)(d): the payment refunded to the requester
    DEPOSIT_RETURN = "deposit_return"  # (2)(f): the unused portion of the deposit returned
    GOVERNING_BODY_PAYMENT = "governing_body_payment"  # (2)(d) with (1): the governing body bears the cost
    PAID_TO_OFFICIALS = "paid_to_officials"  # 1-10.5-106(2), 2022 text: escrow not refunded, to the officials


PAID_KINDS = frozenset({EntryKind.PAYMENT, EntryKind.BALANCE_COLLECTED})
_KIND_CITATION = {
    EntryKind.COST_DETERMINED: cite("(2)(b)(II)"),
    EntryKind.PAYMENT: cite("(2)(c)"),
    EntryKind.BALANCE_COLLECTED: cite("(2)(c)"),
    EntryKind.EXPENSE: cite("(2)(c)"),
    EntryKind.REFUND: cite("(2)(d)"),
    EntryKind.DEPOSIT_RETURN: cite("(2)(f)"),
    EntryKind.GOVERNING_BODY_PAYMENT: cite("(2)(d)"),
    EntryKind.PAID_TO_OFFICIALS: cite("(2)(f)"),
}


def entry_citation(kind: EntryKind, law: LawProfile = DEFAULT_LAW) -> str:
    """The provision an entry of `kind` is made under, in `law`."""
    if law is DEFAULT_LAW:
        return _KIND_CITATION[kind]
    return {
        EntryKind.COST_DETERMINED: law.cost.provision.citation,
        EntryKind.PAYMENT: law.payment.provision.citation,
        EntryKind.BALANCE_COLLECTED: law.payment.provision.citation,
        EntryKind.EXPENSE: law.payment.provision.citation,
        EntryKind.REFUND: law.refund.citation,
        EntryKind.DEPOSIT_RETURN: law.leftover.provision.citation,
        EntryKind.GOVERNING_BODY_PAYMENT: law.refund.citation,
        EntryKind.PAID_TO_OFFICIALS: law.leftover.provision.citation,
    }[kind]


@dataclass(frozen=True)
class LedgerEntry:
    kind: EntryKind
    amount: Decimal
    memo: str = ""

    def __post_init__(self) -> None:
        try:
            kind = EntryKind(self.kind)
        except ValueError:
            known = ", ".join(k.value for k in EntryKind)
            raise ValueError(f"unknown ledger entry kind {self.kind!r} (one of {known})") from None
        object.__setattr__(self, "kind", kind)
        amount = money(self.amount, field=kind.value)
        if kind is not EntryKind.COST_DETERMINED and amount == ZERO:
            raise ValueError(f"{kind.value}: an entry of $0.00 moves no money; leave it out")
        object.__setattr__(self, "amount", amount)
        if not isinstance(self.memo, str):
            raise TypeError(f"memo must be text, not {type(self.memo).__name__}")

    @property
    def citation(self) -> str:
        return _KIND_CITATION[self.kind]


@dataclass(frozen=True)
class _Totals:
    cost_determined: Decimal | None = None
    paid: Decimal = ZERO
    governing_body_paid: Decimal = ZERO
    expenses: Decimal = ZERO
    refunded: Decimal = ZERO
    returned: Decimal = ZERO
    to_officials: Decimal = ZERO

    @property
    def held(self) -> Decimal:
        return (self.paid + self.governing_body_paid - self.expenses - self.refunded - self.returned
                - self.to_officials)

    def after(self, entry: LedgerEntry) -> "_Totals":
        """The totals once `entry` is applied; ValueError if it would break the ledger."""
        kind, amount = entry.kind, entry.amount
        if kind is EntryKind.COST_DETERMINED:
            return replace(self, cost_determined=amount)
        if kind in PAID_KINDS:
            return replace(self, paid=self.paid + amount)
        if kind is EntryKind.GOVERNING_BODY_PAYMENT:
            return replace(self, governing_body_paid=self.governing_body_paid + amount)
        held = self.held
        what = {EntryKind.EXPENSE: "an expense", EntryKind.REFUND: "a refund",
                EntryKind.DEPOSIT_RETURN: "a return of the unused deposit",
                EntryKind.PAID_TO_OFFICIALS: "a payment of the unused escrow to the officials"}[kind]
        if amount > held:
            hint = (" — collect the balance from the requester first (2)(c)" if kind is EntryKind.EXPENSE
                    else " — the governing body makes good what was spent (2)(d)" if kind is EntryKind.REFUND
                    else "")
            raise ValueError(f"{kind.value}: {what} of {format_money(amount)} is more than the "
                             f"{format_money(held)} held ({entry.citation}){hint}")
        if kind is EntryKind.EXPENSE:
            return replace(self, expenses=self.expenses + amount)
        if kind is EntryKind.PAID_TO_OFFICIALS:
            return replace(self, to_officials=self.to_officials + amount)
        given_back = self.refunded + self.returned + amount
        if given_back > self.paid:
            raise ValueError(f"{kind.value}: {format_money(given_back)} refunded and returned in all would be "
                             f"more than the {format_money(self.paid)} the requester paid ({entry.citation})")
        if kind is EntryKind.REFUND:
            return replace(self, refunded=self.refunded + amount)
        return replace(self, returned=self.returned + amount)


@dataclass(frozen=True)
class Ledger:
    """The money of one requested recount. `add()` returns a new ledger; this one never changes."""

    entries: tuple[LedgerEntry, ...] = ()

    def __post_init__(self) -> None:
        entries = tuple(self.entries)
        totals = _Totals()
        for position, entry in enumerate(entries, start=1):
            if not isinstance(entry, LedgerEntry):
                raise TypeError(f"ledger entry {position} is a {type(entry).__name__}, not a LedgerEntry")
            try:
                totals = totals.after(entry)
            except ValueError as exc:
                raise ValueError(f"ledger entry {position}: {exc}") from None
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "_totals", totals)

    def add(self, entry: LedgerEntry) -> "Ledger":
        if not isinstance(entry, LedgerEntry):
            raise TypeError(f"add() takes a LedgerEntry, not {type(entry).__name__}")
        self._t.after(entry)  # refuse before building, with the entry's own message
        return Ledger(self.entries + (entry,))

    @property
    def _t(self) -> _Totals:
        # Derived once in __post_init__ and kept out of the dataclass fields, so equality, repr and
        # serialisation see only the entries.
        return self.__dict__["_totals"]

    @property
    def cost_determined(self) -> Decimal | None:
        """The latest cost determined under (2)(b)(II); None if none yet."""
        return self._t.cost_determined

    @property
    def paid(self) -> Decimal:
        """Everything the requester paid: payments before the recount and balances collected after."""
        return self._t.paid

    @property
    def governing_body_paid(self) -> Decimal:
        return self._t.governing_body_paid

    @property
    def expenses(self) -> Decimal:
        return self._t.expenses

    @property
    def refunded(self) -> Decimal:
        return self._t.refunded

    @property
    def returned(self) -> Decimal:
        return self._t.returned

    @property
    def held(self) -> Decimal:
        """paid + governing_body_paid - expenses - refunded - returned; never negative."""
        return self._t.held

    @property
    def due(self) -> Decimal:
        """What the requester still owes on the cost determined: max(cost - paid, 0); 0 with no cost."""
        cost = self._t.cost_determined
        return ZERO if cost is None else max(cost - self._t.paid, ZERO)

    @property
    def to_officials(self) -> Decimal:
        return self._t.to_officials

    def summary(self, law: LawProfile = DEFAULT_LAW) -> dict[str, Any]:
        return {
            "citation": LEDGER_CITATION if law is DEFAULT_LAW else law.payment.provision.citation,
            "cost_determined": self.cost_determined,
            "paid": self.paid,
            "governing_body_paid": self.governing_body_paid,
            "expenses": self.expenses,
            "refunded": self.refunded,
            "returned": self.returned,
            "to_officials": self.to_officials,
            "held": self.held,
            "due": self.due,
            "entries": len(self.entries),
        }
