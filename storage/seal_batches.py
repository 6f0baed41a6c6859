"""Seals of rows written in bulk (storage/seal_stream.py: the vote counts of a survey version): one audit entry per
ROWS_PER_ENTRY rows that seals each row, as every seal does, and the rows as a whole.

    action "rows.sealed", entity "table", entity_id "<table>",
    after {"columns": [every column, as hashed], "ids": [[first id, last id], ...],
           "hashes": "<each row's hash (storage/seal_hash.row_hash), 64 hex digits a row, in id order>",
           "sha256": "<the rows as a whole: `digest` below>"}

Why the whole: `audit verify` reads every vote count of every survey at every run, and writing each row's canonical
JSON and hashing it cost more than reading the row (issue 25: verify at most 3x a bare SELECT). The whole is hashed
a column at a time, ints as 8-byte integers and strings as their lengths and text, in C. It is a fast path only:
rows whose whole matches hold exactly the values sealed, so each row's hash matches too; where the whole does not
match (or its rows were not all read) every row is decided against its own hash, which defines the seal, and the
row that differs is named as for any seal. `ids` lists runs of consecutive ids: a bulk insert is handed one run by
its sequence, usually, or more where another writer took ids in between.
"""
from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass, field
from hashlib import sha256
from operator import itemgetter
from typing import Any, Iterable, Iterator, Mapping, Sequence

from storage.seal_hash import _json, _string, column_hashes

HASH_DIGITS = 64


def is_batch(after: Mapping[str, Any]) -> bool:
    """A seal entry of the bulk form (else the ORM's: "rows": {id: hash})."""
    return "ids" in after and "sha256" in after


def entry(table: str, columns: list[str], rows: Sequence[Sequence[Any]], keys: Sequence[str]) -> dict[str, Any]:
    """The `after` of a bulk seal entry of `rows` as the database returned them (values in the order of `keys`, rows
    in any order). Each row's hash is written a column at a time (`column_hashes`: `row_hash`'s text byte for
    byte), as `audit verify` reads them back."""
    at_id = list(keys).index("id")
    ordered = sorted(rows, key=itemgetter(at_id))
    by_column = dict(zip(keys, zip(*ordered)))
    ids = by_column["id"]
    return {"columns": columns, "ids": runs(ids), "hashes": "".join(column_hashes(table, ids, by_column, columns)),
            "sha256": digest(table, columns, by_column, len(ordered))}


def digest(table: str, columns: Iterable[str], by_column: Mapping[str, Sequence[Any]], count: int) -> str:
    """The hash of `count` rows as a whole, in id order, given column by column (a column not given is null, as in
    `row_hash`): the table's name, then each column's name and values, each part framed by a kind and its length
    so no two different sets of rows can give the same bytes."""
    hasher = sha256(_frame(b"t", _string(table).encode()))
    for name in columns:
        hasher.update(_frame(b"c", _string(name).encode()))
        column = by_column.get(name)
        hasher.update(_column_bytes(column if column is not None else (None,) * count))
    return hasher.hexdigest()


def _frame(kind: bytes, payload: bytes) -> bytes:
    return kind + struct.pack("<Q", len(payload)) + payload


def _column_bytes(column: Sequence[Any]) -> bytes:
    kinds = set(map(type, column))
    if kinds <= {int}:
        try:
            ints = array("q", column)
        except OverflowError:  # past 64 bits: as JSON text below
            pass
        else:
            if sys.byteorder != "little":
                ints.byteswap()
            return _frame(b"q", ints.tobytes())
    if kinds <= {str}:  # lengths in code points, then the text: one way only to cut it back into the values
        return (_frame(b"l", array("q", map(len, column)).tobytes())
                + _frame(b"s", "".join(column).encode("utf-8", "surrogatepass")))
    # Any other kind, or kinds mixed: each value's canonical JSON (as in `row_hash`), which holds no raw newline.
    return _frame(b"j", "\n".join(map(_json, column)).encode("utf-8", "surrogatepass"))


def runs(ids: Sequence[int]) -> list[list[int]]:
    """Ascending ids as runs of consecutive ids: [[first, last], ...]."""
    found: list[list[int]] = []
    for row_id in ids:
        if found and row_id == found[-1][1] + 1:
            found[-1][1] = row_id
        else:
            found.append([row_id, row_id])
    return found


def ids_of(after: Mapping[str, Any]) -> Iterator[int]:
    """The ids a seal entry of either form seals."""
    if is_batch(after):
        for first, last in after.get("ids") or ():
            yield from range(int(first), int(last) + 1)
    else:
        yield from map(int, after.get("rows") or {})


@dataclass
class BatchSeal:
    """A bulk seal entry as `audit verify` checks it: its rows are fed in id order as they are read."""

    audit_id: int
    columns: tuple[str, ...]
    runs: tuple[tuple[int, int], ...]
    sha256: str
    hashes: str
    count: int
    seen: int = 0
    _whole: str | None = field(default=None, repr=False)
    _buffer: dict[str, list[Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, audit_id: int, columns: tuple[str, ...], after: Mapping[str, Any]) -> BatchSeal:
        """Raises ValueError for an entry recount-bot does not write (runs out of order or overlapping, hashes not
        one per row)."""
        try:
            spans = tuple((int(first), int(last)) for first, last in after["ids"])
            sha256, hashes = after["sha256"], after["hashes"]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"its bulk seal is malformed ({error})") from None
        if not spans or any(last < first for first, last in spans) or any(
                spans[i][0] <= spans[i - 1][1] for i in range(1, len(spans))):
            raise ValueError("its bulk seal lists ids out of order")
        count = sum(last - first + 1 for first, last in spans)
        if not isinstance(sha256, str) or not isinstance(hashes, str) or len(hashes) != count * HASH_DIGITS:
            raise ValueError("its bulk seal does not hold one hash per row")
        return cls(audit_id, columns, spans, sha256, hashes, count)

    def ids(self) -> Iterator[int]:
        for first, last in self.runs:
            yield from range(first, last + 1)

    def row_seals(self) -> dict[str, str]:
        """Each row's hash by id, as a seal of the ORM's form holds them."""
        return {str(row_id): self.hashes[i * HASH_DIGITS:(i + 1) * HASH_DIGITS] for i, row_id in enumerate(self.ids())}

    def take(self, table: str, by_column: Mapping[str, Sequence[Any]], count: int) -> None:
        """`count` more of its rows, in id order, column by column. The whole is hashed once every row is in: a
        seal entry's rows may come in two reads."""
        if self.seen == 0 and count == self.count:
            self._whole = digest(table, self.columns, by_column, count)
        else:
            for name in self.columns:
                column = by_column.get(name)
                self._buffer.setdefault(name, []).extend(column if column is not None else (None,) * count)
            if self.seen + count == self.count:
                self._whole = digest(table, self.columns, self._buffer, self.count)
                self._buffer = {}
        self.seen += count

    @property
    def matches(self) -> bool:
        """Every row it sealed was read, and they hash as a whole as sealed."""
        return self.seen == self.count and self._whole == self.sha256
