"""`recount-bot restore` loads only a copy whose audit log verifies (issue 23, item 12), through the real console
script, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.

A backup of a database whose payment was edited with SQL (its checksums are those of what it holds: nothing in the
file is damaged) is loaded, verified inside the restore's transaction, and rolled back: exit 2, the verification's
finding named, nothing restored, the target exactly as it was (no tables; or an empty schema already migrated).
With --keep-unverified the copy is kept, and the output says so (exit 1). A copy that verifies is restored as before.
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sqlalchemy import select, update

from storage.db import Database
from storage.migrate import upgrade
from storage.models import LedgerRow
from tests.bot.test_cli_backup import backup, completed_recount, databases, every_row, tables_of  # noqa: F401
from tests.bot.test_cli_db import assert_refused, recount_bot


def _tampered_backup(source: str, archive: Path) -> int:
    """A completed recount whose payment was raised with SQL after the fact, then backed up; the payment's id."""
    completed_recount(source)
    db = Database(source)
    try:
        with db.engine.begin() as c:
            payment = c.execute(select(LedgerRow.id).where(LedgerRow.kind == "payment")).scalar_one()
            c.execute(update(LedgerRow.__table__).where(LedgerRow.__table__.c.id == payment)
                      .values(amount=Decimal("4000.00")))
    finally:
        db.dispose()
    backup(source, archive)
    return payment


def test_a_copy_whose_audit_log_does_not_verify_is_rolled_back(databases, tmp_path) -> None:  # noqa: F811
    source, target, migrated = databases(3)
    archive = tmp_path / "tampered.tar"
    payment = _tampered_backup(source, archive)

    stderr = assert_refused(recount_bot("restore", str(archive), database_url=target), 2,
                            "the copy's audit log does not verify: audit log BROKEN at ledger entry "
                            f"{payment} (ledger_entries)", "Nothing was restored: the database is as it was",
                            "--keep-unverified")
    assert "Traceback" not in stderr
    assert tables_of(target) == []  # not even the schema the restore had built

    # An empty database already migrated (the server started once): still empty, still at its revision.
    db = Database(migrated)
    try:
        upgrade(db)
    finally:
        db.dispose()
    before = every_row(migrated)
    assert_refused(recount_bot("restore", str(archive), database_url=migrated), 2,
                   "the copy's audit log does not verify", "the database is as it was")
    assert every_row(migrated) == before
    assert recount_bot("audit", "verify", database_url=migrated).returncode == 0


def test_keep_unverified_keeps_the_broken_copy_and_says_so(databases, tmp_path) -> None:  # noqa: F811
    source, target = databases(2)
    archive = tmp_path / "tampered.tar"
    payment = _tampered_backup(source, archive)
    result = recount_bot("restore", str(archive), "--keep-unverified", database_url=target)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "every table's row count and checksum match the backup" in result.stdout
    last = result.stdout.rstrip().splitlines()[-1]
    assert last.startswith("KEPT although its audit log does not verify, as --keep-unverified asked: audit log "
                           f"BROKEN at ledger entry {payment} (ledger_entries)"), last
    assert every_row(target) == every_row(source)
    verify = recount_bot("audit", "verify", database_url=target)
    assert verify.returncode == 1 and verify.stdout.startswith(f"audit log BROKEN at ledger entry {payment} ")


def test_a_copy_that_verifies_is_restored(databases, tmp_path) -> None:  # noqa: F811
    source, target = databases(2)
    completed_recount(source)
    archive = tmp_path / "good.tar"
    backup(source, archive)
    result = recount_bot("restore", str(archive), "--keep-unverified", database_url=target)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().splitlines()[-1].startswith("audit log intact: ")
    assert every_row(target) == every_row(source)
