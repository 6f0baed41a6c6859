"""The append-only, hash-chained audit log, and verifying it.

Rows are appended through storage/audit_chain.py (its names are the audit log's: `audit.append`, `audit.head`).
Each row's hash covers its own fields and the previous row's hash, so altering any field of any row, or
removing a row, breaks the chain from that row on, and `verify` names the first row that does not match.
`audit_head` holds the last id and hash, so cutting rows off the end is caught as well.

What the database alone cannot show: someone with write access may recompute every hash after an edit, or cut
the tail and `audit_head` together. `verify(anchor=...)` compares the chain with a checkpoint kept outside the
database (storage/checkpoint.py: the last id and hash, signed), which catches both. And the chain covers the
business rows too: every returns, tally and money row is sealed into it when written (storage/seals.py), and
`verify` recomputes them (storage/seal_check.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session

from storage import seal_check
from storage.audit_chain import (  # noqa: F401  (the chain's names, as the audit log's callers know them)
    ADVISORY_LOCK_KEY,
    GENESIS,
    HEAD_ID,
    append,
    compute_hash,
    head,
)
from storage.models import AuditEntry, AuditHead


@dataclass(frozen=True)
class Anchor:
    """The head of the chain as a checkpoint outside the database recorded it (storage/checkpoint.py)."""

    last_id: int
    last_hash: str
    label: str  # e.g. "the checkpoint of 2026-11-05T17:00:00Z"


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    rows_checked: int
    first_bad_id: int | None = None
    problem: str | None = None
    # The business rows sealed into the chain (storage/seals.py): how many were recomputed, the first that
    # does not match and how many more do not.
    business_rows: int = 0
    bad_row: seal_check.RowProblem | None = None
    more_bad_rows: int = 0
    anchor: Anchor | None = None

    def describe(self) -> str:
        if self.bad_row is not None:
            more = self.more_bad_rows
            also = f"; {more:,} more row{'s' if more != 1 else ''} do{'es' if more == 1 else ''} not match" \
                if more else ""
            return (f"audit log BROKEN at {self.bad_row.describe()}: it {self.bad_row.problem}{also} "
                    f"({self.rows_checked} audit rows, {self.business_rows:,} business rows checked)")
        if not self.ok:
            return f"audit log BROKEN at row {self.first_bad_id}: {self.problem} ({self.rows_checked} rows checked)"
        text = (f"audit log intact: {self.rows_checked} rows, hash chain verified; "
                f"{self.business_rows:,} business rows match what it recorded")
        if self.anchor is not None:
            text += f"; {self.anchor.label} (row {self.anchor.last_id}) matches"
        return text


def _rows(session: Session, batch: int = 1000) -> Iterator[AuditEntry]:
    last = 0
    while True:
        rows = session.scalars(
            select(AuditEntry).where(AuditEntry.id > last).order_by(AuditEntry.id).limit(batch)).all()
        if not rows:
            return
        yield from rows
        last = rows[-1].id
        session.expunge_all()


def _chain(session: Session, book: seal_check.SealBook, progress: Callable[[int], None] | None = None) -> VerifyResult:
    expected_id, prev_hash, checked = 1, GENESIS, 0
    for row in _rows(session):
        if progress is not None and checked % 1000 == 0:
            progress(checked)
        if row.id != expected_id:
            return VerifyResult(False, checked, expected_id,
                                f"row {expected_id} is missing (next row present is {row.id})")
        if row.prev_hash != prev_hash:
            return VerifyResult(False, checked, row.id, "its link to the previous row does not match "
                                "(the previous row was altered or removed)")
        if compute_hash(row) != row.hash:
            return VerifyResult(False, checked, row.id, "its contents were altered after it was written")
        book.add(row)
        checked += 1
        prev_hash, expected_id = row.hash, row.id + 1
    if progress is not None:
        progress(checked)
    stored = session.get(AuditHead, HEAD_ID)
    last_id = expected_id - 1
    if stored is None and last_id == 0:
        return VerifyResult(True, 0)
    if stored is None or stored.last_id != last_id or stored.last_hash != prev_hash:
        recorded = stored.last_id if stored else 0
        return VerifyResult(False, checked, last_id + 1 if recorded > last_id else recorded,
                            f"the log ends at row {last_id} but the chain head records row {recorded}: "
                            "rows were removed from the end or the head was altered")
    return VerifyResult(True, checked)


def _against(session: Session, chain: VerifyResult, anchor: Anchor) -> VerifyResult | None:
    """A chain that verifies on its own but does not contain the anchored head was rewritten or cut."""
    if anchor.last_id == 0:
        return None  # a checkpoint of an empty log vouches for nothing
    last_id = chain.rows_checked
    if last_id < anchor.last_id:
        cut = (f"row {anchor.last_id} was" if last_id + 1 == anchor.last_id
               else f"rows {last_id + 1}-{anchor.last_id} were")
        return VerifyResult(False, chain.rows_checked, last_id + 1, (
            f"the log ends at row {last_id}, but {anchor.label} vouches for row {anchor.last_id}: {cut} cut off "
            "the end (and the chain head rewritten to match)"))
    row = session.get(AuditEntry, anchor.last_id)
    if row is None or row.hash != anchor.last_hash:
        return VerifyResult(False, chain.rows_checked, anchor.last_id, (
            f"its hash is not the one {anchor.label} recorded: the log up to row {anchor.last_id} was "
            "rewritten and its hashes recomputed (the change is at or before this row)"))
    return None


def verify(session: Session, *, anchor: Anchor | None = None, business_rows: bool = True,
           progress: Callable[[int, int], None] | None = None) -> VerifyResult:
    """Check the chain, then (given) that it still holds the anchored head, then every sealed business row.
    The first problem found is reported, in that order. `progress(rows checked, rows in all)` as it goes (audit
    rows, then business rows: a command's progress bar)."""
    book = seal_check.SealBook()
    total = 0
    if progress is not None:
        total = head(session)[0] + (seal_check.count_rows(session) if business_rows else 0)
    chain = _chain(session, book, (lambda done: progress(done, total)) if progress is not None else None)
    if not chain.ok:
        return chain
    if anchor is not None:
        broken = _against(session, chain, anchor)
        if broken is not None:
            return broken
    if not business_rows:
        return VerifyResult(True, chain.rows_checked, anchor=anchor)
    rows = seal_check.check_rows(session, book, (lambda done: progress(chain.rows_checked + done, total))
                            if progress is not None else None)
    return VerifyResult(rows.ok, chain.rows_checked, business_rows=rows.checked, bad_row=rows.first,
                        more_bad_rows=rows.more, anchor=anchor)


