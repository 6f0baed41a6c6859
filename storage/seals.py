"""Seals: the content of every row that says what the recount counted, who may act, and what was decided,
recorded in the audit log's hash chain when written.

The audit log says what was done; a seal says what the row then held, so a row edited afterwards with SQL is
caught by `recount-bot audit verify` even when nobody touched the audit log itself.

Sealed tables (SEALED below): the survey of returns (survey_versions, vote_counts, contests, choices), the
recount's tally sheets, and the money (ledger_entries, cost_notices, assistants and their pay); who may act
(memberships: roles and delegated approvers; candidate_users: who may not decide their own contest); and what
was decided (recount_requests and their decisions, recount_cases with their status, completion and settlement,
their deadlines, notices, evidence demands, lot drawings, certificates and waivers). When a transaction inserts, changes
or deletes such a row through the ORM, its outermost commit reads the row back as stored and appends, after the
change's own audit entries, one audit entry per table and per 1,000 rows:

    action "rows.sealed", entity "table", entity_id "<table>",
    after {"columns": [every column, as hashed], "rows": {"<id>": "<sha256>" | ["<fixed sha256>", "<sha256>"]
                                                                  | null}}

`<sha256>` covers every column listed; `<fixed sha256>` only the columns that never change once written (FIXED
below). Where the two are the same set (rows that never change: the ledger, vote counts) one hash is stored.
Each hash covers the table's name and the row's id too, so contents moved from one row to another do not match.
`null` seals a deletion: recount-bot deletes a membership when a role is taken away and a candidacy entered in
error; the row's history ends there (a later row with the same id, which SQLite may hand out again, starts anew).
Rows written in bulk (a survey's vote counts, storage/seal_stream.py) are sealed in a second form, a hash of the
thousand rows as a whole beside each row's hash (storage/seal_batches.py), which `verify` checks with one hash.

`audit verify` recomputes every sealed row (storage/seal_check.py) and reports the first that
- differs from its latest seal (changed after it was written, outside recount-bot),
- differs in its fixed columns from its FIRST seal (history rewritten by appending a seal of new contents),
- has no seal (written outside recount-bot), is missing while sealed (deleted outside recount-bot), or is back
  after recount-bot sealed its deletion.

Readings and limits, decided here:
- Rows are sealed from their stored values (read back at commit, or returned by the INSERT), so money, times
  and JSON hash exactly as `verify` later reads them, on SQLite and PostgreSQL alike.
- Only the ORM's unit of work is seen by the hooks. The one bulk writer, the vote counts of a survey version
  (services/returns/versions.py), inserts through `storage.seal_stream.insert_sealed`, which seals each batch as
  it is written, from the rows the database returns. Where recount-bot changes a sealed column with a Core UPDATE
  (deciding a request: one UPDATE ... WHERE status = 'pending', so two deciders cannot both win), it calls `mark`
  for the row; any other Core write would show as an altered row (the tests run `verify` after real flows).
- UNSEALED lists the columns left out of every hash: where a card is in Slack (`card_ts`), which holds a
  posting claim ("posting:<epoch>") taken and released by Core UPDATEs while the card is posted. It decides
  nothing; a wrong one sends a card's edits to another message, never changes what the card says.
- FIXED lists the columns a row keeps for ever. A column added later by a migration belongs outside it
  (rows sealed before it existed have no fixed hash over it); `tests/storage/test_seals.py` makes sure every
  column of a sealed table is classified.
- Anyone who can write the database can also append a seal of a NEW row, as recount-bot would: that is a
  forged action, visible in the log, not a silent rewrite. A rewrite of the chain itself is caught only
  against a checkpoint kept outside the database (storage/checkpoint.py).
"""
from __future__ import annotations

import datetime as dt
import functools
import weakref
from typing import Any, Iterable, Iterator, Mapping

from sqlalchemy import Table, event, select
from sqlalchemy.orm import Session, sessionmaker

from storage import audit_chain as audit
from storage import seal_batches
from storage.models import (
    AssistantRow,
    AutomaticRecountWaiver,
    CandidateUser,
    CaseDeadline,
    Certificate,
    Choice,
    Contest,
    CostNotice,
    EvidenceDemand,
    LedgerRow,
    LotDrawing,
    Membership,
    Notice,
    RecountCase,
    RecountRequestRow,
    SurveyVersion,
    TallySheetRow,
    VoteCount,
)
from storage.seal_hash import _plain, row_hash, row_hash_by_json  # noqa: F401  (the seals' names, as callers know them)

