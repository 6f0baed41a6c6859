"""Hostile requests against the real `recount-bot serve` (issue 14, items 4, 5 and 8), on each database.

Each malformed request gets its status (413 for a body over 1 MiB, refused before it is read; 401 for anything
not signed by Slack, however malformed; 400 for a signed payload Slack would never send, a payload without a
team among them), exactly one log line with the reason and the reference the answer gives, no traceback,
and nothing written to the database. HEAD answers headers only, and the next answer on the same connection
is intact. The serve process's memory under a 200 MB body is measured by benchmarks/serve_memory.py, not here.
"""
from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import re
import socket
import subprocess
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, inspect, select, table

from bot.web.request_gate import MAX_BODY_BYTES
from sandbox import payloads
from sandbox.slack_standin import SlackStandIn, Workspace
from tests.bot.test_cli_db import ROOT
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, stop
from tests.support.databases import backends, fresh_database_url

TEAM, USER, CHANNEL = "T0HOSTILE1", "U0CLERK01", "C0GENERAL"
REFERENCE = re.compile(r"[Rr]eference:? ([0-9A-F]{8})")


@dataclass
class Serve:
    process: subprocess.Popen
    port: int
    log: Path
    url: str
    slack: SlackStandIn

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        with self.log.open("rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")


def _healthy(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False


@pytest.fixture(scope="module", params=backends())
def serve(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    with fresh_database_url(request.param, tmp) as url, \
            SlackStandIn(tokens={GOOD}, users=[{"id": USER, "name": "clerk"}],
                         workspace=Workspace(team_id=TEAM)) as slack:  # the office: the bot token's workspace
        port, log = free_port(), tmp / "serve.log"
        with log.open("w") as sink:
            process = subprocess.Popen(
                [*command(), "serve", "--host", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=sink,
                env=environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                                PORT=str(port), DATABASE_URL=url, LOG_LEVEL="INFO"), cwd=ROOT)
        try:
            deadline = time.monotonic() + 60
            while not _healthy(port):
                assert process.poll() is None, f"serve exited: {log.read_text()}"
                assert time.monotonic() < deadline, f"serve did not answer /healthz: {log.read_text()}"
                time.sleep(0.1)
            yield Serve(process, port, log, url, slack)
        finally:
            status, _, _ = stop(process) if process.poll() is None else (process.returncode, "", "")
        text = log.read_text(errors="replace")
        assert status == 0, text[-3000:]
        assert "Traceback" not in text, text[-3000:]


def row_counts(url: str) -> dict[str, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {name: conn.scalar(select(func.count()).select_from(table(name)))
                    for name in inspect(conn).get_table_names()}
    finally:
        engine.dispose()


# ---------------------------------------------------------------- requests, raw
def sign(body: bytes, timestamp: str | None = None, secret: str = SECRET) -> dict[str, str]:
    """Slack's v0 signature over the raw bytes (slack_sdk's signer decodes the body first: no use for bad UTF-8)."""
    stamp = timestamp or str(int(time.time()))
    digest = hmac.new(secret.encode(), b"v0:" + stamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={digest}"}


FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


def post(serve: Serve, body: bytes, headers: dict[str, str], content_type: str = FORM) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=15)
    try:
        connection.request("POST", "/slack/events", body=body, headers={"Content-Type": content_type, **headers})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def raw_exchange(serve: Serve, head: bytes, body_pieces=(), *, read_timeout: float = 15) -> bytes:
    """Send the request line and headers (and any body pieces), then read what the server answers."""
    with socket.create_connection(("127.0.0.1", serve.port), timeout=read_timeout) as sock:
        sock.sendall(head)
        try:
            for piece in body_pieces:
                sock.sendall(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed while we were still sending
        answer = b""
        try:
            while b"\r\n\r\n" not in answer or len(answer) < answer.index(b"\r\n\r\n") + 4 + _length(answer):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except ConnectionResetError:
            pass
        return answer


def _length(answer: bytes) -> int:
    match = re.search(rb"(?i)content-length: *(\d+)", answer)
    return int(match.group(1)) if match else 0


def slash_command(text: str = "help", **override: str) -> bytes:
    fields = payloads.slash_command(command="/recount", text=text, team_id=TEAM, team_domain="hostile",
                                    channel_id=CHANNEL, channel_name="general", user_id=USER, user_name="clerk",
                                    response_url="http://127.0.0.1:9/hook", trigger_id="1.2.abc")
    fields.update(override)
    return urllib.parse.urlencode({k: v for k, v in fields.items() if v is not None}).encode()


def interaction(payload) -> bytes:
    return urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()


BLOCK_ACTION = {"type": "block_actions", "team": {"id": TEAM}, "user": {"id": USER, "team_id": TEAM},
                "trigger_id": "1.2.abc", "actions": [{"action_id": "case.cost", "value": "1"}]}


# ---------------------------------------------------------------- the one-line rule
def assert_refused_once(serve: Serve, since: int, status: int, reason: str, answer: bytes,
                        counts_before: dict[str, int]) -> str:
    """Exactly one new log line, the refusal with `reason` and the answer's reference; no traceback; no row."""
    deadline = time.monotonic() + 5
    while "refused" not in serve.log_since(since) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # anything else the request would log comes within this
    lines = serve.log_since(since).splitlines()
    assert len(lines) == 1, lines
    [line] = lines
    assert "WARNING recount_bot.server: refused " in line and f"({status}); reference " in line, line
    assert reason in line, line
    assert "Traceback" not in line and len(line) < 400, line
    shown = REFERENCE.search(answer.decode("utf-8", "replace"))
    assert shown and line.endswith(f"reference {shown.group(1)}"), (answer, line)
    assert row_counts(serve.url) == counts_before, "a refused request wrote to the database"
    return line


UNSIGNED = [
    ("no signature at all", lambda: (slash_command(), {}, FORM), "not signed"),
    ("a non-numeric timestamp", lambda: (slash_command(), {"X-Slack-Request-Timestamp": "abc",
                                                           "X-Slack-Signature": "v0=" + "0" * 64}, FORM),
     "X-Slack-Request-Timestamp 'abc' is not a number"),
    ("a timestamp in other digits", lambda: (slash_command(), {"X-Slack-Request-Timestamp": "１２３".encode(),
                                                               "X-Slack-Signature": "v0=" + "0" * 64}, FORM),
     "is not a number"),
    ("a timestamp as a float", lambda: (slash_command(), {**sign(slash_command()),
                                                          "X-Slack-Request-Timestamp": "1.5e9"}, FORM),
     "is not a number"),
    ("a stale timestamp, rightly signed", lambda: (slash_command(), sign(slash_command(),
                                                                         str(int(time.time()) - 600)), FORM),
     "more than 5 minutes from now"),
    ("a signature by another secret", lambda: (slash_command(), sign(slash_command(), secret="not-the-secret"),
                                               FORM), "does not match the body"),
    ("a signature that is not v0", lambda: (slash_command(), {**sign(slash_command()), "X-Slack-Signature": "v1=x"},
                                            FORM), "is not a v0 signature"),
    ("invalid UTF-8, unsigned", lambda: (b"payload=\xff\xfe\xfd", {}, FORM), "not signed"),
    ("payload=notjson, unsigned", lambda: (b"payload=notjson", {}, FORM), "not signed"),
    ("a JSON list, unsigned", lambda: (b"[1, 2, 3]", {}, JSON), "not signed"),
    ("a JSON list, wrongly signed", lambda: (b"[1, 2, 3]", sign(b"[1, 2]"), JSON), "does not match"),
]


@pytest.mark.parametrize("name, build, reason", UNSIGNED, ids=[case[0] for case in UNSIGNED])
def test_anything_not_signed_by_slack_is_401_with_one_log_line(serve, name, build, reason) -> None:
    body, headers, content_type = build()
    counts, since = row_counts(serve.url), serve.log_size()
    status, answer = post(serve, body, headers, content_type)
    assert status == 401 and b"Unauthorized. Reference: " in answer
    assert_refused_once(serve, since, 401, reason, answer, counts)


def _without_team() -> bytes:
    fields = urllib.parse.parse_qs(slash_command().decode())
    del fields["team_id"]
    return urllib.parse.urlencode({k: v[0] for k, v in fields.items()}).encode()


SIGNED_MALFORMED = [
    ("invalid UTF-8", b"payload=\xff\xfe\xfd", FORM, "the body is not UTF-8 (byte 8)"),
    ("payload=notjson", b"payload=notjson", FORM, "the payload is not JSON"),
    ("a JSON list", b"[1, 2, 3]", JSON, "the payload is a JSON list, not an object"),
    ("a JSON list in payload=", interaction([1, 2]), FORM, "the payload is a JSON list, not an object"),
    ("JSON that is not JSON", b'{"type": "event_callback", ', JSON, "the payload is not JSON"),
    ("an empty body", b"", FORM, "no team id"),
    ("a slash command without a team", _without_team(), FORM, "the payload names no workspace (no team id)"),
    ("a slash command with team id ''", slash_command(team_id=""), FORM, "no team id"),
    ("a slash command with a team id no Slack id is", slash_command(team_id="T0<!channel>"), FORM,
     "team id 'T0<!channel>' is not a Slack id"),
    ("a slash command without a user", slash_command(user_id=""), FORM, "the payload names no user"),
    ("an event without a team", json.dumps({"type": "event_callback", "event_id": "Ev1",
                                            "event": {"type": "app_home_opened", "user": USER}}).encode(), JSON,
     "no team id"),
    ("an action whose team is text", interaction({**BLOCK_ACTION, "team": TEAM}), FORM,
     "the payload's 'team' is a str, not an object"),
    ("an action whose user is a list", interaction({**BLOCK_ACTION, "user": [USER]}), FORM,
     "the payload's 'user' is a list, not an object"),
    ("an action whose actions are text", interaction({**BLOCK_ACTION, "actions": "case.cost"}), FORM,
     "'actions' is not a list of objects"),
    ("an action whose trigger is a number", interaction({**BLOCK_ACTION, "trigger_id": 12}), FORM,
     "the payload's 'trigger_id' is a int, not text"),
]


@pytest.mark.parametrize("name, body, content_type, reason", SIGNED_MALFORMED,
                         ids=[case[0] for case in SIGNED_MALFORMED])
def test_a_signed_payload_slack_would_never_send_is_400_and_creates_nothing(serve, name, body, content_type,
                                                                            reason) -> None:
    counts, since = row_counts(serve.url), serve.log_size()
    status, answer = post(serve, body, sign(body), content_type)
    assert status == 400 and b"Bad Request. Reference: " in answer
    assert_refused_once(serve, since, 400, reason, answer, counts)


def test_a_body_over_1_mib_is_refused_from_its_headers_unread(serve) -> None:
    counts, since = row_counts(serve.url), serve.log_size()
    head = (f"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: {FORM}\r\n"
            f"Content-Length: {200 * 1024 * 1024}\r\n\r\n").encode()
    started = time.monotonic()
    answer = raw_exchange(serve, head)  # headers only: the answer comes without a byte of the body
    assert answer.startswith(b"HTTP/1.1 413 ") and time.monotonic() - started < 5, answer[:200]
    assert b"A request body is at most 1,048,576 bytes here. Reference: " in answer
    assert_refused_once(serve, since, 413, "a body over the limit of 1,048,576 bytes (refused unread)", answer,
                        counts)
    assert _healthy(serve.port)


def test_the_limit_is_1_mib_exactly_and_holds_for_a_chunked_body(serve) -> None:
    # 1 MiB exactly is read and judged (here: signed, but no team); one byte more is 413.
    body = json.dumps({"type": "event_callback", "pad": ""}).encode()
    body = body[:-2] + b"x" * (MAX_BODY_BYTES - len(body)) + b'"}'
    assert len(body) == MAX_BODY_BYTES
    counts, since = row_counts(serve.url), serve.log_size()
    status, answer = post(serve, body, sign(body), JSON)
    assert status == 400
    assert_refused_once(serve, since, 400, "no team id", answer, counts)

    since = serve.log_size()
    head = (f"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: {JSON}\r\n"
            f"Content-Length: {MAX_BODY_BYTES + 1}\r\n\r\n").encode()
    answer = raw_exchange(serve, head)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert_refused_once(serve, since, 413, "over the limit", answer, counts)

    since = serve.log_size()  # chunked: no length declared; refused once 1 MiB has arrived
    chunk = b"%x\r\n%s\r\n" % (64 * 1024, b"a" * 64 * 1024)
    head = f"POST /slack/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: {JSON}\r\n\r\n"
    answer = raw_exchange(serve, head.encode(), [chunk] * 40)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert_refused_once(serve, since, 413, "over the limit", answer, counts)


def test_a_malformed_content_length_is_one_line_too(serve) -> None:
    counts, since = row_counts(serve.url), serve.log_size()
    answer = raw_exchange(serve, b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ") and b"Content-Length is invalid. Reference: " in answer
    assert_refused_once(serve, since, 400, "bad request: Content-Length is invalid", answer, counts)


def test_a_well_formed_signed_request_still_works(serve) -> None:
    body = payloads.form_body(payloads.slash_command(
        command="/recount", text="help", team_id=TEAM, team_domain="hostile", channel_id=CHANNEL,
        channel_name="general", user_id=USER, user_name="clerk",
        response_url=serve.slack.issue_response_url(channel=CHANNEL, user=USER),
        trigger_id=serve.slack.issue_trigger_id(USER)))
    status, _ = post(serve, body, sign(body))
    assert status == 200
    [answer] = serve.slack.wait_for("response_url", timeout=15)
    assert answer.args["text"] == "recount-bot help"
    # Slack's URL check for the Events API has no team: Bolt answers it, and it creates nothing.
    counts = row_counts(serve.url)
    check = json.dumps({"type": "url_verification", "token": "x", "challenge": "c-123"}).encode()
    status, answer = post(serve, check, sign(check), JSON)
    assert status == 200 and json.loads(answer) == {"challenge": "c-123"}
    assert row_counts(serve.url) == counts


# ---------------------------------------------------------------- HEAD (item 8)
def test_head_answers_headers_only_and_the_next_answer_on_the_connection_is_intact(serve) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=10)
    try:
        for path, then in (("/healthz", "/healthz"), ("/nowhere", "/healthz"), ("/slack/events", "/healthz"),
                           ("/certificates/" + "A" * 43, "/healthz")):
            connection.request("HEAD", path)
            head = connection.getresponse()
            assert head.read() == b"" and head.status in (200, 404, 405)
            if path == "/healthz":
                assert head.status == 200 and int(head.getheader("Content-Length")) > 0
                assert head.getheader("Content-Type") == "application/json"
            connection.request("GET", then)
            answer = connection.getresponse()
            assert answer.status == 200 and json.loads(answer.read()) == {"ok": True, "database": "ok"}, path
        assert connection.sock is not None  # the same connection throughout: kept alive, nothing left in it
    finally:
        connection.close()
