"""What Slack sends an app, built the way Slack builds it: slash-command forms, interaction payloads and
request signatures. Shared by the offline console, the browser sandbox and the tests.

Each builder returns the request body's fields; `form_body` / `interaction_body` encode them and
`signed_headers` signs the bytes with the app's signing secret (v0 HMAC-SHA256, as Slack does).
"""
from __future__ import annotations

import json
import secrets
import time
import urllib.parse
from typing import Any

from slack_sdk.signature import SignatureVerifier

API_APP_ID = "A0RECOUNT1"
LEGACY_TOKEN = "legacy-verification-token"  # deprecated by Slack, still sent; Bolt ignores it


def _team(team_id: str, domain: str) -> dict[str, Any]:
    return {"id": team_id, "domain": domain}


def _user(user_id: str, user_name: str, team_id: str) -> dict[str, Any]:
    return {"id": user_id, "username": user_name, "name": user_name, "team_id": team_id}


def slash_command(*, command: str, text: str, team_id: str, team_domain: str, channel_id: str, channel_name: str,
                  user_id: str, user_name: str, response_url: str, trigger_id: str,
                  api_app_id: str = API_APP_ID) -> dict[str, str]:
    """The form fields of a slash command."""
    return {
        "token": LEGACY_TOKEN, "team_id": team_id, "team_domain": team_domain, "channel_id": channel_id,
        "channel_name": channel_name, "user_id": user_id, "user_name": user_name, "command": command, "text": text,
        "api_app_id": api_app_id, "is_enterprise_install": "false", "response_url": response_url,
        "trigger_id": trigger_id,
    }


