"""`recount-bot serve`, `socket`, and `run` with Slack credentials, through the real console script.

Settings and token failures must be one line per problem, exit 2, no traceback. A real start serves /healthz
and answers a signed slash command, talking to a Slack stand-in in this process; SIGTERM stops it cleanly.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from sandbox import payloads
from sandbox.slack_standin import SlackStandIn, Workspace
from tests.bot.test_cli_db import ISOLATED, ROOT, assert_refused

SECRET = "serve-test-signing-secret"
GOOD = "xoxb-good"


def command() -> list[str]:
    script = Path(sys.executable).with_name("recount-bot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def environment(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}
    env.update(settings)
    return env


def run_with(*args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), *args], capture_output=True, text=True, encoding="utf-8",
                          env=environment(**settings), cwd=ROOT, timeout=120)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def wait_for_health(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}: {process.stderr.read()}")
        try:
            if get(url) == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not answer 200 within {timeout}s")


def stop(process: subprocess.Popen) -> tuple[int, str, str]:
    """SIGTERM, then wait; a process that ignores it is killed (never left behind) and the test fails."""
    process.send_signal(signal.SIGTERM)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"still running 20 s after SIGTERM; killed. stderr: {err}") from None
    return process.returncode, out, err


@pytest.fixture
def slack():
    # The bot token's workspace (auth.test names it) is the one office the commands come from.
    with SlackStandIn(tokens={GOOD}, users=[{"id": "U0CLERK01", "name": "clerk"}],
                      workspace=Workspace(team_id="T0SERVE01")) as standin:
        yield standin


# ------------------------------------------------------------------------------ settings
def test_serve_without_settings_names_each_missing_one() -> None:
    stderr = assert_refused(run_with("serve"), 2, "recount-bot serve: cannot start: 2 settings to fix",
                            "\n  SLACK_BOT_TOKEN is not set, nor SLACK_CLIENT_ID and SLACK_CLIENT_SECRET: ",
                            "\n  SLACK_SIGNING_SECRET is not set\n")
    assert "SLACK_APP_TOKEN" not in stderr  # only Socket Mode needs it


def test_serve_with_malformed_settings_names_them_without_echoing_secrets() -> None:
    stderr = assert_refused(run_with("serve", SLACK_BOT_TOKEN="xoxp-user-token-1234", SLACK_SIGNING_SECRET="short",
                                     PORT="http", DATABASE_URL="mysql://x/y"), 2, "cannot start: 4 settings to fix",
                            "SLACK_BOT_TOKEN: must be a bot token starting with xoxb-",
                            "SLACK_SIGNING_SECRET: is too short", "PORT", "DATABASE_URL")
    assert "xoxp-user-token-1234" not in stderr


def test_serve_with_a_token_slack_refuses(slack, tmp_path) -> None:
    result = run_with("serve", SLACK_BOT_TOKEN="xoxb-revoked", SLACK_SIGNING_SECRET=SECRET,
                      SLACK_API_BASE_URL=slack.base_url, DATABASE_URL=f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    stderr = assert_refused(result, 2)
    assert stderr.strip().splitlines()[-1] == "recount-bot serve: SLACK_BOT_TOKEN was refused by Slack: invalid_auth"
    assert "xoxb-revoked" not in stderr


def test_serve_when_slack_cannot_be_reached(tmp_path) -> None:
    result = run_with("serve", SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET,
                      SLACK_API_BASE_URL=f"http://127.0.0.1:{free_port()}/api/",
                      DATABASE_URL=f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    stderr = assert_refused(result, 1, "recount-bot serve: cannot reach Slack at http://127.0.0.1:",
                            "(SLACK_API_BASE_URL)")
    assert "--debug" not in stderr


def test_socket_needs_an_app_token() -> None:
    stderr = assert_refused(run_with("socket", SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET), 2,
                            "recount-bot socket: cannot start: 1 setting to fix", "SLACK_APP_TOKEN is not set")
    assert "Socket Mode" in stderr
    assert_refused(run_with("socket", SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_APP_TOKEN=GOOD), 2,
                   "SLACK_APP_TOKEN: must be an app-level token starting with xapp-")


def test_run_with_one_credential_is_serve_and_names_the_other() -> None:
    """Half-configured Slack is a mistake to point out, not a reason to fall back to the offline sandbox."""
    assert_refused(run_with("run", SLACK_BOT_TOKEN=GOOD), 2, "recount-bot run: cannot start: 1 setting to fix",
                   "SLACK_SIGNING_SECRET is not set")


def test_a_bad_log_level_is_named() -> None:
    assert_refused(run_with("serve", "--log-level", "chatty"), 2, "--log-level 'CHATTY': expected one of DEBUG")


# ------------------------------------------------------------------------------ a real start
@pytest.mark.slow
@pytest.mark.parametrize("how", ["serve", "run"])
def test_a_real_start_answers_slack_and_stops_on_sigterm(how, slack, empty_database_url) -> None:
    port = free_port()
    process = subprocess.Popen(
        [*command(), how, "--host", "127.0.0.1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                        PORT=str(port), DATABASE_URL=empty_database_url), cwd=ROOT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_health(f"{base}/healthz", process)
        fields = payloads.slash_command(
            command="/recount", text="help", team_id="T0SERVE01", team_domain="serve-test", channel_id="C0GENERAL",
            channel_name="general", user_id="U0CLERK01", user_name="clerk",
            response_url=slack.issue_response_url(channel="C0GENERAL", user="U0CLERK01"),
            trigger_id=slack.issue_trigger_id("U0CLERK01"))
        body = payloads.form_body(fields)
        request = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                         headers=payloads.signed_headers(SECRET, body))
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        [answer] = slack.wait_for("response_url", timeout=15)
        assert answer.args["text"] == "recount-bot help"
        forged = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                        headers=payloads.signed_headers("not-the-secret", body))
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(forged, timeout=10)
        assert refused.value.code == 401
    finally:
        status, _, stderr = stop(process) if process.poll() is None else (process.returncode, "", "")
    assert status == 0, stderr
    assert "Traceback" not in stderr
    assert f"starting recount-bot on http://127.0.0.1:{port}" in stderr
    assert f"Serving on http://127.0.0.1:{port}" in stderr  # waitress, once it listens
    assert f"Slack API: {slack.base_url}" in stderr and "database: " in stderr
    assert "stopping (SIGTERM)" in stderr and stderr.rstrip().endswith("stopped")
    assert SECRET not in stderr and GOOD not in stderr


def test_a_bad_database_url_is_named_without_its_password() -> None:
    result = run_with("serve", SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET,
                      DATABASE_URL="mysql://clerk:s3cret-pass@db.example/recount")
    assert result.returncode == 2
    assert "DATABASE_URL" in result.stderr and "only sqlite and postgresql" in result.stderr
    assert "s3cret-pass" not in result.stderr and "Traceback" not in result.stderr
