"""The case record, JSON and PDF, says what happened, with citations and the audit timeline."""
from __future__ import annotations

import io
import json

from pypdf import PdfReader

from services.completion.case_record import build_case_record
from services.completion.complete import complete_case
from services.documents.case_record_pdf import case_record_pdf
from services.documents.certificate import CertificateFacts, certificate_pdf
from tests.services.test_completion_services import DEO, _requested_case, _tally, services  # noqa: F401


def test_a_completed_requested_recount_exports_its_whole_record(services) -> None:  # noqa: F811
    case_id = _requested_case(services, paid="400.00")
    _tally(services, case_id, {"Dana Whitfield": 600, "Sam Okafor": 811}, {"Dana Whitfield": 747, "Sam Okafor": 590})
    complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO, actual_cost="350.00")
    record = build_case_record(services, case_id=case_id)
    json.dumps(record)  # JSON-ready: no Decimal, date or float left
    assert record["case"]["status"] == "completed"
    citations = [d["citation"] for d in record["decisions"]]
    assert citations == ["C.R.S. 1-13.5-1306(2)(a)", "C.R.S. 1-13.5-1306(6)", "C.R.S. 1-13.5-1306(2)(d)"]
    actions = [row["action"] for row in record["timeline"]]
    for expected in ("request.entered", "request.approved", "case.opened", "notice.recorded", "cost.determined",
                     "payment.recorded", "counting.started", "tally.sheet_entered", "case.completed"):
        assert expected in actions, expected
    assert record["money"]["paid"] == "400.00" and record["audit_chain"].startswith("audit log intact")
    assert all("token" not in c for c in record["certificates"])
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(case_record_pdf(record))).pages).split())
    assert f"Record of recount case #{case_id}" in text and "C.R.S. 1-13.5-1306(2)(d)" in text
    assert "Recount completed" in text and "case.completed" not in text
    # How long the office keeps it: 25 months after the election of 2026-11-03, cited (C.R.S. 1-7-802).
    assert record["retention"]["keep_until_at_least"] == "2028-12-03"
    assert record["retention"]["citation"] == "C.R.S. 1-7-802"
    assert "Keeping this record" in text and "until 2028-12-03 at least" in text and "[C.R.S. 1-7-802]" in text


def test_the_certificate_names_the_candidate_votes_office_and_signature_line() -> None:
    import datetime as dt

    data = certificate_pdf(CertificateFacts("Nguyễn Văn Ánh", 1234, "Director", "Regular Election", dt.date(2026, 11, 3),
                                            "Pine Ridge Metropolitan District", dt.date(2026, 11, 30), case_id=7))
    text = " ".join(PdfReader(io.BytesIO(data)).pages[0].extract_text().split())  # lines wrap anywhere
    for expected in ("CERTIFICATE OF ELECTION", "Nguyễn Văn Ánh", "1,234", "Director", "November 3, 2026",
                     "Designated Election Official"):
        assert expected in text
