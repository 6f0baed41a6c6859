"""Seals of rows written in bulk (storage/seal_stream.py: the vote counts of a survey version): one audit entry per
ROWS_PER_ENTRY rows that seals the rows as a whole and each row alone.

    action "rows.sealed", entity "table", entity_id "<table>",
    after {"columns": [every column, as hashed], "ids": [[first id, last id], ...],
           "sha256": "<sha256 of the rows' canonical texts in id order, each followed by a newline>",
           "hashes": "<each row's own hash (storage/seal_hash.row_hash), 64 hex digits a row, in id order>"}

Why two: `audit verify` reads every vote count of every survey at every run. With the whole-batch hash it writes
each row's canonical text and hashes a thousand rows in one call, where a hash per row cost more than reading the
row (issue 25: verify at most 3x a bare SELECT); and a seal entry is one string of hashes, not a thousand keys for
the chain's JSON to decode and encode again. The per-row hashes are read only when the batch does not match, to
name the row that differs, as a seal of the ORM's form ("rows": {id: hash}) would.

The texts are those of `row_hash`, which hold no raw newline (JSON escapes it), so "text\\n" a row cannot be cut
two ways. `ids` lists runs of consecutive ids: a bulk insert is handed a run by its sequence (one run, usually;
more where another writer took ids in between).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Sequence

HASH_DIGITS = 64


def is_batch(after: Mapping[str, Any]) -> bool:
    """A seal entry of the bulk form (else the ORM's: "rows": {id: hash})."""
    return "ids" in after and "sha256" in after


def entry(columns: list[str], ids: Sequence[int], texts: Sequence[str], hashes: Sequence[str]) -> dict[str, Any]:
    """The `after` of a bulk seal entry for rows given in any order (a database may return them out of id order)."""
    order = sorted(range(len(ids)), key=ids.__getitem__)
    if any(order[i] != i for i in range(len(order))):
        ids, texts, hashes = [ids[i] for i in order], [texts[i] for i in order], [hashes[i] for i in order]
    return {"columns": columns, "ids": runs(ids), "sha256": digest(texts), "hashes": "".join(hashes)}


def digest(texts: Iterable[str]) -> str:
    hasher = hashlib.sha256()
    feed(hasher, texts)
    return hasher.hexdigest()


def feed(hasher: Any, texts: Iterable[str]) -> None:
    """Add rows' texts to a batch's hash, each followed by a newline."""
    joined = "\n".join(texts)
    if joined:
        hasher.update((joined + "\n").encode())


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
    """A bulk seal entry as `audit verify` checks it: the rows' texts are fed in id order as they are read."""

    audit_id: int
    columns: tuple[str, ...]
    runs: tuple[tuple[int, int], ...]
    sha256: str
    hashes: str
    count: int
    seen: int = 0
    _hasher: Any = field(default_factory=hashlib.sha256, repr=False)

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

    @property
    def first_id(self) -> int:
        return self.runs[0][0]

    def ids(self) -> Iterator[int]:
        for first, last in self.runs:
            yield from range(first, last + 1)

    def row_seals(self) -> dict[str, str]:
        """Each row's hash by id, as a seal of the ORM's form holds them."""
        return {str(row_id): self.hashes[i * HASH_DIGITS:(i + 1) * HASH_DIGITS] for i, row_id in enumerate(self.ids())}

    def take(self, texts: Sequence[str]) -> None:
        feed(self._hasher, texts)
        self.seen += len(texts)

    @property
    def matches(self) -> bool:
        """Every row it sealed was read, and their texts hash as sealed."""
        return self.seen == self.count and self._hasher.hexdigest() == self.sha256
