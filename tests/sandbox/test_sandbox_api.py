"""The browser sandbox's JSON API without a browser: each thing a person does on the page becomes the signed
request Slack would send (its payload shape, trigger_id, response_url, the view's private_metadata), the
bot accepts it, and Slack's answer-handling (field errors, response_action, acknowledgements) is applied.
Also the sandbox web server's own rules: loopback host only, JSON posts only, static files only."""
from __future__ import annotations

import datetime as dt
import http.client
import json
import re
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from slack_sdk.signature import SignatureVerifier
from sqlalchemy import select

from bot.cli import main
from rules.calendar import DENVER
from sandbox.clock import (
    DEMO_START,
    SandboxClock,
    clock_file,
    parse_start,
    sandbox_clock,
    save_moment,
    saved_moment,
)
from sandbox.office import Reply, Sandbox
from sandbox.people import CHANNEL
from sandbox.web import WebSandbox, inputs
from storage.models import Membership, Notice
from tests.bot.test_cli_run import free_port
from tests.bot.test_cli_serve import command, environment, stop
from tests.support.databases import migrated_database

DANA, SAM, RILEY = "U0OFFMAYA1", "U0STAFFTHEO", "U0REQRILEY"
BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"
PINE = "Pine Ridge Metropolitan District - Director"


# ---------------------------------------------------------------- fixtures
@pytest.fixture
def db(tmp_path):
    with migrated_database("sqlite", tmp_path) as database:
        yield database


@pytest.fixture
def sandbox(db):
    sb = Sandbox(db, port=0, clock=SandboxClock(DEMO_START)).start()
    sent: list[dict] = []
    post = sb.post

    def recording_post(body: bytes, content_type: str = "application/x-www-form-urlencoded") -> Reply:
        reply = post(body, content_type)
        sent.append({"body": body, "content_type": content_type, "status": reply.status, "reply": reply})
        return reply

    sb.post = recording_post  # what the sandbox sent the bot, to check it is what Slack sends
    sb.sent = sent
    try:
        yield sb
        assert sb.standin.server_errors == []
    finally:
        sb.stop()


@pytest.fixture
def web(sandbox):
    with WebSandbox(sandbox, port=0) as running:
        yield running


