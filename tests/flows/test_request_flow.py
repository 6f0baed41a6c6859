"""Requested recounts (1306(2)(a)) end to end: the request form, the core's refusals on their fields, the
card in the approvals channel, approval and rejection, who may decide, and two people deciding at once."""
from __future__ import annotations

import threading
import time

from sqlalchemy import func, select

from sandbox.slack_standin.validation import view_errors
from storage.models import AuditEntry, Membership, RecountCase, RecountRequestRow
from tests.flows.conftest import load_example
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM, VIEWER, text_of

PINE_RIDGE = "Pine Ridge Metropolitan District - Director"  # outside the margin: 1,547 to 1,201
BEAR_CREEK = "Bear Creek Fire Protection District - Ballot Issue 6A"  # inside: automatic under (1)
APPROVALS = "C0APPROVAL"


# ---------------------------------------------------------------- what a clerk does
def grant(harness, user: str, role: str) -> None:
    told = len(harness.slack.calls_to("response_url"))
    harness.command(f"admin role <@{user}> {role}")
    harness.wait("response_url", count=told + 1)


def admin(harness, text: str) -> str:
    """An official's `/recount admin ...`; what they were told."""
    told = len(harness.slack.calls_to("response_url"))
    assert harness.command(f"admin {text}").status == 200
    return harness.wait("response_url", count=told + 1)[-1].args["text"]


def open_form(harness, *, user: str = STAFF, channel: str = CHANNEL) -> dict:
    """`/recount request`: the modal opens at once and is filled in by an update."""
    updates = len(harness.slack.calls_to("views.update"))
    assert harness.command("request", user=user, channel=channel).status == 200
    harness.wait("views.open")
    harness.wait("views.update", count=updates + 1)
    return harness.open_view(user)


def contest_ids(view: dict) -> dict[str, str]:
    [select_block] = [b for b in view["blocks"] if b.get("block_id") == "request.contest"]
    return {o["text"]["text"]: o["value"] for o in select_block["element"]["options"]}


def choose_contest(harness, view: dict, contest: str, *, user: str = STAFF) -> dict:
    """Pick the contest: the form redraws with the request's details (dispatch_action + views.update)."""
    value = contest_ids(view)[contest]
    updates = len(harness.slack.calls_to("views.update"))
    selected = {"type": "static_select", "selected_option": {"value": value}}
    payload = {
        "type": "block_actions", "team": {"id": TEAM, "domain": "recount-test"},
        "user": {"id": user, "username": user.lower(), "team_id": TEAM}, "api_app_id": "A0RECOUNT1",
        "token": "legacy-verification-token", "trigger_id": harness.slack.issue_trigger_id(user),
        "container": {"type": "view", "view_id": view["id"]},
        "view": {**view, "state": {"values": {"request.contest": {"request.contest": selected}}}},
        "actions": [{"type": "static_select", "action_id": "request.contest", "block_id": "request.contest",
                     "selected_option": {"value": value}, "action_ts": f"{time.time():.6f}"}],
    }
    assert harness._interactive(payload).status == 200
    harness.wait("views.update", count=updates + 1)
    step2 = harness.open_view(user)
    assert step2["callback_id"] == "request.enter"
    assert view_errors(step2) == [], view_errors(step2)
    return step2


def choice_ids(view: dict) -> dict[str, str]:
    [block] = [b for b in view["blocks"] if b.get("block_id", "").startswith("request.in_favor_of.")]
    return {o["text"]["text"]: o["value"] for o in block["element"]["options"]}


