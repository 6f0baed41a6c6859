"""`audit verify`'s second half: every sealed business row recomputed against its seals (storage/seals.py says what
a seal is and what each problem means).

A statewide survey is hundreds of thousands of vote counts, each checked at every `audit verify`, so the work is
done a batch of rows at a time, in C wherever it can be:
- the seals are kept per table in flat dicts (row id -> hash, row id -> audit row), filled from a seal entry's
  thousand rows at once when, as usual, none of them was sealed before, instead of an object per row;
- the rows are read in one ordered query (a server-side cursor on PostgreSQL; the driver's own tuples where
  SQLAlchemy would not change a value), turned column by column, and hashed a column at a time
  (`seal_hash.column_hashes`, the same text as `row_hash` byte for byte);
- a batch whose hashes all equal the seals' (a list compared with a list) is done. Any other batch goes row by
  row through `_problem`, which decides exactly as before: the fast path only ever says "matches" where the
  row-by-row check would, since it compares the same hashes of the same text with the same seals;
- rows sealed in bulk (storage/seal_batches.py) are checked a seal entry at a time: its rows, read in id order,
  hashed as a whole a column at a time, against the entry's hash of them all. An entry that does not match, or whose rows were not all
  read, is read again and decided row by row against its per-row hashes, with why. A bulk seal that another seal
  touches (a row sealed again or deleted by recount-bot, an id sealed twice) or that hashed other columns than
  the table has now is taken apart into per-row seals where it stands in the chain, and checked as those.
"""
from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from sqlalchemy import Table, func, select
from sqlalchemy.orm import Session

from storage.seal_batches import BatchSeal, is_batch
from storage.seal_hash import column_hashes, row_hash
from storage.seals import ACTION, ENTITY, ROW_NOUN, SEALED, _all_fixed, _columns, _table

BATCH = 2000  # rows read and hashed at a time


@dataclass(frozen=True)
class _Seal:
    """One row's seals, gathered for the row-by-row check and its message."""

    first_fixed: str  # the fixed hash when the row was first sealed
    first_audit_id: int
    full: str  # the latest seal's hash over `columns`
    audit_id: int
    columns: tuple[str, ...]


