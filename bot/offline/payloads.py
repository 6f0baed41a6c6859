"""What Slack sends an app, built the way Slack builds it: slash-command forms, interaction payloads and
request signatures. Shared by the offline console, the browser sandbox and the tests.

Each builder returns the request body's fields; `form_body` / `interaction_body` encode them and
`signed_headers` signs the bytes with the app's signing secret (v0 HMAC-SHA256, as Slack does).
"""
from __future__ import annotations

import json
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


def block_actions(*, team_id: str, team_domain: str, user_id: str, user_name: str, channel_id: str,
                  channel_name: str, message: dict[str, Any], block_id: str, element: dict[str, Any],
                  response_url: str, trigger_id: str, is_ephemeral: bool = False,
                  api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """A click on `element` (a button) in `block_id` of `message`. Slack leaves the message out of the payload
    when it was ephemeral."""
    action = {"type": element.get("type", "button"), "action_id": element.get("action_id"), "block_id": block_id,
              "text": element.get("text"), "action_ts": f"{time.time():.6f}"}
    for key in ("value", "style"):
        if key in element:
            action[key] = element[key]
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
                api_app_id: str = API_APP_ID) -> dict[str, Any]:
    """Sent when a person closes a modal that asked for `notify_on_close`."""
    return {
        "type": "view_closed", "team": _team(team_id, team_domain), "user": _user(user_id, user_name, team_id),
        "api_app_id": api_app_id, "token": LEGACY_TOKEN, "view": view, "is_cleared": False,
        "enterprise": None, "is_enterprise_install": False,
    }


FORM = "application/x-www-form-urlencoded"


def form_body(fields: dict[str, str]) -> bytes:
    return urllib.parse.urlencode(fields).encode()


def interaction_body(payload: dict[str, Any]) -> bytes:
    """Interactions arrive as a form with one field, `payload`, holding the JSON."""
    return urllib.parse.urlencode({"payload": json.dumps(payload)}).encode()


def signed_headers(signing_secret: str, body: bytes, *, timestamp: int | None = None,
                   content_type: str = FORM) -> dict[str, str]:
    stamp = str(timestamp if timestamp is not None else int(time.time()))
    signature = SignatureVerifier(signing_secret).generate_signature(timestamp=stamp, body=body)
    return {"Content-Type": content_type, "X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": signature}
