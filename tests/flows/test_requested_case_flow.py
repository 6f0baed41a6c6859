"""A requested recount (1306(2)) from its card, end to end through signed requests: the cost determined item by
item (2)(b)(II), the notice of it ready to send and recorded (2)(b)(III), payments (2)(b)(IV), (2)(c), the
(2)(b) list guarding the start of counting, the canvass date fixing (2)(e)'s deadline; and an automatic
recount's start (1).

Setup goes through the service seam (the request and its approval, as an official would through the other
screens); everything tested goes through the real app as Slack would send it.
"""
from __future__ import annotations

import datetime as dt
import threading
from decimal import Decimal

from sqlalchemy import func, select

from handlers.cards import post_case_card
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from storage.models import AuditEntry, CaseDeadline, Contest, CostNotice, LedgerRow, RecountCase
from tests.flows.conftest import load_example
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM, VIEWER, text_of

PINE_RIDGE = "Pine Ridge Metropolitan District - Director"  # outside the margin: 1,547 to 1,201
BEAR_CREEK = "Bear Creek Fire Protection District - Ballot Issue 6A"  # inside: automatic under (1)
NOTIFIED_AT = int(dt.datetime(2026, 11, 6, 15, 0, tzinfo=dt.timezone.utc).timestamp())


# ---------------------------------------------------------------- setup through the services
def requested_card(harness, *, name: str = "Sam Okafor",
                   contact: str = "sam@example.org\n12 Aspen Way, Pine Ridge CO", party: str = "candidate") -> dict:
    """The example election, a request by Sam Okafor on Pine Ridge approved by the official, its case card."""
    load_example(harness)
    services = harness.services
    access.bootstrap_official(services, TEAM, OFFICIAL, reason="test")
    access.set_role(services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL, user_id=STAFF,
                    role=access.Role.STAFF)
    with services.db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == PINE_RIDGE))
    request = request_entry.submit_request(services, team_id=TEAM, actor=STAFF, settings=OfficeSettings(),
                                           data=request_entry.RequestInput(
                                               contest_id=contest_id, requester_name=name, requester_contact=contact,
                                               party_kind=party, in_favor_of="Sam Okafor",
                                               received_on=dt.date(2026, 11, 5), received_reference="REQ-2026-01"))
    decided = request_decision.decide_request(services, team_id=TEAM, request_id=request.id, actor=OFFICIAL,
                                              approve=True, note="Timely; a candidate.", settings=OfficeSettings())
    post_case_card(harness.app.client, services, decided.case_id, channel_id=CHANNEL, actor=OFFICIAL)
    [card] = [m for m in harness.posted() if m["text"].startswith("Requested recount")]
    return card


# ---------------------------------------------------------------- reading what the bot did
def current(harness, card: dict) -> dict:
    return harness.slack.state.message(CHANNEL, card["ts"])


def buttons(message: dict) -> list[str]:
    return [e["action_id"] for b in message.get("blocks", []) if b["type"] == "actions" for e in b["elements"]]


def thread_texts(harness, card: dict) -> list[str]:
    return [text_of(m) for m in harness.thread(card["ts"])]


def count(harness, model, *where) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


# ---------------------------------------------------------------- what a clerk does
def open_modal(harness, card: dict, action_id: str, *, user: str = STAFF) -> dict:
    opened = len(harness.slack.calls_to("views.open"))
    assert harness.click(current(harness, card), action_id, user=user).status == 200
    harness.wait("views.open", count=opened + 1)
    return harness.open_view(user)


def text(value: str) -> dict:
    return {"type": "plain_text_input", "value": value}


def number(value: str) -> dict:
    return {"type": "number_input", "value": value}


def select_(value: str) -> dict:
    return {"type": "static_select", "selected_option": {"value": value}}


