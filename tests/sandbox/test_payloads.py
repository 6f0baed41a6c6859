"""What the console sends is what Slack sends: signed requests Bolt accepts, payload shapes as documented."""
from __future__ import annotations

import json
import time
import urllib.parse

from slack_sdk.signature import SignatureVerifier

from sandbox import payloads

MESSAGE = {"ts": "1762444800.000100", "text": "card", "blocks": []}
BUTTON = {"type": "button", "action_id": "notice.record", "value": "7", "text": {"type": "plain_text", "text": "Go"}}


def test_signatures_verify_with_the_secret_and_not_without_it() -> None:
    body = payloads.form_body({"text": "help"})
    headers = payloads.signed_headers("s3cret-signing", body)
    assert headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert abs(int(headers["X-Slack-Request-Timestamp"]) - time.time()) < 5
    args = {"body": body, "timestamp": headers["X-Slack-Request-Timestamp"], "signature": headers["X-Slack-Signature"]}
    assert SignatureVerifier("s3cret-signing").is_valid(**args)
    assert not SignatureVerifier("another-secret").is_valid(**args)


def test_a_slash_command_carries_the_fields_slack_sends() -> None:
    fields = payloads.slash_command(command="/recount", text="check", team_id="T1", team_domain="d", channel_id="C1",
                                    channel_name="elections", user_id="U1", user_name="dana", response_url="http://r",
                                    trigger_id="t.1")
    assert {"token", "team_id", "team_domain", "channel_id", "channel_name", "user_id", "user_name", "command", "text",
            "api_app_id", "is_enterprise_install", "response_url", "trigger_id"} == set(fields)
    assert urllib.parse.parse_qs(payloads.form_body(fields).decode())["text"] == ["check"]


def _decoded(body: bytes) -> dict:
    return json.loads(urllib.parse.parse_qs(body.decode())["payload"][0])


def test_a_click_carries_container_message_response_url_and_trigger() -> None:
    common = dict(team_id="T1", team_domain="d", user_id="U1", user_name="dana", channel_id="C1",
                  channel_name="elections", message=MESSAGE, block_id="b1", element=BUTTON, response_url="http://r",
                  trigger_id="t.1")
    payload = _decoded(payloads.interaction_body(payloads.block_actions(**common)))
    assert payload["type"] == "block_actions"
    assert payload["container"] == {"type": "message", "message_ts": MESSAGE["ts"], "channel_id": "C1",
                                    "is_ephemeral": False}
    assert payload["message"] == MESSAGE and payload["response_url"] == "http://r" and payload["trigger_id"] == "t.1"
    [action] = payload["actions"]
    assert (action["action_id"], action["block_id"], action["value"], action["type"]) == ("notice.record", "b1", "7",
                                                                                          "button")
    ephemeral = payloads.block_actions(**common, is_ephemeral=True)
    assert "message" not in ephemeral and ephemeral["container"]["is_ephemeral"] is True


def test_view_payloads_put_the_values_in_the_view_state() -> None:
    view = {"id": "V1", "callback_id": "notice.record", "blocks": [], "state": {"values": {}}}
    values = {"notice.method": {"notice.method": {"type": "static_select", "selected_option": {"value": "email"}}}}
    submitted = payloads.view_submission(team_id="T1", team_domain="d", user_id="U1", user_name="dana", view=view,
                                         values=values, trigger_id="t.2")
    assert submitted["type"] == "view_submission" and submitted["view"]["state"] == {"values": values}
    assert submitted["view"]["callback_id"] == "notice.record" and submitted["response_urls"] == []
    changed = payloads.view_block_actions(team_id="T1", team_domain="d", user_id="U1", user_name="dana", view=view,
                                          values=values, block_id="notice.method", action_id="notice.method",
                                          state=values["notice.method"]["notice.method"], trigger_id="t.3")
    assert changed["container"] == {"type": "view", "view_id": "V1"}
    assert changed["actions"][0]["selected_option"] == {"value": "email"}
    closed = payloads.view_closed(team_id="T1", team_domain="d", user_id="U1", user_name="dana", view=view)
    assert closed["type"] == "view_closed" and closed["is_cleared"] is False
