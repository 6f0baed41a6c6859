"""`recount-bot backup FILE` and `recount-bot restore FILE`, through the real console script, on SQLite and (with
TEST_DATABASE_URL) PostgreSQL: a recount with payments, tally sheets and a certificate comes back row for row, its
audit log verifies, its certificate link still works; across databases; under concurrent writes; and a damaged
file, a newer backup or a database that is not empty is refused with nothing changed."""
from __future__ import annotations

import datetime as dt
import io
import json
import os
import tarfile
import threading
from contextlib import ExitStack
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import inspect, select

from rules.returns import parse_returns
from services.completion.certificates import document_for_token
from services.completion.complete import complete_case
from services.conduct import money as case_money
from services.office import access
from services.returns.versions import import_returns
from services.services import Services
from storage.db import Database
from storage.migrate import current_revision, head_revision, upgrade
from storage.models import Base, LedgerRow
from tests.bot.test_cli_db import assert_refused, recount_bot
from tests.services.test_completion_services import CSV, DEO, TEAM, _requested_case, _tally
from tests.support.databases import fresh_database_url
from tests.support.recount_office import recount_in_progress

NOW = dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc)
needs_postgresql = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"),
                                      reason="set TEST_DATABASE_URL to a PostgreSQL server")


def every_row(url: str) -> dict[str, list[tuple]]:
    """Every table of the models, every row in primary-key order, as Python values (money, times, JSON)."""
    db = Database(url)
    try:
        with db.engine.connect() as connection:
            return {table.name: [tuple(row) for row in connection.execute(
                select(table).order_by(*table.primary_key.columns))] for table in Base.metadata.sorted_tables}
    finally:
        db.dispose()


def tables_of(url: str) -> list[str]:
    db = Database(url)
    try:
        return inspect(db.engine).get_table_names()
    finally:
        db.dispose()


def completed_recount(url: str) -> tuple[int, str]:
    """A requested recount reversed in favor of its requester and completed: payment, cost, refund, two tally
    sheets, one certificate. (case id, the certificate link's token, of which only a hash is stored)."""
    db = Database(url)
    try:
        upgrade(db)
        services = Services(db, clock=lambda: NOW)
        import_returns(services, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                       election_date=dt.date(2026, 11, 3), local_government="Pine Ridge", governing_body="Board",
                       actor="test")
        access.bootstrap_official(services, TEAM, DEO, reason="test")
        services.workspace_id = access.resolve_member(services, TEAM, DEO).workspace_id
        case_id = _requested_case(services, paid="400.00")
        _tally(services, case_id, {"Dana Whitfield": 600, "Sam Okafor": 811},
               {"Dana Whitfield": 747, "Sam Okafor": 590})
        result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                               actual_cost="350.00")
        [(_, _, token)] = result.certificates
        return case_id, token
    finally:
        db.dispose()


@pytest.fixture
def databases(backend, tmp_path):
    """`databases(n)`: n fresh, empty databases of the backend under test (their URLs)."""
    with ExitStack() as stack:
        yield lambda count: [stack.enter_context(fresh_database_url(backend, tmp_path / f"db{i}"))
                             for i in range(count)]


def backup(url: str, target: Path, *extra: str):
    result = recount_bot("backup", str(target), *extra, database_url=url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"backup written to {target}: ")
    return result


def restore(url: str, source: Path):
    result = recount_bot("restore", str(source), database_url=url)
    assert result.returncode == 0, (result.stdout, result.stderr)
    return result