ITEMISED = {
    "cost.staff_hours": number("10.5"), "cost.staff_rate": text("$32.50"),
    "cost.staff_description": text("two election clerks"),
    # three board members for two days; one sits on the governing body and is paid nothing
    "cost.board_persons": number("3"), "cost.board_days": number("2"), "cost.board_rate": text("15"),
    "cost.board_gb_members": number("1"), "cost.board_gb_rate": text("0"),
    "cost.assistants_persons": number("2"), "cost.assistants_days": number("1"),
    "cost.assistants_rate": text("20.00"),
    "cost.supplies": text("12.34"), "cost.supplies_description": text("tally sheets"),
    "cost.other_amount": text("1,025.00"), "cost.other_description": text("ballot transport & storage"),
}
# 10.5 h × $32.50 = $341.25; 2 × 2 × $15.00 = $60.00; 1 × 2 × $0.00; 2 × 1 × $20.00 = $40.00; $12.34; $1,025.00
TOTAL = Decimal("1478.59")


def determine_cost(harness, card: dict, values: dict | None = None, *, user: str = STAFF):
    view = open_modal(harness, card, "case.cost", user=user)
    assert view["callback_id"] == "case.cost" and view["title"]["text"] == "Determine cost"
    return harness.submit(view, values or ITEMISED, user=user)


def notice_values(method="email", at=NOTIFIED_AT, by="Dana Whitfield", details="sent to sam@example.org"):
    return {"cost.notice_method": select_(method), "cost.notice_at": {"type": "datetimepicker",
                                                                      "selected_date_time": at},
            "cost.notice_by": text(by), "cost.notice_details": text(details)}


def record_cost_notice(harness, card: dict, values: dict | None = None, *, user: str = STAFF):
    view = open_modal(harness, card, "case.cost_notice", user=user)
    return harness.submit(view, values or notice_values(), user=user)


def pay(harness, card: dict, amount: str, reference: str, *, method="check", received_by="Dana Whitfield",
        user: str = STAFF):
    view = open_modal(harness, card, "case.payment", user=user)
    return harness.submit(view, {"payment.amount": text(amount), "payment.method": select_(method),
                                 "payment.reference": text(reference), "payment.received_by": text(received_by)},
                          user=user)


def give_all_notices(harness, card: dict) -> None:
    """(2)(b)(I): the notices of the recount owed under (1), each recorded from its button on the card."""
    values = {"notice.given_by": text("Dana Whitfield"), "notice.method": select_("email"),
              "notice.given_at": {"type": "datetimepicker", "selected_date_time": NOTIFIED_AT},
              "notice.details": text("by email")}
    while "notice.record" in buttons_and_accessories(current(harness, card)):
        view = open_modal(harness, card, "notice.record")
        assert harness.submit(view, values, user=STAFF).status == 200


def buttons_and_accessories(message: dict) -> list[str]:
    found = buttons(message)
    found += [b["accessory"]["action_id"] for b in message.get("blocks", []) if b.get("accessory", {}).get("action_id")]
    return found


