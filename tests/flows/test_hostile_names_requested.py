"""Issue 14, item 1, continued (tests/flows/test_hostile_names.py has the rule and the other flows): a requested
recount whose every field — the requester, the contact, the reference, the decision's note, the cost's
descriptions, who notified and who received the payment, the balance, the official's Slack profile name that
signs the letters — is hostile, from the request to the balance collected; then the worker's reminders about
hostile contests and elections. Every Web API call is walked for a control sequence the bot did not make."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from bot.worker.loop import Worker, worker_client
from handlers.cards import post_case_card
from rules.cost import CostItem, CostItemKind
from services.conduct import money as case_money
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from storage.models import Contest, RecountCase
from tests.flows.hostile_support import (
    APPROVALS,
    CHOICES,
    MALLORY,
    METRO,
    UNITS,
    enter_sheet,
    hostile,
    hostile_office,
    walk_everything,
)
from tests.flows.test_completion_flow import complete
from tests.flows.test_completion_flow import open_modal as open_on_card
from tests.flows.test_conduct_flow import set_up
from tests.flows.test_request_flow import decide, enter_request, request_card
from tests.flows.test_requested_case_flow import (
    NOTIFIED_AT,
    current,
    notice_values,
    open_modal,
    pay,
    record_cost_notice,
    select_,
    text,
)
from tests.support.assistants import record_an_assistant
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM

REQUESTER = hostile("Requester", 300)
REQUEST = dict(contest=METRO, name=REQUESTER, contact=hostile("Contact", 500), party="candidate",
               in_favor_of=CHOICES[METRO][1], reference=hostile("Ref", 300))


def case_card(harness) -> dict:
    return next(m for m in harness.posted() if m["text"].startswith("Requested recount"))


def test_a_requested_recount_from_its_request_to_its_balance(harness) -> None:
    hostile_office(harness)
    harness.command(f"admin approver <@{STAFF}> on")
    # The request, listed, rejected with a hostile note; entered again, approved by the hostile-named official.
    enter_request(harness, **REQUEST)
    harness.command("requests")
    decide(harness, request_card(harness), approve=False, note=hostile("No", 2000))
    enter_request(harness, **REQUEST)
    card = [m for m in harness.posted() if m["text"].startswith("Recount request:")][-1]
    decide(harness, card, note=hostile("Timely", 2000), user=MALLORY)
    harness.click(card, "request.approve", user=OFFICIAL)  # decided already: told who decided
    card = case_card(harness)

    # The cost, item by item with hostile descriptions, determined by the official whose profile name is hostile.
    costs = {"cost.other_amount": text("100.00"), "cost.other_description": text(hostile("Transport", 200)),
             "cost.supplies": text("0"), "cost.supplies_description": text(hostile("Sheets", 200))}
    harness.submit(open_modal(harness, card, "case.cost", user=MALLORY), costs, user=MALLORY)
    before = current(harness, card)
    record_cost_notice(harness, card, notice_values(by=hostile("Notifier", 200), details=hostile("Mailed", 1000)))
    harness.click(before, "case.cost_notice", user=STAFF)  # notified already: told who notified, escaped
    pay(harness, card, "100.00", hostile("Check", 100), received_by=hostile("Cashier", 200))
    pay(harness, card, "1.00", hostile("Check", 100), received_by=hostile("Cashier", 200))  # the same reference
    values = {"notice.given_by": text(hostile("Clerk", 200)), "notice.method": select_("email"),
              "notice.given_at": {"type": "datetimepicker", "selected_date_time": NOTIFIED_AT},
              "notice.details": text(hostile("by mail", 1000))}
    while any((b.get("accessory") or {}).get("action_id") == "notice.record" for b in current(harness, card)["blocks"]):
        harness.submit(open_modal(harness, card, "notice.record"), values, user=STAFF)

    # The canvass date from its form, counting, a tally on paper by unit, completion with a balance due, the balance.
    harness.clock.advance(days=4)
    opened = len(harness.slack.calls_to("views.open"))
    harness.command("canvass")
    harness.wait("views.open", count=opened + 1)
    harness.submit(harness.open_view(OFFICIAL), {"canvass.date": {"type": "datepicker", "selected_date": "2026-11-09"}})
    harness.click(current(harness, card), "case.start_counting", user=OFFICIAL)
    set_up(harness, card, "paper", double=False)
    with harness.db.transaction() as s:
        case_id = s.scalar(select(RecountCase.id).join(Contest, RecountCase.contest_id == Contest.id)
                           .where(Contest.name == METRO))
    for number, (unit, votes) in enumerate(zip(UNITS, ((845, 611), (702, 590))), start=1):
        enter_sheet(harness, case_id, METRO, user=STAFF, sheet_id=f"T-{number}", unit=unit, votes=votes)
    record_an_assistant(harness.services, workspace_id=access.resolve_member(harness.services, TEAM, OFFICIAL)
                        .workspace_id, case_id=case_id, actor=STAFF, name=hostile("Assistant", 200))  # (3)
    complete(harness, card, "150.00", user=MALLORY)
    view = open_on_card(harness, current(harness, card), "case.balance", user=STAFF)
    harness.submit(view, {"balance.amount": text("50.00"), "balance.method": select_("check"),
                          "balance.reference": text(hostile("Balance", 100)),
                          "balance.received_by": text(hostile("Cashier", 200))}, user=STAFF)
    walk = walk_everything(harness)
    assert {"chat.postMessage", "chat.update", "chat.getPermalink", "views.open", "response_url",
            "users.info"} <= set(walk.calls)
    assert walk.escaped_names > 30


def test_reminders_from_the_worker_name_contests_and_elections_escaped(harness) -> None:
    hostile_office(harness)
    harness.command(f"admin setting approvals-channel <#{APPROVALS}|approvals>")
    harness.command("check")  # two automatic recounts with cards: completion reminders in their threads
    services, settings = harness.services, OfficeSettings()
    with services.db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == METRO))
    request = request_entry.submit_request(services, team_id=TEAM, actor=STAFF, settings=settings,
                                           data=request_entry.RequestInput(
                                               contest_id=contest_id, requester_name=REQUESTER,
                                               requester_contact="x", party_kind="candidate",
                                               in_favor_of=CHOICES[METRO][1], received_on=dt.date(2026, 11, 5),
                                               received_reference="R-1"))
    case_id = request_decision.decide_request(services, team_id=TEAM, request_id=request.id, actor=OFFICIAL,
                                              approve=True, note="ok", settings=settings).case_id
    post_case_card(harness.app.client, services, case_id, channel_id=CHANNEL, actor=OFFICIAL)
    # A cost notified and not paid: the worker reminds daily that the payment is due.
    workspace_id = access.resolve_member(services, TEAM, OFFICIAL).workspace_id
    case_money.record_cost(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF,
                           items=[CostItem(CostItemKind.OTHER, "recount", rate=Decimal("100"))])
    case_money.record_cost_notice(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF,
                                  notified_at=services.now(), method="email", notified_by="x", details=None)
    harness.settle()
    worker = Worker(harness.db, worker_client("xoxb-test-token", harness.slack.base_url), clock=harness.clock,
                    worker_id="reminders")
    for day in (dt.datetime(2026, 11, 13, 17, 0, tzinfo=dt.timezone.utc),  # the request window, a week before
                dt.datetime(2026, 11, 24, 17, 0, tzinfo=dt.timezone.utc),  # completion, seven days before
                dt.datetime(2026, 12, 2, 17, 0, tzinfo=dt.timezone.utc)):  # overdue, and the payment still due
        harness.clock.now = day
        worker.tick()
    reminders = [c for c in harness.slack.calls_to("chat.postMessage") if "Reminder" in c.args.get("text", "")]
    assert len(reminders) >= 6 and any(c.args["channel"] == APPROVALS for c in reminders)
    walk = walk_everything(harness)
    assert walk.escaped_names > 10