def test_a_backup_restores_every_case_payment_sheet_and_certificate(databases, tmp_path) -> None:
    source, target = databases(2)
    case_id, token = completed_recount(source)
    archive = tmp_path / "recount.tar"
    backup(source, archive)
    assert archive.stat().st_mode & 0o077 == 0  # it holds names and contacts: its owner's only
    result = restore(target, archive)
    assert "every table's row count and checksum match the backup" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("audit log intact: ")
    assert every_row(target) == every_row(source)
    verify = recount_bot("audit", "verify", database_url=target)
    assert verify.returncode == 0 and verify.stdout.startswith("audit log intact"), verify.stdout
    # The certificate's link works on the restored copy: only its hash was stored, and the hash came back.
    db = Database(target)
    try:
        document = document_for_token(Services(db, clock=lambda: NOW), token, now=NOW)
        assert document.facts.candidate == "Sam Okafor"
    finally:
        db.dispose()
    record = json.loads(recount_bot("case-record", str(case_id), database_url=target).stdout)
    assert record["money"]["paid"] == "400.00" and len(record["tally"]["sheets"]) == 2
    assert [c["candidate"] for c in record["certificates"]] == ["Sam Okafor"]
    # New rows after a restore get new ids (PostgreSQL's sequences were moved past the restored ones).
    db = Database(target)
    try:
        services = Services(db, clock=lambda: NOW)
        case_money.record_payment(services, workspace_id=record_workspace(db), case_id=case_id,
                                  amount=Decimal("5.00"), method="check", reference="after-restore",
                                  received_by="Dana", actor=DEO)
    finally:
        db.dispose()


def record_workspace(db: Database) -> int:
    from storage.models import Workspace

    with db.transaction() as session:
        return session.scalar(select(Workspace.id).where(Workspace.slack_team_id == TEAM))


@needs_postgresql
def test_a_backup_of_either_database_restores_into_the_other(tmp_path) -> None:
    with ExitStack() as stack:
        lite, pg, lite_again = (stack.enter_context(fresh_database_url(kind, tmp_path / name)) for kind, name in
                                (("sqlite", "a"), ("postgresql", "b"), ("sqlite", "c")))
        completed_recount(lite)
        backup(lite, tmp_path / "from-sqlite.tar")
        restore(pg, tmp_path / "from-sqlite.tar")
        assert every_row(pg) == every_row(lite)
        result = backup(pg, tmp_path / "from-postgresql.tar")
        assert "native/pg_dump.sql.gz" in result.stdout  # the extra, as pg_dump is installed here
        restore(lite_again, tmp_path / "from-postgresql.tar")
        assert every_row(lite_again) == every_row(lite)
        assert recount_bot("audit", "verify", database_url=lite_again).returncode == 0


def test_a_backup_taken_during_writes_is_one_consistent_moment(databases, tmp_path) -> None:
    source, target = databases(2)
    db = Database(source)
    upgrade(db)
    services, workspace_id, case_id = recount_in_progress(db)
    stop, written, failures = threading.Event(), [0], []

    def pay() -> None:  # each payment: a ledger row, its audit rows and its seal, in one transaction
        try:
            while not stop.is_set():
                written[0] += 1
                case_money.record_payment(services, workspace_id=workspace_id, case_id=case_id,
                                          amount=Decimal("1.00"), method="check", reference=f"T-{written[0]}",
                                          received_by="Dana", actor=DEO)
        except Exception as exc:  # reported below, in the test's thread
            failures.append(exc)

    writer = threading.Thread(target=pay)
    writer.start()
    try:
        while written[0] < 5 and writer.is_alive():
            stop.wait(0.05)
        archive = tmp_path / "during.tar"
        backup(source, archive)
    finally:
        stop.set()
        writer.join(60)
    assert not failures, failures
    with db.read() as session:
        payments_after = len(session.scalars(select(LedgerRow.id)).all())
    db.dispose()
    restore(target, archive)
    restored = every_row(target)
    assert 5 <= len(restored["ledger_entries"]) < payments_after  # some writes before, some after the snapshot
    verify = recount_bot("audit", "verify", database_url=target)
    assert verify.returncode == 0, verify.stdout  # every sealed ledger row matches the log as of that moment
    with tarfile.open(archive) as tar:
        manifest = json.loads(tar.extractfile("manifest.json").read())
    assert manifest["audit_head"]["last_id"] == restored["audit_log"][-1][0]


def _member_offset(archive: Path, member: str) -> int:
    with tarfile.open(archive) as tar:
        return tar.getmember(member).offset_data


