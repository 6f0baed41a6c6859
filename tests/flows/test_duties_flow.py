"""Nothing owed is forgotten (rules.duties): every duty after a recount's completion — the notice of the results
(6), each certificate of election to deliver (6), the unused deposit to return (2)(f) or the payment to refund
(2)(d), a balance due (2)(c), notices of the recount still owed (1) — is a row in App Home's "Waiting on you", on
the case card and in the daily reminder until it is recorded done; then it is gone from all three.

Through signed requests into the real app, the Web API stand-in and the worker's own reminder tick, on each
database. Setup as in test_completion_flow: Sam Okafor's request in his own favor on Pine Ridge, paid $400."""
from __future__ import annotations

import datetime as dt
import time

from sqlalchemy import select

from bot.worker.loop import Worker, worker_client
from storage.models import AuditEntry, Certificate, RecountCase, Reminder, ReminderStatus
from tests.flows.test_completion_flow import (
    automatic_card,
    complete,
    counting_case,
    current,
    enter,
    harness,
    open_modal,
    select_,
    tally,
    text,
    when,
)
from tests.support.slack_app import OFFICIAL, STAFF, VIEWER, text_of

__all__ = ["harness"]  # the completion tests' harness: its HTTP server on the services' clock

UTC = dt.timezone.utc
OWED = "still owed after the recount's completion"
RESULTS = "Notify Board of Directors of Front Range Special Districts of the results of the recount"
DELIVER = "Deliver the certificate of election to Dana Whitfield"
RETURN = "Return the unused deposit of $90.00 to Sam Okafor"


def home(harness, user: str = OFFICIAL) -> str:
    """App Home's "Waiting on you", as `user` sees it when they open the tab."""
    published = len(harness.slack.calls_to("views.publish"))
    harness.event({"type": "app_home_opened", "user": user, "channel": "D0HOME", "tab": "home",
                   "event_ts": f"{time.time():.6f}"})
    view = harness.wait("views.publish", count=published + 1)[-1].args["view"]
    text = text_of({"blocks": view["blocks"]})
    return text[text.index("Waiting on you"):text.index("Open recount cases")]


def still_owed(harness, card: dict) -> str:
    """The card's "Still owed" part: from its heading to the next part (the notices)."""
    text = text_of(current(harness, card))
    start = text.find("*Still owed*")
    if start < 0:
        return text[text.index("*Nothing is still owed*"):text.index("*Notices owed")]
    return text[start:text.index("*Notices owed")]


def remind(harness, day: dt.date) -> list[str]:
    """The worker's tick at 9:00 in Denver on `day`: the reminders about duties it sent, by DM and in the thread."""
    harness.clock.now = dt.datetime.combine(day, dt.time(16, 0), tzinfo=UTC)  # 9:00 MST
    before = len(harness.slack.calls_to("chat.postMessage"))
    Worker(harness.db, worker_client("xoxb-test-token", harness.slack.base_url), clock=harness.clock,
           worker_id="reminders").tick()
    harness.settle()
    return [c.args["text"] for c in harness.slack.calls_to("chat.postMessage")[before:]
            if OWED in c.args.get("text", "")]


