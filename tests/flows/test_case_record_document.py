"""The printed case record reads as a document an office files and a court reads (issue 23): people by name as
Slack shows them, Colorado times to the minute, plain words, no JSON, the citation beside each step of the
timeline, numbered pages. Through `/recount record` in the real app, the PDF as uploaded to Slack."""
from __future__ import annotations

import io
import json
import re

from pypdf import PdfReader

from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    complete,
    counting_case,
    harness,
    tally,
)
from tests.support.slack_app import OFFICIAL, STAFF, VIEWER


def _record(harness, case_id: int) -> tuple[dict, list[str]]:
    harness.command(f"record {case_id}", user=VIEWER)
    stem = f"recount-case-{case_id}-record"
    files = {f["name"]: f["id"] for f in harness.slack.state.files().values() if f["name"].startswith(stem)}
    record = json.loads(harness.slack.state.file_content(files[f"{stem}.json"]))
    pages = [" ".join(p.extract_text().split())
             for p in PdfReader(io.BytesIO(harness.slack.state.file_content(files[f"{stem}.pdf"]))).pages]
    return record, pages


def test_the_printed_record_names_people_in_local_time_and_plain_words(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    complete(harness, card, "350.00")
    record, pages = _record(harness, case_id)
    text = " ".join(pages)

    # People by name, as Slack shows them; the JSON keeps the ids, with the names beside them.
    assert record["people"][OFFICIAL] == "Dana Whitfield" and record["people"][STAFF] == "Sam Okafor"
    for user in (OFFICIAL, STAFF):
        assert user not in text
    assert "Recount completed, by Dana Whitfield" in text
    # Colorado local time to the minute; no UTC timestamps, no microseconds.
    assert "Fri Nov 6, 2026, 09:00 MST" in text
    assert not re.search(r"\d{2}:\d{2}:\d{2}", text) and "+00:00" not in text and "T16:00" not in text
    # Plain words, not enum names or audit action names; no inline JSON.
    for machine in ("case.completed", "notice.recorded", "governing_body", "prepared_abstract", "recipient_kind",
                    "{\"", "\": "):
        assert machine not in text, (machine, text[max(0, text.find(machine) - 200):text.find(machine) + 100])
    assert "preparer of the official abstract" in text and "requested recount (1306(2))" in text
    assert "Counts: Dana Whitfield: 645; Sam Okafor: 811" in text  # names as they are, not as field names
    # The citation beside each step of the timeline.
    assert re.search(r"Notice of the recount recorded as given, by Sam Okafor\. [^\[]*\[C\.R\.S\. 1-13\.5-1306\(2\)\(b\)\(I\)\]",
                     text)
    assert re.search(r"Recount completed, by Dana Whitfield\. [^\[]*\[C\.R\.S\. 1-13\.5-1306\(6\)\]", text)
    assert re.search(r"Payment received, by Sam Okafor\. [^\[]*\[C\.R\.S\. 1-13\.5-1306\(2\)\(b\)\(IV\)\]", text)
    # Page numbers.
    assert len(pages) > 1
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in page
