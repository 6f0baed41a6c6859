"""Money in and out: Decimal to the cent, never a float, every refusal naming the field and the value."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.money import format_money, money


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("$1,234.50", Decimal("1234.50")),
        ("1234.5", Decimal("1234.50")),
        (" $ 450 ", Decimal("450.00")),
        ("1,234,567.89", Decimal("1234567.89")),
        (".5", Decimal("0.50")),
        ("12.", Decimal("12.00")),
        ("12.340", Decimal("12.34")),  # trailing zeros are not extra places
        ("0", Decimal("0.00")),
        (12, Decimal("12.00")),
        (0, Decimal("0.00")),
        (Decimal("3.10"), Decimal("3.10")),
        (Decimal("3.1"), Decimal("3.10")),
        (Decimal("-0"), Decimal("0.00")),
        (Decimal("1E+2"), Decimal("100.00")),
    ],
)
def test_money_parses_to_decimal_cents(value, expected: Decimal) -> None:
    parsed = money(value)
    assert parsed == expected
    assert parsed.as_tuple().exponent == -2  # always two places, so it prints as cents


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("12.345", "amount: '12.345' has more than two decimal places"),
        (Decimal("1.001"), "amount: '1.001' has more than two decimal places"),
        ("-5", "amount: '-5' is negative"),
        ("$-5", "amount: '$-5' is negative"),
        ("(5.00)", "amount: '(5.00)' is negative"),
        (-3, "amount: '-3' is negative"),
        (Decimal("-0.01"), "amount: '-0.01' is negative"),
        (Decimal("NaN"), "amount: 'NaN' is not a finite amount"),
        (Decimal("Infinity"), "amount: 'Infinity' is not a finite amount"),
        ("NaN", "amount: 'NaN' is not a finite amount"),
        ("inf", "amount: 'inf' is not a finite amount"),
        ("", "amount: '' is not an amount of money"),
        ("$", "amount: '$' is not an amount of money"),
        ("twelve", "amount: 'twelve' is not an amount of money"),
        ("1,23", "amount: '1,23' is not an amount of money"),
        ("1e3", "amount: '1e3' is not an amount of money"),
        ("1_000", "amount: '1_000' is not an amount of money"),
        ("١٢", "amount: '١٢' is not an amount of money"),  # non-ASCII digits
        (Decimal("1E+40"), "amount: '1E+40' is too large"),
    ],
)
def test_money_refuses_what_is_not_an_amount_naming_field_and_value(value, message: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        money(value)
    assert str(excinfo.value).startswith(message)


def test_the_refusal_names_the_field_given() -> None:
    with pytest.raises(ValueError, match=r"^paid: '12\.345' has more than two decimal places$"):
        money("12.345", field="paid")


@pytest.mark.parametrize("value", [12.5, 0.0, float("nan"), float("inf")])
def test_floats_are_refused_with_a_type_error(value: float) -> None:
    with pytest.raises(TypeError, match="float"):
        money(value)
    with pytest.raises(TypeError, match="float"):
        format_money(value)


@pytest.mark.parametrize("value", [True, None, [12], b"12"])
def test_other_types_are_refused_with_a_type_error(value) -> None:
    with pytest.raises(TypeError, match="expected"):
        money(value)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("1234.5"), "$1,234.50"),
        (Decimal("0"), "$0.00"),
        (Decimal("450.00"), "$450.00"),
        (Decimal("1234567.89"), "$1,234,567.89"),
        (Decimal("-12.5"), "-$12.50"),
        (7, "$7.00"),
    ],
)
def test_format_money(value, text: str) -> None:
    assert format_money(value) == text


def test_format_money_refuses_fractions_of_a_cent_rather_than_rounding() -> None:
    with pytest.raises(ValueError, match="more than two decimal places"):
        format_money(Decimal("1.005"))


cents = st.integers(min_value=0, max_value=10**13).map(lambda c: Decimal(c).scaleb(-2))


@given(cents)
def test_what_format_money_prints_money_reads_back(amount: Decimal) -> None:
    assert money(format_money(amount)) == amount
    assert money(str(amount)) == amount
