"""Vote counts written in bulk are sealed a thousand at a time, as a whole and each alone (storage/seal_batches.py):
`audit verify` checks them with one hash per seal entry, and still names the row that differs, the row deleted,
the row written outside recount-bot, and a seal entry recount-bot did not write; a later seal of a bulk-sealed
row (recount-bot deleting it) is honoured."""
from __future__ import annotations

import hashlib

from sqlalchemy import func, select, update

from storage import audit, seal_batches, seals
from storage.models import AuditEntry, VoteCount
from tests.storage.test_seal_check import _import, _verify


def _ids(db) -> tuple[int, int]:
    with db.engine.begin() as c:
        return c.execute(select(func.min(VoteCount.id), func.max(VoteCount.id))).one()


def _vote_count_seals(db) -> list[AuditEntry]:
    with db.transaction() as s:
        return list(s.scalars(select(AuditEntry).where(AuditEntry.action == seals.ACTION,
                                                       AuditEntry.entity_id == "vote_counts").order_by(AuditEntry.id)))


def test_an_import_seals_its_counts_in_bulk_and_each_hash_is_the_row_hash(db) -> None:
    _import(db)
    low, high = _ids(db)
    entries = _vote_count_seals(db)
    assert [e.after["ids"] for e in entries] == [[[low, low + 999]], [[low + 1000, low + 1999]], [[low + 2000, high]]]
    assert "rows" not in entries[0].after
    with db.transaction() as s:
        first = dict(s.execute(select(VoteCount.__table__).where(VoteCount.id == low)).one()._mapping)
    assert entries[0].after["hashes"][:64] == seals.row_hash("vote_counts", low, first, entries[0].after["columns"])
    result = _verify(db)
    assert result.ok and result.business_rows == 1 + 1 + 2 + 2200


def test_a_changed_count_is_named_with_the_seal_entry_that_recorded_it(db) -> None:
    _import(db)
    low, _ = _ids(db)
    with db.engine.begin() as c:
        c.execute(update(VoteCount.__table__).where(VoteCount.id == low + 1234).values(votes=VoteCount.votes + 1))
    entry = _vote_count_seals(db)[1]
    result = _verify(db)
    assert not result.ok and (result.bad_row.row_id, result.more_bad_rows) == (low + 1234, 0)
    assert result.bad_row.problem == (f"differs from what audit row {entry.id} recorded when it was written: it "
                                      "was changed afterwards")


def test_a_count_deleted_by_recount_bot_is_sealed_apart_and_one_written_back_is_caught(db) -> None:
    _import(db)
    low, _ = _ids(db)
    with db.transaction() as s:
        gone = s.get(VoteCount, low + 5)
        row = {c.key: getattr(gone, c.key) for c in VoteCount.__table__.c}
        s.delete(gone)
    result = _verify(db)
    assert result.ok and result.business_rows == 1 + 1 + 2 + 2199
    with db.engine.begin() as c:
        c.execute(VoteCount.__table__.insert().values(row))
    result = _verify(db)
    assert not result.ok and result.bad_row.row_id == low + 5
    assert result.bad_row.problem.startswith("was deleted by recount-bot (audit row ")


def test_a_seal_entry_whose_whole_hash_disagrees_is_decided_row_by_row(db) -> None:
    """The hash of the rows as a whole is a fast path: where it does not match, each row is decided against its own
    hash, which defines the seal, and one row changed among rows that match is named."""
    _import(db, precincts=10)
    _, high = _ids(db)
    columns = seals._columns("vote_counts")
    with db.transaction() as s:
        template = dict(s.execute(select(VoteCount.__table__).where(VoteCount.id == high)).one()._mapping)
        rows = [{**template, "id": high + i, "unit": f"Added {i}"} for i in (1, 2)]
        s.execute(VoteCount.__table__.insert(), rows)
        hashes = [seals.row_hash("vote_counts", r["id"], r, columns) for r in rows]
        after = {"columns": columns, "ids": [[high + 1, high + 2]], "sha256": hashlib.sha256(b"other").hexdigest(),
                 "hashes": "".join(hashes)}
        audit.append(s, actor="someone", action=seals.ACTION, entity=seals.ENTITY, entity_id="vote_counts",
                     after=after)
    assert _verify(db).ok
    with db.engine.begin() as c:
        c.execute(update(VoteCount.__table__).where(VoteCount.id == high + 2).values(unit="Changed"))
    result = _verify(db)
    assert not result.ok and (result.bad_row.row_id, result.more_bad_rows) == (high + 2, 0)


def test_a_malformed_bulk_seal_is_named(db) -> None:
    _import(db, precincts=10)
    with db.transaction() as s:
        audit.append(s, actor="mallory", action=seals.ACTION, entity=seals.ENTITY, entity_id="vote_counts",
                     after={"columns": seals._columns("vote_counts"), "ids": [[9, 3]], "sha256": "0" * 64,
                            "hashes": ""})
    result = _verify(db)
    assert not result.ok and "its bulk seal lists ids out of order" in result.bad_row.problem


