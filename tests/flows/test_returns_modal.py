"""`/recount returns`: entering and correcting returns in a modal, end to end through signed requests."""
from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from sandbox.slack_standin.validation import view_errors
from storage.models import AuditEntry, Choice, Contest, Election, SurveyVersion, VoteCount
from tests.flows.conftest import load_example
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM, VIEWER, text_of

PINE_RIDGE = "Pine Ridge Metropolitan District - Director"
BEAR_CREEK = "Bear Creek Fire Protection District - Ballot Issue 6A"


# ---------------------------------------------------------------- what a clerk does
def open_form(harness, text: str = "returns", *, user: str = OFFICIAL) -> dict:
    """Type the command; the modal opens at once and is filled in by an update."""
    updates = len(harness.slack.calls_to("views.update"))
    assert harness.command(text, user=user).status == 200
    harness.wait("views.open")
    harness.wait("views.update", count=updates + 1)
    return harness.open_view(user)


def next_view(opened: dict, reply) -> dict:
    """The view a `response_action: update` answer puts in place of `opened`."""
    body = reply.json()
    assert body["response_action"] == "update", body
    assert view_errors(body["view"]) == [], view_errors(body["view"])
    return {**opened, **body["view"]}


def choose(harness, view: dict, block_id: str, value: str, *, user: str = OFFICIAL) -> None:
    """Pick `value` in a select of an open modal that redraws the form (dispatch_action)."""
    updates = len(harness.slack.calls_to("views.update"))
    state = {"values": {block_id: {block_id: {"type": "static_select", "selected_option": {"value": value}}}}}
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


def inputs(view: dict) -> dict[str, dict]:
    """The input blocks of a view by their label."""
    return {b["label"]["text"]: b for b in view["blocks"] if b["type"] == "input"}


def counts(view: dict, **votes) -> dict[str, dict]:
    """Values for the number inputs, by choice label (the others left as prefilled)."""
    values = {}
    for label, block in inputs(view).items():
        if block["element"]["type"] != "number_input" or block["block_id"].startswith("returns.new_"):
            continue
        value = votes.get(label, block["element"].get("initial_value"))
        values[block["block_id"]] = {"type": "number_input", "value": None if value is None else str(value)}
    return values


def text_input(value: str | None) -> dict:
    return {"type": "plain_text_input", "value": value}


def picked(value: str) -> dict:
    return {"type": "static_select", "selected_option": {"value": value}}


def new_contest(name="Aspen Grove Library District - Trustee", kind="candidate", seats="1",
                choices="Helen Marsh\nOwen Park\n") -> dict:
    return {"returns.new_contest_name": text_input(name), "returns.new_contest_kind": picked(kind),
            "returns.new_contest_seats": {"type": "number_input", "value": seats},
            "returns.new_contest_choices": text_input(choices)}


def new_election(name="Regular Special District Election", date="2026-11-03",
                 government="Aspen Grove Library District", body="Board of Trustees", law="1-13.5-1306") -> dict:
    return {"returns.new_election_name": text_input(name),
            "returns.new_election_date": {"type": "datepicker", "selected_date": date},
            "returns.local_government": text_input(government), "returns.governing_body": text_input(body),
            "returns.new_election_law": {"type": "static_select",
                                         "selected_option": {"value": law} if law else None}}


def correction_form(harness, contest: str = PINE_RIDGE, *, user: str = OFFICIAL) -> dict:
    view = open_form(harness, f'returns "{contest}"', user=user)
    assert view["callback_id"] == "returns.enter"
    return view


def reason(text: str | None) -> dict:
    return {"returns.reason": text_input(text)}


def versions(harness) -> list[SurveyVersion]:
    with harness.db.transaction() as s:
        return list(s.scalars(select(SurveyVersion).order_by(SurveyVersion.number)))


