"""`recount-bot db upgrade`, and how every database command treats DATABASE_URL, through the real console script.

Each run gets DATABASE_URL in its environment, as an operator sets it; the `empty_database_url` fixture gives
a fresh SQLite file and, with TEST_DATABASE_URL set, a fresh PostgreSQL schema.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import inspect

from storage.db import Database
from storage.migrate import current_revision, head_revision

ROOT = Path(__file__).resolve().parents[2]
ISOLATED = ("DATABASE_URL", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "PORT",
            "SLACK_API_BASE_URL", "LOG_LEVEL", "PYTHONUNBUFFERED")


def recount_bot(*args: str, database_url: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("recount-bot")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    return subprocess.run([*command, *args], capture_output=True, text=True, encoding="utf-8", env=env, cwd=cwd,
                          timeout=120)


def assert_refused(result: subprocess.CompletedProcess[str], status: int, *fragments: str) -> str:
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in {result.stderr!r}"
    return result.stderr


def test_upgrade_migrates_an_empty_database_then_finds_it_at_head(empty_database_url) -> None:
    head = head_revision()
    first = recount_bot("db", "upgrade", database_url=empty_database_url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("database at ")
    assert first.stdout.rstrip().endswith(f": revision (empty) -> {head}")
    second = recount_bot("db", "upgrade", database_url=empty_database_url)
    assert second.returncode == 0, second.stderr
    assert second.stdout.rstrip().endswith(f": already at head {head}")
    assert second.stderr == ""
    db = Database(empty_database_url)
    try:
        assert current_revision(db) == head
        assert {"audit_log", "elections", "workspaces"} <= set(inspect(db.engine).get_table_names())
    finally:
        db.dispose()


def test_without_database_url_the_sqlite_file_in_the_working_directory_is_used(tmp_path) -> None:
    result = recount_bot("db", "upgrade", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "database at sqlite:///recount-bot.sqlite3: revision (empty) -> " in result.stdout
    assert (tmp_path / "recount-bot.sqlite3").exists()


def test_a_malformed_database_url_is_named_in_one_line_without_its_password() -> None:
    stderr = assert_refused(recount_bot("db", "upgrade", database_url="mysql://clerk:s3cret@db/recounts"), 2,
                                   "recount-bot db upgrade: DATABASE_URL", "only sqlite and postgresql")
    assert "s3cret" not in stderr and len(stderr.strip().splitlines()) == 1
    assert_refused(recount_bot("audit", "verify", database_url="not a url"), 2,
                          "DATABASE_URL is not a database URL")


def test_a_database_that_does_not_answer_exits_1_in_one_line_with_the_password_hidden() -> None:
    url = "postgresql://clerk:s3cret@127.0.0.1:1/recounts"  # nothing listens on port 1
    stderr = assert_refused(recount_bot("db", "upgrade", database_url=url), 1,
                                   "recount-bot db upgrade: cannot use the database at", "clerk:***@127.0.0.1:1")
    assert "s3cret" not in stderr and "--debug" not in stderr
    assert len(stderr.strip().splitlines()) == 1