def test_each_duty_after_completion_is_listed_everywhere_until_recorded_done(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (845, 611), (701, 591))
    complete(harness, card, "310")  # confirms the result: $90.00 of the $400.00 deposit goes back (2)(f)

    waiting = home(harness)
    for line in (f"{RESULTS} — case #{case_id} (Pine Ridge Metropolitan District - Director) (C.R.S. 1-13.5-1306(6))",
                 f"{DELIVER} — case #{case_id}", f"{RETURN} — case #{case_id}"):
        assert line in waiting
    assert "(C.R.S. 1-13.5-1306(2)(f))" in waiting
    assert RESULTS in home(harness, STAFF)  # staff record these too
    owed = still_owed(harness, card)
    assert "*Still owed* — 3 items" in owed
    assert f"{DELIVER} _(C.R.S. 1-13.5-1306(6))_" in owed and f"{RETURN} _(C.R.S. 1-13.5-1306(2)(f))_" in owed
    # Nothing the day of completion; the day after at 9:00, one reminder listing all three, by DM and in the thread.
    reminders = remind(harness, dt.date(2026, 11, 7))
    assert len(reminders) == 2  # in the case's thread, and by DM to the official (who also opened the case)
    assert all(RESULTS in r and DELIVER in r and RETURN in r and "1 day since it was completed" in r
               for r in reminders)

    # (6): the notice of the results, recorded from its row on the card.
    given = dt.datetime(2026, 11, 7, 16, 0, tzinfo=UTC)
    view = open_modal(harness, card, "case.results_notice", user=STAFF)
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                          "results.given_at": when(given)}, user=STAFF)
    assert RESULTS not in home(harness) and DELIVER in home(harness)
    assert RESULTS not in still_owed(harness, card) and "*Still owed* — 2 items" in still_owed(harness, card)
    [thread_reminder, *_] = remind(harness, dt.date(2026, 11, 8))
    assert RESULTS not in thread_reminder and DELIVER in thread_reminder and "2 days since" in thread_reminder

    # (6): the certificate delivered.
    with harness.db.transaction() as s:
        certificate_id = s.scalar(select(Certificate.id).where(Certificate.case_id == case_id))
    view = open_modal(harness, card, "certificate.delivery", user=STAFF, value=str(certificate_id))
    harness.submit(view, {"delivery.by": text("Dana Clerk"), "delivery.method": select_("in person"),
                          "delivery.at": when(given)}, user=STAFF)
    assert DELIVER not in home(harness) and DELIVER not in still_owed(harness, card)

    # (2)(f): the unused deposit handed back — a duty that had no record until now, with its own form.
    view = open_modal(harness, card, "case.money_returned", user=STAFF, value=str(case_id))
    assert view["title"]["text"] == "Record money returned" and "$90.00" in text_of({"blocks": view["blocks"]})
    missing = harness.submit(view, {"returned.at": when(given)}, user=STAFF).json()["errors"]
    assert missing == {"returned.by": "Say who returned the money.", "returned.method": "Choose how it was paid back.",
                       "returned.reference": "Give the check or transaction number."}
    early = harness.submit(view, {"returned.by": text("Dana Clerk"), "returned.method": select_("check"),
                                  "returned.reference": text("check 2291"),
                                  "returned.at": when(dt.datetime(2026, 11, 1, 16, 0, tzinfo=UTC))}, user=STAFF)
    assert early.json()["errors"] == {"returned.at": "The money cannot have been returned before the recount was "
                                                     "completed and settled."}
    ok = harness.submit(view, {"returned.by": text("Dana Clerk"), "returned.method": select_("check"),
                               "returned.reference": text("check 2291"), "returned.at": when(given)}, user=STAFF)
    assert ok.body in (b"", b"{}")
    assert ("$90.00 returned to the requester, recorded by <@U0STAFF001>: check, ref. check 2291, by Dana Clerk "
            "(C.R.S. 1-13.5-1306(2)(f))") in text_of(harness.thread(card["ts"])[-1])
    card_text = text_of(current(harness, card))
    assert "returned Sat 2026-11-07 09:00 MST by Dana Clerk (check, ref. check 2291)" in card_text
    assert "*Nothing is still owed*" in card_text and "case.money_returned" not in str(current(harness, card))
    assert f"case #{case_id}" not in home(harness)
    assert remind(harness, dt.date(2026, 11, 9)) == []  # all done: the daily reminder stops
    with harness.db.transaction() as s:
        pending = s.scalars(select(Reminder).where(Reminder.case_id == case_id, Reminder.deadline_name == "duties_owed",
                                                   Reminder.status == ReminderStatus.PENDING.value)).all()
        assert pending == []
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "money.returned")).all()
        assert entry.actor == STAFF and entry.after["citation"] == "C.R.S. 1-13.5-1306(2)(f)"
        assert s.get(RecountCase, case_id).money_returned_by == "Dana Clerk"
    # Recording it again changes nothing.
    harness.submit(view, {"returned.by": text("Someone Else"), "returned.method": select_("cash"),
                          "returned.reference": text("R-9"), "returned.at": when(given)}, user=STAFF)
    with harness.db.transaction() as s:
        assert len(s.scalars(select(AuditEntry).where(AuditEntry.action == "money.returned")).all()) == 1


def test_a_refund_and_a_balance_due_are_owed_until_recorded(harness) -> None:
    case_id, card = counting_case(harness, paid="400.00")
    tally(harness, case_id, (845, 611), (701, 591))
    complete(harness, card, "500")  # the cost exceeds the deposit: $100.00 due from the requester (2)(c)
    balance = "Collect the balance of $100.00 due from Sam Okafor"
    assert f"{balance} — case #{case_id}" in home(harness)
    assert f"{balance} _(C.R.S. 1-13.5-1306(2)(c))_" in still_owed(harness, card)
    assert balance in remind(harness, dt.date(2026, 11, 7))[0]
    view = open_modal(harness, card, "case.balance", user=STAFF, value=str(case_id))
    harness.submit(view, {"balance.amount": text("100.00"), "balance.method": select_("check"),
                          "balance.reference": text("check 1077"), "balance.received_by": text("Dana Clerk")},
                   user=STAFF)
    assert balance not in home(harness) and balance not in still_owed(harness, card)
    assert "Return the unused" not in still_owed(harness, card)  # nothing to return when a balance was due


