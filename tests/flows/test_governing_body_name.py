"""The governing body owed the notices of C.R.S. 1-13.5-1306(1) and (6) is named once and whole wherever the bot
names it: an office that typed the body's whole name ("Board of Directors of the Pine Ridge Metropolitan District")
for the district it serves must not read "... of Pine Ridge Metropolitan District" added again in the recount
report, the card, App Home, the observers' page or the case record; one that typed only "Board of Directors" reads
the district's name added once. Through signed requests into the real app and its HTTP server."""
from __future__ import annotations

import html
import json
import re
import time

from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    complete,
    counting_case,
    current,
    harness,
    pdf_text,
    tally,
    thread_texts,
)
from tests.support.slack_app import OFFICIAL, STAFF, VIEWER, text_of

DISTRICT = "Pine Ridge Metropolitan District"
WHOLE = f"Board of Directors of the {DISTRICT}"
DOUBLED = f"{WHOLE} of {DISTRICT}"
OBSERVE = re.compile(r"<https?://[^/|>]+(/observe/[A-Za-z0-9_-]{43})\|")


def _everything_said(harness, card: dict, case_id: int) -> dict[str, str]:
    """What the clerk, the App Home, an observer and a court read of a completed case."""
    said = {"report": "\n".join(thread_texts(harness, card)), "card": text_of(current(harness, card))}
    harness.event({"type": "app_home_opened", "user": OFFICIAL, "channel": "D0HOME", "tab": "home",
                   "event_ts": f"{time.time():.6f}"})
    said["home"] = text_of({"blocks": harness.wait("views.publish")[-1].args["view"]["blocks"]})
    before = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "observers.share", user=STAFF)
    shared = harness.wait("response_url", count=before + 1)[-1].args["text"]
    [path] = OBSERVE.findall(shared)
    said["observers"] = html.unescape(harness.get(path).body.decode())
    harness.command(f"record {case_id}", user=VIEWER)
    stem = f"recount-case-{case_id}-record"
    files = {f["name"]: f["id"] for f in harness.slack.state.files().values() if f["name"].startswith(stem)}
    said["record"] = harness.slack.state.file_content(files[f"{stem}.json"]).decode()
    said["record.pdf"] = pdf_text(harness.slack.state.file_content(files[f"{stem}.pdf"]))
    return said


def test_a_body_typed_whole_is_named_once_everywhere(harness) -> None:
    case_id, card = counting_case(harness, government=(DISTRICT, WHOLE))
    tally(harness, case_id, (645, 811), (702, 590))  # reversed: Sam Okafor wins
    complete(harness, card, "350.00")
    said = _everything_said(harness, card, case_id)
    for where, text in said.items():
        assert DOUBLED not in text, where
    assert f"notify {WHOLE} of the results" in said["report"]
    assert WHOLE in said["card"] and WHOLE in said["observers"]
    assert json.loads(said["record"])["case"]["governing_body"] == WHOLE
    assert WHOLE in said["record.pdf"]


def test_a_body_typed_without_its_district_is_named_with_it_once(harness) -> None:
    case_id, card = counting_case(harness, government=(DISTRICT, "Board of Directors"))
    tally(harness, case_id, (645, 811), (702, 590))
    complete(harness, card, "350.00")
    said = _everything_said(harness, card, case_id)
    named = f"Board of Directors of {DISTRICT}"
    assert f"notify {named} of the results" in said["report"]
    assert json.loads(said["record"])["case"]["governing_body"] == named
    for where, text in said.items():
        assert f"{named} of {DISTRICT}" not in text, where
