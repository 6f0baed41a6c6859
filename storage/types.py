"""Column types that keep the project's promises on every database.

- `UTCDateTime`: timestamps are timezone-aware in Python; stored as UTC. SQLite has no time zones,
  so without this a value would come back naive and silently change meaning.
- `Money`: `Decimal` in Python, whole cents (BIGINT) in the database: exact on SQLite too, where
  NUMERIC would go through a float.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import BigInteger, DateTime
from sqlalchemy.types import TypeDecorator

CENT = Decimal("0.01")


class UTCDateTime(TypeDecorator):
    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: timestamps must be timezone-aware")
        value = value.astimezone(dt.timezone.utc)
        # SQLite stores text; keep it naive-UTC there so ordering by text stays chronological.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.timezone.utc)
        return value.astimezone(dt.timezone.utc)


class Money(TypeDecorator):
    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if not isinstance(value, Decimal):
            raise TypeError(f"money must be a Decimal, not {type(value).__name__}")
        cents = value * 100
        if cents != cents.to_integral_value():
            raise ValueError(f"{value} has a fraction of a cent")
        return int(cents)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        return (Decimal(int(value)) / 100).quantize(CENT)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)