def call(web, action: str, who: str = "official", **body) -> tuple[int, dict]:
    request = urllib.request.Request(f"{web.url}api/{action}", data=json.dumps({"as": who, **body}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def ok(web, action: str, who: str = "official", **body) -> dict:
    status, answer = call(web, action, who, **body)
    assert status == 200 and answer["ok"], answer
    return answer


def get(web, path: str, host: str | None = None) -> tuple[int, dict, bytes]:
    parts = urllib.parse.urlsplit(web.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.request("GET", path, headers={"Host": host} if host else {})
    response = connection.getresponse()
    try:
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def signed_payload(sandbox, sent: dict) -> dict:
    """The request as the bot received it (and accepted: HTTP 200), its payload decoded. Its signature is
    checked in test_every_request_carries_a_valid_slack_signature."""
    assert sent["status"] == 200
    body = sent["body"]
    if sent["content_type"] == "application/json":
        return json.loads(body)
    fields = dict(urllib.parse.parse_qsl(body.decode()))
    return json.loads(fields["payload"]) if "payload" in fields else fields


def conversation(state: dict, channel: str = CHANNEL.id) -> dict:
    return next(c for c in state["conversations"] if c["id"] == channel)


def message_with(state: dict, text: str) -> dict:
    return [m for m in conversation(state)["messages"] if text in json.dumps(m)][-1]


def element(message: dict, label: str) -> tuple[str, dict]:
    for block in message.get("blocks", []):
        found = block.get("elements", []) if block["type"] == "actions" else [block.get("accessory") or {}]
        for e in found:
            if (e.get("text") or {}).get("text") == label:
                return block["block_id"], e
    raise AssertionError(f"no {label} in the message")


def click(web, who: str, state: dict, text: str, label: str) -> dict:
    message = message_with(state, text)
    block_id, button = element(message, label)
    return ok(web, "act", who, channel=CHANNEL.id, ts=message["ts"], block_id=block_id,
              action_id=button["action_id"], value=button["value"])


# ---------------------------------------------------------------- the signed requests
def test_a_slash_command_is_the_form_slack_sends_signed(web, sandbox) -> None:
    answer = ok(web, "command", text="/recount check")
    assert answer["idle"] is True
    [sent] = sandbox.sent
    fields = signed_payload(sandbox, sent)
    assert (fields["command"], fields["text"], fields["user_id"], fields["channel_id"]) == (
        "/recount", "check", DANA, CHANNEL.id)
    assert fields["trigger_id"] and fields["response_url"].startswith(sandbox.standin.url + "/response/")
    assert "Survey of returns checked" in json.dumps(conversation(answer["state"])["messages"])


def test_every_request_carries_a_valid_slack_signature(web, sandbox, monkeypatch) -> None:
    from sandbox import payloads

    seen = []
    signed = payloads.signed_headers

    def spy(secret, body, **kwargs):
        headers = signed(secret, body, **kwargs)
        seen.append((body, headers))
        return headers

    monkeypatch.setattr(payloads, "signed_headers", spy)
    ok(web, "command", text="/recount help")
    ok(web, "home")
    verifier = SignatureVerifier(sandbox.signing_secret)
    assert len(seen) == 2
    for body, headers in seen:
        assert verifier.is_valid(body=body, timestamp=headers["X-Slack-Request-Timestamp"],
                                 signature=headers["X-Slack-Signature"])


def test_mentions_reach_the_app_escaped_as_should_escape_asks(web, sandbox, db) -> None:
    ok(web, "command", text="/recount check")  # Maya, a workspace admin, becomes the official
    ok(web, "command", text="/recount admin role @riley viewer")
    fields = signed_payload(sandbox, sandbox.sent[-1])
    assert fields["text"] == f"admin role <@{RILEY}|riley> viewer"
    with db.transaction() as s:
        assert s.scalar(select(Membership.role).where(Membership.slack_user_id == RILEY)) == "viewer"


def test_a_click_is_block_actions_with_the_message_and_opens_the_modal(web, sandbox) -> None:
    state = ok(web, "command", text="/recount check")["state"]
    answer = click(web, "official", state, f"Automatic recount: {BEAR}", "Record notice")
    payload = signed_payload(sandbox, sandbox.sent[-1])
    assert payload["type"] == "block_actions" and payload["user"]["id"] == DANA
    assert payload["container"]["type"] == "message" and payload["message"]["ts"] == payload["container"]["message_ts"]
    assert payload["response_url"] and payload["trigger_id"]
    assert payload["actions"][0]["action_id"] == "notice.record" and payload["actions"][0]["type"] == "button"
    [modal] = answer["state"]["modals"]
    assert modal["callback_id"] == "notice.record" and modal["private_metadata"]


def test_a_submission_is_checked_as_slacks_client_checks_it_then_the_bot_answers(web, sandbox, db) -> None:
    state = ok(web, "command", text="/recount check")["state"]
    view = click(web, "official", state, f"Automatic recount: {BEAR}", "Record notice")["state"]["modals"][0]
    before = len(sandbox.sent)

    empty = ok(web, "submit", view_id=view["id"], values={})
    assert empty["action"] == "errors" and empty["by"] == "slack"
    assert empty["errors"] == {"notice.given_by": inputs.REQUIRED, "notice.method": inputs.REQUIRED}
    assert len(sandbox.sent) == before  # Slack's client refuses it; the bot never hears of it

    values = {"notice.given_by": {"notice.given_by": {"type": "plain_text_input", "value": "Dana Whitfield"}},
              "notice.method": {"notice.method": {"type": "static_select", "selected_option": {"value": "email"}}},
              "notice.given_at": {"notice.given_at": {"type": "datetimepicker", "local": "2027-05-21T10:00"}}}
    future = ok(web, "submit", view_id=view["id"], values=values)
    assert future == {**future, "action": "errors", "by": "bot",
                      "errors": {"notice.given_at": "The notice cannot have been given in the future."}}
    payload = signed_payload(sandbox, sandbox.sent[-1])
    assert payload["type"] == "view_submission" and payload["view"]["private_metadata"] == view["private_metadata"]
    submitted = payload["view"]["state"]["values"]
    assert submitted["notice.method"]["notice.method"]["selected_option"]["text"]["text"] == "Email"  # the option
    assert submitted["notice.given_at"]["notice.given_at"]["selected_date_time"] == int(
        dt.datetime(2027, 5, 21, 10, 0, tzinfo=DENVER).timestamp())
    assert submitted["notice.details"]["notice.details"] == {"type": "plain_text_input", "value": None}
    assert len(future["state"]["modals"]) == 1  # the modal stays open with the error

    values["notice.given_at"]["notice.given_at"]["local"] = "2027-05-06T10:00"
    done = ok(web, "submit", view_id=view["id"], values=values)
    assert done["action"] == "closed" and done["state"]["modals"] == []
    with db.transaction() as s:
        notice = s.scalars(select(Notice).where(Notice.given_at.is_not(None))).one()
        assert notice.given_at == dt.datetime(2027, 5, 6, 16, 0, tzinfo=dt.timezone.utc)


def test_a_dispatch_action_select_tells_the_bot_at_once_and_the_view_is_redrawn(web, sandbox) -> None:
    ok(web, "command", text="/recount check")
    pick = ok(web, "command", "staff", text="/recount request")["state"]["modals"][-1]
    assert pick["callback_id"] == "request.pick"
    [contest] = [b for b in pick["blocks"] if b.get("block_id") == "request.contest"]
    assert contest["dispatch_action"] is True
    option = next(o for o in contest["element"]["options"] if o["text"]["text"] == PINE)
    answer = ok(web, "view_act", "staff", view_id=pick["id"], block_id="request.contest",
                action_id=contest["element"]["action_id"], state={"selected_option": {"value": option["value"]}},
                values={})
    payload = signed_payload(sandbox, sandbox.sent[-1])
    assert payload["type"] == "block_actions" and payload["container"] == {"type": "view", "view_id": pick["id"]}
    assert payload["actions"][0]["selected_option"] == option  # as the app defined it
    assert payload["view"]["state"]["values"]["request.contest"]["request.contest"]["selected_option"] == option
    [enter] = answer["state"]["modals"]
    assert (enter["id"], enter["callback_id"]) == (pick["id"], "request.enter")


def test_response_actions_are_applied_to_the_modal_stack_like_slack(sandbox) -> None:
    state, person = sandbox.standin.state, sandbox.person("official")
    modal = {"type": "modal", "title": {"type": "plain_text", "text": "One"}, "blocks": []}
    first = state.open_view(state.issue_trigger_id(DANA), modal)

    def answer(body: dict | None) -> Reply:
        return Reply(200, json.dumps(body).encode() if body is not None else b"")

    pushed = sandbox.follow(person, first, answer({"response_action": "push", "view": {**modal, "title": {
        "type": "plain_text", "text": "Two"}}}))
    assert pushed.action == "push" and [v["title"]["text"] for v in state.open_views(DANA)] == ["One", "Two"]
    top = state.open_views(DANA)[-1]
    updated = sandbox.follow(person, top, answer({"response_action": "update", "view": {**modal, "title": {
        "type": "plain_text", "text": "Two, again"}}}))
    assert updated.action == "update" and state.open_views(DANA)[-1]["id"] == top["id"]
    assert sandbox.follow(person, top, answer({"response_action": "errors", "errors": {"b": "no"}})).errors == {"b": "no"}
    failed = sandbox.follow(person, top, Reply(500, b""), close_on_failure=False)
    assert failed.action == "failed" and len(state.open_views(DANA)) == 2
    assert sandbox.follow(person, top, answer(None)).action == "closed"
    assert [v["title"]["text"] for v in state.open_views(DANA)] == ["One"]
    state.push_view(state.issue_trigger_id(DANA), modal)
    assert sandbox.follow(person, state.open_views(DANA)[-1], answer({"response_action": "clear"})).action == "clear"
    assert state.open_views(DANA) == []


def test_closing_pops_the_view_and_the_x_closes_the_stack(web, sandbox) -> None:
    state = sandbox.standin.state
    modal = {"type": "modal", "title": {"type": "plain_text", "text": "One"}, "blocks": [], "notify_on_close": True,
             "callback_id": "sandbox.test"}
    first = state.open_view(state.issue_trigger_id(DANA), modal)
    second = state.push_view(state.issue_trigger_id(DANA), modal)
    answer = ok(web, "close", view_id=second["id"])
    assert [v["id"] for v in answer["state"]["modals"]] == [first["id"]] and answer["notified"] is True
    closed = signed_payload(sandbox, {**sandbox.sent[-1], "status": 200})
    assert (closed["type"], closed["view"]["id"], closed["is_cleared"]) == ("view_closed", second["id"], False)
    state.push_view(state.issue_trigger_id(DANA), modal)
    assert ok(web, "close", view_id=first["id"], all=True)["state"]["modals"] == []
    assert signed_payload(sandbox, {**sandbox.sent[-1], "status": 200})["is_cleared"] is True


def test_opening_the_app_home_sends_app_home_opened_and_shows_the_published_view(web, sandbox) -> None:
    answer = ok(web, "home")
    event = signed_payload(sandbox, sandbox.sent[-1])
    assert sandbox.sent[-1]["content_type"] == "application/json"
    assert event["type"] == "event_callback" and event["event"]["type"] == "app_home_opened"
    assert event["event"]["user"] == DANA and event["event"]["channel"].startswith("D")
    assert answer["state"]["home"]["type"] == "home"
    again = ok(web, "home")
    assert signed_payload(sandbox, sandbox.sent[-1])["event"]["view"]["id"] == again["state"]["home"]["id"]
    ok(web, "home", tab="messages")
    assert signed_payload(sandbox, sandbox.sent[-1])["event"]["tab"] == "messages"


def test_a_global_shortcut_is_sent_as_slack_sends_it(web, sandbox) -> None:
    ok(web, "command", text="/recount check")
    answer = ok(web, "shortcut", "staff", callback_id="recount_request")
    payload = signed_payload(sandbox, sandbox.sent[-1])
    assert (payload["type"], payload["callback_id"], payload["user"]["id"]) == ("shortcut", "recount_request", SAM)
    assert "channel" not in payload and payload["trigger_id"]
    assert answer["state"]["modals"]  # the form, or the modal saying where requests go
    assert call(web, "shortcut", callback_id="nope")[0] == 404


# ---------------------------------------------------------------- what each person sees
def test_ephemerals_are_in_their_recipients_state_only_and_can_be_dismissed(web) -> None:
    riley = ok(web, "command", "requester", text="/recount check")["state"]
    [told] = [m for m in conversation(riley)["messages"] if m.get("is_ephemeral")]
    assert "You need the staff role" in json.dumps(told) and told["recipient"] == RILEY
    dana = ok(web, "dismiss", "official", ts="none")["state"]
    assert not any(m.get("is_ephemeral") for m in conversation(dana)["messages"])
    gone = ok(web, "dismiss", "requester", ts=told["ts"])["state"]
    assert not any(m.get("is_ephemeral") for m in conversation(gone)["messages"])


def test_a_command_the_workspace_lacks_is_slacks_own_answer_not_the_bots(web, sandbox) -> None:
    state = ok(web, "command", text="/frobnicate now")["state"]
    [notice] = [m for m in conversation(state)["messages"] if m.get("from_slack")]
    assert notice["user"] == "USLACKBOT" and "`/frobnicate` is not a valid command" in notice["text"]
    assert sandbox.sent == []


def test_plain_text_is_posted_as_the_persons_message_escaped(web, sandbox) -> None:
    state = ok(web, "command", "staff", text="<b>hi</b> & bye")["state"]
    [mine] = [m for m in conversation(state)["messages"] if m.get("user") == SAM]
    assert mine["text"] == "&lt;b&gt;hi&lt;/b&gt; &amp; bye" and "bot_id" not in mine
    assert sandbox.sent == []  # the bot subscribes to no message events


def test_a_command_in_the_direct_message_with_the_app_comes_from_that_conversation(web, sandbox) -> None:
    state = ok(web, "command", "staff", text="/recount help", channel="dm")["state"]
    fields = signed_payload(sandbox, sandbox.sent[-1])
    dm = next(c for c in state["conversations"] if c["is_im"])
    assert (fields["channel_id"], fields["channel_name"]) == (dm["id"], "directmessage") and dm["user"] == SAM
    assert any("Your role here: staff" in json.dumps(m) for m in dm["messages"])
    assert call(web, "command", "staff", text="/recount help", channel="C0SOMEWHERE")[0] == 404


def test_a_reply_typed_in_a_thread_lands_in_the_thread(web, sandbox) -> None:
    parent = sandbox.standin.state.post_message(CHANNEL.id, text="a card")[1]
    state = ok(web, "command", "staff", text="agreed", thread_ts=parent["ts"])["state"]
    [reply] = conversation(state)["threads"][parent["ts"]]
    assert (reply["text"], reply["user"]) == ("agreed", SAM)
    assert call(web, "command", "staff", text="x", thread_ts="1.000002")[0] == 404


def test_a_button_no_longer_on_its_message_is_refused(web) -> None:
    state = ok(web, "command", text="/recount check")["state"]
    message = message_with(state, f"Automatic recount: {BEAR}")
    status, answer = call(web, "act", channel=CHANNEL.id, ts=message["ts"], block_id="nope",
                          action_id="notice.record", value="1")
    assert status == 409 and "no longer on the message" in answer["error"]
    assert call(web, "act", channel=CHANNEL.id, ts="1.000001", block_id="x", action_id="y")[0] == 404


def test_the_state_is_per_person_and_unknown_people_are_refused(web, sandbox) -> None:
    status, answer = call(web, "command", "mallory", text="/recount help")
    assert status == 400 and "nobody called 'mallory'" in answer["error"]
    code, _, body = get(web, "/api/state?as=staff")
    state = json.loads(body)
    assert code == 200 and state["me"]["user_id"] == SAM and state["hint"].startswith("Type /recount check")
    assert [p["key"] for p in state["people"]] == ["official", "staff", "requester"]
    assert state["commands"][0]["command"] == "/recount" and state["shortcuts"][0]["callback_id"] == "recount_request"
    assert dt.datetime.fromisoformat(state["now"]) >= DEMO_START


def test_files_the_bot_shares_are_downloadable_from_the_page(web, sandbox) -> None:
    state = sandbox.standin.state
    file_id, token = state.reserve_upload("case-record.pdf", 9)
    state.receive_upload(token, b"%PDF-1.7\n")
    state.complete_uploads([{"id": file_id}], channel_id=CHANNEL.id, initial_comment="the record")
    shown = ok(web, "dismiss", ts="x")["state"]
    [item] = message_with(shown, "the record")["files"]
    code, headers, body = get(web, item["sandbox_url"])
    assert code == 200 and body == b"%PDF-1.7\n" and headers["Content-Type"] == "application/pdf"
    assert get(web, "/files/F0NOPE/x.pdf")[0] == 404


# ---------------------------------------------------------------- the web server's own rules
def test_the_page_and_its_static_files(web) -> None:
    code, headers, body = get(web, "/")
    assert code == 200 and b'<script type="module" src="/static/app.js">' in body
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for name in ("app.js", "blocks.js", "mrkdwn.js", "modal.js", "elements.js", "messages.js", "composer.js",
                 "api.js", "dom.js", "emoji.js"):
        code, headers, _ = get(web, f"/static/{name}")
        assert code == 200 and headers["Content-Type"].startswith("text/javascript"), name
    assert get(web, "/static/app.css")[1]["Content-Type"].startswith("text/css")
    assert get(web, "/static/../server.py")[0] == 404
    assert get(web, "/static/%2e%2e/api.py")[0] == 404
    assert get(web, "/nothing")[0] == 404


def test_only_loopback_hosts_and_json_posts_are_answered(web) -> None:
    assert get(web, "/", host="attacker.example")[0] == 421
    request = urllib.request.Request(f"{web.url}api/command", data=b"as=official&text=/recount+help",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 415
    assert call(web, "nonsense")[0] == 404


def test_changes_are_streamed_to_the_page(web, sandbox) -> None:
    parts = urllib.parse.urlsplit(web.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.request("GET", "/api/events?since=0")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    assert response.readline() == b"retry: 1000\n"
    sandbox.standin.state.post_message(CHANNEL.id, text="live")
    lines = [response.readline() for _ in range(3)]
    assert lines[0] == b"\n" and lines[1] == b"event: change\n" and lines[2].startswith(b"data: ")
    connection.close()


# ---------------------------------------------------------------- the pieces
def test_slacks_client_checks(sandbox) -> None:
    view = {"blocks": [
        {"type": "input", "block_id": "n", "element": {"type": "number_input", "action_id": "n",
                                                      "is_decimal_allowed": False, "min_value": "1"}},
        {"type": "input", "block_id": "t", "optional": True,
         "element": {"type": "plain_text_input", "action_id": "t", "min_length": 3}},
        {"type": "input", "block_id": "s", "element": {"type": "static_select", "action_id": "s", "options": [
            {"text": {"type": "plain_text", "text": "A"}, "value": "a"}]}},
        {"type": "input", "block_id": "d", "optional": True, "element": {"type": "datepicker", "action_id": "d",
                                                                        "initial_date": "2026-11-06"}},
    ]}

    def check(**values):
        return inputs.check(view, {k: {k: v} for k, v in values.items()})

    bad = check(n={"value": "1.5"}, t={"value": "ab"}, s={"selected_option": {"value": "zz"}})
    assert bad.errors == {"n": "Please enter a whole number.", "t": "Please enter at least 3 characters.",
                          "s": "That choice is not one of the options."}
    assert check(n={"value": "0"}, s={}).errors == {"n": "Please enter a number greater than or equal to 1.",
                                                     "s": inputs.REQUIRED}
    good = check(n={"value": " 2 "}, s={"selected_option": {"value": "a"}})
    assert good.errors == {} and good.values["n"]["n"] == {"type": "number_input", "value": "2"}
    assert good.values["s"]["s"]["selected_option"]["text"]["text"] == "A"
    assert good.values["t"]["t"] == {"type": "plain_text_input", "value": None}
    assert good.values["d"]["d"] == {"type": "datepicker", "selected_date": "2026-11-06"}  # the initial value


def test_the_sandbox_clock_keeps_the_examples_calendar_and_never_runs_backwards(tmp_path) -> None:
    ticks = iter([100.0, 160.0])
    clock = SandboxClock(DEMO_START, monotonic=lambda: next(ticks))
    assert clock() == DEMO_START + dt.timedelta(minutes=1)
    assert parse_start("now") is None
    assert parse_start("2026-11-20") == dt.datetime(2026, 11, 20, 9, 0, tzinfo=DENVER)
    assert parse_start("2026-11-20T16:30") == dt.datetime(2026, 11, 20, 16, 30, tzinfo=DENVER)
    with pytest.raises(ValueError):
        parse_start("next tuesday")
    assert sandbox_clock()().astimezone(DENVER).date() == dt.date(2027, 5, 7)
    assert sandbox_clock(None)().year == dt.datetime.now(dt.timezone.utc).year  # --clock now

    kept = clock_file(f"sqlite:///{tmp_path / 'offline.sqlite3'}")
    assert kept == tmp_path / "offline.sqlite3.clock" and clock_file("postgresql://x@h/db") is None
    assert saved_moment(kept) is None
    later = dt.datetime(2027, 5, 25, 12, 0, tzinfo=dt.timezone.utc)
    save_moment(kept, later)
    resumed = sandbox_clock(DEMO_START, resume_after=saved_moment(kept))()
    assert later < resumed < later + dt.timedelta(minutes=2)  # a second session goes on from the first
    assert sandbox_clock(DEMO_START, resume_after=DEMO_START - dt.timedelta(days=9))() < later


# ---------------------------------------------------------------- the command line
@pytest.mark.slow
def test_recount_bot_sandbox_serves_the_page_and_keeps_its_clock(tmp_path) -> None:
    def start() -> tuple[subprocess.Popen, str]:
        process = subprocess.Popen([*command(), "sandbox", "--page-port", "0"], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                                   env=environment(PORT=str(free_port())))
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                raise AssertionError(f"sandbox exited ({process.wait()}): {lines} {process.stderr.read()}")
            lines.append(line.rstrip("\n"))
            if "serving until interrupted" in line:
                return process, "\n".join(lines)
        process.kill()
        raise AssertionError(f"sandbox did not start: {lines}")

    process, text = start()
    try:
        assert text.startswith("recount-bot sandbox: the real bot, against a Slack stand-in on this machine")
        page = re.search(r"page: +(http://127\.0\.0\.1:\d+/)", text).group(1)
        assert f"open {page} in a web browser" in text
        assert "clock:       Fri 2027-05-07 09:0" in text and "the example's calendar" in text
        with urllib.request.urlopen(page, timeout=10) as response:
            assert b"recount-bot" in response.read()
    finally:
        status, _, err = stop(process)
    assert status == 0 and "Traceback" not in err, err
    saved = (tmp_path / "recount-bot-offline.sqlite3.clock").read_text()
    assert saved.startswith("2027-05-07T15:0")  # 09:0x in Colorado (MDT), kept for the next session
    process, text = start()
    stop(process)
    assert "the database already has an election" in text


def test_run_with_slack_credentials_refuses_the_sandbox_options(monkeypatch, capsys) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-x")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s")
    assert main(["run", "--console"]) == 2
    assert "--console: only for the offline sandbox" in capsys.readouterr().err
