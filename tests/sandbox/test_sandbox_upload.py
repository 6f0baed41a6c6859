"""Attaching a results file in the offline sandbox, so `/recount returns upload` can be rehearsed without Slack: on
the page (the file is uploaded to the Slack stand-in as the person, and the submission carries Slack's file object)
and at the console (a path typed at the prompt)."""
from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from sqlalchemy import select

from sandbox.clock import DEMO_START, SandboxClock
from sandbox.console import Console
from sandbox.office import Sandbox
from sandbox.web import WebSandbox
from storage.models import SurveyVersion
from tests.sandbox.test_console import Script, do
from tests.sandbox.test_sandbox_api import call, conversation, ok, signed_payload
from tests.support.databases import migrated_database

ROOT = Path(__file__).resolve().parents[2]
OPENELECTIONS = ROOT / "tests" / "fixtures" / "returns" / "openelections_small.csv"
EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"
FILE, AGAIN = "returns.upload_file", "returns.upload_again"
PINE = "Pine Ridge Metropolitan District - Director"


@pytest.fixture
def db(tmp_path):
    with migrated_database("sqlite", tmp_path) as database:
        yield database


@pytest.fixture
def sandbox(db):
    sb = Sandbox(db, port=0, clock=SandboxClock(DEMO_START)).start()
    sent: list[dict] = []
    post = sb.post

    def recording_post(body: bytes, content_type: str = "application/x-www-form-urlencoded"):
        reply = post(body, content_type)
        sent.append({"body": body, "content_type": content_type, "status": reply.status, "reply": reply})
        return reply

    sb.post, sb.sent = recording_post, sent
    try:
        yield sb
        assert sb.standin.server_errors == []
    finally:
        sb.stop()


@pytest.fixture
def web(sandbox):
    with WebSandbox(sandbox, port=0) as running:
        yield running


PINE_ELECTION = "2"  # the example office's elections, newest entered first: Aspen Grove, Pine Ridge, ...


def pine_ridge_corrected() -> str:
    """Pine Ridge's returns (its district's own election in the example office), with one count corrected."""
    header, *rows = EXAMPLE.read_text().splitlines(keepends=True)
    return header + "".join(r for r in rows if r.startswith(PINE)).replace(
        f"{PINE},Dana Whitfield,845", f"{PINE},Dana Whitfield,840")


def versions(db) -> list[tuple[int, str]]:
    with db.transaction() as s:
        return [tuple(row) for row in s.execute(select(SurveyVersion.number, SurveyVersion.source_name)
                                                .order_by(SurveyVersion.id))]


def upload(web, path: Path, who: str = "official", name: str | None = None) -> dict:
    data = base64.b64encode(path.read_bytes()).decode()
    return ok(web, "upload", who, name=name or path.name, data=data)["file"]


def new_election() -> dict:
    return {"returns.upload_election": {"returns.upload_election": {"type": "static_select",
                                                                    "selected_option": {"value": "new"}}},
            "returns.new_election_name": {"returns.new_election_name": {"type": "plain_text_input",
                                                                        "value": "General Election"}},
            "returns.new_election_date": {"returns.new_election_date": {"type": "datepicker",
                                                                        "selected_date": "2026-11-03"}},
            # The example office serves several districts (each its own local government): name the new one's.
            "returns.local_government": {"returns.local_government": {"type": "plain_text_input",
                                                                      "value": "Front Range County"}},
            "returns.governing_body": {"returns.governing_body": {"type": "plain_text_input",
                                                                  "value": "Board of County Commissioners"}},
            # A November election the county clerk coordinates: C.R.S. 1-10.5.
            "returns.new_election_law": {"returns.new_election_law": {"type": "static_select",
                                                                      "selected_option": {"value": "1-10.5"}}}}


