"""`recount-bot case-record CASE`: the whole record of a recount case as JSON (stdout by default) or PDF, through the
real console script, against SQLite and (with TEST_DATABASE_URL) PostgreSQL."""
from __future__ import annotations

import datetime as dt
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from rules.returns import parse_returns
from services.completion.complete import complete_case
from services.office import access
from services.returns.versions import import_returns
from services.services import Services
from storage.db import Database
from storage.migrate import upgrade
from storage.models import Certificate
from tests.bot.test_cli_db import ISOLATED, ROOT, assert_refused, recount_bot
from tests.services.test_completion_services import CSV, DEO, TEAM, _requested_case, _tally


def recount_bot_bytes(*args: str, database_url: str) -> subprocess.CompletedProcess[bytes]:
    """The console script with stdout as bytes (a PDF), as `recount_bot` runs it otherwise."""
    script = Path(sys.executable).with_name("recount-bot")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}
    env["DATABASE_URL"] = database_url
    return subprocess.run([*command, *args], capture_output=True, env=env, cwd=ROOT, timeout=120)


@pytest.fixture
def completed(empty_database_url):
    """A requested recount of Pine Ridge reversed in favor of the requester, completed; (url, case id)."""
    db = Database(empty_database_url)
    try:
        upgrade(db)
        services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
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
        [(_, _, token)] = result.certificates  # the link's token: only its hash is stored
        with db.transaction() as s:
            stored = s.scalar(select(Certificate.token_sha256))
        yield empty_database_url, case_id, (token, stored)
    finally:
        db.dispose()


def test_the_record_as_json_on_stdout(completed) -> None:
    url, case_id, token = completed
    result = recount_bot("case-record", str(case_id), database_url=url)
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["format"] == "recount-bot case record" and record["case"]["id"] == case_id
    assert record["case"]["status"] == "completed" and record["case"]["contest"] == "Pine Ridge - Director"
    assert [d["citation"] for d in record["decisions"]] == [
        "C.R.S. 1-13.5-1306(2)(a)", "C.R.S. 1-13.5-1306(6)", "C.R.S. 1-13.5-1306(2)(d)"]
    assert record["settlement"]["outcome"] == "refund" and record["money"]["paid"] == "400.00"
    assert [(line["kind"], line["amount"]) for line in record["money"]["ledger"]][-3:] == [
        ("expense", "350.00"), ("governing_body_payment", "350.00"), ("refund", "400.00")]
    assert "case.completed" in [row["action"] for row in record["timeline"]]
    assert record["audit_chain"].startswith("audit log intact")
    assert token[0] not in result.stdout and token[1] not in result.stdout  # links stay out of a record meant
    # to be handed out, and what is stored of them too
    # "#12" is accepted as the card writes it, and --team narrows to one workspace.
    again = recount_bot("case-record", f"#{case_id}", "--team", TEAM.lower(), database_url=url)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["case"]["id"] == case_id


def test_the_record_as_pdf_to_a_file(completed, tmp_path) -> None:
    url, case_id, _ = completed
    out = tmp_path / "record.pdf"
    result = recount_bot("case-record", str(case_id), "--format", "pdf", "--out", str(out), database_url=url)
    assert result.returncode == 0, result.stderr
    assert f"recount case #{case_id} (Pine Ridge - Director): PDF record written to {out}" in result.stdout
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())
    assert f"Record of recount case #{case_id}" in text and "C.R.S. 1-13.5-1306(2)(d)" in text
    assert "Recount completed" in text and "case.completed" not in text
    # A PDF on stdout when stdout is not a terminal (a redirect or a pipe), JSON to a file with --out.
    piped = recount_bot_bytes("case-record", str(case_id), "--format", "pdf", database_url=url)
    assert piped.returncode == 0 and piped.stdout.startswith(b"%PDF") and piped.stdout.rstrip().endswith(b"%%EOF")
    as_json = tmp_path / "record.json"
    assert recount_bot("case-record", str(case_id), "--out", str(as_json), database_url=url).returncode == 0
    assert json.loads(as_json.read_text(encoding="utf-8"))["case"]["id"] == case_id


def test_an_unknown_case_or_workspace_exits_2_with_one_clear_line(completed) -> None:
    url, case_id, _ = completed
    stderr = assert_refused(recount_bot("case-record", "999", database_url=url), 2,
                            "recount-bot case-record: no recount case #999 in the database at ")
    assert len(stderr.strip().splitlines()) == 1
    assert_refused(recount_bot("case-record", str(case_id), "--team", "T0NOBODY", database_url=url), 2,
                   "recount-bot case-record: --team T0NOBODY: no such workspace in the database at ")
    assert_refused(recount_bot("case-record", "twelve", database_url=url), 2,
                   "recount-bot case-record: CASE 'twelve': expected a case number like 12")
