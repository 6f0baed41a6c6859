"""The audit log is append-only and hash-chained: `verify` finds the first altered or removed row."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import delete, select, update

from storage import audit
from storage.models import AuditEntry, AuditHead


def _write(db, n: int) -> None:
    for i in range(n):
        with db.transaction() as s:
            audit.append(s, actor=f"U{i}", action="notice.recorded", entity="notice", entity_id=i,
                         before={"given_at": None}, after={"given_at": "2026-11-05", "amount": Decimal("12.50")})


def test_an_intact_log_verifies(db) -> None:
    _write(db, 5)
    with db.transaction() as s:
        result = audit.verify(s)
    assert result.ok and result.rows_checked == 5
    assert "intact" in result.describe()


def test_money_and_dates_are_stored_exactly(db) -> None:
    _write(db, 1)
    with db.transaction() as s:
        row = s.scalars(select(AuditEntry)).one()
    assert row.after == {"given_at": "2026-11-05", "amount": "12.50"}
    assert row.at.tzinfo is not None


def test_an_altered_row_is_named(db) -> None:
    _write(db, 5)
    with db.transaction() as s:
        s.execute(update(AuditEntry).where(AuditEntry.id == 3).values(actor="someone else"))
    with db.transaction() as s:
        result = audit.verify(s)
    assert not result.ok and result.first_bad_id == 3
    assert "altered" in result.problem


def test_a_removed_row_is_named(db) -> None:
    _write(db, 5)
    with db.transaction() as s:
        s.execute(delete(AuditEntry).where(AuditEntry.id == 2))
    with db.transaction() as s:
        result = audit.verify(s)
    assert not result.ok and result.first_bad_id == 2
    assert "missing" in result.problem


def test_rows_cut_from_the_end_are_caught_by_the_head(db) -> None:
    _write(db, 5)
    with db.transaction() as s:
        s.execute(delete(AuditEntry).where(AuditEntry.id >= 4))
    with db.transaction() as s:
        result = audit.verify(s)
    assert not result.ok and result.first_bad_id == 4


def test_a_rolled_back_change_leaves_no_audit_row(db) -> None:
    _write(db, 1)
    try:
        with db.transaction() as s:
            audit.append(s, actor="U9", action="x", entity="y", entity_id=1)
            raise RuntimeError("the use case failed after writing its audit row")
    except RuntimeError:
        pass
    with db.transaction() as s:
        assert s.scalar(select(AuditHead.last_id)) == 1
        assert audit.verify(s).ok


def test_concurrent_appends_keep_one_unbroken_chain(db) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda i: _write(db, 3), range(8)))
    with db.transaction() as s:
        result = audit.verify(s)
    assert result.ok and result.rows_checked == 24


def test_timestamps_must_be_timezone_aware(db) -> None:
    import pytest

    with pytest.raises(ValueError, match="timezone-aware"):
        with db.transaction() as s:
            audit.append(s, actor="U", action="x", entity="y", entity_id=1, at=dt.datetime(2026, 1, 1))