def details(view: dict, *, contest: str, name="Sam Okafor", contact="sam@example.org", party="candidate",
            in_favor_of="Sam Okafor", received="2026-11-05", reference="Letter of 2026-11-05, file R-01",
            requester_user: str | None = None) -> dict[str, dict]:
    """The values of step 2 as Slack sends them (view.state), by block id."""
    favor_block = next(b["block_id"] for b in view["blocks"]
                       if b.get("block_id", "").startswith("request.in_favor_of."))
    values = {
        "request.contest": {"type": "static_select", "selected_option": {"value": contest_ids(view)[contest]}},
        "request.requester_name": {"type": "plain_text_input", "value": name},
        "request.requester_contact": {"type": "plain_text_input", "value": contact},
        "request.party_kind": {"type": "radio_buttons", "selected_option": {"value": party}},
        favor_block: {"type": "static_select", "selected_option": {"value": choice_ids(view)[in_favor_of]}},
        "request.received_on": {"type": "datepicker", "selected_date": received},
        "request.reference": {"type": "plain_text_input", "value": reference},
        "request.requester_user": {"type": "users_select", "selected_user": requester_user},
    }
    return values


def enter_request(harness, *, contest: str = PINE_RIDGE, user: str = STAFF, channel: str = CHANNEL, **fields):
    """The whole form, as a clerk fills it in; returns Slack's answer to the submission."""
    view = choose_contest(harness, open_form(harness, user=user, channel=channel), contest, user=user)
    return harness.submit(view, details(view, contest=contest, **fields), user=user)


def request_card(harness, channel: str = CHANNEL) -> dict:
    posted = harness.wait("chat.postMessage")
    assert posted, "no card"
    [card] = [m for m in harness.posted(channel) if m["text"].startswith("Recount request:")]
    return card


def buttons(message: dict) -> list[str]:
    return [e.get("action_id") for b in message.get("blocks", []) if b["type"] == "actions"
            for e in b["elements"]]


def decide(harness, card: dict, *, approve: bool = True, note: str = "Timely; requester verified.",
           user: str = OFFICIAL, channel: str = CHANNEL):
    """Click Approve or Reject and submit the note; returns Slack's answer to the submission."""
    opened = len(harness.slack.calls_to("views.open"))
    assert harness.click(card, "request.approve" if approve else "request.reject", user=user,
                         channel=channel).status == 200
    harness.wait("views.open", count=opened + 1)
    view = harness.open_view(user)
    assert view["callback_id"] == "request.decision"
    return harness.submit(view, {"request.note": {"type": "plain_text_input", "value": note}}, user=user)


def tell_after(harness, act) -> str:
    """What the person was told (through the response URL) after `act`."""
    before = len(harness.slack.calls_to("response_url"))
    act()
    return harness.wait("response_url", count=before + 1)[-1].args["text"]


def decision_forms(harness) -> list:
    return [c for c in harness.slack.calls_to("views.open") if c.args["view"]["callback_id"] == "request.decision"]


def count(harness, model, *where) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def ready(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "staff")


# ---------------------------------------------------------------- an accepted request
def test_an_accepted_request_is_posted_as_a_card_with_approve_and_reject(harness) -> None:
    ready(harness)
    view = open_form(harness)
    assert view["callback_id"] == "request.pick" and view["submit"]["text"] == "Next"
    assert view_errors(view) == []
    # The latest election's contests with returns, and when the window closes.
    assert set(contest_ids(view)) == {PINE_RIDGE, BEAR_CREEK, "Aspen Grove Library District - Trustee",
                                      "Cherry Creek Valley Water and Sanitation District - Director"}
    assert "Fri 2026-11-20" in text_of({"blocks": view["blocks"]})
    step2 = choose_contest(harness, view, PINE_RIDGE)
    assert set(choice_ids(step2)) == {"Dana Whitfield", "Sam Okafor"}
    shown = text_of({"blocks": step2["blocks"]})
    assert "Dana Whitfield 1,547 · Sam Okafor 1,201" in shown

    reply = harness.submit(step2, details(step2, contest=PINE_RIDGE), user=STAFF)
    assert reply.status == 200 and reply.body in (b"", b"{}")  # the modal closes
    card = request_card(harness)
    text = text_of(card)
    assert "Sam Okafor (candidate)" in text and "sam@example.org" in text
    assert "In favor of*\nSam Okafor" in text
    assert "Thu 2026-11-05 · ref. Letter of 2026-11-05, file R-01" in text
    assert "The request meets the statute's conditions: Sam Okafor, a candidate in the contest (Sam Okafor)" in text
    assert "Accepted" not in text  # the office has not decided yet
    assert "margin 346 exceeds 1/2 of 1% of 1,547" in text
    assert "C.R.S. 1-13.5-1306(2)(a)" in text
    assert "Request window closes*\nFri 2026-11-20" in text
    assert f"<@{STAFF}>" in text and "awaiting a decision" in text
    assert buttons(card) == ["request.approve", "request.reject", "request.withdraw"]
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        assert (row.status, row.channel_id, row.card_ts) == ("pending", CHANNEL, card["ts"])
        assert (row.party_kind, row.candidate_choice, row.in_favor_of) == ("candidate", "Sam Okafor", "Sam Okafor")
    assert count(harness, AuditEntry, AuditEntry.action == "request.entered") == 1
    assert count(harness, RecountCase) == 0


