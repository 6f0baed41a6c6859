"""Names in every script through the whole path, on each database: returns imported, a recount completed, the
certificate and the case record made as PDFs, and the names read back from them with pypdf. A winner whose
name cannot be printed stops the completion before anything is recorded (issue 14, item 2)."""
from __future__ import annotations

import datetime as dt
import io
import re
import unicodedata

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from rules.returns import parse_returns
from services.completion.case_record import build_case_record
from services.completion.certificates import certificate_document
from services.completion.complete import complete_case
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.conduct.tally_sheets import enter_sheet
from services.documents.case_record_pdf import case_record_pdf
from services.documents.glyphs import UnprintableText
from services.office import access
from services.office.office_settings import OfficeSettings
from services.returns.checking import check
from services.returns.versions import import_returns
from services.services import Services
from storage.models import AuditEntry, Certificate, RecountCase, SurveyVersion
from tests.support.assistants import record_an_assistant
from tests.support.notices import give_all_notices

TEAM, DEO = "T0SCRIPTS", "U0OFFICIAL"
WORLD = "Front Range Library District - Trustee"
PRIVATE = "Aspen Water District - Director"
# The survey of returns: 王秀英 ahead of שרה לוי by 0.2 %, so (1) orders a recount; everyone else far behind.
VOTES = {"王秀英": 1000, "שרה לוי": 998, "김민준": 500, "محمد الأحمد": 400, "Ελένη Παπαδοπούλου": 300,
         "Дмитрий Иванов": 200, "José Núñez": 100, "Ana 🌻 López": 50}
# One seat each, said in the file: a library district's trustees are a board, so without it the seats would be
# "not stated" and the survey refused (rules/seats.py).
CSV = ("contest,choice,votes,seats,kind,unit\n"
       + "".join(f"{WORLD},{name},{votes},1,candidate,Precinct 1\n" for name, votes in VOTES.items())
       + f"{PRIVATE},Dana \ue000 Whitfield,1000,1,candidate,Precinct 1\n{PRIVATE},Sam Okafor,998,1,candidate,Precinct 1\n"
       ).encode()


@pytest.fixture
def services(db):
    svc = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    import_returns(svc, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Front Range", governing_body="Board",
                   actor="test")
    access.bootstrap_official(svc, TEAM, DEO, reason="test")
    svc.workspace_id = access.resolve_member(svc, TEAM, DEO).workspace_id
    return svc


def counted(services, contest: str, counts: dict[str, int]) -> int:
    """The automatic recount (1) of `contest`, counted on paper: `counts` is the one precinct's sheet."""
    outcome = check(services, team_id=TEAM, actor=DEO, settings=OfficeSettings())
    case_id = next(v.case_id for v in outcome.verdicts if v.decision.contest == contest)
    give_all_notices(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)  # (1)
    record_an_assistant(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)  # (3)
    assert start_counting(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    set_up_count(services, workspace_id=services.workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=DEO)
    enter_sheet(services, workspace_id=services.workspace_id, case_id=case_id, sheet_id="S-1", unit="Precinct 1",
                counts=counts, entry=1, actor=DEO)
    return case_id


def pdf_lines(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    return [unicodedata.normalize("NFKC", line) for page in reader.pages for line in page.extract_text().splitlines()]


def printed(name: str, text: str) -> bool:
    """In reading order, or (right to left) with the words in the order they stand on the page."""
    return name in text or " ".join(reversed(name.split())) in text


def test_every_name_comes_back_from_the_certificate_and_the_case_record(services) -> None:
    # The recount finds 4 more votes for שרה לוי: she is elected, and her certificate says so.
    case_id = counted(services, WORLD, {**VOTES, "שרה לוי": 1002})
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    assert [c[0] for c in result.certificates] == ["שרה לוי"]
    with services.db.transaction() as s:
        certificate_id = s.scalar(select(Certificate.id).where(Certificate.case_id == case_id))
    document = certificate_document(services, workspace_id=services.workspace_id, certificate_id=certificate_id)
    certificate = " ".join(pdf_lines(document.pdf()))
    assert printed("שרה לוי", certificate) and "1,002" in certificate and "Front Range" in certificate

    record = " ".join(pdf_lines(case_record_pdf(build_case_record(services, case_id=case_id))))
    for name in VOTES:
        assert printed(unicodedata.normalize("NFKC", name), record), name
    # Each vote count stands beside its own name: a right-to-left name is set apart (a bidi isolate), so the
    # numbers after it do not join its run and swap places with another's.
    amended = record[record.index("Results (1306(6))"):]
    assert re.search(r"לוי שרה\W{0,6}998 in the survey of returns, 1,002 in the recount \(\+4\)", amended), amended[:300]
    assert re.search(r"الأحمد محمد\W{0,6}400 in the survey of returns, 400 in the recount", amended), amended[:300]
    assert f"Record of recount case #{case_id}" in record and "Recount completed" in record


def test_a_winner_whose_name_cannot_be_printed_stops_the_completion_before_anything_is_recorded(services) -> None:
    case_id = counted(services, PRIVATE, {"Dana \ue000 Whitfield": 1000, "Sam Okafor": 998})
    with services.db.transaction() as s:
        before = (s.scalar(select(func.count(AuditEntry.id))), s.scalar(select(func.count(SurveyVersion.id))))
    with pytest.raises(UnprintableText) as refused:
        complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    message = refused.value.message
    assert message.startswith("The certificate of election for “Dana \ue000 Whitfield” cannot be printed: the "
                              "candidate's name “Dana \ue000 Whitfield” has “\ue000” (U+E000, a private-use character)")
    assert "Nothing was recorded: the recount is not completed." in message
    with services.db.transaction() as s:
        case = s.get(RecountCase, case_id)
        assert case.completed_at is None and case.status != "completed"
        assert s.scalars(select(Certificate).where(Certificate.case_id == case_id)).all() == []
        assert (s.scalar(select(func.count(AuditEntry.id))), s.scalar(select(func.count(SurveyVersion.id)))) == before

    # The case record's PDF is refused too, saying where in the record the name is; the JSON is whole.
    record = build_case_record(services, case_id=case_id)
    with pytest.raises(UnprintableText) as refused:
        case_record_pdf(record)
    assert refused.value.message.startswith("The case record's PDF cannot be printed: ")
    assert "(U+E000, a private-use character)" in refused.value.message
    assert "JSON record has the exact text" in refused.value.message
    assert any(m.where.startswith("tally") for m in refused.value.missing), [m.where for m in refused.value.missing]