@dataclass
class TableSeals:
    """The seals of one table, per row id, as the chain is read. Most rows are sealed once, with one hash (rows that
    never change: a survey's vote counts), so only `fixed` and `first` hold every row; `full` and `latest` hold only
    the rows whose latest seal says more (a second hash, or a later seal), which keeps hundreds of thousands of
    vote counts to two dict entries each."""

    fixed: dict[int, str] = field(default_factory=dict)  # the fixed hash of the row's first seal
    first: dict[int, int] = field(default_factory=dict)  # the audit row of its first seal
    full: dict[int, str] = field(default_factory=dict)  # the hash of its latest seal, where that is not `fixed`
    latest: dict[int, int] = field(default_factory=dict)  # the audit row of its latest seal, where not `first`
    columns: dict[int, tuple[str, ...]] = field(default_factory=dict)  # audit row -> the columns its seal hashed
    # Rows whose deletion recount-bot sealed (and that no seal since brought back): the audit row of the deletion.
    deleted: dict[int, int] = field(default_factory=dict)
    # Bulk seals (storage/seal_batches.py) no other seal touches, by their first id: (first, last, seal) per run.
    spans: list[tuple[int, int, BatchSeal]] = field(default_factory=list)
    malformed: list[tuple[int, str]] = field(default_factory=list)  # (audit row, why) of bulk seals not readable

    def add_batch(self, audit_id: int, columns: tuple[str, ...], after: Mapping[str, Any]) -> None:
        try:
            batch = BatchSeal.of(audit_id, columns, after)
        except ValueError as error:
            self.malformed.append((audit_id, str(error)))
            return
        overlapping = {id(b): b for first, last in batch.runs for b in self._spanning(first, last)}
        if overlapping or ((self.fixed or self.deleted) and any(
                not (self.fixed.keys().isdisjoint(range(first, last + 1))
                     and self.deleted.keys().isdisjoint(range(first, last + 1))) for first, last in batch.runs)):
            for earlier in overlapping.values():  # an id sealed twice: both apart, in the chain's order
                self._take_apart(earlier)
            self.add(audit_id, columns, batch.row_seals())
            return
        for first, last in batch.runs:
            self.spans.insert(bisect_left(self.spans, first, key=lambda span: span[0]), (first, last, batch))

    def _spanning(self, first: int, last: int) -> list[BatchSeal]:
        """The bulk seals with a run meeting ids first..last."""
        found = []
        k = bisect_right(self.spans, last, key=lambda span: span[0]) - 1
        while k >= 0 and self.spans[k][1] >= first:  # runs are sorted and never overlap: ends ascend too
            found.append(self.spans[k][2])
            k -= 1
        return found

    def _take_apart(self, batch: BatchSeal) -> None:
        """A bulk seal as the per-row seals it holds, at its own place in the chain: it is called before any later
        seal of the same rows is added, so first and latest seals stay in order."""
        self.spans = [span for span in self.spans if span[2] is not batch]
        self.add(batch.audit_id, batch.columns, batch.row_seals())

    @property
    def batches(self) -> list[BatchSeal]:
        return list({id(span[2]): span[2] for span in self.spans}.values())

    def settle(self, current: tuple[str, ...]) -> None:
        """Before the rows are read: bulk seals over other columns than the table has now are checked row by row."""
        for batch in self.batches:
            if batch.columns != current:
                self._take_apart(batch)

    def add(self, audit_id: int, columns: tuple[str, ...], rows: Mapping[str, Any]) -> None:
        if self.spans:  # a later seal of rows sealed in bulk: that bulk seal is checked row by row from here on
            touched = {id(b): b for row_id in map(int, rows) for b in self._spanning(row_id, row_id)}
            for batch in touched.values():
                self._take_apart(batch)
        self.columns[audit_id] = columns
        ids = list(map(int, rows))
        values = list(rows.values())
        if (set(map(type, values)) == {str} and self.fixed.keys().isdisjoint(ids)
                and self.deleted.keys().isdisjoint(ids)):
            # The usual entry: rows sealed for the first time, one hash each (the first seal is also the latest).
            self.fixed.update(zip(ids, values))
            self.first.update(dict.fromkeys(ids, audit_id))
            return
        for row_id, value in zip(ids, values):
            if value is None:  # deleted by recount-bot: its history ends here
                for seals in (self.fixed, self.first, self.full, self.latest):
                    seals.pop(row_id, None)
                self.deleted[row_id] = audit_id
                continue
            self.deleted.pop(row_id, None)
            fixed, full = (value, value) if isinstance(value, str) else (tuple(value) + ("", ""))[:2]
            if row_id not in self.fixed:
                self.fixed[row_id], self.first[row_id] = fixed, audit_id
                if full != fixed:
                    self.full[row_id] = full
            else:
                self.full[row_id], self.latest[row_id] = full, audit_id

    def seal(self, row_id: int) -> _Seal | None:
        if row_id not in self.fixed:
            return None
        first = self.first[row_id]
        latest = self.latest.get(row_id, first)
        return _Seal(self.fixed[row_id], first, self.full.get(row_id, self.fixed[row_id]), latest,
                     self.columns[latest])

    def audit_ids(self, ids: Sequence[int]) -> Iterator[int | None]:
        """The audit row of each row's latest seal (None: not sealed)."""
        return map(self.latest.get, ids, map(self.first.get, ids)) if self.latest else map(self.first.get, ids)

    def full_hashes(self, ids: Sequence[int], fixed: list[str | None]) -> list[str | None]:
        """The latest seal's hash of each row, given the rows' `fixed` hashes."""
        return list(map(self.full.get, ids, fixed)) if self.full else fixed


@dataclass
class SealBook:
    """The seals found while the audit chain is read: per table."""

    tables: dict[str, TableSeals] = field(default_factory=dict)

    def add(self, entry) -> None:
        if entry.action != ACTION or entry.entity != ENTITY or entry.entity_id not in SEALED:
            return
        after = entry.after if isinstance(entry.after, dict) else {}
        table = self.tables.get(entry.entity_id)
        if table is None:
            table = self.tables[entry.entity_id] = TableSeals()
        if is_batch(after):
            table.add_batch(entry.id, tuple(after.get("columns") or ()), after)
        else:
            table.add(entry.id, tuple(after.get("columns") or ()), after.get("rows") or {})

    @property
    def count(self) -> int:
        return sum(len(t.fixed) + sum(b.count for b in t.batches) for t in self.tables.values())


@dataclass(frozen=True)
class RowProblem:
    table: str
    row_id: int
    problem: str

    def describe(self) -> str:
        return f"{ROW_NOUN[self.table]} {self.row_id} ({self.table})"


@dataclass(frozen=True)
class RowsResult:
    checked: int
    first: RowProblem | None = None
    more: int = 0  # further rows that do not match either

    @property
    def ok(self) -> bool:
        return self.first is None


