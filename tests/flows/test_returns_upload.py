"""`/recount returns upload`: a results file attached in Slack, previewed with its verdicts, saved as a survey
version, end to end through signed requests, the Slack stand-in (files.info and the file's download) and a real
database."""
from __future__ import annotations

import json
import threading
import urllib.parse

from sqlalchemy import select

from storage.models import AuditEntry, Election
from tests.flows.conftest import load_example
from tests.flows.upload_support import (
    AGAIN,
    EXAMPLE,
    FILE,
    OPENELECTIONS,
    attach,
    choose_in_view,
    click_in_view,
    files,
    new_election,
    open_upload,
    picked,
    read,
    shown,
    submitted,
    version_count,
    versions,
)
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, text_of

PINE_RIDGE = "Pine Ridge Metropolitan District - Director"
BEAR_CREEK = "Bear Creek Fire Protection District - Ballot Issue 6A"
CHERRY_CREEK = "Cherry Creek Valley Water and Sanitation District - Director"


def grant(harness, user: str, role: str) -> None:
    told = len(harness.slack.calls_to("response_url"))
    harness.command(f"admin role <@{user}> {role}")
    harness.wait("response_url", count=told + 1)


def verdict_sections(view: dict) -> list[str]:
    return [b["text"]["text"] for b in view["blocks"] if b["type"] == "section"
            and b["text"]["text"].startswith((":rotating_light: *RECOUNT*", "no recount", "uncontested"))]


def changed_example(pine_ridge_precinct_1: int) -> bytes:
    """The example survey with one count of Pine Ridge changed (a corrected file from the vendor)."""
    lines = EXAMPLE.read_text().splitlines()
    out = []
    for line in lines:
        if line.startswith(f"{PINE_RIDGE},Dana Whitfield,") and line.endswith("Precinct 1"):
            cells = line.split(",")
            cells[2] = str(pine_ridge_precinct_1)
            line = ",".join(cells)
        out.append(line)
    return ("\n".join(out) + "\n").encode()


# ---------------------------------------------------------------- a file into a new election
def test_an_openelections_file_is_previewed_then_saved_as_version_1_and_recorded_in_the_channel(harness) -> None:
    view = open_upload(harness)
    labels = {b["label"]["text"]: b for b in view["blocks"] if b["type"] == "input"}
    assert labels["Results file"]["element"] == {"type": "file_input", "action_id": FILE,
                                                 "filetypes": ["csv", "json", "xml", "xlsx", "xls"], "max_files": 1}
    assert "Election" not in labels and "Election name" in labels  # no election yet: set one up
    assert labels["Kind of election"]["optional"] and labels["Seats, where the file does not say"]["optional"]

    upload = attach(harness, OPENELECTIONS)
    preview = read(harness, view, {FILE: files(upload), **new_election(name="General Election")})
    assert preview["callback_id"] == "returns.upload_preview"
    assert preview["submit"]["text"] == "Save as survey version 1"
    text = shown(preview)
    assert "openelections_small.csv" in text and "OpenElections CSV (openelections)" in text
    assert "This file can be saved as survey version 1 of *General Election*" in text
    assert "5 contests decided, closest first" in text
    sections = verdict_sections(preview)
    assert len(sections) == 5 and "Regional Transportation District - District K" in sections[0]  # closest first
    assert "Troy L. Whitmore — 25,624 vs Paul D. Solano — 24,282 · margin 1,342 (triggers at ≤ 128)" in sections[0]
    assert "*Set aside* (not votes for a choice): subtotal rows:" in text
    assert "*Readings applied*" in text and "read as one seat each" in text
    assert version_count(harness) == 0  # a preview saves nothing
    assert [c.args["file"] for c in harness.slack.calls_to("files.info")] == [upload["id"]]
    [download] = harness.slack.calls_to("files-pri")
    assert download.status == 200 and download.headers["Authorization"] == "Bearer xoxb-test-token"

    answer, done = submitted(harness, preview, {})
    assert "Saving *openelections_small.csv*" in shown(answer["view"])
    assert "saved as survey version 1 of *General Election* (5 contests)" in shown(done)
    assert len(harness.slack.calls_to("files-pri")) == 2  # read again to save, and checked against the preview
    [version] = versions(harness)
    assert (version.number, version.source_format, version.source_name, version.created_by) == (
        1, "openelections", "openelections_small.csv", OFFICIAL)
    assert version.source_sha256 == json.loads(preview["private_metadata"])["h"]
    with harness.db.transaction() as s:
        assert s.scalar(select(Election.name)) == "General Election"
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "survey.version_created")).one()
        assert entry.actor == OFFICIAL and entry.after["source"] == "openelections_small.csv"
    [posted] = harness.wait("chat.postMessage")
    assert posted.args["channel"] == CHANNEL
    record = text_of(posted.args)
    assert (f"Survey of returns version 1 of General Election recorded by <@{OFFICIAL}> from openelections_small.csv: "
            "5 contests; inside the margin of C.R.S. 1-13.5-1306(1): none") in record
    assert "Dennis Hisey — 42,531" in record