def test_a_reversal_owes_the_refund(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (600, 611), (590, 702))  # Sam Okafor now leads: reversed in his favor (2)(d)
    complete(harness, card, "400")
    refund = "Refund $400.00 to Sam Okafor"
    assert f"{refund} — case #{case_id}" in home(harness)
    assert f"{refund} _(C.R.S. 1-13.5-1306(2)(d))_" in still_owed(harness, card)
    assert "Deliver the certificate of election to Sam Okafor" in still_owed(harness, card)
    view = open_modal(harness, card, "case.money_returned", user=STAFF, value=str(case_id))
    assert "refund of the payment" in text_of({"blocks": view["blocks"]})
    harness.submit(view, {"returned.by": text("Dana Clerk"), "returned.method": select_("check"),
                          "returned.reference": text("check 2300"),
                          "returned.at": when(harness.clock.now)}, user=STAFF)
    assert refund not in home(harness) and refund not in still_owed(harness, card)


def test_notices_still_owed_after_an_automatic_recount_stay_listed(harness) -> None:
    case_id, card = automatic_card(harness, "Bear Creek Fire Protection District - Ballot Issue 6A",
                                   give_notices=False)
    enter(harness, case_id, {"Precinct 1": {"Yes": 2208, "No": 2190}, "Precinct 2": {"Yes": 2131, "No": 2128}})
    view = open_modal(harness, card, "case.complete")  # owed notices: completed only with a reason (1)
    harness.submit(view, {"complete.notices_reason": text("The board was told at its meeting; letter to follow.")})
    waiting = home(harness)
    # The notice of the recount to the governing body (no issue committee is recorded) was never given.
    assert (f"Record 1 outstanding notice of case #{case_id} (Bear Creek Fire Protection District - Ballot Issue 6A)"
            " (C.R.S. 1-13.5-1306(1))") in waiting
    assert "Notify Board of Directors of Front Range Special Districts of the results" in waiting
    assert "Deliver the certificate" not in waiting  # a ballot question elects no one
    assert "1 notice of the recount not yet given" in still_owed(harness, card)
    [reminder, *_] = remind(harness, dt.date(2026, 11, 7))
    assert f"Record 1 outstanding notice of case #{case_id}" in reminder
    # A viewer records nothing, so nothing waits on them.
    harness.command(f"admin role <@{VIEWER}> viewer")
    assert "Nothing right now." in home(harness, VIEWER)


def test_a_tie_left_to_the_lot_is_owed_until_drawn_and_its_amended_notice_until_sent(harness) -> None:
    from tests.flows.test_lot_flow import NATARAJAN, REED, completed_cherry_tie, lot_values

    case_id, card = completed_cherry_tie(harness)
    harness.click(current(harness, card), "case.complete")
    lot = "Record the drawing of lots among Thomas Reed, Priya Natarajan for the tied seat"
    assert f"{lot} — case #{case_id}" in home(harness) and "(C.R.S. 1-13.5-1304)" in home(harness)
    assert lot in still_owed(harness, card)
    [reminder, *_] = remind(harness, dt.date(2026, 11, 7))
    assert lot in reminder
    view = open_modal(harness, card, "case.results_notice", user=STAFF)  # the first notice, before the lot
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                          "results.given_at": when(harness.services.now())}, user=STAFF)

    harness.clock.advance(days=2)
    drawn_at = harness.services.now() - dt.timedelta(hours=1)
    view = open_modal(harness, card, "case.lot")
    noticed = {REED: drawn_at - dt.timedelta(days=1), NATARAJAN: drawn_at - dt.timedelta(days=1)}
    harness.submit(view, lot_values(view, winner=REED, drawn_at=drawn_at, notice_at=noticed))
    waiting = home(harness)
    assert lot not in waiting and lot not in still_owed(harness, card)
    amended = "the notice of the results amended by the lot"
    assert amended in waiting and amended in still_owed(harness, card)
    assert "Deliver the certificate of election to Thomas Reed" in waiting  # the certificate the lot made

    view = open_modal(harness, card, "case.results_notice", user=STAFF)  # the still-owed row's button
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("letter"),
                          "results.given_at": when(harness.services.now())}, user=STAFF)
    assert amended not in home(harness) and amended not in still_owed(harness, card)