ACTION = "rows.sealed"
ENTITY = "table"
ROWS_PER_ENTRY = 1000
_READ_BATCH = 900  # ids per read-back: under SQLite's oldest limit of 999 bound parameters

# table -> (model, the columns a row never changes once written). Order: the order `verify` reports in.
SEALED: dict[str, tuple[type, tuple[str, ...]]] = {
    "survey_versions": (SurveyVersion, ("id", "election_id", "number", "reason", "evidence", "source_format",
                                        "source_name", "source_sha256", "created_by", "created_at")),
    "contests": (Contest, ("id", "election_id", "name", "position")),  # seats and kind: re-imports correct them
    "choices": (Choice, ("id", "contest_id", "name", "position", "party")),
    "vote_counts": (VoteCount, ("id", "survey_version_id", "contest_id", "choice_id", "unit", "votes")),
    "tally_sheets": (TallySheetRow, ("id", "case_id", "sheet_id", "unit", "method", "counts", "entry", "entered_by",
                                     "entered_at")),  # withdrawn_*: a sheet is withdrawn later, with a reason
    "ledger_entries": (LedgerRow, ("id", "case_id", "kind", "amount", "memo", "details", "recorded_by",
                                   "recorded_at")),
    "cost_notices": (CostNotice, ("id", "case_id", "cost", "notified_at", "method", "notified_by", "details",
                                  "recorded_by", "recorded_at")),
    "assistants": (AssistantRow, ("id", "case_id")),  # an assistant's days and pay are updated as they serve
    # Who may act: a role is changed in place (or the membership deleted); who is a candidate in which contest.
    "memberships": (Membership, ("id", "workspace_id", "slack_user_id")),
    "candidate_users": (CandidateUser, ("id", "workspace_id", "contest_id", "choice_id", "slack_user_id",
                                        "recorded_by", "recorded_at")),
    # What was decided: the request as received and the core's evaluation never change; its decision does.
    "recount_requests": (RecountRequestRow, ("id", "workspace_id", "contest_id", "requester_name",
                                             "requester_contact", "requester_slack_user", "party_kind",
                                             "candidate_choice", "committee_side", "in_favor_of", "received_on",
                                             "received_reference", "entered_by", "entered_at", "evaluation",
                                             "form_key")),
    "recount_cases": (RecountCase, ("id", "workspace_id", "contest_id", "kind", "opened_at", "opened_by")),
    "case_deadlines": (CaseDeadline, ("id", "case_id", "name", "due_date", "citation", "note", "reading",
                                      "rolled_from", "estimated", "falls_on")),  # done_at: when it was met
    "notices": (Notice, ("id", "case_id", "recipient_kind", "recipient_name", "citation")),  # given_*: later
    "evidence_demands": (EvidenceDemand, ("id", "case_id", "description", "demanded_of", "demanded_at",
                                          "demanded_by")),  # produced*: later
    "lot_drawings": (LotDrawing, ("id", "case_id", "drawn_at", "place", "conducted_by", "witnesses", "method",
                                  "method_details", "tied", "winners", "candidate_notices", "decision",
                                  "recorded_by", "recorded_at")),  # amended_notice_*: recorded later
    # A certificate's link (its token's hash, expiry) is renewed and its delivery recorded later.
    "certificates": (Certificate, ("id", "case_id", "candidate", "votes", "created_at", "signer_name",
                                   "signer_title")),
    # 1-10.5-103: a waiver is written once and never changed.
    "automatic_recount_waivers": (AutomaticRecountWaiver, ("id", "case_id", "waived_by", "capacity", "received_on",
                                                           "reference", "citation", "decision", "recorded_by",
                                                           "recorded_at")),
}
# Columns in no hash (see the module's doc): where a card is in Slack, claimed by Core UPDATEs while it is posted.
UNSEALED: dict[str, tuple[str, ...]] = {"recount_requests": ("card_ts",), "recount_cases": ("card_ts",)}
# What people call a row of each table, in verify's report.
ROW_NOUN = {
    "survey_versions": "survey version", "contests": "contest", "choices": "choice", "vote_counts": "vote count",
    "tally_sheets": "tally sheet entry", "ledger_entries": "ledger entry", "cost_notices": "cost notice",
    "assistants": "assistant", "memberships": "membership (role)", "candidate_users": "candidacy",
    "recount_requests": "recount request", "recount_cases": "recount case", "case_deadlines": "case deadline",
    "notices": "notice", "evidence_demands": "evidence demand", "lot_drawings": "lot drawing",
    "certificates": "certificate", "automatic_recount_waivers": "waiver of an automatic recount",
}