def test_the_example_survey_shows_its_recounts_first_and_check_finds_them_after_saving(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, EXAMPLE)), **new_election()})
    sections = verdict_sections(preview)
    assert [s.startswith(":rotating_light: *RECOUNT*") for s in sections] == [True, True, False, False]
    assert "template" in shown(preview) and "2 inside the margin" in shown(preview)
    assert "tie for the last seat" in "".join(sections)
    submitted(harness, preview, {})
    assert [v.number for v in versions(harness)] == [1]
    harness.command("check")
    messages = harness.wait("chat.postMessage", count=4)  # the record, the verdicts, two case cards
    assert "*2* need an automatic recount" in text_of(messages[1].args)


def test_an_identical_file_has_nothing_to_save(harness) -> None:
    load_example(harness)
    view = open_upload(harness)
    election = next(b for b in view["blocks"] if b.get("block_id") == "returns.upload_election")
    chosen = election["element"]["initial_option"]["value"]
    preview = read(harness, view, {FILE: files(attach(harness, EXAMPLE)), "returns.upload_election": picked(chosen)})
    assert "identical to survey version 1: there is nothing to save" in shown(preview)
    assert preview["submit"]["text"] == "Read file"
    again = next(b for b in preview["blocks"] if b.get("block_id") == AGAIN)
    assert again["optional"] is False  # only another file can be submitted
    assert version_count(harness) == 1


# ---------------------------------------------------------------- double clicks and retries
def test_saving_twice_records_once_and_says_so(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, EXAMPLE)), **new_election()})
    submitted(harness, preview, {})
    answer, _ = submitted(harness, preview, {})  # the same preview submitted again: a double click
    assert "is already saved as survey version 1; nothing more was recorded" in shown(answer["view"])
    assert version_count(harness) == 1
    harness.settle()
    assert len(harness.slack.calls_to("chat.postMessage")) == 1