def test_approval_with_a_note_edits_the_card_and_posts_the_requested_case(harness) -> None:
    ready(harness)
    enter_request(harness)
    card = request_card(harness)
    reply = decide(harness, card, note="Timely; Sam Okafor is a candidate.")
    assert reply.status == 200 and reply.body in (b"", b"{}")
    harness.wait("chat.update")
    harness.wait("chat.postMessage", count=5)  # card, thread: decision, case card, thread: link, case thread
    updated = harness.slack.state.message(CHANNEL, card["ts"])
    text = text_of(updated)
    assert buttons(updated) == []  # the buttons are gone once decided
    assert f"Approved* by <@{OFFICIAL}>" in text and "Timely; Sam Okafor is a candidate." in text
    thread = [m["text"] for m in harness.thread(card["ts"])]
    assert thread[0] == f":white_check_mark: Approved by <@{OFFICIAL}>: Timely; Sam Okafor is a candidate."
    [case_card] = [m for m in harness.posted() if m["text"].startswith("Requested recount")]
    assert PINE_RIDGE in case_card["text"]
    case_text = text_of(case_card)
    assert "Sam Okafor (candidate)" in case_text and "C.R.S. 1-13.5-1306(2)(b)" in case_text
    assert "Recount case #" in thread[1] and "(2)(b)(I)" in thread[1] and "|its card>)" in thread[1]
    [back_link] = harness.thread(case_card["ts"])
    assert "Opened on the approval of <" in back_link["text"] and "|recount request #" in back_link["text"]
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        case = s.scalars(select(RecountCase)).one()
        assert (row.status, row.decided_by, row.case_id) == ("approved", OFFICIAL, case.id)
        assert (case.kind, case.card_ts) == ("requested", case_card["ts"])
    assert count(harness, AuditEntry, AuditEntry.action == "request.approved") == 1


def test_rejection_edits_the_card_and_opens_no_case(harness) -> None:
    ready(harness)
    enter_request(harness, party="eligible_elector", name="Pat Elector", in_favor_of="Sam Okafor")
    card = request_card(harness)
    assert decide(harness, card, approve=False, note="Not an elector of the district.").body in (b"", b"{}")
    harness.wait("chat.update")
    harness.wait("chat.postMessage", count=2)
    updated = harness.slack.state.message(CHANNEL, card["ts"])
    assert buttons(updated) == [] and "Rejected* by" in text_of(updated)
    [told] = harness.thread(card["ts"])
    assert told["text"] == f":no_entry_sign: Rejected by <@{OFFICIAL}>: Not an elector of the district."
    assert count(harness, RecountCase) == 0
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "rejected") == 1


# ---------------------------------------------------------------- refusals, on the field
def test_a_late_request_is_refused_on_the_received_field_with_the_deadline(harness) -> None:
    ready(harness)
    harness.clock.advance(days=16)  # Sun 2026-11-22
    reply = enter_request(harness, received="2026-11-21")
    body = reply.json()
    assert body["response_action"] == "errors" and list(body["errors"]) == ["request.received_on"]
    message = body["errors"]["request.received_on"]
    assert "Refused as late" in message and "after the deadline of Fri 2026-11-20" in message
    assert "17 days after the election of 2026-11-03" in message
    assert count(harness, RecountRequestRow) == 0 and harness.slack.calls_to("chat.postMessage") == []