def element_action(element: dict[str, Any], block_id: str, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `actions[0]` Slack sends for `element`: a button's text, value and style; for any other element
    (a select, an overflow menu, a date picker) its new `state`, e.g. {"selected_option": {...}}."""
    action: dict[str, Any] = {"type": element.get("type", "button"), "action_id": element.get("action_id"),
                              "block_id": block_id}
    if action["type"] == "button":
        action["text"] = element.get("text")
        for key in ("value", "style"):
            if key in element:
                action[key] = element[key]
    else:
        action.update({k: v for k, v in (state or {}).items() if k != "type"})
        if element.get("placeholder"):
            action["placeholder"] = element["placeholder"]
    action["action_ts"] = f"{time.time():.6f}"
    return action


def block_actions(*, team_id: str, team_domain: str, user_id: str, user_name: str, channel_id: str,
                  channel_name: str, message: dict[str, Any], block_id: str, element: dict[str, Any],
                  response_url: str, trigger_id: str, is_ephemeral: bool = False, state: dict[str, Any] | None = None,
                  api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """A click on `element` (a button) in `block_id` of `message`, or a change of another interactive element
    (its new `state`). Slack leaves the message out of the payload when it was ephemeral."""
    action = element_action(element, block_id, state)
    payload: dict[str, Any] = {
        "type": "block_actions", "user": _user(user_id, user_name, team_id), "api_app_id": api_app_id,
        "token": LEGACY_TOKEN,
        "container": {"type": "message", "message_ts": message["ts"], "channel_id": channel_id,
                      "is_ephemeral": is_ephemeral},
        "trigger_id": trigger_id, "team": _team(team_id, team_domain), "enterprise": None,
        "is_enterprise_install": False, "channel": {"id": channel_id, "name": channel_name},
        "state": {"values": {}}, "response_url": response_url, "actions": [action],
    }
    if not is_ephemeral:
        payload["message"] = message
    return payload


def view_block_actions(*, team_id: str, team_domain: str, user_id: str, user_name: str, view: dict[str, Any],
                       values: dict[str, dict[str, dict[str, Any]]], block_id: str, action_id: str,
                       state: dict[str, Any], trigger_id: str, api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """A change in a modal input that asks for it (`dispatch_action`), e.g. a select that redraws the form.
    `state` is the element's new state ({"type": ..., "selected_option": ...}); `values` the whole form so far."""
    action = {**state, "action_id": action_id, "block_id": block_id, "action_ts": f"{time.time():.6f}"}
    return {
        "type": "block_actions", "user": _user(user_id, user_name, team_id), "api_app_id": api_app_id,
        "token": LEGACY_TOKEN, "container": {"type": "view", "view_id": view.get("id")}, "trigger_id": trigger_id,
        "team": _team(team_id, team_domain), "enterprise": None, "is_enterprise_install": False,
        "view": {**view, "state": {"values": values}}, "actions": [action],
    }


def global_shortcut(*, team_id: str, team_domain: str, user_id: str, user_name: str, callback_id: str,
                    trigger_id: str, api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """A global shortcut, chosen from the composer's shortcut menu or the search bar: no channel, no message."""
    return {
        "type": "shortcut", "token": LEGACY_TOKEN, "action_ts": f"{time.time():.6f}",
        "team": _team(team_id, team_domain), "user": _user(user_id, user_name, team_id), "api_app_id": api_app_id,
        "callback_id": callback_id, "trigger_id": trigger_id, "enterprise": None, "is_enterprise_install": False,
    }


def event_callback(*, team_id: str, event: dict[str, Any], event_id: str | None = None,
                   api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """An Events API delivery (sent as JSON, not a form); a retry carries the same event_id."""
    now = time.time()
    return {
        "token": LEGACY_TOKEN, "team_id": team_id, "api_app_id": api_app_id, "event": event,
        "type": "event_callback", "event_id": event_id or "Ev" + secrets.token_hex(5).upper(),
        "event_time": int(now), "event_context": "4-" + secrets.token_hex(12),
        "authorizations": [{"enterprise_id": None, "team_id": team_id, "user_id": None, "is_bot": True,
                            "is_enterprise_install": False}],
        "is_ext_shared_channel": False,
    }


def app_home_opened(*, user_id: str, channel_id: str, tab: str = "home",
                    view: dict[str, Any] | None = None) -> dict[str, Any]:
    """The event Slack sends when a person opens the app's Home (or Messages) tab; `view` is the Home view
    published for them before, when there is one."""
    event: dict[str, Any] = {"type": "app_home_opened", "user": user_id, "channel": channel_id, "tab": tab,
                             "event_ts": f"{time.time():.6f}"}
    if view is not None:
        event["view"] = view
    return event


def view_submission(*, team_id: str, team_domain: str, user_id: str, user_name: str, view: dict[str, Any],
                    values: dict[str, dict[str, dict[str, Any]]], trigger_id: str,
                    api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """A modal's submission: `values` is Slack's view.state.values, {block_id: {action_id: element state}}."""
    return {
        "type": "view_submission", "team": _team(team_id, team_domain), "user": _user(user_id, user_name, team_id),
        "api_app_id": api_app_id, "token": LEGACY_TOKEN, "trigger_id": trigger_id,
        "view": {**view, "state": {"values": values}}, "response_urls": [], "enterprise": None,
        "is_enterprise_install": False,
    }


def view_closed(*, team_id: str, team_domain: str, user_id: str, user_name: str, view: dict[str, Any],
                is_cleared: bool = False, api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """Sent when a person closes a modal that asked for `notify_on_close`."""
    return {
        "type": "view_closed", "team": _team(team_id, team_domain), "user": _user(user_id, user_name, team_id),
        "api_app_id": api_app_id, "token": LEGACY_TOKEN, "view": view, "is_cleared": is_cleared,
        "enterprise": None, "is_enterprise_install": False,
    }


FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


def form_body(fields: dict[str, str]) -> bytes:
    return urllib.parse.urlencode(fields).encode()


def interaction_body(payload: dict[str, Any]) -> bytes:
    """Interactions arrive as a form with one field, `payload`, holding the JSON."""
    return urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()


def json_body(payload: dict[str, Any]) -> bytes:
    """Events arrive as a JSON body (Content-Type: application/json)."""
    return json.dumps(payload).encode()


def signed_headers(signing_secret: str, body: bytes, *, timestamp: int | None = None,
                   content_type: str = FORM) -> dict[str, str]:
    stamp = str(timestamp if timestamp is not None else int(time.time()))
    signature = SignatureVerifier(signing_secret).generate_signature(timestamp=stamp, body=body)
    return {"Content-Type": content_type, "X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": signature}