def test_two_saves_at_the_same_moment_record_one_version_and_one_post(harness) -> None:
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, EXAMPLE)), **new_election()})
    harness.slack.fail_next("files-pri", delay=0.5, times=2)  # both clicks are answered before either saves
    payloads = []
    for _ in range(2):  # both pass the check at the click: neither is saved yet
        payloads.append({"type": "view_submission", "team": {"id": "T0TESTTEAM", "domain": "recount-test"},
                         "user": {"id": OFFICIAL, "username": "u", "team_id": "T0TESTTEAM"},
                         "api_app_id": "A0RECOUNT1", "token": "legacy-verification-token",
                         "trigger_id": harness.slack.issue_trigger_id(OFFICIAL),
                         "view": {**preview, "state": {"values": {}}}, "response_urls": []})
    bodies = [urllib.parse.urlencode({"payload": json.dumps(p)}).encode() for p in payloads]
    replies = []
    threads = [threading.Thread(target=lambda b=b: replies.append(harness.post(b, "application/x-www-form-urlencoded")))
               for b in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    harness.settle()
    assert [r.status for r in replies] == [200, 200]
    assert all("Saving" in r.json()["view"]["blocks"][0]["text"]["text"] for r in replies)
    told = sorted(text_of(c.args["view"]) for c in harness.slack.calls_to("views.update")[-2:])
    assert "is already saved as survey version 1" in told[0] and "saved as survey version 1 of" in told[1]
    assert [v.number for v in versions(harness)] == [1]
    assert len(harness.slack.calls_to("chat.postMessage")) == 1
    # Slack retrying one delivery (same trigger_id) changes nothing either.
    assert harness.post(bodies[0], "application/x-www-form-urlencoded").status == 200
    harness.settle()
    assert version_count(harness) == 1 and len(harness.slack.calls_to("chat.postMessage")) == 1


# ---------------------------------------------------------------- corrections and who may save
def test_a_changed_file_is_a_correction_that_only_an_official_may_save(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "staff")
    changed = changed_example(840)
    view = open_upload(harness, user=STAFF)
    chosen = next(b for b in view["blocks"] if b.get("block_id") == "returns.upload_election")[
        "element"]["initial_option"]["value"]
    values = {FILE: files(attach(harness, changed, "survey-corrected.csv", user=STAFF)),
              "returns.upload_election": picked(chosen)}
    preview = read(harness, view, values, user=STAFF)
    text = shown(preview)
    assert "It *changes returns already recorded* in version 1 (Pine Ridge Metropolitan District - Director)" in text
    assert "Compared with version 1: changed: Pine Ridge Metropolitan District - Director" in text
    assert preview["submit"]["text"] == "Save as survey version 2"
    answer, _ = submitted(harness, preview, {}, user=STAFF)
    assert answer == {"response_action": "errors", "errors": {AGAIN: (
        "survey-corrected.csv changes returns already recorded: a correction of the survey of returns, which only a "
        "designated election official may save (C.R.S. 1-13.5-1306(4)). Nothing was saved.")}}
    assert version_count(harness) == 1

    view = open_upload(harness)
    values = {FILE: files(attach(harness, changed, "survey-corrected.csv")), "returns.upload_election": picked(chosen)}
    _, done = submitted(harness, read(harness, view, values), {})
    assert "saved as survey version 2" in shown(done)
    assert [v.number for v in versions(harness)] == [1, 2]
    [posted] = harness.wait("chat.postMessage")
    assert f"Changed from version 1: {PINE_RIDGE}" in text_of(posted.args)


def test_a_preview_overtaken_by_a_newer_version_is_refused_on_the_field(harness) -> None:
    load_example(harness)
    view = open_upload(harness)
    chosen = next(b for b in view["blocks"] if b.get("block_id") == "returns.upload_election")[
        "element"]["initial_option"]["value"]
    old = read(harness, view, {FILE: files(attach(harness, changed_example(840), "a.csv")),
                               "returns.upload_election": picked(chosen)})
    newer = read(harness, open_upload(harness), {FILE: files(attach(harness, changed_example(841), "b.csv")),
                                                 "returns.upload_election": picked(chosen)})
    submitted(harness, newer, {})
    answer, _ = submitted(harness, old, {})
    assert answer["response_action"] == "errors"
    assert answer["errors"][AGAIN].startswith(f"Survey version 2 was recorded since this preview (by {OFFICIAL})")
    assert [v.source_name for v in versions(harness)] == ["survey-of-returns.csv", "b.csv"]


# ---------------------------------------------------------------- the form
def test_step_one_of_returns_offers_the_upload_and_the_election_select_redraws_the_form(harness) -> None:
    load_example(harness)
    updates = len(harness.slack.calls_to("views.update"))
    harness.command("returns")
    harness.wait("views.update", count=updates + 1)
    pick = harness.open_view()
    assert pick["callback_id"] == "returns.pick"
    click_in_view(harness, pick, "returns.upload_open", "upload")
    form = harness.open_view()
    assert form["callback_id"] == "returns.upload" and "Election name" not in shown(form)
    choose_in_view(harness, form, "returns.upload_election", "new")
    form = harness.open_view()
    labels = [b["label"]["text"] for b in form["blocks"] if b["type"] == "input"]
    assert labels[:3] == ["Results file", "Election", "Election name"]
    values = {FILE: files(attach(harness, EXAMPLE)), "returns.upload_election": picked("new"), **new_election()}
    answer, _ = submitted(harness, form, values)
    assert answer == {"response_action": "errors", "errors": {"returns.new_election_name": (
        "Regular Special District Election on 2026-11-03 already exists; choose it in the list of elections.")}}


def test_the_form_refuses_each_mistake_on_its_field_before_reading_anything(harness) -> None:
    view = open_upload(harness)
    pdf = attach(harness, b"%PDF-1.7", "canvass.pdf")
    answer, _ = submitted(harness, view, {FILE: files(pdf), **new_election(name=" ", date="2026-12-24"),
                                          "returns.upload_kind": picked("caucus"),
                                          "returns.upload_seats": {"type": "plain_text_input", "value": "Board two"}})
    assert answer == {"response_action": "errors", "errors": {
        FILE: "canvass.pdf is not a results file I read: attach CSV, JSON, XML or Excel (.xlsx, .xls).",
        "returns.new_election_name": "Enter the election's name.",
        "returns.new_election_date": "That day has not come yet; returns are entered after the election.",
        "returns.upload_kind": "Choose a general election or a party primary, or leave it empty.",
        "returns.upload_seats": "“Board two” is not CONTEST=N: one contest per line, its name as in the file, = and "
                                "the number of seats (at least 1)."}}
    assert harness.slack.calls_to("files.info") == [] and version_count(harness) == 0


def test_seats_and_kind_from_the_form_are_how_the_file_is_read(harness) -> None:
    values = {FILE: files(attach(harness, OPENELECTIONS)), **new_election(),
              "returns.upload_kind": picked("general"),
              "returns.upload_seats": {"type": "plain_text_input", "value": (
                  "State Senate - District 2=1\nRegional Transportation District - District K=1")}}
    preview = read(harness, open_upload(harness), values)
    assert "read as one seat each" not in shown(preview)  # said, not assumed
    assert json.loads(preview["private_metadata"])["ek"] == "general"
    submitted(harness, preview, {})
    assert version_count(harness) == 1


def test_a_file_correcting_a_contest_under_recount_is_told_in_the_case_thread(harness) -> None:
    load_example(harness)
    harness.command("check")
    harness.wait("chat.postMessage", count=3)  # the verdicts and two case cards
    card = next(m for m in harness.posted() if m["text"].startswith("Automatic recount") and BEAR_CREEK in m["text"])
    changed = EXAMPLE.read_text().replace(f"{BEAR_CREEK},Yes,2208", f"{BEAR_CREEK},Yes,2207").encode()
    assert changed != EXAMPLE.read_bytes()
    view = open_upload(harness)
    chosen = next(b for b in view["blocks"] if b.get("block_id") == "returns.upload_election")[
        "element"]["initial_option"]["value"]
    preview = read(harness, view, {FILE: files(attach(harness, changed, "bear-creek-fixed.csv")),
                                   "returns.upload_election": picked(chosen)})
    submitted(harness, preview, {})
    harness.wait("chat.postMessage", count=5)  # + the thread note and the channel's record
    [note] = harness.thread(card["ts"])[-1:]
    assert note["text"].startswith(":pencil2: The returns of this contest were corrected after the case opened: "
                                   "survey version 2, from bear-creek-fixed.csv")
    assert "C.R.S. 1-13.5-1306(4)" in note["text"]


def test_seats_for_a_contest_the_file_does_not_have_are_shown_on_the_seats_field(harness) -> None:
    values = {FILE: files(attach(harness, EXAMPLE)), **new_election(),
              "returns.upload_seats": {"type": "plain_text_input", "value": "Library Board=2"}}
    form = read(harness, open_upload(harness), values)
    assert form["callback_id"] == "returns.upload" and version_count(harness) == 0
    seats = next(b for b in form["blocks"] if b.get("block_id") == "returns.upload_seats")
    assert seats["hint"]["text"] == "seats['Library Board']: names no contest in the file"
    assert seats["element"]["initial_value"] == "Library Board=2"
    assert "Fix what is listed under the seats field" in shown(form)


def test_an_older_election_uploaded_after_a_later_one_is_checked_from_its_record(harness) -> None:
    """`/recount check` takes the latest election day; the record of an upload of an older election carries *Check
    this election*, which checks that one (1306(1)) and opens its recount cases."""
    load_example(harness)  # the Regular Special District Election of 2026-11-03
    form = open_upload(harness)
    choose_in_view(harness, form, "returns.upload_election", "new")
    values = {FILE: files(attach(harness, EXAMPLE)), "returns.upload_election": picked("new"),
              **new_election(name="Spring Special Election", date="2026-05-05", government="Spring Districts")}
    submitted(harness, read(harness, harness.open_view(), values), {})
    [record] = [m for m in harness.posted() if m["text"].startswith("Survey of returns version 1 of Spring Special")]
    assert "*Check this election* opens its recount cases" in text_of(record)

    harness.command("check")  # the latest day's election, not the one just uploaded
    latest = [m for m in harness.posted() if "need an automatic recount" in text_of(m)]
    assert latest and all("Spring Special Election" not in text_of(m) for m in latest)

    posted = len(harness.posted())
    assert harness.click(record, "returns.check_election", user=OFFICIAL).status == 200
    harness.settle()
    new = harness.posted()[posted:]
    assert any("Spring Special Election" in text_of(m) and "*2* need an automatic recount" in text_of(m) for m in new)
    with harness.db.transaction() as s:
        spring = s.scalar(select(Election).where(Election.name == "Spring Special Election"))
        from storage.models import Contest, RecountCase

        opened = s.scalars(select(RecountCase).join(Contest).where(Contest.election_id == spring.id)).all()
        assert len(opened) == 2
    assert sum(m["text"].startswith("Automatic recount") for m in new) == 2  # their cards, in the channel