# ================================================================ (2)(b)(II): the cost
def test_determining_the_cost_item_by_item_edits_the_card_and_posts_the_cost_and_its_notice(harness) -> None:
    card = requested_card(harness)
    assert buttons(card) == ["case.cost", "case.start_counting"]  # a notice and a payment follow a cost
    reply = determine_cost(harness, card)
    assert reply.status == 200 and reply.body in (b"", b"{}")  # the modal closes

    card_text = text_of(current(harness, card))
    assert "*Cost determined* (2)(b)(II)\n$1,478.59" in card_text
    assert "*Due*\n*$1,478.59*" in card_text and "*Paid* (2)(b)(IV)\n$0.00" in card_text
    assert buttons(current(harness, card)) == ["case.cost", "case.cost_notice", "case.payment", "case.start_counting"]

    cost, letter = thread_texts(harness, card)
    assert "Cost of the recount determined: $1,478.59" in cost and "C.R.S. 1-13.5-1306(2)(b)(II)" in cost
    for line in ("Staff time — two election clerks: 10.5 h × $32.50 = $341.25",
                 "Canvass board fees — not members of the governing body: 2 × 2 day(s) × $15.00 = $60.00",
                 "Canvass board fees — members of the governing body: 1 × 2 day(s) × $0.00 = $0.00",
                 "Assistants' fees: 2 × 1 day(s) × $20.00 = $40.00",
                 "Supplies — tally sheets: $12.34", "Other — ballot transport &amp; storage: $1,025.00"):
        assert line in cost, line
        assert line in letter, line  # the letter lists the same items
    # The notice of cost, ready to send: to the requester, itemised, with what the statute makes their business.
    assert "*Notice of cost, ready to send* to Sam Okafor (sam@example.org, 12 Aspen Way, Pine Ridge CO)" in letter
    assert "```" in letter and "To: Sam Okafor\n    sam@example.org\n    12 Aspen Way, Pine Ridge CO" in letter
    assert "Total cost of the recount: $1,478.59" in letter
    for citation, words in (("(2)(a)", "at the expense of the interested party"),
                            ("(2)(c)", "pay this cost on demand"),
                            ("(2)(c)", "held and used for payment of all expenses"),
                            ("(2)(b)(IV)", "will not begin until the cost has been collected"),
                            ("(2)(d)", "refunded to you"), ("(2)(f)", "unused portion will be returned"),
                            ("(2)(e)", "twenty-eighth day after the canvass"), ("(2)(b)(III)", "notify you")):
        assert f"C.R.S. 1-13.5-1306{citation}" in letter and words in letter, (citation, words)
    assert "Wednesday, December 2, 2026 (an estimate until the canvass date is entered" in letter
    assert "Dana Whitfield\nDesignated Election Official\nFront Range Special Districts" not in letter  # staff acted
    assert "[name]\nDesignated Election Official\nFront Range Special Districts" in letter

    with harness.db.transaction() as s:
        [row] = s.scalars(select(LedgerRow)).all()
        assert (row.kind, row.amount) == ("cost_determined", TOTAL)
        assert [i["amount"] for i in row.details["items"]] == ["341.25", "60.00", "0.00", "40.00", "12.34", "1025.00"]
    assert count(harness, AuditEntry, AuditEntry.action == "cost.determined") == 1


def test_a_long_letter_is_split_within_slacks_limits_and_keeps_every_word(harness) -> None:
    name = "Friends of the Pine Ridge <Open> Water & Parks Committee " * 5
    card = requested_card(harness, name=name.strip(),
                          contact=("Suite 100 & Co, 1 Long Road, Pine Ridge CO\n" * 11)[:500],
                          party="eligible_elector")
    long_values = {**ITEMISED, "cost.staff_description": text("&" * 200), "cost.supplies_description": text("<" * 200),
                   "cost.other_description": text("x" * 200)}
    assert determine_cost(harness, card, long_values).body in (b"", b"{}")
    [letter] = harness.thread(card["ts"])[1:]
    pieces = [b["text"]["text"] for b in letter["blocks"]
              if b["type"] == "section" and b["text"]["text"].startswith("```")]
    assert len(pieces) >= 2 and all(len(p) <= 3000 for p in pieces)
    joined = "\n\n".join(p.removeprefix("```\n").removesuffix("\n```") for p in pieces)
    assert "&amp;" * 200 in joined and "&lt;" * 200 in joined and "Front Range Special Districts" in joined
    assert f"The letter is in {len(pieces)} parts above" in text_of(letter)


def test_the_letter_is_signed_by_the_official_who_determined_the_cost(harness) -> None:
    card = requested_card(harness)
    determine_cost(harness, card, {"cost.supplies": text("40")}, user=OFFICIAL)
    letter = thread_texts(harness, card)[-1]
    assert "Dana Whitfield\nDesignated Election Official\nFront Range Special Districts" in letter
    # Redetermining starts from the items determined last.
    view = open_modal(harness, card, "case.cost", user=OFFICIAL)
    [supplies] = [b for b in view["blocks"] if b.get("block_id") == "cost.supplies"]
    assert supplies["element"]["initial_value"] == "40.00"
    assert "Determined now: *$40.00*" in text_of({"blocks": view["blocks"]})


