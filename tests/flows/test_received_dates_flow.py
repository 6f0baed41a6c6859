"""Money recorded after the fact takes the day it was received: a payment before the recount ((2)(b)(IV), (2)(c))
and a balance paid on demand after it ((2)(c)). The form offers today in Colorado; a day after today is refused on
the date field, naming it; the day is stored on the ledger row and shown in the thread, on the card and in the
case record. Through signed requests into the real app.

The harness clock stands at 2026-11-06 16:00 UTC: Friday 2026-11-06 in Colorado."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from services.completion import case_record
from services.office import access
from storage.models import AuditEntry, LedgerRow
from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    buttons,
    complete,
    counting_case,
    current,
    harness,
    open_modal,
    select_,
    tally,
    text,
    thread_texts,
)
from tests.flows.test_requested_case_flow import determine_cost, requested_card
from tests.support.slack_app import OFFICIAL, STAFF, TEAM, text_of

TODAY = dt.date(2026, 11, 6)


def day(value: dt.date) -> dict:
    return {"type": "datepicker", "selected_date": value.isoformat()}


def payment_values(received_on: dt.date | None, reference: str = "check 1042") -> dict:
    values = {"payment.amount": text("250.00"), "payment.method": select_("check"),
              "payment.reference": text(reference), "payment.received_by": text("Dana Whitfield")}
    if received_on is not None:
        values["payment.received_on"] = day(received_on)
    return values


def rows(harness, kind: str) -> list[LedgerRow]:
    with harness.db.transaction() as s:
        return list(s.scalars(select(LedgerRow).where(LedgerRow.kind == kind).order_by(LedgerRow.id)))


def test_a_payment_takes_the_day_it_was_received_never_one_after_today(harness) -> None:
    card = requested_card(harness)
    determine_cost(harness, card)
    view = open_modal(harness, card, "case.payment", user=STAFF)
    [picker] = [b for b in view["blocks"] if b.get("block_id") == "payment.received_on"]
    assert picker["label"]["text"] == "Received on" and picker["optional"] is False
    assert picker["element"] == {"type": "datepicker", "action_id": "payment.received_on",
                                 "initial_date": "2026-11-06", "placeholder": picker["element"]["placeholder"]}

    assert harness.submit(view, payment_values(TODAY + dt.timedelta(days=1)), user=STAFF).json()["errors"] == {
        "payment.received_on": "The payment cannot have been received in the future: Sat 2026-11-07 is after "
                               "today, Fri 2026-11-06 (America/Denver)."}
    assert harness.submit(view, payment_values(dt.date(2026, 11, 4)), user=STAFF).json()["errors"] == {
        "payment.received_on": "The payment cannot have been received on Wed 2026-11-04, before the request was "
                               "(Thu 2026-11-05)."}
    assert rows(harness, "payment") == []

    # Received yesterday, recorded today: the day received is what is kept and shown.
    assert harness.submit(view, payment_values(dt.date(2026, 11, 5)), user=STAFF).body in (b"", b"{}")
    [row] = rows(harness, "payment")
    assert row.details["received_on"] == "2026-11-05"
    assert "received by Dana Whitfield on Thu 2026-11-05 (C.R.S. 1-13.5-1306(2)(c))" in thread_texts(harness, card)[-1]
    assert "received by Dana Whitfield on 2026-11-05" in text_of(current(harness, card))
    with harness.db.transaction() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "payment.recorded")).all()
        assert entry.after["received_on"] == "2026-11-05"
    record = case_record.build_case_record(harness.services, case_id=row.case_id)
    assert [line["received_on"] for line in record["money"]["ledger"] if line["kind"] == "payment"] == ["2026-11-05"]

    # Left as the form offers it (Slack sends the picker's day), it is today.
    view = open_modal(harness, card, "case.payment", user=STAFF)
    values = payment_values(None, "receipt R-7")
    values["payment.received_on"] = day(TODAY)
    assert harness.submit(view, values, user=STAFF).body in (b"", b"{}")
    assert [r.details["received_on"] for r in rows(harness, "payment")] == ["2026-11-05", "2026-11-06"]


def test_a_balance_paid_after_the_recount_takes_the_day_it_was_received(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (845, 611), (702, 590))
    complete(harness, card, "455.50")
    view = open_modal(harness, card, "case.balance", user=STAFF)
    [picker] = [b for b in view["blocks"] if b.get("block_id") == "balance.received_on"]
    assert picker["element"]["initial_date"] == "2026-11-06"
    values = {"balance.amount": text("55.50"), "balance.method": select_("check"),
              "balance.reference": text("check 1077"), "balance.received_by": text("Dana Clerk"),
              "balance.received_on": day(TODAY + dt.timedelta(days=3))}
    assert harness.submit(view, values, user=STAFF).json()["errors"] == {
        "balance.received_on": "The payment cannot have been received in the future: Mon 2026-11-09 is after today, "
                               "Fri 2026-11-06 (America/Denver)."}
    assert rows(harness, "balance_collected") == []
    values["balance.received_on"] = day(dt.date(2026, 11, 5))
    assert "before the recount was completed" in harness.submit(view, values, user=STAFF).json()["errors"][
        "balance.received_on"]
    values["balance.received_on"] = day(TODAY)
    assert harness.submit(view, values, user=STAFF).body in (b"", b"{}")
    [row] = rows(harness, "balance_collected")
    assert row.details["received_on"] == "2026-11-06"
    assert "received by Dana Clerk on Fri 2026-11-06 (C.R.S. 1-13.5-1306(2)(c))" in thread_texts(harness, card)[-1]
    assert "case.balance" not in buttons(current(harness, card))
    assert access.resolve_member(harness.services, TEAM, OFFICIAL) is not None
    assert Decimal(row.amount) == Decimal("55.50")
