"""No file can take `serve` down: a results file attached in Slack is read in a process of its own, within
UPLOAD_READ_MEMORY_MIB and UPLOAD_READ_SECONDS. The real `recount-bot serve`, given a file that needs more memory
than the setting allows, refuses it in the modal naming the limits, and goes on answering (issue 21, item 5)."""
from __future__ import annotations

import json
import subprocess
import time
import urllib.request

import pytest

from sandbox import payloads
from tests.bot.test_cli_serve import GOOD, SECRET, command, environment, free_port, get, stop, wait_for_health
from tests.bot.test_cli_serve_deferred import (
    CLERK,
    ROOT,
    TEAM,
    _command,
    slack,  # noqa: F401 (the fixture)
)
from tests.support.slack_app import text_of

FILE = "returns.upload_file"


def _submit(slack, base: str, view: dict, values: dict) -> int:  # noqa: F811 (the fixture's name)
    payload = payloads.view_submission(team_id=TEAM, team_domain="serve-test", user_id=CLERK, user_name="clerk",
                                       view=view, values={k: {k: v} for k, v in values.items()},
                                       trigger_id=slack.issue_trigger_id(CLERK))
    body = payloads.interaction_body(payload)
    request = urllib.request.Request(f"{base}/slack/events", data=body, method="POST",
                                     headers=payloads.signed_headers(SECRET, body))
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


def _modal_saying(slack, words: str, timeout: float = 60) -> str:  # noqa: F811 (the fixture's name)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        views = slack.state.open_views(CLERK)
        text = text_of({"blocks": views[-1]["blocks"]}) if views else ""
        if words in text or words in json.dumps(views[-1] if views else {}):
            return text
        time.sleep(0.2)
    raise AssertionError(f"the modal never said {words!r}: {text}")


@pytest.mark.slow
def test_a_file_that_needs_more_memory_than_allowed_is_refused_and_serve_goes_on(
        slack, empty_database_url, tmp_path) -> None:  # noqa: F811 (the fixture)
    env = environment(SLACK_BOT_TOKEN=GOOD, SLACK_SIGNING_SECRET=SECRET, SLACK_API_BASE_URL=slack.base_url,
                      DATABASE_URL=empty_database_url, UPLOAD_READ_MEMORY_MIB="128", UPLOAD_READ_SECONDS="60")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen([*command(), "serve", "--host", "127.0.0.1"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**env, "PORT": str(port)}, cwd=ROOT)
    try:
        wait_for_health(f"{base}/healthz", process)
        assert _command(slack, base, "returns upload") == 200
        _modal_saying(slack, "Attach the results file")
        form = slack.state.open_views(CLERK)[-1]
        # About 45 MB of CSV (the most an upload may be is 50 MB): held twice on its way into the reader and
        # then read, it needs well over 128 MiB.
        rows = b"".join(b"Board of Directors %d,Candidate %d,%d\n" % (i % 50, i, i) for i in range(1_000_000))
        upload = slack.state.add_user_file(CLERK, "statewide.csv", b"contest,choice,votes\n" + rows)
        values = {FILE: {"type": "file_input", "files": [upload]},
                  "returns.new_election_name": {"type": "plain_text_input", "value": "General Election"},
                  "returns.new_election_date": {"type": "datepicker", "selected_date": "2026-11-03"},
                  "returns.local_government": {"type": "plain_text_input", "value": "Front Range Districts"},
                  "returns.governing_body": {"type": "plain_text_input", "value": "Board of Directors"},
                  "returns.new_election_law": {"type": "static_select", "selected_option": {"value": "1-10.5"}}}
        assert _submit(slack, base, form, values) == 200
        said = _modal_saying(slack, "could not be read within 128 MiB / 60 s")
        assert "statewide.csv could not be read within 128 MiB / 60 s (it ran out of memory); nothing was saved" \
            in json.dumps(slack.state.open_views(CLERK)[-1]), said
        assert process.poll() is None  # serve is still up
        assert get(f"{base}/healthz") == 200
        answered = len(slack.calls_to("response_url"))
        assert _command(slack, base, "help") == 200
        slack.wait_for("response_url", count=answered + 1, timeout=30)
    finally:
        if process.poll() is None:
            code, _, err = stop(process)
            assert code == 0, err
