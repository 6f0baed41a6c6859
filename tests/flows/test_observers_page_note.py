"""The observers' page says whether the recount is still going on, in Colorado time (C.R.S. 1-13.5-1306(1)): the
note on top is the server's, not the observer's browser clock, and after completion it no longer says "Live".
Through signed requests into the real app and GETs of the page from its HTTP server."""
from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.request

from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    complete,
    counting_case,
    current,
    harness,
    tally,
)
from tests.support.slack_app import STAFF

OBSERVE = re.compile(r"<https?://[^/|>]+(/observe/[A-Za-z0-9_-]{43})\|")
NOTE = re.compile(r'<p id=live-note aria-live="polite">([^<]*)</p>')


def _share(harness, card: dict) -> str:
    before = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "observers.share", user=STAFF)
    return OBSERVE.findall(harness.wait("response_url", count=before + 1)[-1].args["text"])[0]


def _note(harness, path: str) -> str:
    return html.unescape(NOTE.search(harness.get(path).body.decode()).group(1))


def _poll(harness, path: str, etag: str | None = None):
    request = urllib.request.Request(harness.server.url + path + "/state.json",
                                     headers={"If-None-Match": etag} if etag else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:  # 304 comes as an HTTPError from urllib
        return exc.code, exc.headers, exc.read()


def test_the_note_is_in_colorado_time_and_says_complete_after_completion(harness) -> None:
    case_id, card = counting_case(harness)
    path = _share(harness, card)
    # The services' clock: Fri 2026-11-06 16:00 UTC is 09:00 in Colorado (MST).
    assert _note(harness, path) == "Live: the recount is under way. Last checked 09:00 MST."
    status, headers, body = _poll(harness, path)
    assert status == 200 and json.loads(body)["note"] == "Live: the recount is under way. Last checked 09:00 MST."
    status, headers, _ = _poll(harness, path, headers["ETag"])
    assert status == 304 and headers["X-Live-Note"] == "Live: the recount is under way. Last checked 09:00 MST."

    tally(harness, case_id, (645, 811), (702, 590))
    complete(harness, card, "350.00")
    harness.clock.advance(minutes=25)
    note = _note(harness, path)
    assert not note.startswith("Live")
    assert note.startswith("The recount is complete (completed Fri 2026-11-06 09:00 MST).")
    assert note.endswith("Last checked 09:25 MST.")
    status, headers, body = _poll(harness, path)
    assert json.loads(body)["note"] == note
    assert _poll(harness, path, headers["ETag"])[1]["X-Live-Note"] == note


def test_the_pages_script_takes_its_note_from_the_server_not_the_browser_clock(harness) -> None:
    _, card = counting_case(harness)
    page = harness.get(_share(harness, card)).body.decode()
    assert "toLocaleTimeString" not in page and "new Date(" not in page
    assert "X-Live-Note" in page and "s.note" in page
