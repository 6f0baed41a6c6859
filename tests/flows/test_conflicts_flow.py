"""Conflicts of interest (rules.conflicts), through signed requests into the real app: the office records that a
Slack user is a candidate (`/recount admin candidate`), the contest's cards flag them, and they may not approve
the contest's recount request, complete the recount or certify it; the refusal names the official who may, and
that official succeeds. In the example election the official, Dana Whitfield, is herself a candidate in Pine
Ridge, exactly the case the issue found passing silently."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from storage.models import AuditEntry, CandidateUser, Certificate, LotDrawing, RecountCase, RecountRequestRow
from tests.flows.test_completion_flow import (
    PINE_RIDGE,
    counting_case,
    current,
    harness,
    open_modal,
    select_,
    tally,
    text,
    when,
)
from tests.flows.test_request_flow import admin, decide, decision_forms, enter_request, ready, request_card, tell_after
from tests.support.slack_app import OFFICIAL, OUTSIDER, STAFF, text_of

__all__ = ["harness"]

FLAG = f"<@{OFFICIAL}> is a candidate in this contest (Dana Whitfield)"


def record_dana_as_candidate(harness) -> str:
    admin(harness, f"role <@{OUTSIDER}> official")  # another official, with no stake in Pine Ridge
    return admin(harness, f'candidate <@{OFFICIAL}> "dana whitfield"')


def test_the_roster_records_a_candidate_with_an_audit_row_and_refuses_what_it_cannot_place(harness) -> None:
    ready(harness)
    told = record_dana_as_candidate(harness)
    assert told == (f"<@{OFFICIAL}> is the candidate Dana Whitfield in {PINE_RIDGE}: they are flagged on its cards "
                    "and may not decide, complete or certify its recount. Recorded in the audit log.")
    assert admin(harness, f'candidate <@{OFFICIAL}> "Dana Whitfield"').endswith("already; nothing changed.")
    assert "No candidate “Nobody” in this office's elections" in admin(harness, f'candidate <@{STAFF}> "Nobody"')
    assert f"<@{OFFICIAL}> — Dana Whitfield in {PINE_RIDGE}" in admin(harness, "candidates")
    told = tell_after(harness, lambda: harness.command(f'admin candidate <@{OFFICIAL}> "Sam Okafor"', user=STAFF))
    assert "official" in told  # staff may not keep the roster
    with harness.db.transaction() as s:
        [row] = s.scalars(select(CandidateUser)).all()
        assert row.slack_user_id == OFFICIAL
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "candidate.recorded")).all()
        assert entry.after == {"contest": PINE_RIDGE, "choice": "Dana Whitfield"} and entry.actor == OFFICIAL
    assert admin(harness, f"candidate <@{OFFICIAL}> none").startswith(f"<@{OFFICIAL}> is no longer recorded")
    with harness.db.transaction() as s:
        assert s.scalars(select(CandidateUser)).all() == []


def test_a_candidate_official_may_not_approve_the_request_and_another_official_does(harness) -> None:
    ready(harness)
    record_dana_as_candidate(harness)
    enter_request(harness, user=STAFF)
    card = request_card(harness)
    card_text = text_of(card)
    assert "Conflict of interest" in card_text and FLAG in card_text
    told = tell_after(harness, lambda: harness.click(card, "request.approve", user=OFFICIAL))
    assert told == ("You are a candidate in this contest: someone else must decide its recount request (conflict of "
                    f"interest). <@{OUTSIDER}> may decide it instead.")
    assert not decision_forms(harness)
    assert decide(harness, card, user=OUTSIDER).body in (b"", b"{}")
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        assert (row.status, row.decided_by) == ("approved", OUTSIDER)


def test_a_candidate_official_may_not_complete_or_certify_and_another_official_does(harness) -> None:
    case_id, card = counting_case(harness)
    record_dana_as_candidate(harness)
    tally(harness, case_id, (845, 611), (701, 591))  # the card is refreshed: now it carries the flag
    assert FLAG in text_of(current(harness, card))
    refused = (f"You are a candidate in this contest (Dana Whitfield): you may not complete the recount of "
               f"{PINE_RIDGE}; another official must (conflict of interest). <@{OUTSIDER}> may do it instead.")
    opened = len(harness.slack.calls_to("views.open"))
    assert tell_after(harness, lambda: harness.click(current(harness, card), "case.complete")) == refused
    assert len(harness.slack.calls_to("views.open")) == opened  # no form for her

    # The form submitted without the click (a replay): the service refuses all the same, nothing recorded.
    view = open_modal(harness, card, "case.complete", user=OUTSIDER)
    answer = harness.submit(view, {"complete.actual_cost": text("310")}, user=OFFICIAL).json()
    assert answer["response_action"] == "update" and text_of({"blocks": answer["view"]["blocks"]}).strip() == refused
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None

    assert harness.submit(view, {"complete.actual_cost": text("310")}, user=OUTSIDER).body in (b"", b"{}")
    with harness.db.transaction() as s:
        case = s.get(RecountCase, case_id)
        assert (case.status, case.completed_by) == ("completed", OUTSIDER)
        certificate_id = s.scalar(select(Certificate.id).where(Certificate.case_id == case_id))

    # Certifying: she may not record the delivery of her own certificate, nor make it a new link.
    told = tell_after(harness, lambda: harness.click(current(harness, card), "certificate.delivery",
                                                     value=str(certificate_id)))
    assert told.startswith("You are a candidate in this contest (Dana Whitfield): you may not certify the result of")
    assert told.endswith(f"<@{OUTSIDER}> may do it instead.")
    told = tell_after(harness, lambda: harness.click(current(harness, card), "certificate.new_link",
                                                     value=str(certificate_id)))
    assert "you may not certify the result of" in told
    view = open_modal(harness, card, "certificate.delivery", user=STAFF, value=str(certificate_id))
    harness.submit(view, {"delivery.by": text("Sam Clerk"), "delivery.method": select_("in person"),
                          "delivery.at": when(harness.clock.now)}, user=STAFF)
    with harness.db.transaction() as s:
        assert s.get(Certificate, certificate_id).delivered_by == "Sam Clerk"
    assert FLAG in text_of(current(harness, card))  # flagged on the card after completion too


def test_a_candidate_in_the_tie_may_not_record_the_lot_and_another_official_does(harness) -> None:
    from tests.flows.test_lot_flow import NATARAJAN, REED, completed_cherry_tie, lot_values

    case_id, card = completed_cherry_tie(harness)
    harness.click(current(harness, card), "case.complete")
    admin(harness, f"role <@{OUTSIDER}> official")
    admin(harness, f'candidate <@{OFFICIAL}> "Thomas Reed"')  # the official is one of the tied candidates
    opened = len(harness.slack.calls_to("views.open"))
    told = tell_after(harness, lambda: harness.click(current(harness, card), "case.lot", value=str(case_id)))
    assert told.startswith("You are a candidate in this contest (Thomas Reed): you may not certify the result of")
    assert told.endswith(f"<@{OUTSIDER}> may do it instead.")
    assert len(harness.slack.calls_to("views.open")) == opened  # no form for him

    harness.clock.advance(days=2)
    drawn_at = harness.services.now() - dt.timedelta(hours=1)
    view = open_modal(harness, card, "case.lot", user=OUTSIDER)
    values = lot_values(view, winner=REED, drawn_at=drawn_at,
                        notice_at={REED: drawn_at - dt.timedelta(days=1), NATARAJAN: drawn_at - dt.timedelta(days=1)})
    answer = harness.submit(view, values, user=OFFICIAL).json()  # the form replayed by the candidate
    assert answer["response_action"] == "update"
    assert "You are a candidate in this contest (Thomas Reed)" in text_of({"blocks": answer["view"]["blocks"]})
    with harness.db.transaction() as s:
        assert s.scalars(select(LotDrawing)).all() == []
    assert harness.submit(view, values, user=OUTSIDER).body in (b"", b"{}")
    with harness.db.transaction() as s:
        [drawing] = s.scalars(select(LotDrawing)).all()
        assert drawing.recorded_by == OUTSIDER


def test_an_elector_requester_with_no_role_is_not_flagged_and_a_staff_requester_is(harness) -> None:
    """The flag warns those who could otherwise act on the recount; an elector with no role in the office could
    not, so their request's card carries no conflict-of-interest block."""
    ready(harness)
    enter_request(harness, user=STAFF, party="eligible_elector", name="Ollie Outsider", requester_user=OUTSIDER)
    card = request_card(harness)
    assert "Conflict of interest" not in text_of(card)
    admin(harness, f"role <@{OUTSIDER}> staff")  # now they could be made an approver
    assert decide(harness, card, approve=False, note="Not an elector of the district.").body in (b"", b"{}")
    harness.wait("chat.update")
    shown = text_of(current(harness, card))
    assert "Conflict of interest" in shown and f"<@{OUTSIDER}> is the requester of this recount" in shown