_PENDING = "recount_bot.seals.pending"  # session.info: {table: set of ids} written in this transaction
_DELETED = "recount_bot.seals.deleted"  # session.info: {table: set of ids} deleted in this transaction


# ----------------------------------------------------------------------------- hashing: storage/seal_hash.py
def _table(name: str) -> Table:
    return SEALED[name][0].__table__


def _columns(name: str) -> list[str]:
    return sorted(c.name for c in _table(name).columns if c.name not in UNSEALED.get(name, ()))


def seal_value(name: str, row_id: int, values: Mapping[str, Any], columns: list[str] | tuple[str, ...]
               ) -> str | list[str]:
    full = row_hash(name, row_id, values, columns)
    fixed_columns = SEALED[name][1]
    if _all_fixed(name, tuple(columns)):
        return full
    return [row_hash(name, row_id, values, fixed_columns), full]


@functools.lru_cache(maxsize=64)
def _all_fixed(name: str, columns: tuple[str, ...]) -> bool:
    return sorted(SEALED[name][1]) == list(columns)


def _read_back(session: Session, name: str, ids: Iterable[int]) -> Iterator[dict[str, Any]]:
    table = _table(name)
    ordered = sorted(ids)
    for start in range(0, len(ordered), _READ_BATCH):
        chunk = ordered[start:start + _READ_BATCH]
        rows = session.execute(select(table).where(table.c.id.in_(chunk)).order_by(table.c.id))
        yield from (dict(r._mapping) for r in rows)


# ----------------------------------------------------------------------------- sealing at commit
def _sealed_rows(session: Session, name: str, ids: set[int], deleted: set[int],
                 columns: list[str]) -> Iterator[tuple[int, Any]]:
    """(id, seal) of each row as stored now; None for a row deleted in this transaction and not there."""
    found = set()
    for values in _read_back(session, name, ids | deleted):  # a row a savepoint rolled back is simply not there
        found.add(values["id"])
        yield values["id"], seal_value(name, values["id"], values, columns)
    for row_id in sorted(deleted - found):
        yield row_id, None


def seal(session: Session, pending: dict[str, set[int]], *, actor: str, workspace_id: int | None,
         at: dt.datetime | None, deleted: dict[str, set[int]] | None = None) -> int:
    """Append the seals of `pending` rows (as stored now) and of `deleted` ones to the audit log; the number of
    rows sealed."""
    sealed, deleted = 0, deleted or {}
    for name in SEALED:
        ids, gone = pending.get(name, set()), deleted.get(name, set())
        if not ids and not gone:
            continue
        columns = _columns(name)
        batch: dict[str, Any] = {}
        for row_id, value in _sealed_rows(session, name, ids, gone, columns):
            batch[str(row_id)] = value
            if len(batch) == ROWS_PER_ENTRY:
                audit.append(session, actor=actor, action=ACTION, entity=ENTITY, entity_id=name,
                             after={"columns": columns, "rows": batch}, workspace_id=workspace_id, at=at)
                sealed, batch = sealed + len(batch), {}
        if batch:
            audit.append(session, actor=actor, action=ACTION, entity=ENTITY, entity_id=name,
                         after={"columns": columns, "rows": batch}, workspace_id=workspace_id, at=at)
            sealed += len(batch)
    return sealed


