"""Signed payloads no Slack user's click makes, against the real `recount-bot serve` on each database (issue 23,
item 13): deeply nested JSON is 400 before it is parsed; a button value that is not an id recount-bot made, an
`app_home_opened` without a user, and a click from another workspace than the one-office install's are answered
200 and refused in one log line (no traceback, nothing written, no `workspaces` row); /metrics refuses a request
carrying a proxy's header even empty or naming loopback. Bidi controls in names: tests/flows/test_bidi_names.py.
"""
from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.parse

import pytest

from tests.bot.test_hostile_requests import (  # noqa: F401  (serve: the module's running server)
    BLOCK_ACTION,
    FORM,
    JSON,
    TEAM,
    USER,
    Serve,
    assert_refused_once,
    interaction,
    post,
    row_counts,
    serve,
    sign,
    slash_command,
)


def _new_lines(serve: Serve, since: int, wait_for: str) -> list[str]:  # noqa: F811
    deadline = time.monotonic() + 10
    while wait_for not in serve.log_since(since) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # anything else the request would log comes within this
    return serve.log_since(since).splitlines()


def assert_one_refusal(serve: Serve, since: int, logger: str, reason: str, counts: dict[str, int]) -> str:  # noqa: F811
    """Exactly one new log line: a WARNING refusal with `reason` and a reference; no traceback; no row written."""
    lines = _new_lines(serve, since, "refused")
    assert len(lines) == 1, lines
    [line] = lines
    assert f"WARNING {logger}: refused " in line and reason in line, line
    assert "; reference " in line and "Traceback" not in line and len(line) < 400, line
    assert row_counts(serve.url) == counts, "a refused request wrote to the database"
    return line


# ---------------------------------------------------------------- nesting
def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _form(json_text: str) -> bytes:
    return urllib.parse.urlencode({"payload": json_text}).encode()


NESTED = [
    ("an event nested 100,000 deep", lambda: ('{"type": "event_callback", "team_id": "%s", "event": %s}'
                                              % (TEAM, _nested(100_000))).encode(), JSON),
    ("an action nested 100,000 deep", lambda: _form(json.dumps(BLOCK_ACTION)[:-1] + ', "state": '
                                                    + _nested(100_000) + "}"), FORM),
    ("an action nested 65 deep", lambda: interaction({**BLOCK_ACTION, "view": {"state": json.loads(_nested(63))}}),
     FORM),
]


@pytest.mark.parametrize("name, build, content_type", NESTED, ids=[n[0] for n in NESTED])
def test_deeply_nested_json_is_400_before_it_is_parsed(serve, name, build, content_type) -> None:  # noqa: F811
    body = build()
    counts, since = row_counts(serve.url), serve.log_size()
    status, answer = post(serve, body, sign(body), content_type)
    assert status == 400 and b"Bad Request. Reference: " in answer, (status, answer[:200])
    assert_refused_once(serve, since, 400, "the payload's JSON nests deeper than 64 levels", answer, counts)


def test_json_as_deep_as_slack_sends_is_read(serve) -> None:  # noqa: F811
    # An App Home opened, its view's blocks nested 40 deep: within the limit, so the home tab is published.
    published = len(serve.slack.calls_to("views.publish"))
    body = json.dumps({"type": "event_callback", "team_id": TEAM, "event_id": "Ev0DEEPOK1",
                       "event": {"type": "app_home_opened", "user": USER, "tab": "home",
                                 "view": {"blocks": json.loads(_nested(40))}}}).encode()
    status, _ = post(serve, body, sign(body), JSON)
    assert status == 200
    serve.slack.wait_for("views.publish", count=published + 1, timeout=15)


# ---------------------------------------------------------------- button values, users
BAD_VALUES = ["abc", "1.5", "", "-1", "0", "1e3", "99999999999", "1:x", "²", None]