def test_a_contest_inside_the_margin_is_refused_as_automatic_on_the_contest_field(harness) -> None:
    ready(harness)
    reply = enter_request(harness, contest=BEAR_CREEK, party="eligible_elector", name="Pat Elector",
                          in_favor_of="No")
    errors = reply.json()["errors"]
    assert list(errors) == ["request.contest"]
    assert "a recount is already required by (1)" in errors["request.contest"]
    assert "it is automatic and paid by the governing body" in errors["request.contest"]
    assert count(harness, RecountRequestRow) == 0


def test_an_issue_committee_is_not_an_interested_party_in_a_candidate_contest(harness) -> None:
    ready(harness)
    reply = enter_request(harness, party="issue_committee", name="Citizens for Pine Ridge",
                          in_favor_of="Dana Whitfield")
    errors = reply.json()["errors"]
    assert list(errors) == ["request.party_kind"]
    assert "is not an interested party" in errors["request.party_kind"]
    assert "an issue committee is an interested party only for a ballot issue or question" in \
        errors["request.party_kind"]
    assert count(harness, RecountRequestRow) == 0


def test_every_problem_is_shown_on_its_own_field(harness) -> None:
    ready(harness)
    harness.clock.advance(days=16)
    reply = enter_request(harness, party="issue_committee", received="2026-11-21")
    errors = reply.json()["errors"]
    assert set(errors) == {"request.party_kind", "request.received_on"}
    assert "(1 more problem listed)" in errors["request.party_kind"]
    assert "after the window closed Fri 2026-11-20" in errors["request.received_on"]


def test_a_request_received_in_the_future_and_missing_facts_are_shown_on_their_fields(harness) -> None:
    ready(harness)
    reply = enter_request(harness, received="2026-11-09", contact="  ", reference=" ")
    assert reply.json()["errors"] == {
        "request.requester_contact": "Give the requester's contact (address, email or phone) for the cost notice.",
        "request.reference": "Give a reference to the written request (e.g. its receipt or file number).",
        "request.received_on": "The request cannot have been received in the future."}
    assert count(harness, RecountRequestRow) == 0


# ---------------------------------------------------------------- who may decide
def test_staff_without_approver_rights_are_denied_and_a_delegated_approver_decides(harness) -> None:
    ready(harness)
    enter_request(harness, user=OFFICIAL)
    card = request_card(harness)
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=STAFF))
    assert "Only a designated election official or a delegated approver" in told
    assert not decision_forms(harness)

    assert "may now approve or reject recount requests" in admin(harness, f"approver <@{STAFF}> on")
    # The official entered this request; the delegated approver neither made nor entered it: they may decide it.
    assert decide(harness, card, user=STAFF, note="Delegated approval.").body in (b"", b"{}")
    harness.wait("chat.update")
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        assert (row.status, row.decided_by) == ("approved", STAFF)
        assert s.scalar(select(Membership.can_approve).where(Membership.slack_user_id == STAFF)) is True
    assert count(harness, AuditEntry, AuditEntry.action == "approver.set") == 1


def test_the_requesters_own_slack_user_may_not_decide(harness) -> None:
    ready(harness)
    enter_request(harness, requester_user=OFFICIAL)  # the official is, here, the one asking for the recount
    card = request_card(harness)
    assert f"<@{OFFICIAL}>" in text_of(card)
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=OFFICIAL))
    assert "You made this request; someone else must decide it." in told
    assert not decision_forms(harness)
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "pending") == 1


def test_a_viewer_cannot_be_made_an_approver_nor_enter_a_request(harness) -> None:
    load_example(harness)
    grant(harness, VIEWER, "viewer")
    assert "needs at least the staff role" in admin(harness, f"approver <@{VIEWER}> on")
    assert "may always decide" in admin(harness, f"approver <@{OFFICIAL}> on")
    told = tell_after(harness, lambda: harness.command("request", user=VIEWER))
    assert "You need the staff role" in told
    assert harness.slack.calls_to("views.open") == []