def test_a_fee_under_the_floor_or_a_bad_amount_is_refused_on_its_field_and_nothing_is_recorded(harness) -> None:
    card = requested_card(harness)
    under = {"cost.board_persons": number("3"), "cost.board_days": number("1"), "cost.board_rate": text("12"),
             "cost.board_gb_members": number("1"),
             "cost.assistants_persons": number("2"), "cost.assistants_days": number("1"),
             "cost.assistants_rate": text("$14.99")}
    errors = determine_cost(harness, card, under).json()["errors"]
    assert set(errors) == {"cost.board_rate", "cost.assistants_rate"}
    assert "$12.00 a day is below the $15.00 a day that C.R.S. 1-13.5-1301(4) requires" in errors["cost.board_rate"]
    assert "C.R.S. 1-13.5-1301(4)" in errors["cost.assistants_rate"]
    assert "applied to assistants by C.R.S. 1-13.5-1306(3)" in errors["cost.assistants_rate"]

    view = harness.open_view(STAFF)  # the modal stays open with the errors; fix one, break another
    bad = {"cost.staff_hours": number("8"), "cost.staff_rate": text("12.345"),
           "cost.other_amount": text("abc"), "cost.supplies_description": text("seals")}
    errors = harness.submit(view, bad, user=STAFF).json()["errors"]
    assert errors == {
        "cost.staff_rate": "Hourly rate: '12.345' has more than two decimal places",
        "cost.other_amount": "Other amount: 'abc' is not an amount of money (write it like 1234.50 or $1,234.50)",
        "cost.other_description": "Say what this amount is for.",
        "cost.supplies": "Enter the amount for supplies, or clear what they are.",
    }
    assert harness.submit(view, {}, user=STAFF).json()["errors"] == {
        "cost.staff_hours": "Enter at least one item of the cost."}
    # Only governing-body members: no floor.
    members = {"cost.board_persons": number("2"), "cost.board_days": number("1"), "cost.board_rate": text("5"),
               "cost.board_gb_members": number("2")}
    assert count(harness, LedgerRow) == 0 and count(harness, AuditEntry, AuditEntry.action == "cost.determined") == 0
    assert harness.submit(view, members, user=STAFF).body in (b"", b"{}")
    assert "Canvass board fees: 2 × 1 day(s) × $5.00 = $10.00" in thread_texts(harness, card)[0]


def test_a_viewer_cannot_open_the_cost_form(harness) -> None:
    card = requested_card(harness)
    access.set_role(harness.services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL, user_id=VIEWER,
                    role=access.Role.VIEWER)
    harness.click(card, "case.cost", user=VIEWER)
    assert "You need the staff role" in harness.wait("response_url")[-1].args["text"]
    assert harness.slack.calls_to("views.open") == []


# ================================================================ (2)(b)(III): the notice of the cost
def test_recording_the_cost_notice_once_and_refusing_a_second_of_the_same_cost(harness) -> None:
    card = requested_card(harness)
    determine_cost(harness, card)
    second = open_modal(harness, card, "case.cost_notice", user=OFFICIAL)  # a colleague opens it too
    reply = record_cost_notice(harness, card)
    assert reply.status == 200 and reply.body in (b"", b"{}")
    card_text = text_of(current(harness, card))
    assert "*Requester notified* (2)(b)(III)\n$1,478.59 by email, Fri 2026-11-06 08:00 MST" in card_text
    assert "case.cost_notice" not in buttons(current(harness, card))
    recorded = thread_texts(harness, card)[-1]
    assert "Notice of the cost, *$1,478.59*, to the requester recorded" in recorded
    assert "sent by Dana Whitfield by email, Fri 2026-11-06 08:00 MST (C.R.S. 1-13.5-1306(2)(b)(III))" in recorded
    assert "$1,478.59 is now due from the requester on demand (C.R.S. 1-13.5-1306(2)(c))" in recorded

    errors = harness.submit(second, notice_values(method="letter", by="Sam Okafor"), user=OFFICIAL).json()["errors"]
    assert errors == {"cost.notice_at": "The requester was already notified of $1,478.59: Fri 2026-11-06 08:00 MST "
                                        "by Dana Whitfield (email)."}
    assert count(harness, CostNotice) == 1 and count(harness, AuditEntry, AuditEntry.action == "cost.notified") == 1