@pytest.mark.parametrize("value", BAD_VALUES, ids=[repr(v) for v in BAD_VALUES])
def test_a_button_value_recount_bot_never_made_is_refused_in_one_line(serve, value) -> None:  # noqa: F811
    action = {"action_id": "case.cost", "type": "button", **({"value": value} if value is not None else {})}
    body = interaction({**BLOCK_ACTION, "actions": [action]})
    counts, since = row_counts(serve.url), serve.log_size()
    status, _ = post(serve, body, sign(body), FORM)
    assert status == 200  # answered: Slack shows the person no error for a click
    line = assert_one_refusal(serve, since, "recount_bot.handlers", "refused action:case.cost from workspace ",
                              counts)
    assert "is not an id recount-bot put on that button" in line


@pytest.mark.parametrize("value", ["²", "99999999999", "<!channel>", ""], ids=repr)
def test_a_chosen_option_recount_bot_never_offered_is_refused_in_one_line(serve, value) -> None:  # noqa: F811
    action = {"action_id": "request.contest", "block_id": "request.contest", "type": "static_select",
              "selected_option": {"value": value}}
    body = interaction({**BLOCK_ACTION, "actions": [action], "view": {"id": "V0HOSTILE1", "callback_id": "request.pick"}})
    counts, since = row_counts(serve.url), serve.log_size()
    status, _ = post(serve, body, sign(body), FORM)
    assert status == 200
    line = assert_one_refusal(serve, since, "recount_bot.handlers", "refused action:request.contest from workspace ",
                              counts)
    assert "is not one recount-bot offered" in line


def test_app_home_opened_without_a_user_is_refused_in_one_line(serve) -> None:  # noqa: F811
    body = json.dumps({"type": "event_callback", "team_id": TEAM, "event_id": "Ev0NOUSER1",
                       "event": {"type": "app_home_opened", "tab": "home"}}).encode()
    counts, since = row_counts(serve.url), serve.log_size()
    status, _ = post(serve, body, sign(body), JSON)
    assert status == 200  # an event answered otherwise is sent again by Slack
    line = assert_one_refusal(serve, since, "recount_bot.handlers", "refused event:app_home_opened", counts)
    assert "it names no user" in line


# ---------------------------------------------------------------- one office
def test_a_click_from_another_workspace_is_refused_and_creates_no_workspace(serve) -> None:  # noqa: F811
    other = "T0ELSEWHERE"
    body = interaction({**BLOCK_ACTION, "team": {"id": other}, "user": {"id": USER, "team_id": other}})
    counts, since = row_counts(serve.url), serve.log_size()
    status, _ = post(serve, body, sign(body), FORM)
    assert status == 200
    line = assert_one_refusal(serve, since, "recount_bot.app", "refused a request from workspace 'T0ELSEWHERE'",
                              counts)
    assert f"serves workspace {TEAM} only" in line
    # A slash command from there is told why.
    command = slash_command(team_id=other)
    status, answer = post(serve, command, sign(command), FORM)
    assert status == 200 and "serves another Slack workspace; nothing was done" in json.loads(answer)["text"]
    assert row_counts(serve.url) == counts


# ---------------------------------------------------------------- /metrics
def _metrics(serve: Serve, headers: bytes) -> bytes:  # noqa: F811
    """A raw GET /metrics with exactly these header lines (urllib would not send an empty one as given)."""
    with socket.create_connection(("127.0.0.1", serve.port), timeout=10) as sock:
        sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + headers + b"Connection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("header", [b"X-Forwarded-For:", b"X-Forwarded-For: ", b"X-Forwarded-For: 127.0.0.1",
                                    b"Forwarded: for=127.0.0.1", b"X-Real-IP:", b"X-Forwarded-Proto: https",
                                    b"X-Forwarded-Host: example.org", b"Via: 1.1 proxy", b"True-Client-IP: ::1"])
def test_metrics_refuse_any_proxy_header_even_empty_or_naming_loopback(serve, header) -> None:  # noqa: F811
    answer = _metrics(serve, header + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 403 "), answer[:200]
    assert b"recount_bot_" not in answer and b"METRICS_TOKEN" in answer


def test_metrics_answer_a_client_on_this_machine(serve) -> None:  # noqa: F811
    answer = _metrics(serve, b"")
    assert answer.startswith(b"HTTP/1.1 200 ") and b"recount_bot_slack_ack_seconds" in answer
    connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=10)
    try:
        connection.request("GET", "/metrics")
        assert connection.getresponse().status == 200
    finally:
        connection.close()