def test_two_officials_approving_at_once_record_one_decision_and_the_other_is_told(harness) -> None:
    ready(harness)
    grant(harness, STAFF, "official")
    grant(harness, VIEWER, "staff")
    enter_request(harness, user=VIEWER)  # neither official entered it: both may decide
    card = request_card(harness)
    views = {}
    for user in (OFFICIAL, STAFF):
        opened = len(harness.slack.calls_to("views.open"))
        harness.click(card, "request.approve", user=user)
        harness.wait("views.open", count=opened + 1)
        views[user] = harness.open_view(user)
    replies, barrier = {}, threading.Barrier(2)

    def submit(user: str) -> None:
        barrier.wait()
        replies[user] = harness.submit(views[user], {"request.note": {"type": "plain_text_input",
                                                                      "value": f"approved by {user}"}}, user=user)

    threads = [threading.Thread(target=submit, args=(u,)) for u in views]
    [t.start() for t in threads]
    [t.join() for t in threads]
    closed = [u for u, r in replies.items() if r.body in (b"", b"{}")]
    told = [u for u, r in replies.items() if r.body not in (b"", b"{}")]
    assert len(closed) == 1 and len(told) == 1, replies
    [winner], [loser] = closed, told
    answer = replies[loser].json()
    assert answer["response_action"] == "update"
    assert f"already approved by <@{winner}>" in text_of({"blocks": answer["view"]["blocks"]})
    harness.wait("chat.update")
    harness.wait("chat.postMessage", count=5)
    assert count(harness, RecountCase) == 1
    assert count(harness, AuditEntry, AuditEntry.action == "request.approved") == 1
    updated = harness.slack.state.message(CHANNEL, card["ts"])
    assert buttons(updated) == [] and f"Approved* by <@{winner}>" in text_of(updated)
    assert [m["text"] for m in harness.thread(card["ts"])][0].endswith(f"approved by {winner}")


def test_a_second_click_after_the_decision_is_told_who_decided(harness) -> None:
    ready(harness)
    enter_request(harness)
    card = request_card(harness)
    decide(harness, card, approve=False, note="No.")
    harness.wait("chat.update")
    # The old card, still showing its buttons:
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=OFFICIAL))
    assert f"already rejected by <@{OFFICIAL}>" in told
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "rejected") == 1


# ---------------------------------------------------------------- the approvals channel and the shortcut
def test_the_approvals_channel_receives_the_cards(harness) -> None:
    ready(harness)
    said = admin(harness, f"setting approvals-channel <#{APPROVALS}|recount-approvals>")
    assert f"approvals-channel is now <#{APPROVALS}>" in said
    [hello] = harness.posted(APPROVALS)
    assert "will be posted here for approval" in hello["text"]
    assert count(harness, AuditEntry, AuditEntry.action == "settings.updated") == 1
    assert f"approvals-channel <#{APPROVALS}>" in admin(harness, "roles")

    enter_request(harness)  # typed in #elections
    harness.wait("chat.postMessage", count=2)
    card = next(m for m in harness.posted(APPROVALS) if m["text"].startswith("Recount request:"))
    assert buttons(card) == ["request.approve", "request.reject", "request.withdraw"]
    assert not [m for m in harness.posted(CHANNEL) if m["text"].startswith("Recount request:")]
    [told] = harness.wait("chat.postEphemeral")
    assert told.args["user"] == STAFF and f"posted for approval in <#{APPROVALS}>" in told.args["text"]

    decide(harness, card, channel=APPROVALS)
    harness.wait("chat.postMessage", count=6)
    assert [m for m in harness.posted(APPROVALS) if m["text"].startswith("Requested recount")]