def test_a_cost_notice_in_the_future_or_before_the_request_is_refused_on_its_field(harness) -> None:
    card = requested_card(harness)
    determine_cost(harness, card)
    view = open_modal(harness, card, "case.cost_notice")
    future = int(dt.datetime(2026, 11, 7, tzinfo=dt.timezone.utc).timestamp())
    assert harness.submit(view, notice_values(at=future), user=STAFF).json()["errors"] == {
        "cost.notice_at": "The requester cannot have been notified in the future."}
    before = int(dt.datetime(2026, 11, 4, 18, 0, tzinfo=dt.timezone.utc).timestamp())
    assert harness.submit(view, notice_values(at=before), user=STAFF).json()["errors"] == {
        "cost.notice_at": "The requester cannot have been notified of the cost before the request was received "
                          "(Thu 2026-11-05)."}
    missing = {"cost.notice_at": {"type": "datetimepicker", "selected_date_time": NOTIFIED_AT}}
    assert harness.submit(view, missing, user=STAFF).json()["errors"] == {
        "cost.notice_method": "Choose how the requester was notified.",
        "cost.notice_by": "Say who notified the requester."}
    assert count(harness, CostNotice) == 0


# ================================================================ (2)(b)(IV), (2)(c): payments and the start
def test_counting_waits_for_all_four_steps_then_starts_once(harness) -> None:
    card = requested_card(harness)
    harness.click(card, "case.start_counting", user=STAFF)
    refused = harness.wait("response_url")[-1].args["text"]
    assert "Counting cannot start yet" in refused and "4 of 4 are not done" in refused
    for item in ("(2)(b)(I)", "(2)(b)(II)", "(2)(b)(III)", "(2)(b)(IV)"):
        assert f"*{item}*" in refused and f"C.R.S. 1-13.5-1306{item}" in refused

    determine_cost(harness, card)
    record_cost_notice(harness, card)
    # A payment short of the cost: a balance due, counting still blocked.
    assert pay(harness, card, "$1,000.00", "check 1042").body in (b"", b"{}")
    card_text = text_of(current(harness, card))
    assert "*Paid* (2)(b)(IV)\n$1,000.00" in card_text and "*Due*\n*$478.59*" in card_text
    assert "*Held for expenses* (2)(c)\n$1,000.00" in card_text
    assert "Payments: $1,000.00 by check, ref. check 1042, received by Dana Whitfield on 2026-11-06" in card_text
    paid = thread_texts(harness, card)[-1]
    assert "Payment of *$1,000.00* recorded" in paid and "*$478.59 still due*" in paid
    answered = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "case.start_counting", user=STAFF)
    refused = harness.wait("response_url", count=answered + 1)[-1].args["text"]
    assert "collect the cost: collected $1,000.00 of $1,478.59 — C.R.S. 1-13.5-1306(2)(b)(IV)" in refused
    assert "*(2)(b)(I)*" in refused and "(2)(b)(II)*" not in refused and "2 of 4 are not done" in refused

    # The same receipt twice is refused on its field; the balance and a little more complete it.
    view = open_modal(harness, card, "case.payment")
    assert harness.submit(view, {"payment.amount": text("478.59"), "payment.method": select_("check"),
                                 "payment.reference": text("check 1042"),
                                 "payment.received_by": text("Dana Whitfield")}, user=STAFF).json()["errors"] == {
        "payment.reference": "A payment with reference check 1042 is already recorded for this recount."}
    assert harness.submit(view, {"payment.amount": text("500"), "payment.method": select_("cash"),
                                 "payment.reference": text("receipt R-7"),
                                 "payment.received_by": text("Dana Whitfield")}, user=STAFF).body in (b"", b"{}")
    card_text = text_of(current(harness, card))
    assert "*Paid* (2)(b)(IV)\n$1,500.00\n$21.41 more than the cost" in card_text
    assert "*Due*\n$0.00" in card_text and "*Held for expenses* (2)(c)\n$1,500.00" in card_text
    paid = thread_texts(harness, card)[-1]
    assert "the cost is collected (C.R.S. 1-13.5-1306(2)(b)(IV))" in paid
    assert "$21.41 more than the cost is held with it (C.R.S. 1-13.5-1306(2)(c))" in paid
    assert "Still to do before counting: (2)(b)(I) give notice of the recount" in paid
    assert count(harness, AuditEntry, AuditEntry.action == "payment.recorded") == 2

    # (I) is still missing: refused, and only (I).
    answered = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "case.start_counting", user=STAFF)
    refused = harness.wait("response_url", count=answered + 1)[-1].args["text"]
    assert "1 of 4 is not done" in refused and "*(2)(b)(I)*" in refused and "(2)(b)(IV)" not in refused
    assert count(harness, RecountCase, RecountCase.counting_started_at.is_not(None)) == 0

    give_all_notices(harness, card)
    # Two people press Start at once: recorded once, the other is told it had started.
    stale = current(harness, card)
    answered = len(harness.slack.calls_to("response_url"))
    threads = [threading.Thread(target=harness.click, args=(stale, "case.start_counting"), kwargs={"user": user})
               for user in (STAFF, OFFICIAL)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    [second] = harness.wait("response_url", count=answered + 1)[answered:]
    assert "Counting had already started: Fri 2026-11-06 09:00 MST, by <@" in second.args["text"]
    assert count(harness, AuditEntry, AuditEntry.action == "counting.started") == 1

    started = current(harness, card)
    assert buttons(started) == []  # no more buttons once counting began
    started_text = text_of(started)
    assert "*Status*\ncounting" in started_text and "*Counting began* Fri 2026-11-06 09:00 MST" in started_text
    began = thread_texts(harness, card)[-1]
    assert "*Counting began* Fri 2026-11-06 09:00 MST" in began
    assert "cost $1,478.59 determined and notified, $1,500.00 collected" in began
    assert "Complete no later than *Wed 2026-12-02* (estimate) (C.R.S. 1-13.5-1306(2)(e))" in began

    # A stale card's buttons change nothing now.
    answered = len(harness.slack.calls_to("response_url"))
    harness.click(stale, "case.payment", user=STAFF)
    assert "the cost determined before the recount" in harness.wait("response_url", count=answered + 1)[-1].args["text"]


# ================================================================ the canvass date, (2)(e)
def test_entering_the_canvass_date_moves_the_requested_deadline_and_says_so_in_the_thread(harness) -> None:
    card = requested_card(harness)
    # Until the canvass date is entered: the earliest possible deadline (a canvass Wed 11-04 + 28 = Wed 12-02).
    assert "*Wed 2026-12-02* (estimate)" in text_of(card)
    harness.command("canvass 2026-11-09", user=STAFF)
    assert "You need the official role" in harness.wait("response_url")[-1].args["text"]
    harness.command("canvass 2026-11-09")
    assert "cannot be in the future" in harness.wait("response_url", count=2)[-1].args["text"]
    harness.command("canvass 9 Nov")
    assert "write the canvass date as YYYY-MM-DD" in harness.wait("response_url", count=3)[-1].args["text"]
    assert count(harness, AuditEntry, AuditEntry.action == "election.canvass_date_set") == 0

    harness.clock.advance(days=4)  # Tue 2026-11-10
    harness.command("canvass 2026-11-09")
    summary = harness.wait("response_url", count=4)[-1].args["text"]
    assert "was entered as *Mon 2026-11-09*" in summary
    assert f"{PINE_RIDGE} (case #" in summary and "moved from Wed 2026-12-02 (estimate) to Mon 2026-12-07" in summary
    card_text = text_of(current(harness, card))
    assert "*Mon 2026-12-07*\nC.R.S. 1-13.5-1306(2)(e)" in card_text and "(estimate)" not in card_text
    moved = thread_texts(harness, card)[-1]
    assert "The canvass of Regular Special District Election was entered as *Mon 2026-11-09*" in moved
    assert "deadline moved from Wed 2026-12-02 (estimate) to *Mon 2026-12-07*: 28 days after canvassing " \
           "(C.R.S. 1-13.5-1306(2)(e))" in moved
    with harness.db.transaction() as s:
        deadline = s.scalars(select(CaseDeadline).where(CaseDeadline.name == "requested_recount_deadline")).one()
        assert (deadline.due_date, deadline.estimated) == (dt.date(2026, 12, 7), False)
    assert count(harness, AuditEntry, AuditEntry.action == "deadline.moved") == 1
    harness.command("canvass 2026-11-09")  # the same date again changes nothing
    assert "already entered as Mon 2026-11-09; nothing changed" in harness.wait("response_url", count=5)[-1].args["text"]
    assert count(harness, AuditEntry, AuditEntry.action == "election.canvass_date_set") == 1


def test_the_canvass_form_refuses_a_date_on_its_field_then_corrects_the_date(harness) -> None:
    card = requested_card(harness)
    harness.clock.advance(days=4)
    harness.command("canvass 2026-11-09")
    harness.wait("response_url")
    assert harness.command("canvass").status == 200
    harness.wait("views.open")
    view = harness.open_view()
    assert view["callback_id"] == "election.canvass"
    [picker] = [b for b in view["blocks"] if b.get("block_id") == "canvass.date"]
    assert picker["element"]["initial_date"] == "2026-11-09"
    on_election_day = {"canvass.date": {"type": "datepicker", "selected_date": "2026-11-03"}}
    assert harness.submit(view, on_election_day).json()["errors"] == {
        "canvass.date": "The canvass follows the election of 2026-11-03; 2026-11-03 cannot be its date."}
    corrected = {"canvass.date": {"type": "datepicker", "selected_date": "2026-11-10"}}
    assert harness.submit(view, corrected).body in (b"", b"{}")
    moved = thread_texts(harness, card)[-1]
    assert "corrected from Mon 2026-11-09 to *Tue 2026-11-10*" in moved
    assert "moved from Mon 2026-12-07 to *Tue 2026-12-08*" in moved
    [told_in_channel] = harness.wait("chat.postEphemeral")
    assert told_in_channel.args["channel"] == CHANNEL and "Tue 2026-12-08" in told_in_channel.args["text"]
    assert "*Tue 2026-12-08*" in text_of(current(harness, card))


# ================================================================ an automatic recount, (1)
def test_an_automatic_recount_starts_from_its_card_without_a_checklist_and_only_once(harness) -> None:
    load_example(harness)
    harness.command("check")
    harness.wait("chat.postMessage", count=3)
    [card] = [m for m in harness.posted() if m["text"].startswith("Automatic recount") and "6A" in m["text"]]
    confirm = next(e for b in card["blocks"] if b["type"] == "actions" for e in b["elements"]
                   if e["action_id"] == "case.start_counting")["confirm"]
    assert "the governing body pays (C.R.S. 1-13.5-1306(1))" in confirm["text"]["text"]
    assert "1 notice below is not yet recorded" in confirm["text"]["text"]

    threads = [threading.Thread(target=harness.click, args=(card, "case.start_counting")) for _ in range(2)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    [again] = harness.wait("response_url")
    assert "Counting had already started" in again.args["text"]
    assert count(harness, AuditEntry, AuditEntry.action == "counting.started") == 1
    started = current(harness, card)
    assert "case.start_counting" not in buttons(started)
    assert "*Status*\ncounting" in text_of(started) and "*Counting began* Fri 2026-11-06 09:00 MST" in text_of(started)
    began = thread_texts(harness, card)[-1]
    assert "Ordered by the designated election official; the governing body pays (C.R.S. 1-13.5-1306(1))" in began
    assert "1 notice(s) of the recount owed under C.R.S. 1-13.5-1306(1) are not recorded" in began
    assert "Complete no later than *Tue 2026-12-01*" in began
