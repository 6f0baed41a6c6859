"""Completion checks what (1) and (3) require, and says only what the card says (1306(1), (3), (6)). Through signed
requests into the real app: a recount no one is recorded as assisting is not completed, and the refusal names (3)
and what to record; the confirmation of an automatic recount says "the notice", not "All 1 notice", and not "all"
when the card says a ballot question's issue committee is not recorded."""
from __future__ import annotations

from services.office import access
from storage.models import RecountCase
from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    audit_count,
    automatic_card,
    complete,
    counting_case,
    current,
    enter,
    harness,
    tally,
)
from tests.support.assistants import record_an_assistant
from tests.support.slack_app import OFFICIAL, STAFF, TEAM, text_of

BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"  # a ballot question; 1 notice: its governing body
WARNING = "No one is recorded as assisting in the recount (C.R.S. 1-13.5-1306(3))"


def _confirm(message: dict) -> dict:
    return next(e for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]
                if e["action_id"] == "case.complete")["confirm"]


def test_a_recount_no_one_is_recorded_as_assisting_is_not_completed(harness) -> None:
    case_id, card = counting_case(harness, assistants=False)
    tally(harness, case_id, (645, 811), (702, 590))
    assert WARNING in text_of(current(harness, card))
    _, reply = complete(harness, card, "350.00")
    refused = text_of(reply.json()["view"])
    assert "Not completed: no one is recorded as assisting in the recount." in refused
    assert "C.R.S. 1-13.5-1306(3)" in refused and "*Assistants*" in refused
    assert audit_count(harness, "case.completed") == 0
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None

    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    record_an_assistant(harness.services, workspace_id=workspace_id, case_id=case_id, actor=STAFF)
    tally(harness, case_id, (645, 811), (702, 590))  # the card refreshed
    assert WARNING not in text_of(current(harness, card))
    _, reply = complete(harness, card, "350.00")
    assert reply.body in (b"", b"{}") and audit_count(harness, "case.completed") == 1


def test_an_automatic_recount_with_no_assistant_is_refused_from_its_button(harness) -> None:
    case_id, card = automatic_card(harness, BEAR, assistants=False)
    enter(harness, case_id, {"Precinct 1": {"Yes": 2208, "No": 2190}, "Precinct 2": {"Yes": 2131, "No": 2128}})
    before = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "case.complete")
    told = harness.wait("response_url", count=before + 1)[-1].args["text"]
    assert "Not completed: no one is recorded as assisting in the recount" in told and "1-13.5-1306(3)" in told
    assert audit_count(harness, "case.completed") == 0


def test_the_confirmation_of_one_notice_and_no_issue_committee_agrees_with_the_card(harness) -> None:
    case_id, card = automatic_card(harness, BEAR)
    enter(harness, case_id, {"Precinct 1": {"Yes": 2208, "No": 2190}, "Precinct 2": {"Yes": 2131, "No": 2128}})
    shown = text_of(current(harness, card))
    assert "No issue committee is recorded for this ballot question" in shown
    said = _confirm(current(harness, card))["text"]["text"]
    assert "All" not in said and "All 1 notice" not in said
    assert "no issue committee is recorded for this ballot question" in said
    assert len(said) <= 300  # Slack's limit for a confirmation's text