def test_the_shortcut_opens_the_form_and_posts_in_the_approvals_channel(harness) -> None:
    ready(harness)
    admin(harness, f"setting approvals-channel <#{APPROVALS}|recount-approvals>")
    updates = len(harness.slack.calls_to("views.update"))
    assert harness.shortcut("recount_request", user=STAFF).status == 200
    harness.wait("views.open")
    harness.wait("views.update", count=updates + 1)
    view = harness.open_view(STAFF)
    assert view["callback_id"] == "request.pick"
    # "Next" without the redraw: the details come as the answer to the submission.
    reply = harness.submit(view, {"request.contest": {"type": "static_select",
                                                      "selected_option": {"value": contest_ids(view)[PINE_RIDGE]}}},
                           user=STAFF)
    body = reply.json()
    assert body["response_action"] == "update" and body["view"]["callback_id"] == "request.enter"
    step2 = {**view, **body["view"]}
    assert harness.submit(step2, details(step2, contest=PINE_RIDGE), user=STAFF).body in (b"", b"{}")
    harness.wait("chat.postMessage", count=2)
    assert [m for m in harness.posted(APPROVALS) if m["text"].startswith("Recount request:")]


def test_the_shortcut_without_an_approvals_channel_says_how_to_set_one(harness) -> None:
    ready(harness)
    assert harness.shortcut("recount_request", user=STAFF).status == 200
    [opened] = harness.wait("views.open")
    text = text_of({"blocks": opened.args["view"]["blocks"]})
    assert "/recount admin setting approvals-channel #channel" in text
    assert harness.slack.calls_to("views.update") == []


def test_a_card_that_cannot_be_posted_is_posted_later_by_the_requests_list(harness) -> None:
    ready(harness)
    harness.slack.fail_next("chat.postMessage", status=200, error="not_in_channel")
    enter_request(harness)
    [warned] = harness.wait("chat.postEphemeral")
    assert "is recorded and awaits a decision" in warned.args["text"]
    assert "invite me there with `/invite @recount-bot`, then type `/recount requests`" in warned.args["text"]
    assert count(harness, RecountRequestRow, RecountRequestRow.card_ts.is_(None)) == 1

    told = len(harness.slack.calls_to("response_url"))
    harness.command("requests", user=STAFF)
    [listed] = harness.wait("response_url", count=told + 1)[-1:]
    assert "its card is now posted in" in listed.args["text"]
    card = request_card(harness)
    assert buttons(card) == ["request.approve", "request.reject", "request.withdraw"]
    told = len(harness.slack.calls_to("response_url"))
    harness.command("requests", user=STAFF)  # again: the link, not a second card
    [listed] = harness.wait("response_url", count=told + 1)[-1:]
    assert "|its card>" in listed.args["text"]
    assert len([m for m in harness.posted() if m["text"].startswith("Recount request:")]) == 1


def test_the_approvals_channel_and_the_approvers_are_an_officials_settings(harness) -> None:
    ready(harness)
    told = tell_after(harness, lambda: harness.command(f"admin setting approvals-channel <#{APPROVALS}>", user=STAFF))
    assert "You need the official role" in told
    assert "is not a channel" in admin(harness, "setting approvals-channel approvals")
    harness.slack.fail_next("chat.postMessage", status=200, error="not_in_channel")
    said = admin(harness, f"setting approvals-channel <#{APPROVALS}|recount-approvals>")
    assert "but I cannot post there (not_in_channel): invite me" in said
    assert "already <#" in admin(harness, f"setting approvals-channel <#{APPROVALS}|recount-approvals>")
    assert "approvals-channel is now none" in admin(harness, "setting approvals-channel none")
    assert count(harness, AuditEntry, AuditEntry.action == "settings.updated") == 2

    admin(harness, f"approver <@{STAFF}> on")
    assert f"besides the officials: <@{STAFF}>" in admin(harness, "roles")
    assert "may no longer approve" in admin(harness, f"approver <@{STAFF}> off")
    assert "is not an approver" in admin(harness, f"approver <@{STAFF}> off")
    assert "besides the officials: none" in admin(harness, "roles")
    assert count(harness, AuditEntry, AuditEntry.action == "approver.set") == 2