def votes_of(harness, version: int, contest: str) -> dict[tuple[str, str], int]:
    with harness.db.transaction() as s:
        rows = s.execute(select(VoteCount.unit, Choice.name, VoteCount.votes)
                         .join(Choice, Choice.id == VoteCount.choice_id)
                         .join(SurveyVersion, SurveyVersion.id == VoteCount.survey_version_id)
                         .join(Contest, Contest.id == VoteCount.contest_id)
                         .where(SurveyVersion.number == version, Contest.name == contest)).all()
    return {(unit, choice): votes for unit, choice, votes in rows}


def grant(harness, user: str, role: str) -> None:
    told = len(harness.slack.calls_to("response_url"))
    harness.command(f"admin role <@{user}> {role}")
    harness.wait("response_url", count=told + 1)


# ---------------------------------------------------------------- a first entry
def test_a_first_entry_of_a_new_election_and_contest_then_check_gives_the_verdict(harness) -> None:
    view = open_form(harness)
    assert view["callback_id"] == "returns.pick" and view["submit"]["text"] == "Next"
    labels = inputs(view)
    assert "Election" not in labels  # no election yet: set one up
    assert {"Election name", "Election day", "New contest: name", "Choices, one per line"} <= set(labels)
    law = labels["Recount law the election runs under"]["element"]
    assert [(o["text"]["text"], o["value"]) for o in law["options"]] == [
        ("Special district or other local government election — C.R.S. 1-13.5-1306", "1-13.5-1306"),
        ("Municipal election — C.R.S. 31-10-1207", "31-10-1207"),
        ("Coordinated election — C.R.S. 1-10.5", "1-10.5")]
    assert "initial_option" not in law and not labels["Recount law the election runs under"].get("optional")

    reply = harness.submit(view, {**new_election(law="31-10-1207"),
                                  **new_contest(choices="Helen Marsh\n\nOwen Park\n")})
    step2 = next_view(view, reply)
    assert step2["callback_id"] == "returns.enter" and step2["title"]["text"] == "Enter returns"
    shown = text_of({"blocks": step2["blocks"]})
    assert "Aspen Grove Library District - Trustee" in shown and "they become survey version 1" in shown
    assert list(inputs(step2)) == ["Helen Marsh", "Owen Park"]  # the blank line was ignored
    for block in inputs(step2).values():
        assert block["element"] == {"type": "number_input", "action_id": block["block_id"],
                                    "is_decimal_allowed": False, "min_value": "0"}
    assert "returns.reason" not in {b.get("block_id") for b in step2["blocks"]}  # a first entry needs no reason

    reply = harness.submit(step2, counts(step2, **{"Helen Marsh": 1000, "Owen Park": 996}))
    assert reply.status == 200 and reply.body in (b"", b"{}")  # the modal closes
    [posted] = harness.wait("chat.postMessage")
    assert posted.args["channel"] == CHANNEL
    text = text_of(posted.args)
    assert f"Returns for Aspen Grove Library District - Trustee recorded as survey version 1 by <@{OFFICIAL}>" in text
    assert "Helen Marsh: 1,000" in text and "Owen Park: 996" in text
    assert "Regular Special District Election" in text
    with harness.db.transaction() as s:
        election = s.scalars(select(Election)).one()
        assert (election.name, election.election_date.isoformat()) == ("Regular Special District Election",
                                                                       "2026-11-03")
        assert election.local_government.governing_body == "Board of Trustees"
        assert (election.law, election.law_basis) == ("31-10-1207", "given")
        [version] = s.scalars(select(SurveyVersion)).all()
        assert (version.number, version.created_by, version.source_format) == (1, OFFICIAL, "slack-form")
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "survey.version_created")).one()
        assert entry.before is None and entry.after["votes"] == {"Helen Marsh": 1000, "Owen Park": 996}
    assert votes_of(harness, 1, "Aspen Grove Library District - Trustee") == {
        ("", "Helen Marsh"): 1000, ("", "Owen Park"): 996}

    harness.command("check")
    messages = harness.wait("chat.postMessage", count=3)  # the confirmation, the verdict, the case card
    verdict = text_of(messages[1].args)
    assert "*1* needs an automatic recount" in verdict or "1 needs an automatic recount" in verdict
    assert "margin 4 (triggers at ≤ 5)" in verdict
    assert "Automatic recount" in messages[2].args["text"]


