"""`recount-bot audit verify` against someone who can write the database, through the real CLI on each database.

A requested recount is run at the service seam (returns, the cost, the payment, two tally sheets), so the
database holds vote counts, ledger entries and tally sheets sealed as recount-bot writes them. Then the
attacks, each on its own database, each made with SQL as a person with write access would:
- an edited ledger entry and an edited tally sheet: `audit verify` names the row (exit 1);
- an edited ledger entry whose seal and every later hash are recomputed (the log verifies on its own): caught
  only against a checkpoint kept outside the database;
- the tail cut together with `audit_head`: caught against the checkpoint.
An untouched database passes, with and without the checkpoint.
"""
from __future__ import annotations

import datetime as dt
import json
import secrets
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import delete, func, select, update

from storage import audit, seals
from storage.models import AuditEntry, AuditHead, LedgerRow, TallySheetRow
from tests.bot.test_cli_db import recount_bot
from tests.support.recount_office import DEO, recount_in_progress


@pytest.fixture
def office(db):
    """A database with a requested recount paid for and two tally sheets entered; (db, case id)."""
    _, _, case_id = recount_in_progress(db)
    return db, case_id


@pytest.fixture
def key_file(tmp_path) -> Path:
    path = tmp_path / "audit.key"
    path.write_text(secrets.token_hex(32) + "\n")
    return path


def _verify(db, *args: str):
    return recount_bot("audit", "verify", *args, database_url=db.url)


def _checkpoint(db, key_file: Path, path: Path) -> None:
    made = recount_bot("audit", "checkpoint", str(path), "--key-file", str(key_file), database_url=db.url)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith(f"audit checkpoint written to {path}: row ")


def _payment(db) -> int:
    with db.transaction() as s:
        return s.scalar(select(LedgerRow.id).where(LedgerRow.kind == "payment"))


def _with_sql(db, statement) -> None:
    with db.engine.begin() as connection:  # Core, as a person with write access: recount-bot's hooks never see it
        connection.execute(statement)


# ---------------------------------------------------------------- an untouched database
def test_an_untouched_database_passes_with_and_without_its_checkpoint(office, key_file, tmp_path) -> None:
    db, _ = office
    with db.transaction() as s:
        sealed = s.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "rows.sealed"))
        entries = s.scalar(select(func.count()).select_from(AuditEntry))
    assert sealed >= 5  # the returns, the ledger, the cost notice, the sheets
    result = _verify(db)
    assert result.returncode == 0, result.stdout + result.stderr
    # 1 survey version, 1 contest, 2 choices, 4 vote counts, 2 ledger entries, 1 cost notice, 2 tally sheets; the
    # official's membership, the request, its case, the case's 2 deadlines and 3 notices, and its assistant (3)
    assert result.stdout.startswith(f"audit log intact: {entries} rows, hash chain verified; 22 business rows "
                                    "match what it recorded")
    checkpoint = tmp_path / "checkpoint.json"
    _checkpoint(db, key_file, checkpoint)
    stored = json.loads(checkpoint.read_text())
    assert stored["last_id"] == entries and len(stored["hmac_sha256"]) == 64
    anchored = _verify(db, "--against", str(checkpoint), "--key-file", str(key_file))
    assert anchored.returncode == 0, anchored.stdout + anchored.stderr
    assert f"the checkpoint of {stored['made_at']} (row {entries}) matches" in anchored.stdout


# ---------------------------------------------------------------- edited business rows
def test_an_edited_ledger_entry_is_named(office) -> None:
    db, _ = office
    payment = _payment(db)
    _with_sql(db, update(LedgerRow.__table__).where(LedgerRow.__table__.c.id == payment).values(
        amount=Decimal("40.00")))
    result = _verify(db)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith(f"audit log BROKEN at ledger entry {payment} (ledger_entries): it differs from "
                                    "what audit row ")
    assert "when it was written: it was changed afterwards" in result.stdout
    assert "Traceback" not in result.stderr


