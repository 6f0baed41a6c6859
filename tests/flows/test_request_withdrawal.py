"""A recount request's card after it is decided or withdrawn (1306(2)(a)), through signed requests into the real app:
a rejected request's card does not say "Accepted:"; staff record the requester's withdrawal from the card, which is
audited and sealed, edits the card and posts in its thread; a withdrawn request cannot then be decided."""
from __future__ import annotations

from sqlalchemy import select, text

from storage import audit
from storage.models import AuditEntry, RecountCase, RecountRequestRow
from tests.flows.test_request_flow import (
    buttons,
    count,
    decide,
    enter_request,
    ready,
    request_card,
    tell_after,
)
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, VIEWER, text_of


def test_a_rejected_requests_card_does_not_say_accepted(harness) -> None:
    ready(harness)
    enter_request(harness, party="eligible_elector", name="Pat Elector", in_favor_of="Sam Okafor")
    card = request_card(harness)
    assert "The request meets the statute's conditions: Pat Elector" in text_of(card)  # the core's check, while it waits
    decide(harness, card, approve=False, note="Not an elector of the district.")
    harness.wait("chat.update")
    shown = text_of(harness.slack.state.message(CHANNEL, card["ts"]))
    assert "Accepted" not in shown
    assert "When entered, the request met the statute's conditions: Pat Elector" in shown
    assert "Rejected* by <@U0OFFICIAL>" in shown


def _withdraw(harness, card: dict, note: str, *, user: str = STAFF):
    opened = len(harness.slack.calls_to("views.open"))
    harness.click(card, "request.withdraw", user=user)
    harness.wait("views.open", count=opened + 1)
    view = harness.open_view(user)
    assert view["callback_id"] == "request.withdrawal"
    return harness.submit(view, {"request.withdrawal_note": {"type": "plain_text_input", "value": note}}, user=user)


def test_staff_record_the_requesters_withdrawal_from_the_card(harness) -> None:
    ready(harness)
    enter_request(harness, party="eligible_elector", name="Pat Elector", in_favor_of="Sam Okafor")
    card = request_card(harness)
    assert "request.withdraw" in buttons(card)

    # A viewer may not record it.
    assert "You need the staff role" in tell_after(harness, lambda: harness.click(card, "request.withdraw",
                                                                                  user=VIEWER))
    # An empty note is refused on its field.
    reply = _withdraw(harness, card, "   ")
    assert "request.withdrawal_note" in reply.json()["errors"]

    assert _withdraw(harness, card, "Letter signed by Pat Elector, received Nov 9.").body in (b"", b"{}")
    harness.wait("chat.update")
    updated = harness.slack.state.message(CHANNEL, card["ts"])
    shown = text_of(updated)
    assert buttons(updated) == []
    assert "withdrawn by the requester" in shown and "Accepted" not in shown
    assert ("*Withdrawn by the requester*, recorded by <@U0STAFF001>, Fri 2026-11-06 09:00 MST: Letter signed by Pat "
            "Elector, received Nov 9.") in shown
    [told] = harness.thread(card["ts"])
    assert told["text"] == (":leftwards_arrow_with_hook: Withdrawn by the requester, recorded by <@U0STAFF001>: Letter "
                            "signed by Pat Elector, received Nov 9. (C.R.S. 1-13.5-1306(2)(a))")
    with harness.db.transaction() as s:
        row = s.scalar(select(RecountRequestRow))
        assert (row.status, row.decided_by) == ("withdrawn", STAFF)
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "request.withdrawn")).all()
        assert entry.after["status"] == "withdrawn" and entry.actor == STAFF
    with harness.db.transaction() as s:
        assert audit.verify(s).ok
    assert count(harness, RecountCase) == 0

    # Decided after: refused, naming the withdrawal; no case opens.
    opened = len(harness.slack.calls_to("views.open"))
    said = tell_after(harness, lambda: harness.click(card, "request.approve", user=OFFICIAL))
    assert "The requester withdrew this request (recorded by" in said
    assert len(harness.slack.calls_to("views.open")) == opened and count(harness, RecountCase) == 0


def test_a_status_edited_outside_the_bot_shows_in_audit_verify(harness) -> None:
    ready(harness)
    enter_request(harness, party="eligible_elector", name="Pat Elector", in_favor_of="Sam Okafor")
    card = request_card(harness)
    _withdraw(harness, card, "By email.")
    harness.wait("chat.update")
    with harness.db.transaction() as s:
        # A direct edit (not through the ORM, which would seal it again as the bot writes).
        s.execute(text("UPDATE recount_requests SET status = 'pending'"))
    with harness.db.transaction() as s:
        assert not audit.verify(s).ok
