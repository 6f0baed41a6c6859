"""`/recount returns upload` when the file is not what it should be: unreadable, incomplete, hostile, too large, or
on a host that is not Slack's. Nothing is saved, the person is told where, and the bot token never leaves Slack."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from handlers.slack_io.files import MAX_BYTES
from tests.flows.upload_support import (
    AGAIN,
    FILE,
    attach,
    files,
    mrkdwn_texts,
    new_election,
    open_upload,
    read,
    shown,
    submitted,
    version_count,
)
from tests.support.slack_app import STAFF, text_of

HIDDEN = b"""contest,choice,votes,seats,kind,unit
Aspen Grove Library District - Trustee,Helen Marsh,1000,1,candidate,Precinct 1
Aspen Grove Library District - Trustee,Owen Park,(< 25),1,candidate,Precinct 1
Aspen Grove Library District - Trustee,Owen Park,400,1,candidate,Precinct 2
Bear Creek Fire Protection District - Ballot Issue 6A,Yes,500,1,question,
Bear Creek Fire Protection District - Ballot Issue 6A,No,499,1,question,
Pine Ridge Metropolitan District - Director,Dana Whitfield,abc,1,candidate,
Pine Ridge Metropolitan District - Director,Sam Okafor,3,1,candidate,
"""
HOSTILE_CONTEST = "Board <!channel> & <@U0STAFF001>"
HOSTILE = f"""contest,choice,votes
{HOSTILE_CONTEST},<https://evil.example|Click me>,1000
{HOSTILE_CONTEST},*Bold* _Bob_ <!here>,996
""".encode()


def test_an_unreadable_file_comes_back_with_its_row_and_column_on_the_file_field(harness) -> None:
    bad = attach(harness, b"contest,choice,seats\nBoard,Alice,1\n", "results.csv")
    form = read(harness, open_upload(harness), {FILE: files(bad), **new_election(name="Spring Election")})
    assert form["callback_id"] == "returns.upload"  # the form again, to attach a fixed file
    field = next(b for b in form["blocks"] if b.get("block_id") == FILE)
    assert field["hint"]["text"].startswith("row 1: missing column 'votes'")
    assert "*results.csv* could not be read, so nothing was saved" in shown(form)
    name = next(b for b in form["blocks"] if b.get("block_id") == "returns.new_election_name")
    assert name["element"]["initial_value"] == "Spring Election"  # what was typed is kept
    assert version_count(harness) == 0 and harness.slack.calls_to("chat.postMessage") == []


def test_a_file_with_a_hidden_count_shows_its_verdicts_but_cannot_be_saved(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, HIDDEN, "district.csv")),
                                                    **new_election()})
    text = shown(preview)
    assert "This file cannot be saved as a survey of returns" in text and "2 problems" in text
    assert "row 3, column votes: is '(&lt; 25)', not an exact number of votes" in text  # escaped for mrkdwn
    # What can be decided is: the issue inside the margin, the trustee race whatever the hidden count is.
    assert ":rotating_light: *RECOUNT* · *Bear Creek Fire Protection District - Ballot Issue 6A*" in text
    assert "hidden counts: 1 cell of this contest give no exact count" in text
    assert "*Undecided (1)*" in text and "Pine Ridge Metropolitan District - Director" in text
    assert "row 7, column votes" in text
    answer, _ = submitted(harness, preview, {})
    assert answer["response_action"] == "errors" and list(answer["errors"]) == [AGAIN]
    refusal = answer["errors"][AGAIN]
    assert refusal.startswith("district.csv cannot be saved as a survey of returns: 2 problems; nothing was saved.")
    assert "row 3, column votes: is '(< 25)'" in refusal and "row 7, column votes: is not a whole number" in refusal
    assert version_count(harness) == 0 and len(harness.slack.calls_to("files-pri")) == 1  # not even downloaded


def test_a_corrected_file_attached_to_the_preview_is_read_and_previewed_instead(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, HIDDEN, "district.csv")),
                                                    **new_election()})
    fixed = attach(harness, HIDDEN.replace(b"(< 25)", b"12").replace(b"abc", b"400"), "district-fixed.csv")
    answer, again = submitted(harness, preview, {AGAIN: files(fixed)})
    assert "Reading *district-fixed.csv*" in shown(answer["view"])
    assert "This file can be saved as survey version 1 of *Regular Special District Election*" in shown(again)
    assert version_count(harness) == 0
    submitted(harness, again, {})
    assert version_count(harness) == 1


def test_names_from_the_file_are_escaped_in_the_preview_and_the_channel_record(harness) -> None:
    upload = attach(harness, HOSTILE, "<!here>.csv")
    preview = read(harness, open_upload(harness), {FILE: files(upload), **new_election(name="Vote <!everyone>")})
    texts = mrkdwn_texts(preview["blocks"])
    assert any("Board &lt;!channel&gt; &amp; &lt;@U0STAFF001&gt;" in t for t in texts)
    assert any("&lt;https://evil.example|Click me&gt;" in t for t in texts)
    for raw in ("<!channel>", "<@U0STAFF001>", "<https://evil", "<!here>", "<!everyone>"):
        assert not any(raw in t for t in texts), raw
    submitted(harness, preview, {})
    [posted] = harness.wait("chat.postMessage")
    for raw in ("<!channel>", "<@U0STAFF001>", "<https://evil", "<!here>", "<!everyone>"):
        assert raw not in posted.args["text"] and not any(raw in t for t in mrkdwn_texts(posted.args["blocks"]))
    assert "&lt;!here&gt;.csv" in posted.args["text"] and "Vote &lt;!everyone&gt;" in posted.args["text"]


class _Recorder(BaseHTTPRequestHandler):
    seen: list = []

    def do_GET(self) -> None:  # noqa: N802
        type(self).seen.append(dict(self.headers.items()))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def elsewhere():
    handler = type("Recorder", (_Recorder,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, handler.seen
    finally:
        server.shutdown()
        server.server_close()


def test_a_download_address_on_another_host_is_refused_without_sending_the_token(harness, elsewhere) -> None:
    server, seen = elsewhere
    upload = attach(harness, b"contest,choice,votes\nA,B,1\n", "results.csv")
    harness.slack.state.files_root = f"http://127.0.0.1:{server.server_address[1]}"  # files.info now points there
    form = read(harness, open_upload(harness), {FILE: files(upload), **new_election()})
    field = next(b for b in form["blocks"] if b.get("block_id") == FILE)
    assert "is not on its files host" in field["hint"]["text"] and "nothing was downloaded" in field["hint"]["text"]
    assert seen == []  # no request at all, so no token
    assert harness.slack.calls_to("files-pri") == [] and version_count(harness) == 0


def test_a_file_over_the_size_cap_is_refused_before_it_is_downloaded(harness) -> None:
    big = attach(harness, b"x" * (MAX_BYTES + 1), "county-detail.csv")
    answer, _ = submitted(harness, open_upload(harness), {FILE: files(big), **new_election()})
    assert answer == {"response_action": "errors", "errors": {FILE: "county-detail.csv is 50.0 MB; the most I read is "
                                                                    "50 MB."}}
    # A payload that understates the size is caught by files.info, still before any download.
    form = read(harness, open_upload(harness), {FILE: files({**big, "size": 10}), **new_election()})
    hint = next(b for b in form["blocks"] if b.get("block_id") == FILE)["hint"]["text"]
    assert hint.startswith("county-detail.csv is 50.0 MB; the most I read is 50 MB.")
    assert harness.slack.calls_to("files-pri") == [] and version_count(harness) == 0


def test_a_viewer_cannot_upload(harness) -> None:
    told = len(harness.slack.calls_to("response_url"))
    harness.command(f"admin role <@{STAFF}> viewer")
    harness.wait("response_url", count=told + 1)
    harness.command("returns upload", user=STAFF)
    calls = harness.wait("response_url", count=told + 2)
    assert "You need the staff role to do this; you have viewer" in text_of(calls[-1].args)
    assert harness.slack.calls_to("views.open") == []


def _many_contests(count: int, *, hidden_every: int = 0) -> bytes:
    rows = ["contest,choice,votes,seats,kind,unit"]
    for i in range(count):
        name = f"District {i:03d} - Director with a rather long name to fill the section"
        for unit in ("Precinct 1", "Precinct 2"):
            rows.append(f"{name},Candidate A,{1000 + i},1,candidate,{unit}")
            hidden = hidden_every and i % hidden_every == 0
            rows.append(f"{name},Candidate B,{'***' if hidden else 1000 - i},1,candidate,{unit}")
    return ("\n".join(rows) + "\n").encode()


def test_a_large_file_fits_slacks_limits_closest_first_and_the_rest_summarised(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, _many_contests(180), "big.csv")),
                                                    **new_election()})
    assert len(preview["blocks"]) <= 100  # a modal's limit (the stand-in refuses a view over it, too)
    assert all(len(t) <= 3000 for t in mrkdwn_texts(preview["blocks"]))
    text = shown(preview)
    assert "180 contests decided, closest first" in text
    assert ":rotating_light: *RECOUNT* · *District 000" in text  # a tie at 0: the closest, first
    assert "more contests, further from the margin (0 automatic recounts): District" in text
    submitted(harness, preview, {})
    assert version_count(harness) == 1
    [posted] = harness.wait("chat.postMessage")
    assert len(posted.args["blocks"]) <= 50 and len(posted.args["text"]) <= 3000


def test_a_file_with_hundreds_of_problems_is_refused_within_slacks_limits(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, _many_contests(180, hidden_every=1),
                                                                       "hidden.csv")), **new_election()})
    assert len(preview["blocks"]) <= 100 and len(preview["private_metadata"]) <= 3000
    assert all(len(t) <= 3000 for t in mrkdwn_texts(preview["blocks"]))
    assert "360 problems" in shown(preview) and "… and 300 more problems." in shown(preview)
    answer, _ = submitted(harness, preview, {})
    refusal = answer["errors"][AGAIN]
    assert refusal.startswith("hidden.csv cannot be saved as a survey of returns: 360 problems; nothing was saved.")
    assert "row 3, column votes: is '***'" in refusal and refusal.endswith("more") and len(refusal) <= 1000
    assert version_count(harness) == 0
