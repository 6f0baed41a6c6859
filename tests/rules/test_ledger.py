"""(2)(c): "The funds paid to the designated election official for the recount must be held and used for
payment of all expenses incurred in the recount." The ledger of one requested recount."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ledger import EntryKind, Ledger, LedgerEntry
from rules.serialize import to_jsonable

D = Decimal
K = EntryKind


def entry(kind: EntryKind, amount: str, memo: str = "") -> LedgerEntry:
    return LedgerEntry(kind, D(amount), memo)


def ledger(*pairs: tuple[EntryKind, str]) -> Ledger:
    result = Ledger()
    for kind, amount in pairs:
        result = result.add(entry(kind, amount))
    return result


def case(description: str, *values):
    return pytest.param(*values, id=description)


@pytest.mark.parametrize(
    ("entries", "cost", "paid", "expenses", "refunded", "returned", "held", "due"),
    [
        case("nothing yet: no cost, nothing held, nothing due",
             [], None, "0.00", "0.00", "0.00", "0.00", "0.00", "0.00"),
        case("(2)(b)(II) cost determined, nothing paid -> all of it due",
             [(K.COST_DETERMINED, "450")], "450.00", "0.00", "0.00", "0.00", "0.00", "0.00", "450.00"),
        case("(2)(c) paid in part -> the rest due",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "200")], "450.00", "200.00", "0.00", "0.00", "0.00",
             "200.00", "250.00"),
        case("(2)(c) paid in full and held",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "450")], "450.00", "450.00", "0.00", "0.00", "0.00",
             "450.00", "0.00"),
        case("(2)(c) expenses are paid from the held funds",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "450"), (K.EXPENSE, "300"), (K.EXPENSE, "100")],
             "450.00", "450.00", "400.00", "0.00", "0.00", "50.00", "0.00"),
        case("(2)(f) the unused $50.00 returned -> nothing held",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "450"), (K.EXPENSE, "400"), (K.DEPOSIT_RETURN, "50")],
             "450.00", "450.00", "400.00", "0.00", "50.00", "0.00", "0.00"),
        case("(2)(b)(II) a redetermination replaces the cost; more is due",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "450"), (K.COST_DETERMINED, "600")],
             "600.00", "450.00", "0.00", "0.00", "0.00", "450.00", "150.00"),
        case("(2)(c) the balance collected on demand counts as paid",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "450"), (K.EXPENSE, "450"), (K.COST_DETERMINED, "520"),
              (K.BALANCE_COLLECTED, "70"), (K.EXPENSE, "70")],
             "520.00", "520.00", "520.00", "0.00", "0.00", "0.00", "0.00"),
        case("(2)(d) full refund of money partly spent: the governing body makes good what was spent",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "450"), (K.EXPENSE, "400"),
              (K.GOVERNING_BODY_PAYMENT, "400"), (K.REFUND, "450")],
             "450.00", "450.00", "400.00", "450.00", "0.00", "0.00", "0.00"),
        case("overpaid against the cost -> nothing due (never negative)",
             [(K.COST_DETERMINED, "450"), (K.PAYMENT, "500")], "450.00", "500.00", "0.00", "0.00", "0.00",
             "500.00", "0.00"),
    ],
)
def test_the_ledger_figures(entries, cost, paid, expenses, refunded, returned, held, due) -> None:
    result = ledger(*entries)

    assert result.cost_determined == (None if cost is None else D(cost))
    assert result.paid == D(paid)
    assert result.expenses == D(expenses)
    assert result.refunded == D(refunded)
    assert result.returned == D(returned)
    assert result.held == D(held)
    assert result.due == D(due)
    summary = result.summary()
    assert summary["citation"] == "C.R.S. 1-13.5-1306(2)(c)"
    assert summary["held"] == D(held) and summary["due"] == D(due) and summary["entries"] == len(entries)


@pytest.mark.parametrize(
    ("entries", "bad", "message"),
    [
        case("(2)(d) a refund larger than what is held",
             [(K.PAYMENT, "450"), (K.EXPENSE, "400")], (K.REFUND, "450"),
             r"refund: a refund of \$450\.00 is more than the \$50\.00 held \(C\.R\.S\. 1-13\.5-1306\(2\)\(d\)\)"),
        case("(2)(f) a return larger than what is held",
             [(K.PAYMENT, "450"), (K.EXPENSE, "400")], (K.DEPOSIT_RETURN, "60"),
             r"deposit_return: a return of the unused deposit of \$60\.00 is more than the \$50\.00 held "
             r"\(C\.R\.S\. 1-13\.5-1306\(2\)\(f\)\)"),
        case("(2)(c) an expense larger than what is held",
             [(K.PAYMENT, "450")], (K.EXPENSE, "450.01"),
             r"expense: an expense of \$450\.01 is more than the \$450\.00 held \(C\.R\.S\. 1-13\.5-1306\(2\)\(c\)\) "
             r"— collect the balance"),
        case("refunds and returns never exceed what the requester paid",
             [(K.PAYMENT, "100"), (K.GOVERNING_BODY_PAYMENT, "500")], (K.REFUND, "150"),
             r"refund: \$150\.00 refunded and returned in all would be more than the \$100\.00 the requester paid"),
        case("a payment of nothing records nothing",
             [], (K.PAYMENT, "0"), r"payment: an entry of \$0\.00 moves no money"),
    ],
)
def test_the_ledger_refuses_what_would_not_balance(entries, bad, message) -> None:
    before = ledger(*entries)
    with pytest.raises(ValueError, match=message):
        before.add(entry(*bad))
    assert before == ledger(*entries)  # unchanged


def test_add_returns_a_new_ledger_and_leaves_the_old_one_alone() -> None:
    empty = Ledger()
    one = empty.add(entry(K.PAYMENT, "450"))
    assert empty.entries == () and empty.paid == D("0.00")
    assert one.paid == D("450.00") and len(one.entries) == 1
    with pytest.raises(AttributeError):
        one.entries = ()  # type: ignore[misc]


def test_a_ledger_rebuilt_from_stored_entries_is_checked_too() -> None:
    with pytest.raises(ValueError, match=r"^ledger entry 2: refund"):
        Ledger((entry(K.PAYMENT, "10"), entry(K.REFUND, "20")))


def test_entries_refuse_negative_amounts_floats_and_unknown_kinds() -> None:
    with pytest.raises(ValueError, match=r"payment: '-5' is negative"):
        LedgerEntry(K.PAYMENT, D("-5"))
    with pytest.raises(TypeError, match="float"):
        LedgerEntry(K.PAYMENT, 5.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown ledger entry kind 'gift'"):
        LedgerEntry("gift", D("5"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="more than two decimal places"):
        LedgerEntry(K.EXPENSE, D("1.234"))


def test_entries_accept_text_and_kind_names() -> None:
    e = LedgerEntry("payment", "$1,200.5", "check #1001")  # type: ignore[arg-type]
    assert e.kind is K.PAYMENT and e.amount == D("1200.50") and e.memo == "check #1001"
    assert e.citation == "C.R.S. 1-13.5-1306(2)(c)"
    assert LedgerEntry(K.REFUND, D("1")).citation == "C.R.S. 1-13.5-1306(2)(d)"
    assert LedgerEntry(K.DEPOSIT_RETURN, D("1")).citation == "C.R.S. 1-13.5-1306(2)(f)"


def test_a_cost_of_zero_may_be_determined() -> None:
    assert ledger((K.COST_DETERMINED, "0")).cost_determined == D("0.00")


def test_the_ledger_serialises_to_its_entries() -> None:
    data = to_jsonable(Ledger().add(entry(K.PAYMENT, "450", "check")))
    assert data == {"entries": [{"kind": "payment", "amount": "450.00", "memo": "check"}]}


# ------------------------------------------------------------------------------------------- properties

amounts = st.integers(min_value=0, max_value=10**8).map(lambda c: Decimal(c).scaleb(-2))
kinds = st.sampled_from(list(EntryKind))


@given(st.lists(st.tuples(kinds, amounts), max_size=30))
def test_held_is_never_negative_and_always_balances(attempts) -> None:
    """Whatever is tried, a ledger that exists balances: entries that would break it are refused."""
    current = Ledger()
    for kind, amount in attempts:
        try:
            current = current.add(LedgerEntry(kind, amount))
        except ValueError:
            continue
        assert current.held >= 0
        assert current.held == (current.paid + current.governing_body_paid - current.expenses
                                - current.refunded - current.returned - current.to_officials)
        assert current.refunded + current.returned <= current.paid
        assert current.due >= 0
        for figure in (current.paid, current.held, current.due, current.expenses):
            assert figure.as_tuple().exponent == -2
    assert Ledger(current.entries) == current  # what was accepted one by one is accepted as a whole