def test_an_edited_tally_sheet_is_named(office) -> None:
    db, case_id = office
    with db.transaction() as s:
        first = s.scalar(select(func.min(TallySheetRow.id)).where(TallySheetRow.case_id == case_id))
    sheets = TallySheetRow.__table__
    _with_sql(db, update(sheets).where(sheets.c.id == first).values(
        counts={"Dana Whitfield": 600, "Sam Okafor": 811}))
    result = _verify(db)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith(f"audit log BROKEN at tally sheet entry {first} (tally_sheets): it differs ")


def test_a_row_added_with_sql_and_a_deleted_one_are_named(office) -> None:
    db, case_id = office
    payment = _payment(db)
    ledger = LedgerRow.__table__
    _with_sql(db, ledger.insert().values(case_id=case_id, kind="payment", amount=Decimal("1.00"), memo="",
                                         details={}, recorded_by=DEO,
                                         recorded_at=dt.datetime(2026, 11, 10, tzinfo=dt.timezone.utc)))
    result = _verify(db)
    assert result.returncode == 1
    assert "(ledger_entries): it is not in the audit log: it was written outside recount-bot" in result.stdout

    _with_sql(db, delete(ledger).where(ledger.c.kind == "payment"))  # the real payment and the forged one
    result = _verify(db)
    assert result.returncode == 1
    assert result.stdout.startswith(f"audit log BROKEN at ledger entry {payment} (ledger_entries): it is missing: "
                                    "audit row ")


# ---------------------------------------------------------------- rewriting the log itself
def _rewrite_chain_after(db, payment: int, amount: Decimal) -> None:
    """The attack the chain alone cannot see: edit the payment, recompute its seal from the row as now stored,
    then every later hash and the chain head, as anyone with the source code and write access can."""
    ledger = LedgerRow.__table__
    _with_sql(db, update(ledger).where(ledger.c.id == payment).values(amount=amount))
    with db.transaction() as s:
        row = dict(s.execute(select(ledger).where(ledger.c.id == payment)).one()._mapping)
        entries = s.scalars(select(AuditEntry).order_by(AuditEntry.id)).all()
        [seal_entry] = [e for e in entries if e.action == "rows.sealed" and e.entity_id == "ledger_entries"
                        and str(payment) in e.after["rows"]]
        rows = dict(seal_entry.after["rows"])
        rows[str(payment)] = seals.seal_value("ledger_entries", payment, row, seal_entry.after["columns"])
        prev = None
        for entry in entries:
            if entry.id < seal_entry.id:
                prev = entry.hash
                continue
            after = {**entry.after, "rows": rows} if entry.id == seal_entry.id else entry.after
            entry.prev_hash = prev
            entry.after = after
            entry.hash = audit.compute_hash(entry)
            s.execute(update(AuditEntry).where(AuditEntry.id == entry.id).values(
                prev_hash=entry.prev_hash, after=after, hash=entry.hash))
            prev = entry.hash
        s.execute(update(AuditHead).where(AuditHead.id == audit.HEAD_ID).values(last_hash=prev))
        s.expunge_all()


def test_a_recomputed_chain_passes_alone_and_is_caught_against_the_checkpoint(office, key_file, tmp_path) -> None:
    db, _ = office
    checkpoint = tmp_path / "checkpoint.json"
    _checkpoint(db, key_file, checkpoint)
    payment = _payment(db)
    _rewrite_chain_after(db, payment, Decimal("4.00"))
    with db.transaction() as s:
        assert s.scalar(select(LedgerRow.amount).where(LedgerRow.id == payment)) == Decimal("4.00")
    alone = _verify(db)
    assert alone.returncode == 0, alone.stdout  # the database agrees with itself: that is the attack
    last = json.loads(checkpoint.read_text())["last_id"]
    anchored = _verify(db, "--against", str(checkpoint), "--key-file", str(key_file))
    assert anchored.returncode == 1, anchored.stdout + anchored.stderr
    assert anchored.stdout.startswith(f"audit log BROKEN at row {last}: its hash is not the one the checkpoint of ")
    assert "was rewritten and its hashes recomputed" in anchored.stdout


