"""Every column of every table has an exact backup encoding (storage/backup_format.py): a column added later of
a kind the format cannot carry exactly (a float) fails here, not in an office's nightly backup."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import Float

from storage.backup_format import BackupFileError, column_kind, columns_of, decode, encode
from storage.models import Base


@pytest.mark.parametrize("table", Base.metadata.sorted_tables, ids=lambda t: t.name)
def test_every_model_column_has_an_exact_encoding(table) -> None:
    assert columns_of(table)


def test_a_float_column_is_refused() -> None:
    with pytest.raises(TypeError, match="floating-point"):
        column_kind(Float())


@pytest.mark.parametrize(("kind", "value"), [
    ("money", Decimal("400.00")), ("timestamp", dt.datetime(2026, 11, 10, 17, 0, 0, 123456, dt.timezone.utc)),
    ("date", dt.date(2026, 11, 3)), ("bytes", b"\x00\xff"), ("json", {"b": [1, "x"], "a": None}),
    ("integer", 2**40), ("boolean", False), ("text", "Nguyễn \u202e"),
])
def test_values_come_back_exactly(kind, value) -> None:
    assert decode(kind, encode(kind, value), "here") == value


def test_a_value_of_the_wrong_kind_is_named() -> None:
    with pytest.raises(BackupFileError, match=r"member tables/x\.jsonl\.gz, row 3, column amount: 400\.5 is not an "):
        decode("money", 400.5, "member tables/x.jsonl.gz, row 3, column amount")
