"""Recording the notices owed under (1) from the case card: modal, card edit, thread post, no doubles."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from storage.models import AuditEntry, Notice
from tests.flows.conftest import load_example
from tests.support.slack_app import OFFICIAL, STAFF, VIEWER, text_of

GIVEN_AT = int(dt.datetime(2026, 11, 6, 15, 30, tzinfo=dt.timezone.utc).timestamp())


def _cards(harness):
    load_example(harness)
    harness.command("check")
    harness.wait("chat.postMessage", count=3)
    return [m for m in harness.posted() if m["text"].startswith("Automatic recount")]


def _issue_card(harness) -> dict:
    return next(c for c in _cards(harness) if "Ballot Issue 6A" in c["text"])


def _notice_values(given_by="Dana Whitfield", method="email", at=GIVEN_AT, details="board@bearcreekfire.org"):
    values = {"notice.given_at": {"type": "datetimepicker", "selected_date_time": at}}
    if given_by is not None:
        values["notice.given_by"] = {"type": "plain_text_input", "value": given_by}
    if method is not None:
        values["notice.method"] = {"type": "static_select", "selected_option": {"value": method}}
    values["notice.details"] = {"type": "plain_text_input", "value": details}
    return values


def test_recording_a_notice_edits_the_card_and_posts_in_its_thread(harness) -> None:
    card = _issue_card(harness)
    assert harness.click(card, "notice.record").status == 200
    harness.wait("views.open")
    view = harness.open_view()
    assert view["title"]["text"] == "Record notice"
    assert "Board of Directors" in text_of({"blocks": view["blocks"]})

    reply = harness.submit(view, _notice_values())
    assert reply.status == 200 and reply.body in (b"", b"{}")  # the modal closes
    harness.wait("chat.update")
    harness.wait("chat.postMessage", count=4)  # the verdicts, two cards, then the thread reply
    updated = harness.slack.state.message("C0ELECTION", card["ts"])
    text = text_of(updated)
    assert "Governing body:* Board of Directors of Front Range Special Districts — given by Dana Whitfield by email" in text
    assert "1 of 1 given" in text
    assert "Record notice" not in text  # the button is gone once recorded
    [reply_in_thread] = harness.thread(card["ts"])[-1:]
    assert "Notice to Governing body Board of Directors of Front Range Special Districts recorded" in reply_in_thread["text"]
    assert "C.R.S. 1-13.5-1306(1)" in reply_in_thread["text"]


def test_missing_fields_are_shown_on_the_field_and_nothing_is_recorded(harness) -> None:
    card = _issue_card(harness)
    harness.click(card, "notice.record")
    harness.wait("views.open")
    reply = harness.submit(harness.open_view(), _notice_values(given_by=None, method=None))
    assert reply.json() == {"response_action": "errors", "errors": {
        "notice.given_by": "Say who gave the notice.", "notice.method": "Choose how the notice was given."}}
    with harness.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Notice).where(Notice.given_at.is_not(None))) == 0


def test_a_notice_in_the_future_or_before_the_election_is_refused_on_its_field(harness) -> None:
    card = _issue_card(harness)
    harness.click(card, "notice.record")
    harness.wait("views.open")
    view = harness.open_view()
    future = int(dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc).timestamp())
    assert harness.submit(view, _notice_values(at=future)).json()["errors"] == {
        "notice.given_at": "The notice cannot have been given in the future."}
    before = int(dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc).timestamp())
    assert harness.submit(view, _notice_values(at=before)).json()["errors"] == {
        "notice.given_at": "A recount notice cannot predate the election."}


def test_two_modals_for_the_same_notice_record_it_once(harness) -> None:
    card = _issue_card(harness)
    harness.command(f"admin role <@{STAFF}> staff")
    harness.wait("response_url")
    harness.click(card, "notice.record", user=OFFICIAL)
    harness.click(card, "notice.record", user=STAFF)  # a colleague opened it too
    harness.wait("views.open", count=2)
    first, second = harness.open_view(OFFICIAL), harness.open_view(STAFF)
    harness.submit(first, _notice_values(given_by="Dana Whitfield"), user=OFFICIAL)
    harness.submit(second, _notice_values(given_by="Sam Okafor", method="phone"), user=STAFF)
    [told] = harness.wait("chat.postEphemeral")  # the second person is told, beside the card
    assert told.args["user"] == STAFF and "had already been recorded" in told.args["text"]
    with harness.db.transaction() as s:
        notice = s.scalars(select(Notice).where(Notice.given_at.is_not(None))).one()
        assert (notice.given_by, notice.method) == ("Dana Whitfield", "email")
        assert s.scalar(select(func.count()).select_from(AuditEntry).where(
            AuditEntry.action == "notice.recorded")) == 1


def test_a_viewer_cannot_record_a_notice(harness) -> None:
    card = _issue_card(harness)
    harness.click(card, "notice.record", user=VIEWER)
    [call] = harness.wait("response_url")
    assert "You need the staff role" in call.args["text"]
    assert harness.slack.calls_to("views.open") == []