def test_a_single_choice_is_an_uncontested_race(harness) -> None:
    view = open_form(harness)
    step2 = next_view(view, harness.submit(view, {**new_election(), **new_contest(choices="Helen Marsh")}))
    harness.submit(step2, counts(step2, **{"Helen Marsh": 812}))
    harness.wait("chat.postMessage")
    harness.command("check")
    [_, verdict] = harness.wait("chat.postMessage", count=2)
    assert "uncontested" in text_of(verdict.args)


def test_step_one_shows_each_mistake_on_its_field(harness) -> None:
    view = open_form(harness)
    values = {**new_election(name="  ", date="2026-13-45"),
              **new_contest(name="", seats="0", choices="Helen Marsh\nOwen Park\nhelen marsh")}
    reply = harness.submit(view, values)
    assert reply.json() == {"response_action": "errors", "errors": {
        "returns.new_election_name": "Enter the election's name.",
        "returns.new_election_date": "“2026-13-45” is not a date.",
        "returns.new_contest_name": "Enter the contest's name.",
        "returns.new_contest_seats": "A contest fills at least 1 seat.",
        "returns.new_contest_choices": "“helen marsh” is listed twice; each choice once, one per line."}}
    reply = harness.submit(view, {**new_election(date="2026-12-01"), **new_contest(choices="\n \n")})
    assert reply.json()["errors"] == {
        "returns.new_election_date": "That day has not come yet; returns are entered after the election.",
        "returns.new_contest_choices": "List the choices, one per line (the candidates, or Yes and No)."}
    reply = harness.submit(view, {**new_election(), **new_contest(choices="\n".join(f"C{i}" for i in range(91)))})
    assert "91 choices; this form holds at most 90" in reply.json()["errors"]["returns.new_contest_choices"]
    # Slack asks for the law rather than assuming 1-13.5-1306 (issue 22).
    reply = harness.submit(view, {**new_election(law=None), **new_contest()})
    assert reply.json()["errors"] == {"returns.new_election_law": "Choose the recount law the election runs under; "
                                                                  "its deadlines and margins follow it."}
    assert versions(harness) == []


def test_a_name_already_used_is_refused_on_its_field(harness) -> None:
    load_example(harness)
    view = open_form(harness)
    assert view["callback_id"] == "returns.pick"
    election = inputs(view)["Election"]["element"]
    assert election["initial_option"]["text"]["text"] == "Regular Special District Election — Tue 2026-11-03"
    assert [o["value"] for o in election["options"]][-1] == "new"
    contest_options = [o["text"]["text"] for o in inputs(view)["Contest"]["element"]["options"]]
    assert contest_options[-1] == "New contest…" and PINE_RIDGE in contest_options

    choose(harness, view, "returns.contest", "new")  # the new contest's fields appear
    view = harness.open_view()
    assert "New contest: name" in inputs(view)
    values = {"returns.election": picked(election["initial_option"]["value"]), "returns.contest": picked("new"),
              **new_contest(name=PINE_RIDGE.upper())}
    reply = harness.submit(view, values)
    assert reply.json()["errors"] == {"returns.new_contest_name": f"{PINE_RIDGE} is already a contest of Regular "
                                                                  "Special District Election; choose it in the list "
                                                                  "of contests."}

    choose(harness, view, "returns.election", "new")  # a new election: its fields, and no contest list
    view = harness.open_view()
    labels = inputs(view)
    assert "Election name" in labels and "Contest" not in labels
    assert labels["Local government conducting the election"]["element"]["initial_value"] == \
        "Front Range Special Districts"  # the one local government already set up
    reply = harness.submit(view, {"returns.election": picked("new"), **new_election(), **new_contest()})
    assert reply.json()["errors"] == {"returns.new_election_name": "Regular Special District Election on 2026-11-03 "
                                                                   "already exists; choose it in the list of "
                                                                   "elections."}


