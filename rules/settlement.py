"""Who owes whom once a requested recount is done, under the election's law (1-13.5-1306(2)(c), (2)(d) and (2)(f)
by default; 31-10-1207(2); 1-10.5-106(2)).

The refund is the same in all three laws (reversed in the requester's favor, or the amended count within the
automatic margin). What is left of a deposit when no refund is due differs (`LawProfile.leftover`): 1306(2)(f)
returns it to the requester; 31-10-1207 is silent and the bot returns it by reading; the 2022 text of 1-10.5-106(2)
pays "any escrow amounts not refunded" to the election officials who conducted the recount (UNUSED_TO_OFFICIALS,
flagged: the 2023+ text could not be read). Under 1306:

"(c) The interested party that requested the recount shall pay on demand the cost of the recount ...
 The funds paid ... must be held and used for payment of all expenses incurred in the recount."
"(d) If, after the recount, the result of the election is reversed in favor of the interested party
 that requested the recount or if the amended election count is such that a recount otherwise would
 have been required pursuant to subsection (1) of this section, the payment for expenses must be
 refunded to the interested party who paid them."
"(f) If any leftover funds remain from the deposit paid under paragraph (c) of this subsection (2), and
 the recount does not change the result of the election, the designated election official shall
 return that unused portion of the deposit to the interested party who paid it."

Order of the tests, first match wins:
1. (2)(d) reversed in favor of the requester, or amended count within (1)'s margin -> REFUND of all
   that was paid; nothing more is due (reading: the governing body bears the cost, as under (1)).
2. (2)(c) actual cost above what was paid -> BALANCE_DUE, the difference, on demand.
3. (2)(f) paid more than the actual cost -> RETURN_UNUSED, the difference. When the result changed but
   (2)(d) does not apply (say a three-way race where a third choice overtook), (2)(f)'s words "does not
   change the result" are not met; the default reading returns the surplus anyway, because (2)(c) holds
   the funds only "for payment of all expenses" and nothing authorises keeping a surplus.
4. Paid exactly the actual cost -> SETTLED.

A request need not name a choice it favors: (2)(a) asks none of an eligible elector. Without one, (2)(d)'s
first limb ("reversed in favor of the interested party that requested the recount") is a reading
(`NoChoiceRefund`, default MARGIN_ONLY): no side was named, so no reversal is in the requester's favor and only
the second limb (the amended count within (1)'s margin) refunds; ANY_CHANGE reads any change of the result as
in the requester's favor (they asked for the count to be right, and it was not).

Money conservation, checked by the tests: without a refund, what the requester ends up paying,
paid - deposit_return + balance_due, is exactly the actual cost; with a refund it is zero.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal

from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import LeftoverRule
from rules.money import ZERO, format_money, money


def refund_reading(law: LawProfile = DEFAULT_LAW) -> str:
    return (f"{law.short(law.refund.citation)} refunds 'the payment for expenses' in full: the requester bears none "
            f"of the cost, no balance is demanded even if the actual cost exceeded the payment, and "
            f"{law.automatic_payer.who} bears the cost as it would have under "
            f"{law.short(law.automatic_payer.provision.citation)}")


REFUND_READING = refund_reading()
CHANGED_RESULT_SURPLUS_READING = (
    "the result changed, but not in favor of the requester and not to within (1)'s margin, so neither "
    "(2)(d) nor the words of (2)(f) ('does not change the result') apply; the unused portion is returned "
    "anyway, because (2)(c) holds the funds only 'for payment of all expenses' and nothing authorises "
    "keeping a surplus"
)


class NoChoiceRefund(str, enum.Enum):
    """What (2)(d)'s "reversed in favor of the interested party that requested the recount" means when the request
    named no choice it favors (an eligible elector need not, (2)(a))."""

    MARGIN_ONLY = "margin-only"
    ANY_CHANGE = "any-change"

    @property
    def reading(self) -> str:
        if self is NoChoiceRefund.MARGIN_ONLY:
            return ("no-choice refund, margin-only (default): the request named no choice it favors, so no result "
                    "is reversed in the requester's favor; (2)(d) refunds only when the amended count is within "
                    "(1)'s margin")
        return ("no-choice refund, any-change (option): the request named no choice it favors; any change of the "
                "result counts as reversed in the requester's favor under (2)(d)")


DEFAULT_NO_CHOICE_REFUND = NoChoiceRefund.MARGIN_ONLY


class SettlementOutcome(str, enum.Enum):
    REFUND = "refund"
    RETURN_UNUSED = "return_unused_deposit"
    UNUSED_TO_OFFICIALS = "unused_to_officials"
    BALANCE_DUE = "balance_due"
    SETTLED_EXACTLY = "settled"


@dataclass(frozen=True, kw_only=True)
class Settlement(Decision):
    refund: Decimal
    deposit_return: Decimal
    balance_due: Decimal
    paid: Decimal
    actual_cost: Decimal
    to_officials: Decimal = ZERO  # the unused deposit paid to the officials who conducted it (1-10.5, 2022 text)

    @property
    def requester_net_cost(self) -> Decimal:
        """What the requester bears in the end: paid - refund - deposit_return + balance_due."""
        return self.paid - self.refund - self.deposit_return + self.balance_due


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {value!r}")
    return value


def _reversed(reversed_in_favor_of_requester: bool | None, changed: bool,
              no_choice_refund: NoChoiceRefund) -> tuple[bool, str | None]:
    if reversed_in_favor_of_requester is None:
        no_choice_refund = NoChoiceRefund(no_choice_refund)
        return (changed if no_choice_refund is NoChoiceRefund.ANY_CHANGE else False), no_choice_refund.reading
    return _flag("reversed_in_favor_of_requester", reversed_in_favor_of_requester), None


def settle(
    *, paid: Decimal, actual_cost: Decimal, reversed_in_favor_of_requester: bool | None, amended_within_margin: bool,
    result_changed: bool, no_choice_refund: NoChoiceRefund = DEFAULT_NO_CHOICE_REFUND,
    law: LawProfile = DEFAULT_LAW,
) -> Settlement:
    """Settle a requested recount's money under `law`. Amounts are Decimal cents (text and ints are parsed; floats
    refused). `reversed_in_favor_of_requester` None: the request named no choice it favors; `no_choice_refund`
    reads it."""
    paid = money(paid, field="paid")
    actual_cost = money(actual_cost, field="actual_cost")
    within = _flag("amended_within_margin", amended_within_margin)
    changed = _flag("result_changed", result_changed)
    reversed_, no_choice_reading = _reversed(reversed_in_favor_of_requester, changed, no_choice_refund)
    if reversed_ and not changed:
        raise ValueError("reversed_in_favor_of_requester=True means the result changed; result_changed is False")

    facts = {
        "paid": paid, "actual_cost": actual_cost, "reversed_in_favor_of_requester": reversed_,
        "amended_within_margin": within, "result_changed": changed, "law": law.key,
    }

    def make(outcome: SettlementOutcome, citation: str, reason: str, *, refund: Decimal = ZERO,
             deposit_return: Decimal = ZERO, balance_due: Decimal = ZERO, to_officials: Decimal = ZERO,
             reading: str | None = None) -> Settlement:
        numbers = {**facts, "refund": refund, "deposit_return": deposit_return, "balance_due": balance_due,
                   "to_officials": to_officials, "requester_net_cost": paid - refund - deposit_return + balance_due,
                   "requested_in_favor_of_a_choice": no_choice_reading is None}
        if no_choice_reading:
            reading = f"{no_choice_reading}; {reading}" if reading else no_choice_reading
        return Settlement(outcome=outcome.value, citation=citation, reason=reason, numbers=numbers, reading=reading,
                          refund=refund, deposit_return=deposit_return, balance_due=balance_due, paid=paid,
                          actual_cost=actual_cost, to_officials=to_officials)

    refund_cite, trigger = law.short(law.refund.citation), law.short(law.trigger.provision.citation)
    if reversed_ or within:
        why = " and ".join(w for w, on in (
            ("the result was reversed in favor of the requester" if no_choice_reading is None else
             "the result changed (the request named no choice; read as in the requester's favor)", reversed_),
            (f"the amended count is within 1/2 of 1% (a recount would have been required under {trigger})", within),
        ) if on)
        reason = (f"{refund_cite}: {why} — refund the full {format_money(paid)} paid; no balance is due; "
                  f"{law.automatic_payer.who} bears the {format_money(actual_cost)} actual cost.")
        return make(SettlementOutcome.REFUND, law.refund.citation, reason, refund=paid, reading=refund_reading(law))

    pay_cite = law.payment.provision.citation
    if actual_cost > paid:
        due = actual_cost - paid
        reason = (f"{law.short(pay_cite)}: the actual cost {format_money(actual_cost)} is more than the "
                  f"{format_money(paid)} paid — the requester pays the balance of {format_money(due)} on demand.")
        return make(SettlementOutcome.BALANCE_DUE, pay_cite, reason, balance_due=due)

    if paid > actual_cost:
        return _leftover(make, law, paid, actual_cost, changed, no_choice_reading is not None)

    reason = (f"{law.short(pay_cite)}: the {format_money(paid)} paid is exactly the actual cost — nothing to return "
              f"and nothing due.")
    return make(SettlementOutcome.SETTLED_EXACTLY, pay_cite, reason)


def _leftover(make, law: LawProfile, paid: Decimal, actual_cost: Decimal, changed: bool,
              no_choice: bool) -> Settlement:
    """What was paid beyond the actual cost, no refund being due: under the law's leftover rule."""
    unused = paid - actual_cost
    leftover = law.leftover
    cite_ = leftover.provision.citation
    short = law.short(cite_)
    spent = f"{format_money(paid)} paid, {format_money(actual_cost)} spent"
    if leftover.rule is LeftoverRule.TO_OFFICIALS:
        reason = (f"{short}: no refund is due; {spent} — the unused {format_money(unused)} is paid to the election "
                  f"officials who conducted the recount, as the text read says; confirm it with the official.")
        return make(SettlementOutcome.UNUSED_TO_OFFICIALS, cite_, reason, to_officials=unused,
                    reading=leftover.reading)
    if leftover.rule is LeftoverRule.RETURN_BY_READING:
        reason = (f"{short} by reading: {law.section} says nothing of an unused balance; {spent} — return the unused "
                  f"{format_money(unused)}.")
        return make(SettlementOutcome.RETURN_UNUSED, cite_, reason, deposit_return=unused, reading=leftover.reading)
    if changed:
        reason = (f"{short} by the default reading: the result changed, but not in favor of the requester"
                  f"{' (the request named no choice it favors)' if no_choice else ''}; {spent} — return the unused "
                  f"{format_money(unused)}.")
        return make(SettlementOutcome.RETURN_UNUSED, cite_, reason, deposit_return=unused,
                    reading=CHANGED_RESULT_SURPLUS_READING)
    reason = f"{short}: the recount did not change the result; {spent} — return the unused {format_money(unused)}."
    return make(SettlementOutcome.RETURN_UNUSED, cite_, reason, deposit_return=unused)
