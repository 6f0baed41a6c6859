"""Turn rule values into JSON-ready data without losing exactness.

Integers stay integers, money (`Decimal`) becomes a string with its cents ("12.50"), dates become
ISO strings. Floats never appear, so nothing downstream can round a vote or a cent.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping


def to_jsonable(value: Any) -> Any:
    # Enums first: our enums subclass str, and must come out as their plain value.
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, float):
        raise TypeError("floats are not allowed in recount-bot values (votes are int, money is Decimal)")
    raise TypeError(f"cannot serialise {type(value).__name__}")
