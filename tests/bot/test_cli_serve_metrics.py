"""`recount-bot serve` and `recount-bot worker --metrics-port` as an office runs them, watched: GET /metrics behind
METRICS_TOKEN after signed commands and a forged one, the in-process worker's lag and the deferred-work queue; and
LOG_FORMAT=json, every stderr line a JSON object even when a request's path carries newlines and terminal escapes.
"""
from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from sandbox import payloads
from tests.bot.test_cli_db import ROOT
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, slack, stop, wait_for_health  # noqa: F401

TOKEN = "serve-metrics-token-0123456789"
# What someone puts in a request's path to forge a log line, clear the screen, and break a line in JSON readers.
HOSTILE_PATH = b"/slack/events%0A2026-11-10T09:00:00-07:00%20ERROR%20forged%1B%5B2J%E2%80%A8end"


def scrape(base: str, token: str | None) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(f"{base}/metrics", headers=headers), timeout=10) as reply:
            text = reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, {}
    return 200, {(s.name, tuple(sorted(s.labels.items()))): s.value
                 for family in text_string_to_metric_families(text) for s in family.samples}


def signed_command(base: str, slack, secret: str = SECRET) -> int:  # noqa: F811
    fields = payloads.slash_command(
        command="/recount", text="help", team_id="T0SERVE01", team_domain="serve-test", channel_id="C0GENERAL",
        channel_name="general", user_id="U0CLERK01", user_name="clerk",
        response_url=slack.issue_response_url(channel="C0GENERAL", user="U0CLERK01"),
        trigger_id=slack.issue_trigger_id("U0CLERK01"))
    body = payloads.form_body(fields)
    request = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                     headers=payloads.signed_headers(secret, body))
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def raw_request(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        return conn.recv(4096)


@pytest.mark.slow
def test_serve_reports_metrics_to_the_token_and_logs_json_lines(slack, empty_database_url) -> None:  # noqa: F811
    port = free_port()
    process = subprocess.Popen(
        [*command(), "serve", "--host", "127.0.0.1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                        PORT=str(port), DATABASE_URL=empty_database_url, METRICS_TOKEN=TOKEN, LOG_FORMAT="json"),
        cwd=ROOT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_health(f"{base}/healthz", process)
        assert signed_command(base, slack) == 200 and signed_command(base, slack) == 200
        slack.wait_for("response_url", count=2, timeout=15)
        assert signed_command(base, slack, secret="not-the-secret-at-all") == 401
        assert raw_request(port, b"POST " + HOSTILE_PATH + b" HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"
                           ).startswith(b"HTTP/1.1 400")
        assert scrape(base, None)[0] == 401 and scrape(base, "a-wrong-token-0123456789")[0] == 401
        status, found = scrape(base, TOKEN)
    finally:
        code, _, stderr = stop(process) if process.poll() is None else (process.returncode, "", "")
    assert code == 0, stderr
    assert status == 200
    assert found[("recount_bot_slack_ack_seconds_count", (("kind", "command"),))] == 2
    assert found[("recount_bot_slack_ack_seconds_bucket", (("kind", "command"), ("le", "3.0")))] == 2
    # The forged signature (the gate) and the malformed request (waitress's own check) are both counted.
    assert found[("recount_bot_requests_refused_total", (("status", "401"),))] == 1
    assert found[("recount_bot_requests_refused_total", (("status", "400"),))] == 1
    assert found[("recount_bot_deferred_jobs_pending", ())] == 0  # help is answered at once; nothing left over
    assert found[("recount_bot_deferred_children_restarted_total", ())] == 0
    assert 0 <= found[("recount_bot_worker_seconds_since_tick", ())] < 30  # the in-process worker ticks
    assert found[("recount_bot_database_up", ())] == 1 and found[("recount_bot_outbox_dead", ())] == 0

    lines = stderr.splitlines()
    assert lines, "nothing was logged"
    records = []
    for line in lines:
        record = json.loads(line)  # every line, from this process and its deferred-work child alike
        assert {"time", "level", "logger", "message"} <= set(record), line
        assert record["time"][10] == "T" and record["time"][-6] in "+-", record["time"]  # ISO, with its offset
        records.append(record)
    [refused] = [r for r in records if r["message"].startswith("refused POST /slack/events\n")]
    assert refused["level"] == "WARNING" and refused["logger"] == "recount_bot.server"
    assert "\n2026-11-10T09:00:00-07:00 ERROR forged\x1b[2J" in refused["message"]  # intact, inside its string
    assert not any(line.startswith("2026-11-10") for line in lines)
    assert any(r["message"] == "stopped" for r in records)
    assert TOKEN not in stderr and SECRET not in stderr


def test_text_logs_escape_what_a_request_brought(slack, empty_database_url) -> None:  # noqa: F811
    """The default format, one line per record too: the same hostile path, escaped in the refusal's line."""
    port = free_port()
    process = subprocess.Popen(
        [*command(), "serve", "--host", "127.0.0.1", "--no-worker", "--deferred-work", "thread"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                        PORT=str(port), DATABASE_URL=empty_database_url), cwd=ROOT)
    try:
        wait_for_health(f"http://127.0.0.1:{port}/healthz", process)
        raw_request(port, b"POST " + HOSTILE_PATH + b" HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
        # Without METRICS_TOKEN, this machine reads the metrics; nothing it relays as a proxy does.
        assert scrape(f"http://127.0.0.1:{port}", None)[0] == 200
    finally:
        code, _, stderr = stop(process) if process.poll() is None else (process.returncode, "", "")
    assert code == 0, stderr
    [line] = [line for line in stderr.splitlines() if "refused POST /slack/events" in line]
    assert "/slack/events\\n2026-11-10T09:00:00-07:00 ERROR forged\\x1b[2J" in line
    assert "\x1b" not in stderr and not any(line.startswith("2026-11-10T09") for line in stderr.splitlines())


@pytest.mark.slow
def test_a_worker_process_serves_its_own_metrics(slack, empty_database_url) -> None:  # noqa: F811
    port = free_port()
    process = subprocess.Popen(
        [*command(), "worker", "--interval", "0.2", "--metrics-port", str(port)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env=environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                        DATABASE_URL=empty_database_url, METRICS_TOKEN=TOKEN), cwd=ROOT)
    try:
        base = f"http://127.0.0.1:{port}"
        status, found = 0, {}
        for _ in range(100):  # until it listens
            try:
                status, found = scrape(base, TOKEN)
                break
            except OSError:
                if process.poll() is not None:
                    break
                time.sleep(0.1)
        assert scrape(base, None)[0] == 401
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=5)
            other = 200
        except urllib.error.HTTPError as exc:
            other = exc.code
    finally:
        code, _, stderr = stop(process) if process.poll() is None else (process.returncode, "", "")
    assert code == 0, stderr
    assert status == 200, stderr
    assert 0 <= found[("recount_bot_worker_seconds_since_tick", ())] < 30
    assert found[("recount_bot_worker_tick_failures_total", ())] == 0
    assert found[("recount_bot_outbox_pending", ())] == 0 and found[("recount_bot_reminders_overdue", ())] == 0
    assert ("recount_bot_slack_ack_seconds_count", (("kind", "command"),)) in found  # the same names, at 0 here
    assert other == 404
    assert f"metrics: http://127.0.0.1:{port}/metrics (for a bearer of METRICS_TOKEN)" in stderr
