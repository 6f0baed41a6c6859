"""`audit verify` recomputes sealed rows a batch at a time, a column at a time (storage/seal_check.py,
`seal_hash.column_hashes`): the same hashes, byte for byte, as the row-by-row definition, so a database sealed
before still verifies, and a value of another kind than its column's is still caught."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select, text

from rules.returns import parse_returns
from storage import audit, seals
from storage.models import VoteCount
from storage.seal_hash import column_hashes


def test_hashing_a_column_at_a_time_is_the_canonical_json_row_by_row() -> None:
    """Columns of one kind (the fast C path: all ints, all strs) and of mixed kinds (value by value) alike."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70), st.text(),
                        st.decimals(allow_nan=False, allow_infinity=False, places=2),
                        st.datetimes(timezones=st.just(dt.timezone.utc)), st.dates(), st.floats(allow_nan=False),
                        st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                             max_size=2))
    # One strategy per column: most draw a single kind, so whole columns of ints or strs are common.
    column_kinds = st.one_of(st.just(st.integers(min_value=-2**70, max_value=2**70)), st.just(st.text()),
                             st.just(st.booleans()), st.just(scalars))
    names = st.lists(st.text(alphabet="abcdefghij_%", min_size=1, max_size=8), min_size=1, max_size=6, unique=True)

    @settings(max_examples=300, deadline=None)
    @given(names=names, data=st.data(), table=st.sampled_from(sorted(seals.SEALED)),
           ids=st.lists(st.integers(min_value=1, max_value=2**40), min_size=0, max_size=8))
    def same(names, data, table, ids) -> None:
        kinds = {name: data.draw(column_kinds) for name in names}
        values = {name: [data.draw(kinds[name]) for _ in ids] for name in names}
        columns = names[: data.draw(st.integers(min_value=1, max_value=len(names)))] + ["missing"]
        expected = [seals.row_hash_by_json(table, row_id, {n: values[n][i] for n in names}, columns)
                    for i, row_id in enumerate(ids)]
        assert column_hashes(table, ids, values, columns) == expected

    same()


def _import(db, precincts: int = 1100) -> None:
    from services.returns.versions import import_returns
    from services.services import Services

    rows = ["contest,choice,votes,kind,unit"]
    rows += [f"Water District - Director,{who},{7 + unit % 5},candidate,Precinct {unit}"
             for unit in range(1, precincts + 1) for who in ("Ada", "Ben")]
    services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    import_returns(services, team_id="T0CHECK", returns=parse_returns("\n".join(rows).encode()), election_name="E",
                   election_date=dt.date(2026, 11, 3), local_government="W", governing_body="B", actor="test")


def _verify(db) -> audit.VerifyResult:
    with db.read() as s:
        return audit.verify(s)


def test_a_count_stored_as_another_kind_of_number_is_caught(db) -> None:
    """SQLite keeps what it is given: a count of 12.5, or a unit given as a number, in a batch of good rows."""
    if db.dialect != "sqlite":
        pytest.skip("PostgreSQL refuses a value of another type than its column's")
    _import(db)
    assert _verify(db).ok
    with db.engine.begin() as c:
        some = c.execute(select(func.min(VoteCount.id))).scalar() + 1500
        c.execute(text("UPDATE vote_counts SET votes = votes + 0.5 WHERE id = :id"), {"id": some})
    result = _verify(db)
    assert not result.ok and (result.bad_row.row_id, result.more_bad_rows) == (some, 0)
    assert "when it was written: it was changed afterwards" in result.bad_row.problem


def test_a_deleted_count_is_missing_and_a_forged_one_is_unsealed(db) -> None:
    _import(db)
    with db.engine.begin() as c:
        low, high = c.execute(select(func.min(VoteCount.id), func.max(VoteCount.id))).one()
        row = c.execute(select(VoteCount.__table__).where(VoteCount.id == low + 10)).one()._asdict()
        c.execute(VoteCount.__table__.delete().where(VoteCount.id == low + 10))
        c.execute(VoteCount.__table__.insert().values({**row, "id": high + 1}))
    result = _verify(db)
    assert not result.ok and (result.bad_row.row_id, result.more_bad_rows) == (low + 10, 1)
    assert "is missing: audit row" in result.bad_row.problem