def test_a_new_contest_in_the_latest_election_is_added_to_a_new_version(harness) -> None:
    load_example(harness)
    view = open_form(harness, "returns Library Trustee")
    assert "No contest called “Library Trustee” in Regular Special District Election" in text_of(
        {"blocks": view["blocks"]})
    assert inputs(view)["New contest: name"]["element"]["initial_value"] == "Library Trustee"
    election = inputs(view)["Election"]["element"]["initial_option"]["value"]
    reply = harness.submit(view, {"returns.election": picked(election), "returns.contest": picked("new"),
                                  **new_contest(name="Library Trustee", seats="2", choices="A\nB\nC")})
    step2 = next_view(view, reply)
    assert "they become survey version 2" in text_of({"blocks": step2["blocks"]})
    harness.submit(step2, counts(step2, A=10, B=9, C=3))
    harness.wait("chat.postMessage")
    assert [v.number for v in versions(harness)] == [1, 2]
    assert votes_of(harness, 2, PINE_RIDGE) == votes_of(harness, 1, PINE_RIDGE)  # carried over
    assert votes_of(harness, 2, "Library Trustee") == {("", "A"): 10, ("", "B"): 9, ("", "C"): 3}
    with harness.db.transaction() as s:
        assert s.scalar(select(Contest.seats).where(Contest.name == "Library Trustee")) == 2


# ---------------------------------------------------------------- corrections
def test_a_correction_with_a_reason_is_version_2_and_version_1_is_unchanged(harness) -> None:
    load_example(harness)
    before = votes_of(harness, 1, PINE_RIDGE)
    view = correction_form(harness)
    assert view["title"]["text"] == "Correct returns" and view["submit"]["text"] == "Record correction"
    labels = inputs(view)
    assert labels["Unit (precinct, machine or batch)"]["element"]["initial_option"]["text"]["text"] == "Precinct 1"
    assert labels["Dana Whitfield"]["element"]["initial_value"] == "845"  # prefilled with Precinct 1's votes
    assert labels["Sam Okafor"]["hint"]["text"] == "Version 1: 611"
    assert labels["Reason for the correction"]["optional"] is False
    assert "Correcting survey version 1" in text_of({"blocks": view["blocks"]})

    reply = harness.submit(view, {**counts(view, **{"Dana Whitfield": 840}),
                                  **reason("Precinct 1 batch 3 recounted by hand: 5 ballots were duplicates"),
                                  "returns.evidence": text_input("Batch 3 tally sheet\nCanvass board minutes")})
    assert reply.body in (b"", b"{}")
    [posted] = harness.wait("chat.postMessage")
    text = text_of(posted.args)
    assert f"Returns for {PINE_RIDGE} recorded as survey version 2 by <@{OFFICIAL}>" in text
    assert "Dana Whitfield: 845 → 840 (-5)" in text and "Sam Okafor: 611 (unchanged)" in text
    assert "Reason:* Precinct 1 batch 3 recounted by hand: 5 ballots were duplicates" in text
    assert "Batch 3 tally sheet; Canvass board minutes" in text
    assert "C.R.S. 1-13.5-1306(4)" in text and "version 1 stays on the record" in text

    assert [v.number for v in versions(harness)] == [1, 2]
    assert votes_of(harness, 1, PINE_RIDGE) == before  # version 1 is never overwritten
    after = votes_of(harness, 2, PINE_RIDGE)
    assert after == {**before, ("Precinct 1", "Dana Whitfield"): 840}
    assert votes_of(harness, 2, BEAR_CREEK) == votes_of(harness, 1, BEAR_CREEK)  # other contests carried over
    v2 = versions(harness)[1]
    assert v2.reason == (f"correction of {PINE_RIDGE}, Precinct 1: Precinct 1 batch 3 recounted by hand: 5 ballots "
                         "were duplicates")
    assert v2.evidence == ["Batch 3 tally sheet", "Canvass board minutes"] and v2.created_by == OFFICIAL
    with harness.db.transaction() as s:
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "survey.version_created")
                          .order_by(AuditEntry.id.desc())).first()
    assert entry.before == {"version": 1, "votes": {"Dana Whitfield": 845, "Sam Okafor": 611}}
    assert entry.after["votes"] == {"Dana Whitfield": 840, "Sam Okafor": 611}
    assert entry.after["changes"] == [{"unit": "Precinct 1", "choice": "Dana Whitfield", "before": 845, "after": 840}]
    assert entry.after["citation"] == "C.R.S. 1-13.5-1306(4)"