def test_a_bulk_seal_of_rows_already_sealed_is_checked_row_by_row(db) -> None:
    """Two seal entries for one id (a second seal appended over an import's row): the later is the one the row must
    match, and the first still guards what the row held when written."""
    _import(db, precincts=10)
    low, _ = _ids(db)
    columns = seals._columns("vote_counts")
    with db.transaction() as s:
        values = dict(s.execute(select(VoteCount.__table__).where(VoteCount.id == low)).one()._mapping)
        changed = {**values, "votes": values["votes"] + 100}
        s.execute(update(VoteCount.__table__).where(VoteCount.id == low).values(votes=changed["votes"]))
        keys = [c.key for c in VoteCount.__table__.c]
        audit.append(s, actor="mallory", action=seals.ACTION, entity=seals.ENTITY, entity_id="vote_counts",
                     after=seal_batches.entry("vote_counts", columns, [tuple(changed[k] for k in keys)], keys))
    result = _verify(db)
    assert not result.ok and result.bad_row.row_id == low
    assert "when it was written: it was changed afterwards (and sealed again at audit row" in result.bad_row.problem


def test_runs_and_entries_put_ids_in_order() -> None:
    assert seal_batches.runs([3, 4, 5, 9, 10, 12]) == [[3, 5], [9, 10], [12, 12]]
    keys = ["id", "unit"]
    after = seal_batches.entry("t", keys, [(7, "c"), (5, "a"), (6, "b")], keys)
    assert after["ids"] == [[5, 7]]
    assert after["hashes"] == "".join(seals.row_hash("t", i, {"id": i, "unit": u}, keys) for i, u in
                                      ((5, "a"), (6, "b"), (7, "c")))
    assert after["sha256"] == seal_batches.digest("t", keys, {"id": [5, 6, 7], "unit": ["a", "b", "c"]}, 3)
    assert list(seal_batches.ids_of(after)) == [5, 6, 7]


def test_the_whole_differs_whenever_the_rows_do() -> None:
    """No two different sets of rows hash alike as a whole: values moved between rows or columns, a string cut
    elsewhere, an int given as text or as a bool, a null, a number past 64 bits."""
    def whole(**columns) -> str:
        return seal_batches.digest("t", sorted(columns), columns, len(next(iter(columns.values()))))

    variants = [
        whole(id=[1, 2], unit=["ab", "c"]), whole(id=[1, 2], unit=["a", "bc"]), whole(id=[1, 2], unit=["c", "ab"]),
        whole(id=[1, 2], unit=["abc", ""]), whole(id=[1, 2], unit=["ab", None]), whole(id=[1, 2], unit=[1, "c"]),
        whole(id=[1, 2], votes=[3, 4]), whole(id=[1, 2], votes=[4, 3]), whole(id=[1, 2], votes=["3", 4]),
        whole(id=[1, 2], votes=[True, 4]), whole(id=[1, 2], votes=[3, 2**70]), whole(id=[1, 2], votes=[3, 2**70 + 1]),
        whole(id=[2, 1], votes=[3, 4]), whole(id=[1, 2], unit=["ab", "c"], votes=[3, 4]),
        whole(id=[1, 2], unit=["ab\n", "c"]), whole(id=[1, 2], unit=['ab"', "c"]),
    ]
    assert len(set(variants)) == len(variants)
    assert seal_batches.digest("t", ["id", "x"], {"id": [1, 2]}, 2) == whole(id=[1, 2], x=[None, None])


def test_a_seal_entry_read_in_two_batches_is_checked_whole_and_its_changed_row_named(db) -> None:
    """Rows are read 2,000 at a time and sealed 1,000 to an entry; after an import of 2,500 counts the next one's
    entries straddle two reads: each entry's rows are gathered before its whole is hashed."""
    from storage.seal_check import BATCH

    _import(db, precincts=1250)
    _, first_high = _ids(db)
    _import(db, precincts=1600)  # a new version: its own 3,200 counts
    _, high = _ids(db)
    straddling = next(e for e in _vote_count_seals(db) if e.after["ids"][0][0] > first_high
                      and e.after["ids"][0][0] // BATCH != e.after["ids"][-1][1] // BATCH)
    assert _verify(db).ok
    inside = straddling.after["ids"][-1][1] - 3  # in the entry's second read
    with db.engine.begin() as c:
        c.execute(update(VoteCount.__table__).where(VoteCount.id == inside).values(votes=VoteCount.votes + 7))
    result = _verify(db)
    assert not result.ok and (result.bad_row.row_id, result.more_bad_rows) == (inside, 0)
    assert f"audit row {straddling.id} recorded when it was written" in result.bad_row.problem
