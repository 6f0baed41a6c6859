"""Completing recounts whose candidates write their names in other scripts, end to end through signed requests, on
each database: the certificate uploaded into the thread and the case record sent by `/recount record` give every
name back (pypdf); a winner whose name no bundled font prints is told to the official who clicked, and nothing
is recorded — no report, no certificate, the card still offering to complete (issue 14, item 2)."""
from __future__ import annotations

import io
import unicodedata

from pypdf import PdfReader
from sqlalchemy import select

from handlers.cards import refresh_card
from services.conduct import cases
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.conduct.tally_sheets import enter_sheet
from services.office import access
from storage.models import AuditEntry, Certificate, Contest, RecountCase
from tests.flows.conftest import load_example
from tests.flows.test_completion_flow import buttons, current, last_told, told_count
from tests.services.test_documents_names import CSV, PRIVATE, VOTES, WORLD
from tests.support.assistants import record_an_assistant
from tests.support.notices import give_all_notices
from tests.support.slack_app import OFFICIAL, TEAM


def counted_card(harness, contest: str, counts: dict[str, int]) -> tuple[int, dict]:
    """The automatic recount's card of `contest` (from `/recount check`), counted, ready to complete."""
    harness.command("check")
    [card] = [m for m in harness.posted() if m["text"].startswith("Automatic recount") and contest in m["text"]]
    services = harness.services
    workspace_id = access.resolve_member(services, TEAM, OFFICIAL).workspace_id
    with services.db.transaction() as s:
        case_id = s.scalar(select(RecountCase.id).join(Contest).where(Contest.name == contest))
    give_all_notices(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)  # (1)
    record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)  # (3)
    assert start_counting(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    set_up_count(services, workspace_id=workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=OFFICIAL)
    enter_sheet(services, workspace_id=workspace_id, case_id=case_id, sheet_id="S-1", unit="Precinct 1",
                counts=counts, entry=1, actor=OFFICIAL)
    refresh_card(services, cases.case_view(services, case_id))
    harness.settle()
    return case_id, card


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return unicodedata.normalize("NFKC", " ".join(page.extract_text() for page in reader.pages))


def printed(name: str, text: str) -> bool:
    name = unicodedata.normalize("NFKC", name)
    return name in text or " ".join(reversed(name.split())) in text


def test_names_in_every_script_come_back_from_the_uploaded_certificate_and_the_record(harness, tmp_path) -> None:
    returns = tmp_path / "returns.csv"
    returns.write_bytes(CSV)
    load_example(harness, path=returns)
    case_id, card = counted_card(harness, WORLD, {**VOTES, "שרה לוי": 1002})
    harness.click(current(harness, card), "case.complete")  # automatic: no modal, the governing body pays
    [upload] = harness.wait("files.completeUploadExternal")
    [certificate] = [f for f in harness.slack.state.files().values() if f["name"].startswith("certificate-of")]
    assert printed("שרה לוי", pdf_text(harness.slack.state.file_content(certificate["id"])))
    assert upload.args  # the certificate went into the case's thread

    harness.command(f"record {case_id}")
    assert "is in your direct messages" in harness.wait("response_url")[-1].args["text"]
    [record] = [f for f in harness.slack.state.files().values() if f["name"].endswith("-record.pdf")]
    text = pdf_text(harness.slack.state.file_content(record["id"]))
    for name in VOTES:
        assert printed(name, text), name


def test_a_winner_whose_name_cannot_be_printed_is_told_and_nothing_is_recorded(harness, tmp_path) -> None:
    returns = tmp_path / "returns.csv"
    returns.write_bytes(CSV)
    load_example(harness, path=returns)
    case_id, card = counted_card(harness, PRIVATE, {"Dana \ue000 Whitfield": 1000, "Sam Okafor": 998})
    thread_before = len(harness.thread(card["ts"]))
    answered = told_count(harness)
    harness.click(current(harness, card), "case.complete")
    told = last_told(harness, answered)
    assert told.startswith("The certificate of election for “Dana \ue000 Whitfield” cannot be printed: the "
                           "candidate's name “Dana \ue000 Whitfield” has “\ue000” (U+E000, a private-use character)")
    assert "Nothing was recorded: the recount is not completed." in told
    harness.settle()
    assert len(harness.thread(card["ts"])) == thread_before  # no report, no notice, no certificate posted
    assert "case.complete" in buttons(current(harness, card))
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None
        assert s.scalars(select(Certificate)).all() == []
        assert s.scalars(select(AuditEntry).where(AuditEntry.action == "case.completed")).all() == []
    assert not [f for f in harness.slack.state.files().values() if f["name"].startswith("certificate-of")]

    # The case record: the PDF is refused with the same care, saying where the name is.
    harness.command(f"record {case_id}")
    told = harness.wait("response_url", count=answered + 2)[-1].args["text"]
    assert told.startswith("The case record's PDF cannot be printed: ") and "(U+E000, a private-use character)" in told