def test_a_file_chosen_on_the_page_is_uploaded_then_submitted_as_slacks_file_object(web, sandbox, db) -> None:
    form = ok(web, "command", text="/recount returns upload")["state"]["modals"][-1]
    assert form["callback_id"] == "returns.upload"
    form = ok(web, "view_act", view_id=form["id"], block_id="returns.upload_election",
              action_id="returns.upload_election", state={"type": "static_select", "selected_option": {"value": "new"}}
              )["state"]["modals"][-1]  # redrawn with the new election's fields
    assert "returns.new_election_name" in json.dumps(form)
    file = upload(web, OPENELECTIONS)
    assert (file["name"], file["filetype"], file["size"]) == ("openelections_small.csv", "csv",
                                                             OPENELECTIONS.stat().st_size)
    answer = ok(web, "submit", view_id=form["id"], values={
        FILE: {FILE: {"type": "file_input", "files": [{"id": file["id"]}]}}, **new_election()})
    assert answer["action"] == "update" and answer["idle"] is True, answer.get("errors")
    payload = signed_payload(sandbox, next(s for s in reversed(sandbox.sent) if b"view_submission" in s["body"]))
    [sent_file] = payload["view"]["state"]["values"][FILE][FILE]["files"]
    assert sent_file["id"] == file["id"] and sent_file["url_private_download"].startswith(sandbox.standin.url)
    preview = answer["state"]["modals"][-1]
    assert preview["callback_id"] == "returns.upload_preview"
    assert "This file can be saved as survey version 1 of *General Election*" in json.dumps(preview)

    saved = ok(web, "submit", view_id=preview["id"], values={})
    assert "saved as survey version 1 of *General Election*" in json.dumps(saved["state"]["modals"][-1])
    assert "Survey of returns version 1 of General Election recorded by" in json.dumps(
        conversation(saved["state"])["messages"][-1])
    assert versions(db)[-1] == (1, "openelections_small.csv")


def test_the_page_keeps_to_what_slacks_client_allows(web, sandbox) -> None:
    form = ok(web, "command", text="/recount returns upload")["state"]["modals"][-1]
    someone_elses = upload(web, EXAMPLE, who="staff")
    refused = ok(web, "submit", view_id=form["id"], values={
        FILE: {FILE: {"type": "file_input", "files": [{"id": someone_elses["id"]}]}}})
    assert refused["action"] == "errors" and refused["by"] == "slack"
    assert refused["errors"][FILE] == "That file is not one you uploaded; attach it again."
    pdf = ok(web, "upload", name="minutes.pdf", data=base64.b64encode(b"%PDF-1.7").decode())["file"]
    refused = ok(web, "submit", view_id=form["id"], values={FILE: {FILE: {"type": "file_input",
                                                                          "files": [{"id": pdf["id"]}]}}})
    assert refused["errors"][FILE] == "minutes.pdf is not a file this field takes (csv, json, xml, xlsx, xls)."
    assert ok(web, "submit", view_id=form["id"], values={})["errors"][FILE] == "Please complete this required field."
    status, answer = call(web, "upload", name="big.csv", data=base64.b64encode(b"x" * (10 * 1048576 + 1)).decode())
    assert status == 413 and answer["error"] == "big.csv is 10.0 MB; Slack takes files up to 10 MB in a form."
    status, answer = call(web, "upload", name="bad.csv", data="not base64!")
    assert status == 400 and "not base64" in answer["error"]


def test_the_console_attaches_a_file_from_a_path_typed_at_the_prompt(sandbox, db, tmp_path) -> None:
    corrected = tmp_path / "survey-corrected.csv"
    corrected.write_text(pine_ridge_corrected())
    script, out = Script(), []
    console = Console(sandbox, ask=script, say=out.append)
    console.script, console.out = script, out
    try:
        # The file; the election (Pine Ridge's: one election per district); kind and seats left empty; in the
        # preview, no other file.
        printed = do(console, "/recount returns upload", str(tmp_path / "missing.csv"), str(corrected), PINE_ELECTION,
                     "", "", "")
    finally:
        console.feed.close()
    assert "(the path of a file on this computer: csv, json, xml, xlsx, xls)" in printed
    assert f"! there is no file {tmp_path / 'missing.csv'}" in printed
    assert "2) Pine Ridge Metropolitan District — Regular Special District Election" in printed
    assert "It changes returns already recorded in version 1" in printed
    assert "saved as survey version 2" in printed
    assert "Survey of returns version 2 of Regular Special District Election recorded by" in printed
    assert versions(db)[-1] == (2, "survey-corrected.csv")