def baseline(connection, *, actor: str, at: dt.datetime, tables: Iterable[str]) -> int:
    """Seal, as they are now, the rows of `tables` written before those tables were sealed: migration 0006 calls
    this once for the returns, tallies and money, 0014 for the rows that say who may act and what was decided.
    Core only, over the columns the database has at that revision (a later revision may add some), so it runs
    the same whatever the models say by then; the audit entries it appends name `actor`. The number of rows
    sealed."""
    from sqlalchemy import inspect

    from storage.models import AuditEntry, AuditHead

    present = inspect(connection)
    log = AuditEntry.__table__
    sealed_already: dict[str, set[int]] = {}
    for entity_id, after in connection.execute(select(log.c.entity_id, log.c.after).where(
            log.c.action == ACTION, log.c.entity == ENTITY)):
        sealed_already.setdefault(entity_id, set()).update(seal_batches.ids_of(after or {}))
    entries: list[tuple[str, list[str], dict[str, Any]]] = []
    wanted = set(tables)
    for name in SEALED:
        if name not in wanted or not present.has_table(name):
            continue
        table = _table(name)
        existing = {c["name"] for c in present.get_columns(name)}
        columns = sorted(c for c in existing if c in table.c and c not in UNSEALED.get(name, ()))
        query = select(*(table.c[c] for c in columns)).order_by(table.c.id)
        batch: dict[str, Any] = {}
        for row in connection.execute(query):
            values = dict(row._mapping)
            if values["id"] in sealed_already.get(name, ()):
                continue
            batch[str(values["id"])] = seal_value(name, values["id"], values, columns)
            if len(batch) == ROWS_PER_ENTRY:
                entries.append((name, columns, batch))
                batch = {}
        if batch:
            entries.append((name, columns, batch))
    if not entries:
        return 0
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({audit.ADVISORY_LOCK_KEY})")
    head = AuditHead.__table__
    found = connection.execute(select(head.c.last_id, head.c.last_hash).where(head.c.id == audit.HEAD_ID)).first()
    last_id, last_hash = found if found else (0, audit.GENESIS)
    stamp = at.astimezone(dt.timezone.utc)
    for name, columns, rows in entries:
        entry = AuditEntry(id=last_id + 1, at=stamp, workspace_id=None, actor=actor, action=ACTION, entity=ENTITY,
                           entity_id=name, before=None, after={"columns": columns, "rows": rows},
                           prev_hash=last_hash)  # transient: only to compute its hash as verify will
        entry.hash = audit.compute_hash(entry)
        connection.execute(log.insert().values(
            id=entry.id, at=stamp, workspace_id=None, actor=actor, action=ACTION, entity=ENTITY, entity_id=name,
            before=None, after=entry.after, prev_hash=last_hash, hash=entry.hash))
        last_id, last_hash = entry.id, entry.hash
    if found:
        connection.execute(head.update().where(head.c.id == audit.HEAD_ID).values(last_id=last_id,
                                                                                    last_hash=last_hash))
    else:
        connection.execute(head.insert().values(id=audit.HEAD_ID, last_id=last_id, last_hash=last_hash))
    return sum(len(rows) for _, _, rows in entries)


def _collect(session: Session, _context) -> None:
    # `session.new` and `.dirty` are built afresh at each access: read each once (a survey has many rows).
    inserted = [obj for obj in session.new if type(obj).__tablename__ in SEALED]
    changed = [obj for obj in session.dirty if type(obj).__tablename__ in SEALED
               and session.is_modified(obj, include_collections=False)]
    for obj in (*inserted, *changed):
        session.info.setdefault(_PENDING, {}).setdefault(type(obj).__tablename__, set()).add(obj.id)
    for obj in session.deleted:
        if type(obj).__tablename__ in SEALED:
            session.info.setdefault(_DELETED, {}).setdefault(type(obj).__tablename__, set()).add(obj.id)


def mark(session: Session, row: Any) -> None:
    """Seal `row` at commit although the ORM did not see it change: after a Core UPDATE of its sealed columns."""
    if type(row).__tablename__ not in SEALED:
        raise ValueError(f"{type(row).__tablename__} is not a sealed table")
    session.info.setdefault(_PENDING, {}).setdefault(type(row).__tablename__, set()).add(row.id)


def _seal_at_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint's rows are sealed by the commit of the transaction around it
    session.flush()
    pending, deleted = session.info.pop(_PENDING, None), session.info.pop(_DELETED, None)
    if pending or deleted:
        actor, workspace_id, at = session.info.get(audit.LAST_AUDIT) or ("recount-bot", None, None)
        seal(session, pending or {}, actor=actor, workspace_id=workspace_id, at=at, deleted=deleted)


def _forget(session: Session, transaction) -> None:
    if transaction.parent is None:  # the outermost transaction ended: committed (sealed) or rolled back
        session.info.pop(_PENDING, None)
        session.info.pop(_DELETED, None)
        session.info.pop(audit.LAST_AUDIT, None)


# The sessionmakers whose sessions are sealed. Not `event.contains`: SQLAlchemy remembers a listener by the id() of
# the sessionmaker's Session subclass and keeps that key after the class is collected, so a new sessionmaker that
# reuses the id (a process that opens and disposes many databases) was taken for one already sealed and its
# writes went unsealed.
_INSTALLED: weakref.WeakSet[sessionmaker] = weakref.WeakSet()


def install(sessions: sessionmaker) -> None:
    """Seal what the sessions of `sessions` write: storage/db.py calls this for every Database it opens."""
    if sessions in _INSTALLED:
        return
    for name, hook in (("after_flush", _collect), ("before_commit", _seal_at_commit),
                       ("after_transaction_end", _forget)):
        event.listen(sessions, name, hook)
    _INSTALLED.add(sessions)
