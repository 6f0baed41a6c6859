"""Money out of range (issue 14, item 10), through signed view submissions on each database: an amount the ledger
cannot hold (`99999999999999999999.99`, or a rate times persons and days beyond the bound) is refused on the field
it was typed in, naming that field, and nothing is recorded; before, the database refused the row and the person
read only "Something went wrong and nothing was saved"."""
from __future__ import annotations

from sqlalchemy import func, select

from services.conduct.money import MAX_AMOUNT
from storage.models import AssistantRow, AuditEntry, LedgerRow, RecountCase
from tests.flows.test_completion_flow import complete, counting_case, tally
from tests.flows.test_conduct_flow import assistant_values, issue_card, open_from
from tests.flows.test_conduct_flow import submit as submit_assistants
from tests.flows.test_requested_case_flow import (
    current,
    determine_cost,
    number,
    open_modal,
    pay,
    requested_card,
    select_,
    text,
    thread_texts,
)

HUGE = "99999999999999999999.99"
TOO_MUCH = "at most $999,999,999.99; an amount this large is surely a typo."


def rows(harness, model, *where) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def test_the_limit_is_a_billion_dollars_less_a_cent() -> None:
    assert str(MAX_AMOUNT) == "999999999.99"


def test_a_payment_out_of_range_is_refused_on_its_field(harness) -> None:
    card = requested_card(harness)
    assert determine_cost(harness, card, {"cost.supplies": text("40")}).body in (b"", b"{}")
    ledger, audit = rows(harness, LedgerRow), rows(harness, AuditEntry)
    for amount in (HUGE, "$1,000,000,000.00"):
        reply = pay(harness, card, amount, "REF-1")
        assert reply.status == 200 and reply.json() == {"response_action": "errors",
                                                        "errors": {"payment.amount": f"Amount: {TOO_MUCH}"}}, amount
    # More digits than a Decimal holds: rules.money refuses it itself, on the same field.
    [(field, message)] = pay(harness, card, "9" * 200, "REF-1").json()["errors"].items()
    assert field == "payment.amount" and message.startswith("Amount: '999") and "is too large" in message
    assert rows(harness, LedgerRow) == ledger and rows(harness, AuditEntry) == audit
    # The largest amount there is goes through, on the same form.
    assert pay(harness, card, "999,999,999.99", "REF-1").body in (b"", b"{}")
    assert "Payment of *$999,999,999.99* recorded" in thread_texts(harness, card)[-1]


def test_cost_items_out_of_range_are_refused_on_the_field_they_came_from(harness) -> None:
    card = requested_card(harness)
    view = open_modal(harness, card, "case.cost")
    reply = harness.submit(view, {"cost.staff_hours": number("8"), "cost.staff_rate": text(HUGE),
                                  "cost.supplies": text(HUGE), "cost.supplies_description": text("seals")},
                           user="U0STAFF001")
    assert reply.json()["errors"] == {"cost.staff_rate": f"Hourly rate: {TOO_MUCH}",
                                      "cost.supplies": f"Supplies: {TOO_MUCH}"}
    # Each rate within bounds, but 10,000 persons for 10,000 days at that rate is not.
    reply = harness.submit(view, {"cost.board_persons": number("10000"), "cost.board_days": number("10000"),
                                  "cost.board_rate": text("999,999,999.99")}, user="U0STAFF001")
    assert reply.json()["errors"] == {"cost.board_persons": f"Canvass board fees: {TOO_MUCH}"}
    # Two items within bounds whose total is not: on the first item's field.
    reply = harness.submit(view, {"cost.supplies": text("999,999,999.99"), "cost.supplies_description": text("x"),
                                  "cost.other_amount": text("1.00"), "cost.other_description": text("y")},
                           user="U0STAFF001")
    assert reply.json()["errors"] == {"cost.supplies": f"The total cost: {TOO_MUCH}"}
    assert rows(harness, LedgerRow) == 0 and rows(harness, AuditEntry, AuditEntry.action == "cost.determined") == 0
    assert harness.submit(view, {"cost.supplies": text("40"), "cost.supplies_description": text("seals")},
                          user="U0STAFF001").body in (b"", b"{}")
    assert rows(harness, LedgerRow) == 1


def test_an_actual_cost_out_of_range_is_refused_on_its_field(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    view, reply = complete(harness, card, HUGE)
    assert reply.json()["errors"] == {"complete.actual_cost": f"Actual cost: {TOO_MUCH}"}
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None
    assert harness.submit(view, {"complete.actual_cost": text("350.00")}).body in (b"", b"{}")
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is not None


def test_a_compensation_out_of_range_is_refused_on_its_field(harness) -> None:
    card = issue_card(harness)
    view = open_from(harness, current(harness, card), "assistants.open")
    reply = submit_assistants(harness, view, assistant_values("Ann Lee", "appointed_1301", "2", HUGE))
    assert reply.json()["errors"] == {"assistant.pay": f"Compensation: {TOO_MUCH}"}
    assert rows(harness, AssistantRow) == 0
    assert submit_assistants(harness, view, assistant_values("Ann Lee", "appointed_1301", "2", "30")).body in (
        b"", b"{}")
    assert rows(harness, AssistantRow) == 1


def test_a_payment_form_shows_the_amount_out_of_range_with_its_other_problems(harness) -> None:
    card = requested_card(harness)
    determine_cost(harness, card, {"cost.supplies": text("40")})
    view = open_modal(harness, card, "case.payment")
    reply = harness.submit(view, {"payment.amount": text(HUGE), "payment.method": select_("check"),
                                  "payment.reference": text(""), "payment.received_by": text("Dana")},
                           user="U0STAFF001")
    assert reply.json()["errors"] == {"payment.amount": f"Amount: {TOO_MUCH}",
                                      "payment.reference": "Give the receipt, check or transaction number."}
    assert rows(harness, LedgerRow) == 1  # the cost only