def test_a_tail_cut_with_the_chain_head_is_caught_against_the_checkpoint(office, key_file, tmp_path) -> None:
    db, _ = office
    checkpoint = tmp_path / "checkpoint.json"
    _checkpoint(db, key_file, checkpoint)
    last = json.loads(checkpoint.read_text())["last_id"]
    with db.transaction() as s:
        # Cut back to before the last tally sheet's entry, and the sheet's row with it: nothing dangles.
        entered = s.scalar(select(func.max(AuditEntry.id)).where(AuditEntry.action == "tally.sheet_entered"))
        sheet = s.scalar(select(func.max(TallySheetRow.id)))
        kept = s.scalar(select(AuditEntry.hash).where(AuditEntry.id == entered - 1))
    sheets = TallySheetRow.__table__
    _with_sql(db, delete(sheets).where(sheets.c.id == sheet))
    _with_sql(db, delete(AuditEntry.__table__).where(AuditEntry.__table__.c.id >= entered))
    _with_sql(db, update(AuditHead.__table__).values(last_id=entered - 1, last_hash=kept))
    alone = _verify(db)
    assert alone.returncode == 0, alone.stdout
    anchored = _verify(db, "--against", str(checkpoint), "--key-file", str(key_file))
    assert anchored.returncode == 1, anchored.stdout + anchored.stderr
    assert anchored.stdout.startswith(f"audit log BROKEN at row {entered}: the log ends at row {entered - 1}, but "
                                      f"the checkpoint of ")
    assert f"vouches for row {last}: rows {entered}-{last} were cut off the end" in anchored.stdout


# ---------------------------------------------------------------- the checkpoint itself
def test_a_checkpoint_altered_or_checked_with_another_key_is_refused(office, key_file, tmp_path) -> None:
    db, _ = office
    checkpoint = tmp_path / "checkpoint.json"
    _checkpoint(db, key_file, checkpoint)
    forged = json.loads(checkpoint.read_text())
    forged["last_id"] -= 1
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    result = _verify(db, "--against", str(tmp_path / "forged.json"), "--key-file", str(key_file))
    assert (result.returncode, result.stdout) == (2, "")
    assert "does not match its signature: it was altered after it was made; nothing was verified" in result.stderr

    other = tmp_path / "other.key"
    other.write_text(secrets.token_hex(32))
    result = _verify(db, "--against", str(checkpoint), "--key-file", str(other))
    assert result.returncode == 2 and "was signed with another key" in result.stderr

    short = tmp_path / "short.key"
    short.write_text("too short")
    result = recount_bot("audit", "checkpoint", str(tmp_path / "x.json"), "--key-file", str(short),
                         database_url=db.url)
    assert result.returncode == 2 and "the audit key has 9 bytes; it needs at least 32" in result.stderr
    assert not (tmp_path / "x.json").exists()
    result = recount_bot("audit", "checkpoint", str(tmp_path / "x.json"), database_url=db.url)
    assert result.returncode == 2 and "no audit key: set RECOUNT_AUDIT_KEY_FILE" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_checkpoint_is_made_of_a_broken_log(office, key_file, tmp_path) -> None:
    db, _ = office
    payment = _payment(db)
    _with_sql(db, update(LedgerRow.__table__).where(LedgerRow.__table__.c.id == payment).values(
        amount=Decimal("40.00")))
    result = recount_bot("audit", "checkpoint", str(tmp_path / "cp.json"), "--key-file", str(key_file),
                         database_url=db.url)
    assert result.returncode == 1
    assert result.stdout.startswith("audit log BROKEN at ledger entry")
    assert "no checkpoint written: a checkpoint vouches only for an intact log" in result.stderr
    assert not (tmp_path / "cp.json").exists()
