"""Issue 22 item 3: the waiver of an automatic recount (C.R.S. 1-10.5-103), end to end through signed requests into
the real app, the Web API stand-in and each database.

The coordinated election of Tue 2026-11-03 (the sandbox's 1-10.5 example), with its Ballot Issue 4A made to fail
narrowly (Yes 4,870, No 4,890: a margin of 20, within 1/2 of 1% of 4,890): /recount check opens two automatic
recounts, the director's race and 4A. Counted by hand: 23 days after the election is Thu 11-26, Thanksgiving, so
the written notice may be received through Fri 2026-11-27.
"""
from __future__ import annotations

import datetime as dt
import html
import io
from pathlib import Path

from pypdf import PdfReader
from sqlalchemy import select

from rules.returns import parse_returns
from sandbox.seed import EXAMPLES, by_district
from services.completion.case_record import build_case_record
from services.documents.case_record_pdf import case_record_pdf
from services.office.deadlines import live_deadlines
from services.returns.versions import import_returns
from storage import audit
from storage.models import AuditEntry, AutomaticRecountWaiver, RecountCase, Workspace
from tests.flows.test_completion_flow import buttons, current, open_modal, text, thread_texts
from tests.flows.test_observers_page_note import _share
from tests.flows.test_request_flow import grant
from tests.support.slack_app import STAFF, TEAM, text_of

MEASURE = "Willow Valley School District RE-3 - Ballot Issue 4A"
DIRECTOR = "Willow Valley School District RE-3 - Director District 4"
FAILING = {("Yes", "Precinct 11"): 2380, ("Yes", "Precinct 12"): 2490}  # No keeps 2391 + 2499 = 4,890
BOARD = "Willow Valley School District RE-3 Board of Education"


def _returns(law: str, failing: bool) -> list[tuple[str, bytes, object]]:
    [example] = [e for e in EXAMPLES if e.law == law]
    data = Path(example.path).read_bytes()
    if failing:
        lines = data.decode().splitlines()
        for i, line in enumerate(lines):
            contest, choice, _votes, *rest = line.split(",")
            if contest == MEASURE and (choice, rest[-1]) in FAILING:
                lines[i] = ",".join([contest, choice, str(FAILING[(choice, rest[-1])]), *rest])
        data = ("\n".join(lines) + "\n").encode()
    return [(government, part, example) for government, part in by_district(data)]


def load(harness, *, law: str = "1-10.5", failing: bool = True, now: dt.datetime) -> None:
    harness.clock.now = now
    for government, data, example in _returns(law, failing):
        import_returns(harness.services, team_id=TEAM, returns=parse_returns(data), election_name=example.name,
                       election_date=example.election_date, local_government=government,
                       governing_body=example.governing_bodies[government], source_name=example.path.name,
                       source_bytes=data, actor="test", law=example.law)
    grant(harness, STAFF, "staff")


def cards(harness, count: int) -> dict[str, dict]:
    """/recount check: the automatic cases' cards, by contest."""
    assert harness.command("check").status == 200
    _verdicts, *posted = harness.wait("chat.postMessage", count=1 + count)
    found = {}
    for message in harness.posted():
        for contest in (MEASURE, DIRECTOR):
            if message["text"].startswith("Automatic recount") and contest in message["text"]:
                found[contest] = message
    return found


def waiver_values(received: dt.date) -> dict:
    return {"waiver.by": text(BOARD), "waiver.capacity": text("Board president Ana Ortiz, by Resolution 2026-41"),
            "waiver.received_on": {"type": "datepicker", "selected_date": received.isoformat()},
            "waiver.reference": text("Resolution 2026-41, signed letter received by e-mail, filed as W-12")}


