"""`recount-bot audit verify`: intact after real changes; broken, naming the row, after SQL alters or removes one."""
from __future__ import annotations

from sqlalchemy import delete, func, select, update

from storage.db import Database
from storage.models import AuditEntry
from tests.bot.test_cli_db import recount_bot
from tests.bot.test_cli_import import ELECTION, EXAMPLE, PLACE


def _log_with_rows(url: str) -> int:
    result = recount_bot("import", str(EXAMPLE), *ELECTION, *PLACE, "--team", "T0OFFICE1", database_url=url)
    assert result.returncode == 0, result.stderr
    db = Database(url)
    try:
        with db.transaction() as s:
            return s.scalar(select(func.count()).select_from(AuditEntry))
    finally:
        db.dispose()


def _sql(url: str, statement) -> None:
    db = Database(url)
    try:
        with db.transaction() as s:
            s.execute(statement)
    finally:
        db.dispose()


def test_intact_then_an_altered_row_is_named(empty_database_url) -> None:
    url = empty_database_url
    rows = _log_with_rows(url)
    assert rows >= 3
    intact = recount_bot("audit", "verify", database_url=url)
    assert intact.returncode == 0, intact.stderr
    assert intact.stdout.startswith(f"audit log intact: {rows} rows, hash chain verified")

    _sql(url, update(AuditEntry).where(AuditEntry.id == 2).values(actor="U0SOMEONE"))
    broken = recount_bot("audit", "verify", database_url=url)
    assert broken.returncode == 1
    assert broken.stdout.startswith("audit log BROKEN at row 2: its contents were altered after it was written")
    assert "Traceback" not in broken.stderr


def test_a_removed_row_is_named(empty_database_url) -> None:
    url = empty_database_url
    rows = _log_with_rows(url)
    _sql(url, delete(AuditEntry).where(AuditEntry.id == 2))
    middle = recount_bot("audit", "verify", database_url=url)
    assert middle.returncode == 1
    assert "BROKEN at row 2: row 2 is missing" in middle.stdout

    _sql(url, delete(AuditEntry).where(AuditEntry.id >= 2))  # cut the end off instead: the chain head knows
    tail = recount_bot("audit", "verify", database_url=url)
    assert tail.returncode == 1
    assert f"the chain head records row {rows}" in tail.stdout


def test_an_empty_log_is_intact(empty_database_url) -> None:
    result = recount_bot("audit", "verify", database_url=empty_database_url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("audit log intact: 0 rows")
