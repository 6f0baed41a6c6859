"""Money as the rules see it: `Decimal` to the cent, never a float.

`money()` is the one door every amount comes in by (the clerk's text "$1,234.50", an int of whole
dollars, a `Decimal`), and `format_money()` the one door it leaves by ("$1,234.50").

Readings the statute does not make (it speaks of "the cost", "the funds paid", "the deposit"):
- amounts are whole cents; "12.345" is refused rather than rounded, because rounding a clerk's figure
  silently would change what was paid. Trailing zeros are not extra places: "12.340" is $12.34.
- amounts are never negative; a refund or a return is its own kind of entry, not a negative payment.
- floats are refused with a TypeError (0.1 + 0.2 is not 0.30), booleans too (True is not $1.00).
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, localcontext

CENT = Decimal("0.01")
ZERO = Decimal("0.00")

# After "$" and surrounding spaces are removed: digits with optional well-placed thousands commas,
# then an optional decimal part. "1,234.50", "1234.5", ".50", "12." all match; "1,23", "1e3" do not.
_AMOUNT = re.compile(r"^(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d*)?$", re.ASCII)
_NOT_FINITE = {"nan", "snan", "inf", "infinity"}


def _refuse_non_money_type(value: object, field: str) -> None:
    if isinstance(value, float):
        raise TypeError(f"{field}: {value!r} is a float; money must be a Decimal, an int or text like '12.50'")
    if isinstance(value, bool) or not isinstance(value, (str, int, Decimal)):
        raise TypeError(f"{field}: expected text, an int or a Decimal, got {type(value).__name__} {value!r}")


def _parse_text(text: str, field: str) -> Decimal:
    s = text.strip()
    if s.startswith(("-", "(")) or s.startswith(("$-", "$ -")):
        raise ValueError(f"{field}: {text!r} is negative; amounts of money are never negative")
    if s.startswith("$"):
        s = s[1:].strip()
    if s.startswith("+"):
        s = s[1:]
    if s.casefold() in _NOT_FINITE:
        raise ValueError(f"{field}: {text!r} is not a finite amount of money")
    if not s or s == "." or not _AMOUNT.match(s):
        raise ValueError(f"{field}: {text!r} is not an amount of money (write it like 1234.50 or $1,234.50)")
    return Decimal(s.replace(",", ""))


def money(value: str | int | Decimal, *, field: str = "amount") -> Decimal:
    """Parse an amount of money to a `Decimal` quantized to cents.

    >>> money("$1,234.5")
    Decimal('1234.50')
    >>> money(12)
    Decimal('12.00')

    TypeError for a float, a bool or any other type; ValueError, naming `field` and the value, for a
    negative amount, more than two decimal places, NaN/Infinity, an amount too large, or text that is
    not an amount.
    """
    _refuse_non_money_type(value, field)
    if isinstance(value, str):
        d = _parse_text(value, field)
    elif isinstance(value, int):
        d = Decimal(value)
    else:
        d = value
        if not d.is_finite():
            raise ValueError(f"{field}: {str(value)!r} is not a finite amount of money")
    if d < 0:
        raise ValueError(f"{field}: {str(value)!r} is negative; amounts of money are never negative")
    try:
        with localcontext() as ctx:
            ctx.traps[InvalidOperation] = True
            cents = d.quantize(CENT)
    except InvalidOperation:
        raise ValueError(f"{field}: {str(value)!r} is too large to be an amount of money") from None
    if cents != d:
        raise ValueError(f"{field}: {str(value)!r} has more than two decimal places")
    # -0 and +0 both become 0.00; everything else keeps its value, now with exactly two places.
    return cents if cents else ZERO


def format_money(d: Decimal) -> str:
    """`Decimal("1234.5")` -> "$1,234.50"; a negative difference -> "-$12.50". Floats are refused."""
    if isinstance(d, float):
        raise TypeError(f"format_money: {d!r} is a float; money must be a Decimal")
    if isinstance(d, bool) or not isinstance(d, (Decimal, int)):
        raise TypeError(f"format_money: expected a Decimal, got {type(d).__name__} {d!r}")
    amount = money(abs(Decimal(d)), field="format_money")
    sign = "-" if d < 0 else ""
    return f"{sign}${amount:,.2f}"