def test_a_waiver_recorded_closes_the_case_says_so_and_stops_its_deadlines(harness) -> None:
    load(harness, now=dt.datetime(2026, 11, 20, 17, 0, tzinfo=dt.timezone.utc))
    found = cards(harness, 2)
    card = found[MEASURE]
    # Offered for the failed measure only; the director's race is an office, which 1-10.5-103 does not let anyone
    # waive.
    assert "case.waiver" in buttons(card) and "case.waiver" not in buttons(found[DIRECTOR])
    with harness.db.transaction() as s:
        case_id = s.scalar(select(RecountCase.id).join(RecountCase.contest).where(RecountCase.contest.has(name=MEASURE)))
        workspace = s.scalars(select(Workspace)).one()
        before = {d.name for d in live_deadlines(s, workspace, harness.clock.now) if d.case_id == case_id}
    assert "automatic_recount_deadline" in before

    observers = _share(harness, card)  # an observers' link shared while the recount was still to be held
    assert "Live: the recount is under way" in html.unescape(harness.get(observers).body.decode())

    view = open_modal(harness, card, "case.waiver", user=STAFF)
    assert view["callback_id"] == "case.waiver" and "C.R.S. 1-10.5-103" in text_of(view)
    assert "by *Fri 2026-11-27*" in text_of(view)
    reply = harness.submit(view, waiver_values(dt.date(2026, 11, 20)), user=STAFF)
    assert reply.status == 200 and reply.body in (b"", b"{}"), reply.body
    harness.settle()

    page = html.unescape(harness.get(observers).body.decode())  # the public page says so, not "Live", not "waived"
    assert "Status: Waived: the automatic recount is not held (written notice under C.R.S. 1-10.5-103)" in page
    assert "The automatic recount was waived: it is not held." in page and "Live:" not in page

    shown = text_of(current(harness, card))
    assert (f"Automatic recount waived under C.R.S. 1-10.5-103 by {BOARD} (Board president Ana Ortiz, by "
            "Resolution 2026-41): written notice received Fri 2026-11-20.") in shown
    assert "*Status*\nwaived" in shown and "not held, waived (C.R.S. 1-10.5-103)" in shown
    assert "not owed: the automatic recount was waived" in shown
    assert "case.start_counting" not in buttons(current(harness, card))
    assert "case.waiver" not in buttons(current(harness, card))
    [post] = [t for t in thread_texts(harness, card) if "waived" in t]
    assert "The recount is not held" in post and "Resolution 2026-41, signed letter" in post
    with harness.db.transaction() as s:
        row = s.scalars(select(AutomaticRecountWaiver)).one()
        assert (row.case_id, row.waived_by, row.received_on, row.citation, row.recorded_by) == (
            case_id, BOARD, dt.date(2026, 11, 20), "C.R.S. 1-10.5-103", STAFF)
        case = s.get(RecountCase, case_id)
        assert (case.status, case.duties_done) == ("waived", True)
        assert s.scalars(select(AuditEntry).where(AuditEntry.action == "case.waived")).one().entity_id == str(case_id)
        after = {d.name for d in live_deadlines(s, workspace, harness.clock.now) if d.case_id == case_id}
        assert "automatic_recount_deadline" not in after
        assert audit.verify(s).ok  # the waiver's row and the case's new status are sealed as written

    # The case record carries the waiver, its decision and the audit row.
    record = build_case_record(harness.services, case_id=case_id)
    assert record["case"]["status"] == "waived" and record["waiver"]["waived_by"] == BOARD
    assert record["waiver"]["received_on"] == "2026-11-20"
    assert [d["citation"] for d in record["decisions"] if d["what"] == "waiver"] == ["C.R.S. 1-10.5-103"]
    assert "case.waived" in [t["action"] for t in record["timeline"]]
    printed = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(case_record_pdf(record))).pages
                                ).split())  # the printed record, lines joined (they wrap anywhere)
    assert (f"Waiver of the automatic recount [C.R.S. 1-10.5-103] Waived by {BOARD} (Board president Ana Ortiz, by "
            "Resolution 2026-41); the written notice was received Fri Nov 20, 2026.") in printed
    assert "The written waiver: Resolution 2026-41, signed letter received by e-mail, filed as W-12" in printed
    assert "The recount is not held." in printed

    # A second submission (a double click) records nothing more.
    again = harness.submit(view, waiver_values(dt.date(2026, 11, 20)), user=STAFF)
    assert again.status == 200
    with harness.db.transaction() as s:
        assert len(s.scalars(select(AutomaticRecountWaiver)).all()) == 1


def test_a_waiver_received_after_the_23rd_day_is_refused_on_its_field(harness) -> None:
    load(harness, now=dt.datetime(2026, 11, 30, 17, 0, tzinfo=dt.timezone.utc))
    card = cards(harness, 2)[MEASURE]
    view = open_modal(harness, card, "case.waiver", user=STAFF)
    reply = harness.submit(view, waiver_values(dt.date(2026, 11, 30)), user=STAFF)
    errors = reply.json()["errors"]
    assert list(errors) == ["waiver.received_on"]
    assert "within 23 days after the election, by 2026-11-27" in errors["waiver.received_on"]
    assert "C.R.S. 1-10.5-103" in errors["waiver.received_on"]
    with harness.db.transaction() as s:
        assert s.scalars(select(AutomaticRecountWaiver)).all() == []
        assert {c.status for c in s.scalars(select(RecountCase))} == {"open"}


def test_once_counting_started_the_waiver_is_refused(harness) -> None:
    load(harness, now=dt.datetime(2026, 11, 20, 17, 0, tzinfo=dt.timezone.utc))
    card = cards(harness, 2)[MEASURE]
    view = open_modal(harness, card, "case.waiver", user=STAFF)
    # The form was open while counting began from the card: the submission is refused.
    assert harness.click(current(harness, card), "case.start_counting", user=STAFF).status == 200
    with harness.db.transaction() as s:
        assert s.scalars(select(RecountCase).where(RecountCase.contest.has(name=MEASURE))).one().status == "counting"
    reply = harness.submit(view, waiver_values(dt.date(2026, 11, 20)), user=STAFF)
    assert reply.status == 200 and "Counting has started" in text_of(reply.json().get("view") or {}), reply.body
    with harness.db.transaction() as s:
        assert s.scalars(select(AutomaticRecountWaiver)).all() == []


def test_not_offered_under_1_13_5_1306(harness) -> None:
    load(harness, law="1-13.5-1306", failing=False, now=dt.datetime(2027, 5, 7, 15, 0, tzinfo=dt.timezone.utc))
    assert harness.command("check").status == 200
    _verdicts, *posted = harness.wait("chat.postMessage", count=3)
    automatic = [m for m in harness.posted() if m["text"].startswith("Automatic recount")]
    assert len(automatic) == 2 and any("Ballot Issue 6A" in m["text"] for m in automatic)
    assert all("case.waiver" not in buttons(m) for m in automatic)
