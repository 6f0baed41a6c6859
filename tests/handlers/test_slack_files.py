"""Files people upload to Slack: the stand-in's files.info and token-guarded download, and the bot's downloader
(handlers/slack_io/files.py), which sends the bot token to Slack's files host and nowhere else."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from handlers.slack_io.files import FileProblem, download_file, files_origin
from sandbox.slack_standin import SlackStandIn

CLERK = "U0CLERK001"
DATA = b"contest,choice,votes\nBoard,Alvarez,512\nBoard,Reed,498\n"


@pytest.fixture
def slack():
    with SlackStandIn(users={CLERK: {"name": "clerk", "real_name": "Dana Clerk"}}) as standin:
        yield standin
        assert standin.server_errors == []


@pytest.fixture
def client(slack):
    return WebClient(token="xoxb-test", base_url=slack.base_url)


# --------------------------------------------------------------------------- the stand-in
def test_a_file_a_person_uploaded_is_described_by_files_info(slack, client) -> None:
    uploaded = slack.state.add_user_file(CLERK, "results.csv", DATA)
    info = client.files_info(file=uploaded["id"])["file"]
    assert (info["id"], info["name"], info["size"], info["filetype"], info["user"]) == (
        uploaded["id"], "results.csv", len(DATA), "csv", CLERK)
    assert info["url_private_download"].startswith(f"{slack.url}/files-pri/")
    assert info["shares"] == {} and info["channels"] == []  # shared nowhere: it was attached to a form
    with pytest.raises(SlackApiError) as missing:
        client.files_info(file="F0NOSUCHFIL")
    assert missing.value.response["error"] == "file_not_found"
    with pytest.raises(SlackApiError) as unauthenticated:
        WebClient(token="xoxp-not-a-bot", base_url=slack.base_url).files_info(file=uploaded["id"])
    assert unauthenticated.value.response["error"] == "invalid_auth"


def test_its_bytes_are_served_only_with_the_bot_token(slack) -> None:
    url = slack.state.add_user_file(CLERK, "results.csv", DATA)["url_private_download"]
    for headers in ({}, {"Authorization": "Bearer xoxp-someone"}, {"Authorization": "Basic eG94Yi10ZXN0"}):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5)
        assert refused.value.code == 403
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Authorization": "Bearer xoxb-test"}),
                                timeout=5) as response:
        assert response.read() == DATA


def test_files_info_points_where_the_files_are_served_now(slack, client) -> None:
    uploaded = slack.state.add_user_file(CLERK, "results.csv", DATA)
    slack.state.files_root = "https://files.example.org"
    info = client.files_info(file=uploaded["id"])["file"]
    assert info["url_private"].startswith("https://files.example.org/files-pri/")


# --------------------------------------------------------------------------- the downloader
@pytest.mark.parametrize("api, files", [
    ("https://slack.com/api/", "https://files.slack.com"),
    ("https://acme.enterprise.slack.com/api/", "https://files.slack.com"),
    ("https://slack-gov.com/api/", "https://files.slack-gov.com"),
    ("http://127.0.0.1:5123/api/", "http://127.0.0.1:5123"),
])
def test_files_come_from_the_files_host_of_the_web_api_in_use(api, files) -> None:
    assert files_origin(api) == files


def test_the_downloader_fetches_a_file_with_the_token_and_knows_its_digest(slack, client) -> None:
    uploaded = slack.state.add_user_file(CLERK, "results.csv", DATA)
    got = download_file(client, uploaded["id"])
    assert (got.name, got.filetype, got.size, got.data) == ("results.csv", "csv", len(DATA), DATA)
    assert got.sha256 == __import__("hashlib").sha256(DATA).hexdigest()
    [call] = slack.calls_to("files-pri")
    assert call.headers["Authorization"] == "Bearer xoxb-test"


def test_the_downloader_says_how_far_it_has_come_against_the_size_slack_gave(slack, client) -> None:
    big = DATA * 20_000  # about 1 MB: many chunks
    uploaded = slack.state.add_user_file(CLERK, "results.csv", big)
    told: list[tuple[int, int | None]] = []
    got = download_file(client, uploaded["id"], progress=lambda done, size: told.append((done, size)))
    assert got.data == big and len(told) > 5
    assert {size for _, size in told} == {len(big)}
    done = [d for d, _ in told]
    assert done == sorted(done) and done[-1] == len(big)


def test_a_progress_report_that_fails_does_not_stop_the_download(slack, client) -> None:
    uploaded = slack.state.add_user_file(CLERK, "results.csv", DATA)

    def broken(done: int, size: int | None) -> None:
        raise RuntimeError("the modal was closed")

    assert download_file(client, uploaded["id"], progress=broken).data == DATA


def test_a_file_over_the_cap_is_refused_from_its_size_and_a_missing_one_plainly(slack, client) -> None:
    uploaded = slack.state.add_user_file(CLERK, "detail.xml", DATA)
    with pytest.raises(FileProblem) as too_big:
        download_file(client, uploaded["id"], max_bytes=10)
    assert "detail.xml is" in too_big.value.message and slack.calls_to("files-pri") == []
    with pytest.raises(FileProblem) as gone:
        download_file(client, "F0NOSUCHFIL")
    assert gone.value.message == "That file is no longer in Slack (it was deleted); attach it again."


class _FakeSlack(BaseHTTPRequestHandler):
    """A "Slack" whose files.info points at its own download, which redirects wherever `redirect` says."""

    redirect: str = ""
    seen: list

    def do_GET(self) -> None:  # noqa: N802
        self._answer()

    def do_POST(self) -> None:  # noqa: N802
        self._answer()

    def _answer(self) -> None:
        type(self).seen.append((self.path, self.headers.get("Authorization")))
        host = f"http://127.0.0.1:{self.server.server_address[1]}"
        if self.path.startswith("/api/files.info"):
            body = json.dumps({"ok": True, "file": {"id": "F1", "name": "r.csv", "size": len(DATA),
                                                    "url_private_download": f"{host}/download"}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
        elif self.path == "/download" and type(self).redirect:
            body = b""
            self.send_response(302)
            self.send_header("Location", type(self).redirect)
        else:
            body = DATA
            self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def _serve(handler):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_redirect_elsewhere_is_not_followed_and_one_on_the_files_host_is() -> None:
    elsewhere = type("Elsewhere", (_FakeSlack,), {"seen": [], "redirect": ""})
    fake = type("Fake", (_FakeSlack,), {"seen": []})
    other, slack = _serve(elsewhere), _serve(fake)
    try:
        client = WebClient(token="xoxb-secret", base_url=f"http://127.0.0.1:{slack.server_address[1]}/api/")
        fake.redirect = f"http://127.0.0.1:{other.server_address[1]}/steal"
        with pytest.raises(FileProblem) as refused:
            download_file(client, "F1")
        assert "not on its files host" in refused.value.message
        assert elsewhere.seen == []  # never asked, so never given the token
        fake.redirect = "/final"  # the same host: followed, token and all
        assert download_file(client, "F1").data == DATA
        assert fake.seen[-1] == ("/final", "Bearer xoxb-secret")
    finally:
        for server in (other, slack):
            server.shutdown()
            server.server_close()
