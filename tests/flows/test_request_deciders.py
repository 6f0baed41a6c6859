"""Who decides a recount request, through signed requests into the real app: never the requester, nor whoever
entered the request on the requester's behalf (the "requester in Slack" field may be left empty), unless an
official who entered it is the only one in the office who may decide, and records why ("one office, one
person"). Every refusal says who may decide instead."""
from __future__ import annotations

import json

from sqlalchemy import select

from storage.models import AuditEntry, RecountRequestRow
from tests.flows.conftest import load_example
from tests.flows.test_request_flow import (
    admin,
    count,
    decide,
    decision_forms,
    enter_request,
    grant,
    ready,
    request_card,
    tell_after,
)
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, VIEWER, text_of

NOTE = {"request.note": {"type": "plain_text_input", "value": "Timely; requester verified."}}


def _forged_decision(harness, request_id: int, *, user: str, reason: str | None = None):
    """A decision form submitted without the click that opens it (a replayed or hand-made view): the server
    checks who decides again."""
    view = {"id": "V0FORGED01", "type": "modal", "callback_id": "request.decision",
            "private_metadata": json.dumps({"r": request_id, "a": 1}), "blocks": [], "hash": "1"}
    values = dict(NOTE)
    if reason is not None:
        values["request.own_reason"] = {"type": "plain_text_input", "value": reason}
    return harness.submit(view, values, user=user)


def _pending_id(harness) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(RecountRequestRow.id).where(RecountRequestRow.status == "pending"))


def test_an_approver_who_entered_a_request_for_someone_may_not_approve_it(harness) -> None:
    ready(harness)
    admin(harness, f"approver <@{STAFF}> on")
    enter_request(harness, user=STAFF)  # "the requester in Slack" left empty, as the issue found
    card = request_card(harness)
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=STAFF))
    assert told == (f"You entered this request on the requester's behalf; someone else must decide it. "
                    f"<@{OFFICIAL}> may decide it instead.")
    assert not decision_forms(harness)

    # Straight to the decision, without the click: refused all the same, nothing recorded.
    reply = _forged_decision(harness, _pending_id(harness), user=STAFF, reason="I am in a hurry")
    answer = reply.json()
    assert answer["response_action"] == "update"
    assert "You entered this request on the requester's behalf" in text_of({"blocks": answer["view"]["blocks"]})
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "pending") == 1
    assert count(harness, AuditEntry, AuditEntry.action == "request.approved") == 0

    assert decide(harness, card, user=OFFICIAL).body in (b"", b"{}")
    harness.wait("chat.update")
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        assert (row.status, row.decided_by, row.entered_by, row.decision_reading) == (
            "approved", OFFICIAL, STAFF, None)


def test_every_refusal_names_who_may_decide_instead(harness) -> None:
    ready(harness)
    grant(harness, VIEWER, "staff")
    admin(harness, f"approver <@{VIEWER}> on")
    enter_request(harness, user=STAFF, requester_user=VIEWER)
    card = request_card(harness)
    # Staff who are no approver: the official may decide (not the approver who is the requester).
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=STAFF))
    assert told == ("Only a designated election official or a delegated approver may decide a recount request. "
                    f"<@{OFFICIAL}> may decide it instead.")
    # The requester, an approver: the official.
    told = tell_after(harness, lambda: harness.click(card, "request.reject", user=VIEWER))
    assert told == f"You made this request; someone else must decide it. <@{OFFICIAL}> may decide it instead."
    admin(harness, f"approver <@{STAFF}> on")
    # The one who entered it, now an approver: the official still; never the requester.
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=STAFF))
    assert told.endswith(f"someone else must decide it. <@{OFFICIAL}> may decide it instead.")
    grant(harness, VIEWER, "official")  # the requester made an official: still not for their own request
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=VIEWER))
    assert told == f"You made this request; someone else must decide it. <@{OFFICIAL}> may decide it instead."
    assert not decision_forms(harness)
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "pending") == 1


def test_the_only_official_who_entered_a_request_decides_it_saying_why(harness) -> None:
    load_example(harness)  # one person: the official, no staff, no approver
    enter_request(harness, user=OFFICIAL)
    card = request_card(harness)
    opened = len(harness.slack.calls_to("views.open"))
    harness.click(card, "request.approve", user=OFFICIAL)
    harness.wait("views.open", count=opened + 1)
    view = harness.open_view(OFFICIAL)
    shown = text_of({"blocks": view["blocks"]})
    assert "no one else in this office may decide it" in shown and "*one office, one person*" in shown
    assert "request.own_reason" in {b.get("block_id") for b in view["blocks"]}

    reply = harness.submit(view, NOTE, user=OFFICIAL)  # no reason
    errors = reply.json()["errors"]
    assert list(errors) == ["request.own_reason"]
    assert errors["request.own_reason"].startswith("You entered this request and no one else in this office may "
                                                   "decide it: say why you decide it yourself")
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "pending") == 1

    reason = "I am the district's only election official and its only staff."
    reply = harness.submit(view, {**NOTE, "request.own_reason": {"type": "plain_text_input", "value": reason}},
                           user=OFFICIAL)
    assert reply.body in (b"", b"{}")
    harness.wait("chat.update")
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        assert (row.status, row.decided_by, row.entered_by) == ("approved", OFFICIAL, OFFICIAL)
        assert row.decision_reading == f"one office, one person: {reason}"
        entry = s.scalars(select(AuditEntry).where(AuditEntry.action == "request.approved")).one()
    assert entry.after["reason"] == reason and entry.after["entered_by"] == OFFICIAL
    assert entry.after["reading"].startswith("one office, one person: (2)(a) has the request submitted to the "
                                             "designated election official")
    updated = text_of(harness.slack.state.message(CHANNEL, card["ts"]))
    assert f"Decided under the reading one office, one person: {reason}" in updated


def test_an_official_who_entered_a_request_may_not_decide_it_when_another_may(harness) -> None:
    ready(harness)
    grant(harness, STAFF, "official")
    enter_request(harness, user=OFFICIAL)
    card = request_card(harness)
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=OFFICIAL))
    assert told == (f"You entered this request on the requester's behalf; someone else must decide it. "
                    f"<@{STAFF}> may decide it instead.")
    assert not decision_forms(harness)
    # A reason does not make it theirs to decide while someone else may.
    reply = _forged_decision(harness, _pending_id(harness), user=OFFICIAL, reason="I would rather")
    assert "<@U0STAFF001> may decide it instead" in text_of({"blocks": reply.json()["view"]["blocks"]})
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "pending") == 1
    assert decide(harness, card, user=STAFF).body in (b"", b"{}")
    harness.wait("chat.update")
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "approved") == 1