def _problem(name: str, values: Mapping[str, Any], seal_: _Seal | None, deleted_at: int | None = None) -> str | None:
    row_id = values["id"]
    if seal_ is None and deleted_at is not None:
        return (f"was deleted by recount-bot (audit row {deleted_at}) and is there again: written outside "
                "recount-bot")
    if seal_ is None:
        return "is not in the audit log: it was written outside recount-bot (or its seal was cut from the log)"
    gone = _gone(name, seal_.columns)
    if gone:
        return f"was sealed at audit row {seal_.audit_id} with columns that no longer exist ({', '.join(gone)})"
    fixed = row_hash(name, row_id, values, SEALED[name][1])
    if fixed != seal_.first_fixed:
        return (f"differs from what audit row {seal_.first_audit_id} recorded when it was written: it was changed "
                "afterwards" + (f" (and sealed again at audit row {seal_.audit_id})"
                                if seal_.audit_id != seal_.first_audit_id else ""))
    # Sealed over the fixed columns alone (a table whose rows never change): the same hash, not computed twice.
    full = fixed if _all_fixed(name, seal_.columns) else row_hash(name, row_id, values, seal_.columns)
    if full != seal_.full:
        return f"differs from what audit row {seal_.audit_id} recorded: it was changed outside recount-bot"
    return None


@functools.lru_cache(maxsize=256)
def _gone(name: str, columns: tuple[str, ...]) -> tuple[str, ...]:
    """The columns a seal covered that the table no longer has (the rows read hold every column it has)."""
    return tuple(c for c in columns if c not in _table(name).c)


def count_rows(session: Session) -> int:
    """How many rows the sealed tables hold (what `check_rows` will read)."""
    return sum(session.execute(select(func.count()).select_from(_table(name))).scalar_one() for name in SEALED)


@dataclass
class _TableResult:
    problems: int = 0
    first: RowProblem | None = None

    def found(self, name: str, row_id: int, problem: str) -> None:
        self.problems += 1
        if self.first is None or row_id < self.first.row_id:
            self.first = RowProblem(name, row_id, problem)


class _RowByRow:
    """The rows of a table sealed in the per-row form, checked a read batch at a time (see the module's doc)."""

    def __init__(self, name: str, keys: list[str], current: tuple[str, ...], seals: TableSeals,
                 result: _TableResult) -> None:
        self.name, self.keys, self.current, self.seals, self.result = name, keys, current, seals, result
        self.fixed_columns = SEALED[name][1]
        self.all_fixed = _all_fixed(name, current)
        # Seals over other columns than the table has now (written before a migration added one): row by row.
        self.other_columns = {audit_id for audit_id, columns in seals.columns.items() if columns != current}
        self.sealed_rows = 0  # rows read that have a seal: fewer than the seals, and some sealed row is missing

    def check(self, rows: Sequence[Sequence[Any]]) -> None:
        name, seals = self.name, self.seals
        by_column = dict(zip(self.keys, zip(*rows)))
        ids = by_column["id"]
        fixed = column_hashes(name, ids, by_column, self.fixed_columns)
        full = fixed if self.all_fixed else column_hashes(name, ids, by_column, self.current)
        sealed_fixed = list(map(seals.fixed.get, ids))
        if (fixed == sealed_fixed and full == seals.full_hashes(ids, sealed_fixed)
                and (not self.other_columns or self.other_columns.isdisjoint(seals.audit_ids(ids)))):
            self.sealed_rows += len(ids)  # every row matches its seal (so has one)
            return
        for row in rows:  # something differs: each row decided as before, with why
            values = dict(zip(self.keys, row, strict=True))
            row_id = values["id"]
            self.sealed_rows += row_id in seals.fixed
            problem = _problem(name, values, seals.seal(row_id), seals.deleted.get(row_id))
            if problem:
                self.result.found(name, row_id, problem)

    def missing(self, session: Session) -> None:
        seals = self.seals
        if self.sealed_rows < len(seals.fixed):
            present: set[int] = set(session.scalars(select(_table(self.name).c.id)))
            for row_id in seals.fixed.keys() - present:
                self.result.found(self.name, row_id, f"is missing: audit row "
                                  f"{seals.latest.get(row_id, seals.first[row_id])} sealed it, and it was deleted "
                                  "afterwards")


