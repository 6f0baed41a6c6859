"""The App Home tab and `/recount deadlines`: open cases, coming deadlines, what waits on the viewer."""
from __future__ import annotations

import time

from tests.flows.conftest import load_example
from tests.support.slack_app import OFFICIAL, OUTSIDER, text_of


def _open_cases(harness) -> None:
    load_example(harness)
    harness.command("check")
    harness.wait("chat.postMessage", count=3)


def test_opening_the_home_tab_publishes_cases_deadlines_and_what_waits(harness) -> None:
    _open_cases(harness)
    reply = harness.event({"type": "app_home_opened", "user": OFFICIAL, "channel": "D0HOME", "tab": "home",
                           "event_ts": f"{time.time():.6f}"})
    assert reply.status == 200
    [call] = harness.wait("views.publish")
    assert call.args["user_id"] == OFFICIAL
    view = call.args["view"]
    assert view["type"] == "home"
    text = text_of({"blocks": view["blocks"]})
    assert "Open recount cases" in text and "Bear Creek Fire Protection District - Ballot Issue 6A" in text
    assert "complete by *Tue 2026-12-01*" in text
    assert "Coming deadlines" in text and "the last day to file a written request" in text
    assert "Fri 2026-11-20" in text and "C.R.S. 1-13.5-1306(2)(a)" in text
    assert "Record 5 outstanding notices of case" in text  # the official opened the cases


def test_a_retried_event_is_handled_once(harness) -> None:
    _open_cases(harness)
    event = {"type": "app_home_opened", "user": OFFICIAL, "channel": "D0HOME", "tab": "home"}
    harness.event(event, event_id="Ev0SAME")
    harness.wait("views.publish")
    harness.event(event, event_id="Ev0SAME", X_Slack_Retry_Num="1", X_Slack_Retry_Reason="http_timeout")
    time.sleep(0.5)
    assert len(harness.slack.calls_to("views.publish")) == 1


def test_someone_without_a_role_is_told_how_to_get_one(harness) -> None:
    _open_cases(harness)
    harness.event({"type": "app_home_opened", "user": OUTSIDER, "channel": "D0HOME2", "tab": "home"})
    [call] = harness.wait("views.publish")
    text = text_of({"blocks": call.args["view"]["blocks"]})
    assert "no role" in text and "Ballot Issue 6A" not in text


def test_recount_deadlines_lists_the_coming_deadlines(harness) -> None:
    _open_cases(harness)
    harness.command("deadlines")
    [call] = harness.wait("response_url")
    text = text_of(call.args)
    assert "Tue 2026-12-01" in text and "the automatic recount must be complete" in text
    assert text.index("Fri 2026-11-20") < text.index("Tue 2026-12-01")  # soonest first