def test_choosing_another_unit_shows_its_counts(harness) -> None:
    load_example(harness)
    view = correction_form(harness)
    choose(harness, view, "returns.unit", "1")
    view = harness.open_view()
    labels = inputs(view)
    assert labels["Dana Whitfield"]["element"]["initial_value"] == "702"
    assert labels["Dana Whitfield"]["block_id"] != "returns.choice.0.0"  # so Slack shows the new numbers
    harness.submit(view, {**counts(view, **{"Sam Okafor": 600}), **reason("Batch 9 found uncounted"),
                          "returns.unit": picked("1")})
    harness.wait("chat.postMessage")
    assert votes_of(harness, 2, PINE_RIDGE)[("Precinct 2", "Sam Okafor")] == 600
    assert votes_of(harness, 2, PINE_RIDGE)[("Precinct 1", "Sam Okafor")] == 611


def test_a_correction_without_a_reason_is_refused_on_the_reason_field(harness) -> None:
    load_example(harness)
    view = correction_form(harness)
    for missing in (None, "   "):
        reply = harness.submit(view, {**counts(view, **{"Dana Whitfield": 840}), **reason(missing)})
        assert reply.json() == {"response_action": "errors", "errors": {"returns.reason": (
            "A correction needs its reason: the finding it rests on (C.R.S. 1-13.5-1306(4)). Version 1 stays on "
            "the record.")}}
    assert len(versions(harness)) == 1


@pytest.mark.parametrize("typed, message", [
    ("-3", "This count must not be negative (got '-3')."),
    ("12.5", "This count must be a whole number of votes (got '12.5')."),
    ("twelve", "This count is not a whole number of votes (got 'twelve')."),
    (None, "Enter the votes for Sam Okafor (0 if none)."),
])
def test_a_count_that_is_not_a_whole_number_of_votes_is_refused_on_its_field(harness, typed, message) -> None:
    load_example(harness)
    view = correction_form(harness)
    values = counts(view, **{"Sam Okafor": typed})
    if typed is None:
        values[inputs(view)["Sam Okafor"]["block_id"]]["value"] = None
    reply = harness.submit(view, {**values, **reason("recount")})
    assert reply.json() == {"response_action": "errors", "errors": {inputs(view)["Sam Okafor"]["block_id"]: message}}
    assert len(versions(harness)) == 1


def test_an_unchanged_submission_is_refused(harness) -> None:
    load_example(harness)
    view = correction_form(harness)
    reply = harness.submit(view, {**counts(view), **reason("checked again")})
    first = inputs(view)["Dana Whitfield"]["block_id"]
    assert reply.json() == {"response_action": "errors", "errors": {
        first: "These are the returns already recorded (version 1); change a count, or cancel."}}
    assert len(versions(harness)) == 1


def test_staff_may_enter_returns_but_only_an_official_may_correct_them(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "staff")
    view = correction_form(harness, user=STAFF)
    reply = harness.submit(view, {**counts(view, **{"Sam Okafor": 612}), **reason("a ballot found in the bin")},
                           user=STAFF)
    body = reply.json()
    assert body["response_action"] == "update"
    assert "Only a designated election official may correct returns" in text_of({"blocks": body["view"]["blocks"]})
    assert "C.R.S. 1-13.5-1306(4)" in text_of({"blocks": body["view"]["blocks"]})
    assert len(versions(harness)) == 1