def _check_table(session: Session, name: str, seals: TableSeals, progress: Callable[[int], None]) -> _TableResult:
    table = _table(name)
    keys = [c.key for c in table.c]
    current = tuple(_columns(name))
    result = _TableResult()
    for audit_id, why in seals.malformed:
        result.found(name, 0, f"is one of those audit row {audit_id} seals, and {why}")
    seals.settle(current)
    spans = seals.spans
    starts = [span[0] for span in spans]
    row_by_row = _RowByRow(name, keys, current, seals, result)
    for rows in _batches(session, table):
        if not spans:
            row_by_row.check(rows)
        else:
            _check_spans(name, keys, current, rows, spans, starts, row_by_row)
        progress(len(rows))
    for batch in seals.batches:
        if not batch.matches:
            _check_batch_row_by_row(session, name, batch, result)
    row_by_row.missing(session)
    return result


def _check_spans(name: str, keys: list[str], current: tuple[str, ...], rows: Sequence[Sequence[Any]],
                 spans: list[tuple[int, int, BatchSeal]], starts: list[int], row_by_row: _RowByRow) -> None:
    """Feed each bulk seal its rows in this read batch (ids ascending); rows in no bulk seal's run are
    checked row by row."""
    by_column = dict(zip(keys, zip(*rows)))
    ids = by_column["id"]
    i, n = 0, len(ids)
    while i < n:
        k = bisect_right(starts, ids[i]) - 1
        if k >= 0 and ids[i] <= spans[k][1]:
            j = bisect_right(ids, spans[k][1], i)
            spans[k][2].take(name, by_column if j - i == n else {key: column[i:j] for key, column in by_column.items()},
                             j - i)
        else:
            j = bisect_left(ids, starts[k + 1], i) if k + 1 < len(starts) else n
            row_by_row.check(rows[i:j])
        i = j


def _check_batch_row_by_row(session: Session, name: str, batch: BatchSeal, result: _TableResult) -> None:
    """A bulk seal whose rows, read, do not hash as a whole as it recorded: its rows read again and each decided
    against its own hash in the seal, which defines the seal (rows that all match their own hashes match it: the
    whole is a fast path, see storage/seal_batches.py)."""
    table = _table(name)
    hashes = batch.row_seals()
    present: set[int] = set()
    for first, last in batch.runs:
        query = select(table).where(table.c.id.between(first, last)).order_by(table.c.id)
        for row in session.execute(query):
            values = dict(row._mapping)
            row_id = values["id"]
            present.add(row_id)
            sealed = hashes[str(row_id)]
            problem = _problem(name, values, _Seal(sealed, batch.audit_id, sealed, batch.audit_id, batch.columns))
            if problem:
                result.found(name, row_id, problem)
    for row_id in batch.ids():
        if row_id not in present:
            result.found(name, row_id, f"is missing: audit row {batch.audit_id} sealed it, and it was deleted "
                                       "afterwards")


def _batches(session: Session, table: Table) -> Iterator[Sequence[Sequence[Any]]]:
    """The rows of `table` by id, BATCH at a time, in the session's transaction (its snapshot), as SQLAlchemy
    would give their values. A table whose every column SQLAlchemy hands over as the driver gives it (no result
    processor: the vote counts, contests and choices) is read with the driver's own cursor, a tuple a row: building
    SQLAlchemy's rows cost as much as the driver's whole read. PostgreSQL: a server-side cursor either way, so
    the rows stream rather than arrive all at once."""
    connection = session.connection()
    dialect = connection.dialect
    query = select(table).order_by(table.c.id)
    if any(c.type.dialect_impl(dialect).result_processor(dialect, None) is not None for c in table.c):
        yield from session.execute(query.execution_options(yield_per=BATCH)).partitions()
        return
    driver = connection.connection.dbapi_connection
    assert driver is not None
    cursor = driver.cursor(name="recount_bot_seal_check") if dialect.name == "postgresql" else driver.cursor()
    try:
        cursor.execute(str(query.compile(dialect=dialect)))
        while rows := cursor.fetchmany(BATCH):
            yield rows
    finally:
        cursor.close()


def check_rows(session: Session, book: SealBook, progress: Callable[[int], None] | None = None) -> RowsResult:
    """Recompute every sealed table's rows against `book`; the first row (table order, then id) that does not
    match, and how many more do not. `progress(rows checked)` after each batch of rows."""
    checked, problems, first = 0, 0, None

    def done(rows: int) -> None:
        nonlocal checked
        checked += rows
        if progress is not None:
            progress(checked)

    for name in SEALED:
        table = _check_table(session, name, book.tables.get(name) or TableSeals(), done)
        problems += table.problems
        first = first or table.first
    if progress is not None:
        progress(checked)
    return RowsResult(checked, first, max(problems - 1, 0))
