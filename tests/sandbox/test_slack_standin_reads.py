"""The Slack stand-in's faults and reads that the outbox depends on (issue 14): a call carried out whose answer
comes after the client gave up, history and replies paged as Slack pages them, a thread of 260 replies."""
from __future__ import annotations

from datetime import datetime, timezone
from urllib.error import URLError

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from sandbox.slack_standin import SlackStandIn

CHANNEL = "C0RECOUNT1"


@pytest.fixture
def slack():
    with SlackStandIn() as standin:
        yield standin
        assert standin.server_errors == []


@pytest.fixture
def client(slack):
    return WebClient(token="xoxb-test", base_url=slack.base_url)


def slack_error(excinfo) -> dict:
    return excinfo.value.response.data


def test_a_stalled_call_is_carried_out_at_once_and_answered_late(slack):
    client = WebClient(token="xoxb-test", base_url=slack.base_url, timeout=0.3, retry_handlers=[])
    slack.fail_next("chat.postMessage", stall=1.5)
    started = datetime.now(timezone.utc)
    with pytest.raises((TimeoutError, URLError)):
        client.chat_postMessage(channel=CHANNEL, text="taken, never confirmed")
    # In the channel before the client gave up, as Slack has it when its answer is what was lost.
    assert [m["text"] for m in slack.state.messages(CHANNEL)] == ["taken, never confirmed"]
    [call] = slack.wait_for("chat.postMessage", timeout=5)
    assert call.status == 200 and call.response["ok"]  # answered, to nobody
    assert (call.at - started).total_seconds() >= 1.4
    assert client.chat_postMessage(channel=CHANNEL, text="next")["ok"]  # one call only


def test_history_windows_are_newest_first_and_cursors_survive_new_posts(slack, client):
    sent = [client.chat_postMessage(channel=CHANNEL, text=f"m{i}")["ts"] for i in range(6)]
    first = client.conversations_history(channel=CHANNEL, limit=2, oldest=sent[1])
    assert [m["ts"] for m in first["messages"]] == [sent[5], sent[4]] and first["has_more"]
    client.chat_postMessage(channel=CHANNEL, text="posted between two pages")  # shifts no page boundary
    rest = client.conversations_history(channel=CHANNEL, limit=2, oldest=sent[1],
                                        cursor=first["response_metadata"]["next_cursor"])
    assert [m["ts"] for m in rest["messages"]] == [sent[3], sent[2]] and not rest["has_more"]  # oldest excluded
    assert rest["response_metadata"]["next_cursor"] == ""
    window = client.conversations_history(channel=CHANNEL, oldest=sent[1], latest=sent[5])
    assert [m["ts"] for m in window["messages"]] == sent[4:1:-1]
    inclusive = client.conversations_history(channel=CHANNEL, oldest=sent[1], latest=sent[5], inclusive=True)
    assert [m["ts"] for m in inclusive["messages"]] == sent[5:0:-1]
    with pytest.raises(SlackApiError) as excinfo:
        client.conversations_history(channel=CHANNEL, cursor="bm90IGEgY3Vyc29y")
    assert slack_error(excinfo)["error"] == "invalid_cursor"


def test_a_thread_of_260_replies_pages_oldest_first_and_metadata_only_when_asked(slack, client):
    parent = client.chat_postMessage(channel=CHANNEL, text="Recount case #7")["ts"]
    for i in range(260):
        slack.state.post_message(CHANNEL, thread_ts=parent, text=f"reply {i}")
    last = client.chat_postMessage(channel=CHANNEL, thread_ts=parent, text="the 261st",
                                   metadata={"event_type": "recount_bot_outbox", "event_payload": {"outbox_id": 9}})
    assert slack.state.message(CHANNEL, parent)["reply_count"] == 261
    seen, cursor = [], None
    while True:
        page = client.conversations_replies(channel=CHANNEL, ts=parent, limit=100, cursor=cursor)
        seen += [m["text"] for m in page["messages"]]
        cursor = page["response_metadata"]["next_cursor"]
        if not page["has_more"]:
            break
    assert seen == ["Recount case #7", *(f"reply {i}" for i in range(260)), "the 261st"]  # the parent once, first
    assert "metadata" not in client.conversations_replies(channel=CHANNEL, ts=parent, oldest=last["ts"],
                                                          inclusive=True)["messages"][-1]
    recent = client.conversations_replies(channel=CHANNEL, ts=parent, oldest=last["ts"], inclusive=True,
                                          include_all_metadata=True)["messages"]
    assert [m["text"] for m in recent] == ["Recount case #7", "the 261st"]  # the parent, whatever the window
    assert recent[-1]["metadata"]["event_payload"] == {"outbox_id": 9}