def test_a_form_opened_before_a_newer_version_is_refused(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "official")
    mine = correction_form(harness, user=OFFICIAL)
    theirs = correction_form(harness, user=STAFF)
    harness.submit(theirs, {**counts(theirs, **{"Sam Okafor": 612}), **reason("a ballot found in the bin")},
                   user=STAFF)
    harness.wait("chat.postMessage")
    reply = harness.submit(mine, {**counts(mine, **{"Dana Whitfield": 840}), **reason("duplicates")})
    body = reply.json()
    assert body["response_action"] == "update"
    assert (f"The returns changed since you opened this form (version 2 by <@{STAFF}>); reopen it"
            in text_of({"blocks": body["view"]["blocks"]}))
    assert [v.number for v in versions(harness)] == [1, 2]
    assert votes_of(harness, 2, PINE_RIDGE)[("Precinct 1", "Dana Whitfield")] == 845


def test_submitting_the_same_form_twice_records_it_once(harness) -> None:
    load_example(harness)
    view = correction_form(harness)
    values = {**counts(view, **{"Dana Whitfield": 840}), **reason("duplicates")}
    assert harness.submit(view, values).body in (b"", b"{}")
    again = harness.submit(view, values)  # a double click: a second delivery with a new trigger
    assert "The returns changed since you opened this form (version 2 by" in text_of(
        {"blocks": again.json()["view"]["blocks"]})
    assert [v.number for v in versions(harness)] == [1, 2]
    time.sleep(0.3)
    assert len(harness.slack.calls_to("chat.postMessage")) == 1


def test_a_correction_after_a_case_opened_is_told_in_the_case_thread(harness) -> None:
    load_example(harness)
    harness.command("check")
    harness.wait("chat.postMessage", count=3)
    card = next(m for m in harness.posted() if m["text"].startswith("Automatic recount") and BEAR_CREEK in m["text"])
    view = correction_form(harness, BEAR_CREEK)
    harness.submit(view, {**counts(view, Yes=2207), **reason("one ballot counted twice in Precinct 1")})
    harness.wait("chat.postMessage", count=5)  # the verdicts, two cards, the confirmation, the thread note
    [note] = harness.thread(card["ts"])[-1:]
    assert "corrected after the case opened (on version 1): survey version 2" in note["text"]
    assert "Precinct 1 Yes 2,208 → 2,207 (-1)" in note["text"] and "C.R.S. 1-13.5-1306(4)" in note["text"]


# ---------------------------------------------------------------- who may
def test_a_viewer_cannot_enter_returns(harness) -> None:
    load_example(harness)
    grant(harness, VIEWER, "viewer")
    harness.command("returns", user=VIEWER)
    calls = harness.wait("response_url", count=2)
    assert "You need the staff role to do this; you have viewer" in calls[-1].args["text"]
    assert harness.slack.calls_to("views.open") == []
    # Nor by submitting a form built for someone else.
    view = correction_form(harness)
    reply = harness.submit(view, {**counts(view, **{"Dana Whitfield": 1}), **reason("x")}, user=VIEWER)
    assert "You need the staff role" in text_of({"blocks": reply.json()["view"]["blocks"]})
    assert len(versions(harness)) == 1


def test_the_form_opens_with_the_commands_trigger_before_anything_else(harness) -> None:
    harness.command("returns")
    [opened] = harness.wait("views.open")
    assert opened.response["ok"] is True  # the trigger was still good
    assert opened.args["view"]["title"]["text"] == "Enter returns"
    [update] = harness.wait("views.update")  # then the form replaces the placeholder
    assert update.args["view_id"] == opened.response["view"]["id"] and update.response["ok"] is True
    assert harness.open_view()["callback_id"] == "returns.pick"


