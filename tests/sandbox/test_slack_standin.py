"""The Slack stand-in, driven by the real `slack_sdk.WebClient` over loopback HTTP."""
from __future__ import annotations

import json
import threading
import urllib.request
from datetime import datetime, timedelta, timezone
from urllib.error import URLError

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler, ServerErrorRetryHandler

from sandbox.slack_standin import SlackStandIn

CHANNEL = "C0RECOUNT1"
CLERK = "U0CLERK001"


@pytest.fixture
def slack():
    with SlackStandIn(users={CLERK: {"name": "clerk", "real_name": "Dana Clerk"}}) as standin:
        yield standin
        assert standin.server_errors == []


@pytest.fixture
def client(slack):
    return WebClient(token="xoxb-test", base_url=slack.base_url)


def section(text: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def modal(title: str = "Request recount", **extra) -> dict:
    return {"type": "modal", "title": {"type": "plain_text", "text": title},
            "blocks": [section("Contest: Director, District 3")], **extra}


def slack_error(excinfo) -> dict:
    return excinfo.value.response.data


# --------------------------------------------------------------------------- messages and threads
def test_post_message_and_thread_reply(slack, client):
    parent = client.chat_postMessage(channel=CHANNEL, text="Recount requested", blocks=[section("*Recount*")])
    reply = client.chat_postMessage(channel=CHANNEL, text="Canvass board notified", thread_ts=parent["ts"])

    assert parent["channel"] == CHANNEL and parent["message"]["text"] == "Recount requested"
    assert float(reply["ts"]) > float(parent["ts"])
    assert reply["message"]["thread_ts"] == parent["ts"]

    thread = client.conversations_replies(channel=CHANNEL, ts=parent["ts"])["messages"]
    assert [m["text"] for m in thread] == ["Recount requested", "Canvass board notified"]
    assert thread[0]["reply_count"] == 1 and thread[0]["latest_reply"] == reply["ts"]

    history = client.conversations_history(channel=CHANNEL)["messages"]
    assert [m["ts"] for m in history] == [parent["ts"]]  # replies stay in the thread
    snapshot = slack.state.snapshot()["channels"][CHANNEL]
    assert [m["text"] for m in snapshot["threads"][parent["ts"]]] == ["Canvass board notified"]


def test_update_edits_the_stored_message(slack, client):
    posted = client.chat_postMessage(channel=CHANNEL, text="Recount pending")
    updated = client.chat_update(channel=CHANNEL, ts=posted["ts"], text="Recount certified",
                                 blocks=[section("Certified")])
    assert updated["ts"] == posted["ts"] and updated["text"] == "Recount certified"

    stored = client.conversations_history(channel=CHANNEL)["messages"][0]
    assert stored["text"] == "Recount certified" and "edited" in stored
    assert stored["blocks"][0]["text"]["text"] == "Certified"

    with pytest.raises(SlackApiError) as excinfo:
        client.chat_update(channel=CHANNEL, ts="1.000001", text="nope")
    assert slack_error(excinfo)["error"] == "message_not_found"


def test_message_without_text_or_channel_is_refused(client):
    with pytest.raises(SlackApiError) as excinfo:
        client.api_call("chat.postMessage", json={"channel": CHANNEL})
    assert slack_error(excinfo)["error"] == "no_text"
    with pytest.raises(SlackApiError) as excinfo:
        client.api_call("chat.postMessage", json={"text": "where?"})
    assert slack_error(excinfo)["error"] == "channel_not_found"


def test_fifty_one_blocks_are_refused_fifty_accepted(slack, client):
    with pytest.raises(SlackApiError) as excinfo:
        client.chat_postMessage(channel=CHANNEL, text="t", blocks=[section(str(i)) for i in range(51)])
    body = slack_error(excinfo)
    assert body["error"] == "invalid_blocks"
    assert "[ERROR] no more than 50 items allowed [json-pointer:/blocks]" in body["response_metadata"]["messages"]
    assert slack.state.messages(CHANNEL) == []

    client.chat_postMessage(channel=CHANNEL, text="t", blocks=[section(str(i)) for i in range(50)])


def test_section_text_over_3000_characters_is_refused(client):
    with pytest.raises(SlackApiError) as excinfo:
        client.chat_postMessage(channel=CHANNEL, text="t", blocks=[section("x" * 3001)])
    body = slack_error(excinfo)
    assert body["error"] == "invalid_blocks"
    assert any("[json-pointer:/blocks/0/text/text]" in m for m in body["response_metadata"]["messages"])


def test_form_encoded_json_fields_arrive_decoded(slack, client):
    blocks = [section("from a form post")]
    client.api_call("chat.postMessage", params={"channel": CHANNEL, "text": "t", "blocks": json.dumps(blocks)})
    call = slack.calls_to("chat.postMessage")[0]
    assert call.args["blocks"] == blocks and call.status == 200


def test_ephemeral_permalink_reaction_delete(slack, client):
    eph = client.chat_postEphemeral(channel=CHANNEL, user=CLERK, text="Only you can see this")
    assert eph["message_ts"]
    assert [m["text"] for m in slack.state.ephemeral_messages(CLERK)] == ["Only you can see this"]

    posted = client.chat_postMessage(channel=CHANNEL, text="Tally posted")
    link = client.chat_getPermalink(channel=CHANNEL, message_ts=posted["ts"])["permalink"]
    assert link.endswith(f"/archives/{CHANNEL}/p{posted['ts'].replace('.', '')}")

    client.reactions_add(channel=CHANNEL, timestamp=posted["ts"], name="white_check_mark")
    with pytest.raises(SlackApiError) as excinfo:
        client.reactions_add(channel=CHANNEL, timestamp=posted["ts"], name="white_check_mark")
    assert slack_error(excinfo)["error"] == "already_reacted"

    client.chat_delete(channel=CHANNEL, ts=posted["ts"])
    assert client.conversations_history(channel=CHANNEL)["messages"] == []


def test_dm_channel_is_stable_and_users_live_in_denver(client):
    first = client.conversations_open(users=CLERK)["channel"]["id"]
    again = client.conversations_open(users=[CLERK])
    assert first.startswith("D") and again["channel"]["id"] == first and again["already_open"]
    assert client.conversations_info(channel=first)["channel"]["user"] == CLERK

    user = client.users_info(user=CLERK)["user"]
    assert user["real_name"] == "Dana Clerk" and user["tz"] == "America/Denver"
    assert user["tz_offset"] in (-25200, -21600)


def test_ts_comes_from_the_injected_clock():
    frozen = datetime(2025, 12, 2, 14, 13, 20, tzinfo=timezone.utc)  # 1764684800
    with SlackStandIn(clock=lambda: frozen) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        first = client.chat_postMessage(channel=CHANNEL, text="one")["ts"]
        second = client.chat_postMessage(channel=CHANNEL, text="two")["ts"]
    assert (first, second) == ("1764684800.000000", "1764684800.000001")


# --------------------------------------------------------------------------- views
def test_modal_title_of_25_characters_is_refused(client):
    with pytest.raises(SlackApiError) as excinfo:
        client.views_open(trigger_id="12345.98765.abcd", view=modal("x" * 25))
    body = slack_error(excinfo)
    assert body["error"] == "invalid_arguments"
    assert "[ERROR] must be less than 25 characters [json-pointer:/view/title/text]" in \
        body["response_metadata"]["messages"]
    client.views_open(trigger_id="12345.98765.abcd", view=modal("x" * 24))


@pytest.mark.parametrize("view, pointer", [
    (modal(blocks=[section(str(i)) for i in range(101)]), "/view/blocks"),
    (modal(private_metadata="m" * 3001), "/view/private_metadata"),
    (modal(submit={"type": "plain_text", "text": "s" * 25}), "/view/submit/text"),
    (modal(blocks=[section("y" * 3001)]), "/view/blocks/0/text/text"),
])
def test_modal_limits(client, view, pointer):
    with pytest.raises(SlackApiError) as excinfo:
        client.views_open(trigger_id="t", view=view)
    body = slack_error(excinfo)
    assert body["error"] == "invalid_arguments"
    assert any(f"[json-pointer:{pointer}]" in m for m in body["response_metadata"]["messages"])


def test_views_open_update_push(slack, client):
    trigger = slack.issue_trigger_id(CLERK)
    opened = client.views_open(trigger_id=trigger, view=modal(external_id="recount-42"))["view"]
    assert opened["id"].startswith("V") and opened["hash"]

    updated = client.views_update(view_id=opened["id"], hash=opened["hash"], view=modal("Step 2"))["view"]
    assert updated["id"] == opened["id"] and updated["hash"] != opened["hash"]
    with pytest.raises(SlackApiError) as excinfo:
        client.views_update(view_id=opened["id"], hash=opened["hash"], view=modal("Stale"))
    assert slack_error(excinfo)["error"] == "hash_conflict"
    by_external = client.views_update(external_id="recount-42", view=modal("Step 3"))["view"]
    assert by_external["id"] == opened["id"]

    pushed = client.views_push(trigger_id=slack.issue_trigger_id(CLERK), view=modal("Confirm"))["view"]
    assert pushed["previous_view_id"] == opened["id"] and pushed["root_view_id"] == opened["id"]
    assert [v["title"]["text"] for v in slack.state.open_views(CLERK)] == ["Step 3", "Confirm"]

    with pytest.raises(SlackApiError) as excinfo:
        client.views_update(view_id="V0NOSUCHVIEW", view=modal())
    assert slack_error(excinfo)["error"] == "not_found"


def test_strict_trigger_ids_are_single_use_and_expire():
    now = [datetime(2025, 12, 2, 15, 0, tzinfo=timezone.utc)]
    with SlackStandIn(strict=True, users={CLERK: {}}, clock=lambda: now[0]) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        with pytest.raises(SlackApiError) as excinfo:
            client.views_open(trigger_id="made.up.trigger", view=modal())
        assert slack_error(excinfo)["error"] == "invalid_arguments"

        trigger = slack.issue_trigger_id(CLERK)
        client.views_open(trigger_id=trigger, view=modal())
        with pytest.raises(SlackApiError) as excinfo:
            client.views_open(trigger_id=trigger, view=modal())
        assert slack_error(excinfo)["error"] == "exchanged_trigger_id"

        late = slack.issue_trigger_id(CLERK)
        now[0] += timedelta(seconds=4)
        with pytest.raises(SlackApiError) as excinfo:
            client.views_open(trigger_id=late, view=modal())
        assert slack_error(excinfo)["error"] == "expired_trigger_id"


def test_views_publish_keeps_one_home_per_user(slack, client):
    home = {"type": "home", "blocks": [section("Open recounts: 0")]}
    first = client.views_publish(user_id=CLERK, view=home)["view"]
    second = client.views_publish(user_id=CLERK, view={**home, "blocks": [section("Open recounts: 1")]})["view"]
    assert first["id"] == second["id"]
    assert slack.state.home_view(CLERK)["blocks"][0]["text"]["text"] == "Open recounts: 1"
    with pytest.raises(SlackApiError) as excinfo:
        client.views_publish(user_id=CLERK, view=modal())
    assert slack_error(excinfo)["error"] == "invalid_arguments"


# --------------------------------------------------------------------------- files
def test_files_upload_v2_round_trip(slack, client):
    data = b"precinct,candidate,votes\n1,Alvarez,512\n"
    result = client.files_upload_v2(channel=CHANNEL, content=data, filename="tally.csv", title="Tally",
                                    initial_comment="Recount tally attached")
    file_id = result["file"]["id"]
    assert result["file"]["title"] == "Tally" and result["file"]["size"] == len(data)
    assert slack.state.file_content(file_id) == data

    shared = client.conversations_history(channel=CHANNEL)["messages"][0]
    assert shared["text"] == "Recount tally attached" and shared["files"][0]["id"] == file_id

    request = urllib.request.Request(result["file"]["url_private"], headers={"Authorization": "Bearer xoxb-test"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.read() == data


# --------------------------------------------------------------------------- faults and auth
def test_rate_limit_is_retried_by_the_client_handler(slack):
    client = WebClient(token="xoxb-test", base_url=slack.base_url,
                       retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=1)])
    slack.fail_next("chat.postMessage", status=429, retry_after=0)
    assert client.chat_postMessage(channel=CHANNEL, text="after the wait")["ok"]
    assert [c.status for c in slack.calls_to("chat.postMessage")] == [429, 200]
    assert len(slack.state.messages(CHANNEL)) == 1


def test_rate_limit_without_a_handler_surfaces_status_and_retry_after(slack):
    client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
    slack.fail_next("chat.postMessage", retry_after=7, times=2)
    for _ in range(2):
        with pytest.raises(SlackApiError) as excinfo:
            client.chat_postMessage(channel=CHANNEL, text="too fast")
        response = excinfo.value.response
        assert response.status_code == 429 and response["error"] == "ratelimited"
        assert response.headers["Retry-After"] == "7"
    assert client.chat_postMessage(channel=CHANNEL, text="fine now")["ok"]
    assert [m["text"] for m in slack.state.messages(CHANNEL)] == ["fine now"]


def test_server_error_then_recovery(slack):
    plain = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
    slack.fail_next("chat.postMessage", status=500)
    with pytest.raises(SlackApiError) as excinfo:
        plain.chat_postMessage(channel=CHANNEL, text="x")
    assert excinfo.value.response.status_code == 500

    retrying = WebClient(token="xoxb-test", base_url=slack.base_url,
                         retry_handlers=[ServerErrorRetryHandler(max_retry_count=1)])
    slack.fail_next("chat.postMessage", status=500)
    assert retrying.chat_postMessage(channel=CHANNEL, text="x")["ok"]


def test_slow_response_times_the_client_out_but_still_lands(slack):
    client = WebClient(token="xoxb-test", base_url=slack.base_url, timeout=0.3, retry_handlers=[])
    slack.fail_next("chat.postMessage", delay=1.0)
    with pytest.raises((TimeoutError, URLError)):
        client.chat_postMessage(channel=CHANNEL, text="slow")
    slack.wait_for("chat.postMessage", timeout=5)
    assert [m["text"] for m in slack.state.messages(CHANNEL)] == ["slow"]  # Slack may act on a timed-out call


def test_auth_errors(slack):
    with pytest.raises(SlackApiError) as excinfo:
        WebClient(token="xoxp-not-a-bot", base_url=slack.base_url).auth_test()
    assert slack_error(excinfo)["error"] == "invalid_auth"
    with pytest.raises(SlackApiError) as excinfo:
        WebClient(base_url=slack.base_url).auth_test()
    assert slack_error(excinfo)["error"] == "not_authed"
    assert WebClient(token="xoxb-anything", base_url=slack.base_url).auth_test()["bot_id"]


def test_bolt_app_construction_authenticates_against_the_standin(slack):
    from slack_bolt import App

    App(client=WebClient(token="xoxb-test", base_url=slack.base_url), signing_secret="not-used")
    call = slack.wait_for("auth.test")[0]
    assert call.response["ok"] and call.headers["Authorization"] == "Bearer xoxb-test"


def test_configured_tokens_only():
    with SlackStandIn(tokens={"xoxb-the-one"}) as slack:
        assert WebClient(token="xoxb-the-one", base_url=slack.base_url).auth_test()["ok"]
        with pytest.raises(SlackApiError):
            WebClient(token="xoxb-another", base_url=slack.base_url).auth_test()


def test_unknown_method(client):
    with pytest.raises(SlackApiError) as excinfo:
        client.api_call("recount.certify")
    assert slack_error(excinfo)["error"] == "unknown_method"


# --------------------------------------------------------------------------- concurrency, waiting, notification
def test_twenty_threads_posting_get_unique_ts(slack):
    results: list[str] = []
    lock = threading.Lock()

    def post(i: int) -> None:
        ts = WebClient(token="xoxb-test", base_url=slack.base_url).chat_postMessage(
            channel=CHANNEL, text=f"precinct {i}")["ts"]
        with lock:
            results.append(ts)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert len(results) == 20 and len(set(results)) == 20
    stored = [m["ts"] for m in slack.state.messages(CHANNEL)]
    assert sorted(stored) == sorted(results) and stored == sorted(stored, key=float)


def test_wait_for_blocks_until_calls_arrive(slack, client):
    threading.Timer(0.2, lambda: client.chat_postMessage(channel=CHANNEL, text="later")).start()
    calls = slack.wait_for("chat.postMessage", count=1, timeout=5)
    assert calls[0].args["text"] == "later"
    with pytest.raises(TimeoutError):
        slack.wait_for("views.open", timeout=0.1)
    slack.clear()
    assert slack.calls == []


def test_subscribers_hear_about_changes_outside_the_lock(slack, client):
    changes, reads = [], []

    def on_change(change):
        changes.append(change)
        # A UI pushing the update reads the state from its own thread; that must not deadlock.
        reader = threading.Thread(target=lambda: reads.append(slack.state.snapshot()))
        reader.start()
        reader.join(timeout=2)

    unsubscribe = slack.subscribe(on_change)
    posted = client.chat_postMessage(channel=CHANNEL, text="hello")
    unsubscribe()
    client.chat_postMessage(channel=CHANNEL, text="unheard")
    posted_changes = [c for c in changes if c.kind == "message.posted"]
    assert [c.data["ts"] for c in posted_changes] == [posted["ts"]]
    assert len(reads) == len(changes)


def test_history_pages_newest_first(client):
    sent = [client.chat_postMessage(channel=CHANNEL, text=f"m{i}")["ts"] for i in range(5)]
    first = client.conversations_history(channel=CHANNEL, limit=3)
    assert [m["ts"] for m in first["messages"]] == sent[::-1][:3] and first["has_more"]
    rest = client.conversations_history(channel=CHANNEL, limit=3,
                                        cursor=first["response_metadata"]["next_cursor"])
    assert [m["ts"] for m in rest["messages"]] == sent[::-1][3:] and not rest["has_more"]


def test_strict_mode_knows_only_configured_channels_and_users():
    with SlackStandIn(strict=True, channels={CHANNEL: "recount-2025"}, users={CLERK: {}}) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        assert client.chat_postMessage(channel="#recount-2025", text="by name")["channel"] == CHANNEL
        for call, error in [(lambda: client.chat_postMessage(channel="C0ELSEWHERE", text="x"), "channel_not_found"),
                            (lambda: client.users_info(user="U0STRANGER"), "user_not_found")]:
            with pytest.raises(SlackApiError) as excinfo:
                call()
            assert slack_error(excinfo)["error"] == error


def test_clock_must_be_timezone_aware():
    slack = SlackStandIn(clock=lambda: datetime(2025, 12, 2, 12, 0))
    with pytest.raises(ValueError, match="aware"):
        slack.state.post_message(CHANNEL, text="naive")
