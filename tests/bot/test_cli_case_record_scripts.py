"""`recount-bot case-record CASE --format pdf` with names in every script, through the real console script, on each
database: every name comes back from the PDF; a name no bundled font prints is refused with exit status 1 and
one clear message, and no file is written (issue 14, item 2)."""
from __future__ import annotations

import datetime as dt
import io
import unicodedata

import pytest
from pypdf import PdfReader

from rules.returns import parse_returns
from services.completion.complete import complete_case
from services.office import access
from services.returns.versions import import_returns
from services.services import Services
from storage.db import Database
from storage.migrate import upgrade
from tests.bot.test_cli_db import assert_refused, recount_bot
from tests.services.test_documents_names import CSV, DEO, PRIVATE, TEAM, VOTES, WORLD, counted


@pytest.fixture
def cases(empty_database_url):
    """(url, the completed recount of WORLD, the counted, not completed, recount of PRIVATE)."""
    db = Database(empty_database_url)
    try:
        upgrade(db)
        services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
        import_returns(services, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                       election_date=dt.date(2026, 11, 3), local_government="Front Range", governing_body="Board",
                       actor="test")
        access.bootstrap_official(services, TEAM, DEO, reason="test")
        services.workspace_id = access.resolve_member(services, TEAM, DEO).workspace_id
        world = counted(services, WORLD, {**VOTES, "שרה לוי": 1002})
        complete_case(services, workspace_id=services.workspace_id, case_id=world, actor=DEO)
        private = counted(services, PRIVATE, {"Dana \ue000 Whitfield": 1000, "Sam Okafor": 998})
        yield empty_database_url, world, private
    finally:
        db.dispose()


def test_every_name_comes_back_from_the_pdf_record(cases, tmp_path) -> None:
    url, world, _ = cases
    out = tmp_path / "record.pdf"
    result = recount_bot("case-record", str(world), "--format", "pdf", "--out", str(out), database_url=url)
    assert result.returncode == 0, result.stderr
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    text = unicodedata.normalize("NFKC", " ".join(page.extract_text() for page in reader.pages))
    for name in VOTES:
        name = unicodedata.normalize("NFKC", name)
        assert name in text or " ".join(reversed(name.split())) in text, name


def test_a_name_no_font_prints_refuses_the_pdf_and_writes_nothing(cases, tmp_path) -> None:
    url, _, private = cases
    out = tmp_path / "record.pdf"
    result = recount_bot("case-record", str(private), "--format", "pdf", "--out", str(out), database_url=url)
    message = assert_refused(result, 1, "recount-bot case-record: The case record's PDF cannot be printed: ",
                             "(U+E000, a private-use character)", "--format json")
    assert "unexpected error" not in message and not out.exists()
    # The JSON record is still there for the asking, with the name exactly as entered.
    as_json = recount_bot("case-record", str(private), database_url=url)
    assert as_json.returncode == 0 and "Dana \ue000 Whitfield" in as_json.stdout
