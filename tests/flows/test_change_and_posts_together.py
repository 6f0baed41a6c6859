"""A change and the Slack posts that report it are one transaction (issue 6: "the row is written in the same
transaction as the change it reports").

The fault is real and in the database: a trigger makes every insert into the outbox fail, as a full disk or a
lost connection would at that moment. The payment recorded just before must then not stay behind, silent:
the clerk is told nothing was saved, and nothing was. Once the fault is gone the same payment goes through
once, with its card edit and thread post.
"""
from __future__ import annotations

import pytest
from sqlalchemy import text as sql

from storage.models import AuditEntry, LedgerRow
from tests.flows.test_requested_case_flow import (
    count,
    current,
    determine_cost,
    pay,
    record_cost_notice,
    requested_card,
    thread_texts,
)
from tests.support.slack_app import STAFF, text_of

SQLITE_FAULT = ["CREATE TRIGGER outbox_refuses BEFORE INSERT ON outbox "
                "BEGIN SELECT * FROM no_such_table_the_disk_is_full; END"]
SQLITE_CLEAR = ["DROP TRIGGER outbox_refuses"]
PG_FAULT = ["CREATE FUNCTION outbox_refuses() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$ "
            "LANGUAGE plpgsql",
            "CREATE TRIGGER outbox_refuses BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_refuses()"]
PG_CLEAR = ["DROP TRIGGER outbox_refuses ON outbox", "DROP FUNCTION outbox_refuses()"]


def _run(harness, statements: list[str]) -> None:
    with harness.db.engine.begin() as conn:
        for statement in statements:
            conn.execute(sql(statement))


@pytest.fixture
def outbox_fault(harness):
    sqlite = harness.db.dialect == "sqlite"
    state = {"on": False}

    def turn(on: bool) -> None:
        if on != state["on"]:
            _run(harness, (SQLITE_FAULT if sqlite else PG_FAULT) if on else (SQLITE_CLEAR if sqlite else PG_CLEAR))
            state["on"] = on
    try:
        yield turn
    finally:
        turn(False)


def test_a_payment_whose_posts_cannot_be_queued_is_not_recorded_and_the_clerk_is_told(harness, outbox_fault) -> None:
    card = requested_card(harness)
    determine_cost(harness, card)
    record_cost_notice(harness, card)
    before_card = text_of(current(harness, card))
    before_thread = thread_texts(harness, card)

    outbox_fault(True)
    told = len(harness.ephemerals(STAFF))
    pay(harness, card, "$1,000.00", "check 1042")
    outbox_fault(False)

    said = [text_of(m) for m in harness.ephemerals(STAFF)[told:]]
    assert any("Something went wrong and nothing was saved" in s and "Reference:" in s for s in said), said
    assert count(harness, LedgerRow, LedgerRow.kind == "payment") == 0
    assert count(harness, AuditEntry, AuditEntry.action == "payment.recorded") == 0
    assert text_of(current(harness, card)) == before_card and thread_texts(harness, card) == before_thread

    # The same receipt again, with the database well: recorded once, reported once.
    assert pay(harness, card, "$1,000.00", "check 1042").body in (b"", b"{}")
    assert count(harness, LedgerRow, LedgerRow.kind == "payment") == 1
    assert count(harness, AuditEntry, AuditEntry.action == "payment.recorded") == 1
    assert "*Paid* (2)(b)(IV)\n$1,000.00" in text_of(current(harness, card))
    posted = [t for t in thread_texts(harness, card) if "Payment of *$1,000.00* recorded" in t]
    assert len(posted) == 1


def test_a_completion_whose_report_cannot_be_queued_leaves_the_recount_open(harness, outbox_fault) -> None:
    from storage.models import RecountCase
    from tests.flows.test_completion_flow import complete, counting_case, tally
    from tests.support.slack_app import OFFICIAL

    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    thread_before = thread_texts(harness, card)

    outbox_fault(True)
    told = len(harness.ephemerals(OFFICIAL))
    complete(harness, card, "350.00")
    outbox_fault(False)

    said = [text_of(m) for m in harness.ephemerals(OFFICIAL)[told:]]
    assert any("Something went wrong and nothing was saved" in s for s in said), said
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None
    assert count(harness, AuditEntry, AuditEntry.action == "case.completed") == 0
    assert thread_texts(harness, card) == thread_before

    # Completed once the database is well, with its report in the thread.
    complete(harness, card, "350.00")
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is not None
    assert count(harness, AuditEntry, AuditEntry.action == "case.completed") == 1
    assert "*Status*\ncompleted" in text_of(current(harness, card))


def test_a_decision_whose_announcement_cannot_be_queued_is_not_recorded(harness, outbox_fault) -> None:
    from storage.models import RecountCase, RecountRequestRow
    from tests.flows.test_request_flow import buttons, decide, enter_request, ready, request_card
    from tests.support.slack_app import CHANNEL

    ready(harness)
    enter_request(harness)
    card = request_card(harness)

    outbox_fault(True)
    reply = decide(harness, card, note="Timely; requester verified.")
    outbox_fault(False)

    # The modal stays open and says so; the request still awaits a decision and its card keeps its buttons.
    answer = reply.json()
    assert answer["response_action"] == "update"
    assert "Something went wrong and nothing was saved" in text_of({"blocks": answer["view"]["blocks"]})
    assert count(harness, RecountRequestRow, RecountRequestRow.status == "pending") == 1
    assert count(harness, RecountCase) == 0
    assert count(harness, AuditEntry, AuditEntry.action.in_(["request.approved", "case.opened"])) == 0
    assert buttons(harness.slack.state.message(CHANNEL, card["ts"])) == ["request.approve", "request.reject", "request.withdraw"]
    assert harness.thread(card["ts"]) == []

    # Decided again with the database well: one decision, told in order, and one case.
    assert decide(harness, card, note="Timely; requester verified.").body in (b"", b"{}")
    harness.wait("chat.postMessage", count=5)
    thread = [m["text"] for m in harness.thread(card["ts"])]
    assert thread[0].startswith(":white_check_mark: Approved by") and "Recount case #" in thread[1]
    assert count(harness, RecountCase) == 1
    assert count(harness, AuditEntry, AuditEntry.action == "request.approved") == 1