def test_a_damaged_or_cut_short_file_is_refused_naming_the_member(databases, tmp_path) -> None:
    source, target = databases(2)
    completed_recount(source)
    archive = tmp_path / "recount.tar"
    backup(source, archive)
    data = archive.read_bytes()
    at = _member_offset(archive, "tables/ledger_entries.jsonl.gz") + 30
    damaged = tmp_path / "damaged.tar"
    damaged.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:])
    stderr = assert_refused(recount_bot("restore", str(damaged), database_url=target), 2,
                            "member tables/ledger_entries.jsonl.gz", "nothing was restored")
    assert "Traceback" not in stderr
    cut = tmp_path / "cut.tar"
    cut.write_bytes(data[:_member_offset(archive, "tables/recount_cases.jsonl.gz") + 10])
    assert_refused(recount_bot("restore", str(cut), database_url=target), 2,
                   "member tables/recount_cases.jsonl.gz is damaged or cut short", "nothing was restored")
    assert tables_of(target) == []  # the database was never touched
    assert_refused(recount_bot("restore", str(tmp_path / "nothing.tar"), database_url=target), 2, "no such file")


def test_restoring_into_a_database_that_holds_rows_is_refused_and_changes_nothing(databases, tmp_path) -> None:
    source, other = databases(2)
    completed_recount(source)
    archive = tmp_path / "recount.tar"
    backup(source, archive)
    db = Database(other)
    try:
        upgrade(db)
        access.bootstrap_official(Services(db, clock=lambda: NOW), "T0OTHER", "U0OTHER", reason="another office")
    finally:
        db.dispose()
    before = every_row(other)
    assert_refused(recount_bot("restore", str(archive), database_url=other), 2,
                   "is not empty: ", "workspaces (1 row)", "memberships (1 row)", "nothing was changed")
    assert every_row(other) == before


def test_a_backup_never_overwrites_unasked_and_a_failed_one_leaves_no_file(databases, tmp_path) -> None:
    [source] = databases(1)
    completed_recount(source)
    archive = tmp_path / "recount.tar"
    archive.write_bytes(b"yesterday's backup")
    assert_refused(recount_bot("backup", str(archive), database_url=source), 2,
                   "already exists; give --force to replace it", "no backup was written")
    assert archive.read_bytes() == b"yesterday's backup"
    backup(source, archive, "--force")
    assert archive.read_bytes() != b"yesterday's backup"
    # A database that is not there: no file, and nothing half-written left beside it.
    missing = f"sqlite:///{tmp_path / 'gone' / 'none.sqlite3'}"
    (tmp_path / "gone").mkdir()
    assert_refused(recount_bot("backup", str(tmp_path / "gone" / "b.tar"), database_url=missing), 2,
                   "no database file at")
    assert sorted(p.name for p in (tmp_path / "gone").iterdir()) == []


def _rewrite_manifest(archive: Path, out: Path, change) -> None:
    with tarfile.open(archive) as tar, tarfile.open(out, "w") as new:
        for member in tar.getmembers():
            data = tar.extractfile(member).read()
            if member.name == "manifest.json":
                manifest = json.loads(data)
                change(manifest)
                data = json.dumps(manifest).encode()
                member.size = len(data)
            new.addfile(member, io.BytesIO(data))


def test_an_older_backup_is_restored_then_upgraded_and_a_newer_one_refused(databases, tmp_path) -> None:
    source, target, untouched = databases(3)
    db = Database(source)
    try:
        upgrade(db, "0007")
        with db.engine.begin() as connection:
            connection.execute(Base.metadata.tables["workspaces"].insert().values(
                id=1, slack_team_id="T0OLD", name="Old office", settings={}, created_at=NOW))
    finally:
        db.dispose()
    archive = tmp_path / "old.tar"
    backup(source, archive)
    result = restore(target, archive)
    assert f"database migrated: the backup's revision 0007 -> {head_revision()}" in result.stdout
    db = Database(target)
    try:
        assert current_revision(db) == head_revision()
    finally:
        db.dispose()
    assert [row[:2] for row in every_row(target)["workspaces"]] == [(1, "T0OLD")]
    newer = tmp_path / "newer.tar"
    _rewrite_manifest(archive, newer, lambda m: m.update(alembic_revision="0099"))
    assert_refused(recount_bot("restore", str(newer), database_url=untouched), 2,
                   "made at database revision 0099, newer than this recount-bot knows", "nothing was changed")
    assert tables_of(untouched) == []
