"""What a clerk does to bring a results file into Slack, for the upload flow tests: open the form, attach a file
(the stand-in keeps it as Slack keeps a file a person uploaded), fill in the election, read, save."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from sandbox.slack_standin.validation import view_errors
from storage.models import SurveyVersion
from tests.support.slack_app import OFFICIAL, TEAM, text_of

ROOT = Path(__file__).resolve().parents[2]
OPENELECTIONS = ROOT / "tests" / "fixtures" / "returns" / "openelections_small.csv"
EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"
FILE = "returns.upload_file"
AGAIN = "returns.upload_again"


def open_upload(harness, *, user: str = OFFICIAL) -> dict:
    updates = len(harness.slack.calls_to("views.update"))
    assert harness.command("returns upload", user=user).status == 200
    harness.wait("views.update", count=updates + 1)
    view = harness.open_view(user)
    assert view["callback_id"] == "returns.upload", text_of({"blocks": view["blocks"]})
    assert view_errors(view) == []
    return view


def attach(harness, data: bytes | Path, name: str | None = None, *, user: str = OFFICIAL) -> dict[str, Any]:
    """A file the person uploaded into the form: Slack's file object, as the view's state carries it."""
    if isinstance(data, Path):
        name, data = name or data.name, data.read_bytes()
    return harness.slack.state.add_user_file(user, name or "returns.csv", data)


def files(*attached: dict) -> dict:
    return {"type": "file_input", "files": list(attached)}


def text(value: str | None) -> dict:
    return {"type": "plain_text_input", "value": value}


def picked(value: str | None) -> dict:
    return {"type": "static_select", "selected_option": {"value": value} if value else None}


def new_election(name: str = "Regular Special District Election", date: str = "2026-11-03",
                 government: str = "Front Range Special Districts", body: str = "Board of Directors",
                 law: str | None = "1-13.5-1306") -> dict:
    return {"returns.new_election_name": text(name),
            "returns.new_election_date": {"type": "datepicker", "selected_date": date},
            "returns.local_government": text(government), "returns.governing_body": text(body),
            "returns.new_election_law": picked(law)}


def shown(view: dict) -> str:
    return text_of({"blocks": view["blocks"]})


def submitted(harness, view: dict, values: dict, *, user: str = OFFICIAL) -> tuple[dict, dict]:
    """Submit, and return (Slack's answer, the modal once the bot has finished with it)."""
    reply = harness.submit(view, values, user=user)
    assert reply.status == 200
    answer = reply.json() or {}
    if answer.get("response_action") == "update":
        assert view_errors(answer["view"]) == []
    return answer, harness.open_view(user)


def read(harness, view: dict, values: dict, *, user: str = OFFICIAL) -> dict:
    """Submit the form: Slack is answered with "Reading…" at once, and the preview follows."""
    answer, after = submitted(harness, view, values, user=user)
    assert answer["response_action"] == "update" and "Reading" in shown(answer["view"]), answer
    assert view_errors(after) == []
    return after


def versions(harness) -> list[SurveyVersion]:
    with harness.db.transaction() as s:
        return list(s.scalars(select(SurveyVersion).order_by(SurveyVersion.id)))


def version_count(harness) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(SurveyVersion))


def mrkdwn_texts(node: Any) -> list[str]:
    """Every mrkdwn text in blocks (what Slack parses for mentions and links)."""
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("type") == "mrkdwn" and isinstance(node.get("text"), str):
            found.append(node["text"])
        for value in node.values():
            found += mrkdwn_texts(value)
    elif isinstance(node, list):
        for value in node:
            found += mrkdwn_texts(value)
    return found


def click_in_view(harness, view: dict, action_id: str, value: str, *, user: str = OFFICIAL,
                  values: dict | None = None) -> None:
    """A button in an open modal (block_actions with the view and what was typed in it, `values` as `submitted`
    takes them), as Slack sends it."""
    updates = len(harness.slack.calls_to("views.update"))
    block = next(b for b in view["blocks"] if b["type"] == "actions"
                 and any(e.get("action_id") == action_id for e in b["elements"]))
    payload = {
        "type": "block_actions", "team": {"id": TEAM, "domain": "recount-test"},
        "user": {"id": user, "username": user.lower(), "team_id": TEAM}, "api_app_id": "A0RECOUNT1",
        "token": "legacy-verification-token", "trigger_id": harness.slack.issue_trigger_id(user),
        "container": {"type": "view", "view_id": view["id"]},
        "view": {**view, "state": {"values": {k: {k: v} for k, v in (values or {}).items()}}},
        "actions": [{"type": "button", "action_id": action_id, "block_id": block["block_id"], "value": value,
                     "action_ts": f"{time.time():.6f}"}],
    }
    assert harness._interactive(payload).status == 200
    harness.wait("views.update", count=updates + 1)


def choose_in_view(harness, view: dict, block_id: str, value: str, *, user: str = OFFICIAL) -> None:
    """Pick `value` in a select of an open modal that redraws the form (dispatch_action)."""
    updates = len(harness.slack.calls_to("views.update"))
    state = {"values": {block_id: {block_id: picked(value)}}}
    payload = {
        "type": "block_actions", "team": {"id": TEAM, "domain": "recount-test"},
        "user": {"id": user, "username": user.lower(), "team_id": TEAM}, "api_app_id": "A0RECOUNT1",
        "token": "legacy-verification-token", "trigger_id": harness.slack.issue_trigger_id(user),
        "container": {"type": "view", "view_id": view["id"]}, "view": {**view, "state": state},
        "actions": [{"type": "static_select", "action_id": block_id, "block_id": block_id,
                     "selected_option": {"value": value}, "action_ts": f"{time.time():.6f}"}],
    }
    assert harness._interactive(payload).status == 200
    harness.wait("views.update", count=updates + 1)