# ---------------------------------------------------------------- choosing in the first step
def test_an_older_election_and_one_of_its_contests_can_be_chosen(harness) -> None:
    import datetime as dt

    load_example(harness, name="Regular Special District Election 2024", date=dt.date(2024, 11, 5))
    load_example(harness)
    view = open_form(harness)
    options = inputs(view)["Election"]["element"]["options"]
    assert [o["text"]["text"] for o in options] == [  # newest first, then a new one
        "Regular Special District Election — Tue 2026-11-03", "Regular Special District Election 2024 — Tue 2024-11-05",
        "New election…"]
    older = options[1]["value"]
    # Chosen and submitted without the redraw (a lost update): the form shows that election's contests first.
    reply = harness.submit(view, {"returns.election": picked(older)})
    view = next_view(view, reply)
    assert view["callback_id"] == "returns.pick"
    contests = inputs(view)["Contest"]["element"]["options"]
    pine_ridge = next(o["value"] for o in contests if o["text"]["text"] == PINE_RIDGE)
    reply = harness.submit(view, {"returns.election": picked(older), "returns.contest": picked(pine_ridge)})
    step2 = next_view(view, reply)
    assert step2["callback_id"] == "returns.enter"
    assert "Regular Special District Election 2024 · Tue 2024-11-05" in text_of({"blocks": step2["blocks"]})
    harness.submit(step2, {**counts(step2, **{"Sam Okafor": 600}), **reason("tally sheet misread")})
    [posted] = harness.wait("chat.postMessage")
    assert "Regular Special District Election 2024" in text_of(posted.args)
    with harness.db.transaction() as s:
        numbers = s.execute(select(Election.name, SurveyVersion.number).join(SurveyVersion)
                            .order_by(Election.name, SurveyVersion.number)).all()
    assert [tuple(r) for r in numbers] == [("Regular Special District Election", 1),
                                           ("Regular Special District Election 2024", 1),
                                           ("Regular Special District Election 2024", 2)]


def test_a_contest_must_be_chosen_or_set_up(harness) -> None:
    load_example(harness)
    view = open_form(harness)
    election = inputs(view)["Election"]["element"]["initial_option"]["value"]
    reply = harness.submit(view, {"returns.election": picked(election)})
    assert reply.json()["errors"] == {"returns.contest": "Choose a contest, or “New contest…”."}


# ---------------------------------------------------------------- Slack's limits
def test_ninety_choices_fit_and_more_are_refused_with_a_clear_message(harness) -> None:
    view = open_form(harness)
    names = "\n".join(f"Candidate {i:02d}" for i in range(90))
    step2 = next_view(view, harness.submit(view, {**new_election(), **new_contest(choices=names)}))
    assert len(step2["blocks"]) <= 100 and len(step2["private_metadata"]) <= 3000
    assert len(inputs(step2)) == 90
    long_names = "\n".join(f"{i:02d} " + "x" * 60 for i in range(60))  # fits the form, not Slack's metadata
    reply = harness.submit(view, {**new_election(), **new_contest(choices=long_names)})
    assert "too long to carry through Slack's form" in reply.json()["errors"]["returns.new_contest_choices"]


def test_a_stored_contest_with_too_many_choices_says_so_instead_of_a_broken_form(harness) -> None:
    import datetime as dt

    from rules.contest import Contest as RulesContest
    from rules.contest import Returns
    from services.returns.versions import import_returns

    big = RulesContest.from_totals("Big Field", {f"Candidate {i}": i for i in range(95)})
    import_returns(harness.services, team_id=TEAM, returns=Returns((big,), "test"), election_name="Big",
                   election_date=dt.date(2026, 11, 3), local_government="Front Range Special Districts",
                   actor="test")
    view = open_form(harness, "returns Big Field")
    assert view["callback_id"] == "message"
    assert "Big Field has 95 choices; this form holds at most 90" in text_of({"blocks": view["blocks"]})
