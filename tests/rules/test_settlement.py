"""After a requested recount: (2)(c) balance on demand, (2)(d) refund, (2)(f) return of the unused deposit."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.settlement import CHANGED_RESULT_SURPLUS_READING, REFUND_READING, Settlement, SettlementOutcome, settle

D = Decimal
REFUND, RETURN, DUE, EXACT = (SettlementOutcome.REFUND, SettlementOutcome.RETURN_UNUSED,
                              SettlementOutcome.BALANCE_DUE, SettlementOutcome.SETTLED_EXACTLY)


def case(description: str, *values):
    return pytest.param(*values, id=description)


# facts: (paid, actual_cost, reversed_in_favor_of_requester, amended_within_margin, result_changed)
@pytest.mark.parametrize(
    ("facts", "outcome", "refund", "deposit_return", "balance_due", "citation", "reading"),
    [
        case("(2)(d): reversed in favor of the requester -> full refund",
             ("450", "400", True, False, True), REFUND, "450.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(d)",
             REFUND_READING),
        case("(2)(d): reversed in favor of the requester, cost above the payment -> full refund, nothing due",
             ("450", "600", True, False, True), REFUND, "450.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(d)",
             REFUND_READING),
        case("(2)(d): amended count within (1)'s margin, result unchanged -> full refund",
             ("450", "400", False, True, False), REFUND, "450.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(d)",
             REFUND_READING),
        case("(2)(d): amended count within (1)'s margin, result changed against the requester -> full refund",
             ("450", "500", False, True, True), REFUND, "450.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(d)",
             REFUND_READING),
        case("(2)(d): both grounds at once -> full refund",
             ("450", "450", True, True, True), REFUND, "450.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(d)",
             REFUND_READING),
        case("(2)(c): actual cost above the payment -> the requester pays the balance on demand",
             ("450", "520.75", False, False, False), DUE, "0.00", "0.00", "70.75", "C.R.S. 1-13.5-1306(2)(c)",
             None),
        case("(2)(c): nothing paid, cost incurred -> the whole cost due",
             ("0", "300", False, False, False), DUE, "0.00", "0.00", "300.00", "C.R.S. 1-13.5-1306(2)(c)", None),
        case("(2)(c): result changed not in the requester's favor, cost above the payment -> balance due",
             ("450", "500", False, False, True), DUE, "0.00", "0.00", "50.00", "C.R.S. 1-13.5-1306(2)(c)", None),
        case("(2)(f): result unchanged, money left over -> return the unused portion",
             ("450", "400", False, False, False), RETURN, "0.00", "50.00", "0.00", "C.R.S. 1-13.5-1306(2)(f)",
             None),
        case("(2)(f): result unchanged, nothing spent -> return it all",
             ("450", "0", False, False, False), RETURN, "0.00", "450.00", "0.00", "C.R.S. 1-13.5-1306(2)(f)",
             None),
        case("(2)(f) by reading: result changed, not for the requester, not within the margin -> return unused",
             ("450", "400", False, False, True), RETURN, "0.00", "50.00", "0.00", "C.R.S. 1-13.5-1306(2)(f)",
             CHANGED_RESULT_SURPLUS_READING),
        case("(2)(c): paid exactly the actual cost -> settled",
             ("450", "450", False, False, False), EXACT, "0.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(c)", None),
        case("(2)(c): nothing paid, nothing spent -> settled",
             ("0", "0", False, False, False), EXACT, "0.00", "0.00", "0.00", "C.R.S. 1-13.5-1306(2)(c)", None),
    ],
)
def test_settle(facts, outcome, refund, deposit_return, balance_due, citation, reading) -> None:
    paid, actual, reversed_, within, changed = facts
    s = settle(paid=D(paid), actual_cost=D(actual), reversed_in_favor_of_requester=reversed_,
               amended_within_margin=within, result_changed=changed)

    assert isinstance(s, Settlement)
    assert s.outcome == outcome.value
    assert s.refund == D(refund)
    assert s.deposit_return == D(deposit_return)
    assert s.balance_due == D(balance_due)
    assert s.paid == D(paid) and s.actual_cost == D(actual)
    assert s.citation == citation
    assert s.reading == reading
    assert s.numbers["refund"] == D(refund) and s.numbers["balance_due"] == D(balance_due)


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        case("(2)(d) reversal",
             dict(paid=D("450"), actual_cost=D("400"), reversed_in_favor_of_requester=True,
                  amended_within_margin=False, result_changed=True),
             "(2)(d): the result was reversed in favor of the requester — refund the full $450.00 paid; no balance "
             "is due; the governing body bears the $400.00 actual cost."),
        case("(2)(c) balance",
             dict(paid=D("450"), actual_cost=D("520.75"), reversed_in_favor_of_requester=False,
                  amended_within_margin=False, result_changed=False),
             "(2)(c): the actual cost $520.75 is more than the $450.00 paid — the requester pays the balance of "
             "$70.75 on demand."),
        case("(2)(f) return",
             dict(paid=D("1450"), actual_cost=D("400"), reversed_in_favor_of_requester=False,
                  amended_within_margin=False, result_changed=False),
             "(2)(f): the recount did not change the result; $1,450.00 paid, $400.00 spent — return the unused "
             "$1,050.00."),
    ],
)
def test_the_reason_reads_aloud_with_the_numbers(kwargs, reason) -> None:
    assert settle(**kwargs).reason == reason


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError, match="paid: 450.0 is a float"):
        settle(paid=450.0, actual_cost=D("400"), reversed_in_favor_of_requester=False,  # type: ignore[arg-type]
               amended_within_margin=False, result_changed=False)
    with pytest.raises(TypeError, match="actual_cost: 400.0 is a float"):
        settle(paid=D("450"), actual_cost=400.0, reversed_in_favor_of_requester=False,  # type: ignore[arg-type]
               amended_within_margin=False, result_changed=False)


def test_negative_amounts_and_fractions_of_a_cent_are_refused() -> None:
    with pytest.raises(ValueError, match="actual_cost: '-1' is negative"):
        settle(paid=D("450"), actual_cost=D("-1"), reversed_in_favor_of_requester=False,
               amended_within_margin=False, result_changed=False)
    with pytest.raises(ValueError, match="paid: '1.005' has more than two decimal places"):
        settle(paid=D("1.005"), actual_cost=D("1"), reversed_in_favor_of_requester=False,
               amended_within_margin=False, result_changed=False)


def test_flags_must_be_booleans_and_consistent() -> None:
    with pytest.raises(TypeError, match="result_changed must be True or False"):
        settle(paid=D("1"), actual_cost=D("1"), reversed_in_favor_of_requester=False,
               amended_within_margin=False, result_changed="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reversed_in_favor_of_requester=True means the result changed"):
        settle(paid=D("1"), actual_cost=D("1"), reversed_in_favor_of_requester=True,
               amended_within_margin=False, result_changed=False)


def test_a_settlement_serialises_money_as_cents() -> None:
    data = settle(paid=D("450"), actual_cost=D("400"), reversed_in_favor_of_requester=False,
                  amended_within_margin=False, result_changed=False).as_dict()
    assert data["outcome"] == "return_unused_deposit"
    assert data["deposit_return"] == "50.00" and data["numbers"]["paid"] == "450.00"
    assert data["citation"] == "C.R.S. 1-13.5-1306(2)(f)"


# ------------------------------------------------------------------------------------------- properties

cents = st.integers(min_value=0, max_value=10**9).map(lambda c: Decimal(c).scaleb(-2))


@st.composite
def outcomes(draw):
    reversed_ = draw(st.booleans())
    changed = True if reversed_ else draw(st.booleans())
    return reversed_, draw(st.booleans()), changed


@given(cents, cents, outcomes())
def test_money_is_conserved(paid: Decimal, actual: Decimal, flags) -> None:
    reversed_, within, changed = flags
    s = settle(paid=paid, actual_cost=actual, reversed_in_favor_of_requester=reversed_,
               amended_within_margin=within, result_changed=changed)

    for amount in (s.refund, s.deposit_return, s.balance_due):
        assert amount >= 0 and amount.as_tuple().exponent == -2
    assert s.refund + s.deposit_return <= s.paid  # nobody is given back more than they paid
    if s.outcome == SettlementOutcome.REFUND.value:
        # (2)(d): the whole payment comes back; the requester bears nothing
        assert s.refund == paid and s.deposit_return == 0 and s.balance_due == 0
        assert s.requester_net_cost == 0
        assert s.citation == "C.R.S. 1-13.5-1306(2)(d)"
    else:
        # otherwise the requester bears exactly the actual cost
        assert s.refund == 0
        assert paid == s.deposit_return + (actual - s.balance_due)
        assert s.requester_net_cost == actual
        assert not (s.deposit_return and s.balance_due)  # never both ways at once
    assert s.numbers["requester_net_cost"] == s.requester_net_cost
