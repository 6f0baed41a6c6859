"""Completing a recount (6) from its card, end to end through signed requests, on each database: the recount
report in the thread, the settlement written to the ledger ((2)(c), (2)(d), (2)(f)), the card's key facts, the
notice of the results, the certificates of election behind their links (served by the bot's own HTTP server,
410 once expired, 404 for a token it never made), their delivery, and the case record uploaded with
files_upload_v2.

The example election's "Pine Ridge Metropolitan District - Director" (Dana Whitfield 1,547 v Sam Okafor 1,201;
Precinct 1: 845 v 611, Precinct 2: 702 v 590) with a request in favor of Sam Okafor. Setup (the request, its
approval, notices, cost, payment, counting, the sheets) goes through the service seam; what is tested goes
through the real app as Slack sends it.
"""
from __future__ import annotations

import datetime as dt
import io
import json
import re
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from bot.web.server import RunningServer, WebApp
from handlers.cards import post_case_card
from rules.cost import CostItem, CostItemKind
from services.conduct import cases
from services.conduct import money as case_money
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.conduct.tally_sheets import enter_sheet, withdraw_sheet
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from storage.models import AuditEntry, Certificate, Contest, LedgerRow, RecountCase, SurveyVersion
from tests.flows.conftest import load_example
from tests.support.assistants import record_an_assistant
from tests.support.notices import give_all_notices
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM, VIEWER, text_of

PINE_RIDGE = "Pine Ridge Metropolitan District - Director"
DANA, SAM = "Dana Whitfield", "Sam Okafor"
LINK = re.compile(r"<(https?://[^/|>]+)(/certificates/[A-Za-z0-9_-]+)\|")


@pytest.fixture
def harness(harness):
    """The harness, its HTTP server answering certificate links on the services' clock (for expiry)."""
    harness.server.stop()
    harness.server = RunningServer(WebApp(harness.app, harness.db, clock=harness.clock)).start()
    return harness


# ---------------------------------------------------------------- setup through the services
def counting_case(harness, *, paid: str = "400.00", cost: str = "400.00",
                  government: tuple[str, str] | None = None, assistants: bool = True) -> tuple[int, dict]:
    """A request by Sam Okafor in his own favor, approved, every (2)(b) step done, counting on paper by precinct;
    `government` is (local government, governing body) when not the example's."""
    if government:
        load_example(harness, local_government=government[0], governing_body=government[1])
    else:
        load_example(harness)
    services = harness.services
    access.bootstrap_official(services, TEAM, OFFICIAL, reason="test")
    for user, role in ((STAFF, access.Role.STAFF), (VIEWER, access.Role.VIEWER)):
        access.set_role(services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL, user_id=user,
                        role=role)
    workspace_id = access.resolve_member(services, TEAM, OFFICIAL).workspace_id
    with services.db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == PINE_RIDGE))
    request = request_entry.submit_request(services, team_id=TEAM, actor=STAFF, settings=OfficeSettings(),
                                           data=request_entry.RequestInput(
                                               contest_id=contest_id, requester_name=SAM,
                                               requester_contact="sam@example.org", party_kind="candidate",
                                               in_favor_of=SAM, received_on=dt.date(2026, 11, 5),
                                               received_reference="REQ-2026-01"))
    case_id = request_decision.decide_request(services, team_id=TEAM, request_id=request.id, actor=OFFICIAL,
                                              approve=True, note="Timely; a candidate.",
                                              settings=OfficeSettings()).case_id
    post_case_card(harness.app.client, services, case_id, channel_id=CHANNEL, actor=OFFICIAL)
    give_all_notices(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF)
    if assistants:
        record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF)  # (3)
    case_money.record_cost(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF,
                           items=[CostItem(CostItemKind.OTHER, "recount", rate=Decimal(cost))])
    case_money.record_cost_notice(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF,
                                  notified_at=services.now(), method="email", notified_by="Dana Clerk", details=None)
    case_money.record_payment(services, workspace_id=workspace_id, case_id=case_id, amount=Decimal(paid),
                              method="check", reference="check 1042", received_by="Dana Clerk", actor=STAFF)
    assert start_counting(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    set_up_count(services, workspace_id=workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=STAFF)
    harness.settle()
    [card] = [m for m in harness.posted() if m["text"].startswith("Requested recount")]
    return case_id, card


def tally(harness, case_id: int, p1: tuple[int, int], p2: tuple[int, int] | None) -> None:
    """Tally sheets (5): (Dana, Sam) per precinct; the card is refreshed as the tally handler would."""
    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    for sheet, unit, votes in (("S-1", "Precinct 1", p1), ("S-2", "Precinct 2", p2)):
        if votes is not None:
            enter_sheet(harness.services, workspace_id=workspace_id, case_id=case_id, sheet_id=sheet, unit=unit,
                        counts={DANA: votes[0], SAM: votes[1]}, entry=1, actor=STAFF)
    from handlers.cards import refresh_card

    refresh_card(harness.services, cases.case_view(harness.services, case_id))
    harness.settle()


# ---------------------------------------------------------------- reading what the bot did
def current(harness, card: dict) -> dict:
    return harness.slack.state.message(CHANNEL, card["ts"])


def buttons(message: dict) -> list[str]:
    found = [e["action_id"] for b in message.get("blocks", []) if b["type"] == "actions" for e in b["elements"]]
    return found + [b["accessory"]["action_id"] for b in message.get("blocks", [])
                    if (b.get("accessory") or {}).get("action_id")]


def thread_texts(harness, card: dict) -> list[str]:
    return [text_of(m) for m in harness.thread(card["ts"])]


def ledger(harness, case_id: int) -> list[tuple[str, Decimal]]:
    with harness.db.transaction() as s:
        return [(r.kind, r.amount) for r in s.scalars(select(LedgerRow).where(LedgerRow.case_id == case_id)
                                                         .order_by(LedgerRow.id))]


def audit_count(harness, action: str) -> int:
    with harness.db.transaction() as s:
        return len(s.scalars(select(AuditEntry.id).where(AuditEntry.action == action)).all())


def last_told(harness, before: int) -> str:
    return harness.wait("response_url", count=before + 1)[-1].args["text"]


def told_count(harness) -> int:
    return len(harness.slack.calls_to("response_url"))


def text(value: str) -> dict:
    return {"type": "plain_text_input", "value": value}


def select_(value: str) -> dict:
    return {"type": "static_select", "selected_option": {"value": value}}


def when(moment: dt.datetime) -> dict:
    return {"type": "datetimepicker", "selected_date_time": int(moment.timestamp())}


def open_modal(harness, card: dict, action_id: str, *, user: str = OFFICIAL, value: str | None = None) -> dict:
    opened = len(harness.slack.calls_to("views.open"))
    assert harness.click(current(harness, card), action_id, user=user, value=value).status == 200
    harness.wait("views.open", count=opened + 1)
    return harness.open_view(user)


def complete(harness, card: dict, actual_cost: str, *, user: str = OFFICIAL):
    view = open_modal(harness, card, "case.complete", user=user)
    assert view["callback_id"] == "case.complete" and view["title"]["text"] == "Complete the recount"
    return view, harness.submit(view, {"complete.actual_cost": text(actual_cost)}, user=user)


def certificate_paths(thread: list[str]) -> dict[str, str]:
    """candidate -> the path of their certificate link, from the thread's latest links."""
    found = {}
    for message in thread:
        for line in message.splitlines():
            match = LINK.search(line)
            if match:
                name = re.search(r"\*([^*]+)\*", line).group(1)
                found[name] = match.group(2)
    return found


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


# ================================================================ (2)(d): reversed in favor of the requester
def test_a_reversal_in_favor_of_the_requester_refunds_the_payment_and_certifies_him(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))  # Precinct 1 recounted: 200 ballots were Sam's
    assert "case.complete" in buttons(current(harness, card))
    assert "*Every unit is tallied* (2 of 2" in text_of(current(harness, card))

    # Staff may not complete: the designated election official completes and certifies.
    answered = told_count(harness)
    harness.click(current(harness, card), "case.complete", user=STAFF)
    assert "You need the official role" in last_told(harness, answered)

    posted_before = len(harness.thread(card["ts"]))
    view, reply = complete(harness, card, "abc")
    assert reply.json()["errors"] == {
        "complete.actual_cost": "Actual cost: 'abc' is not an amount of money (write it like 1234.50 or $1,234.50)"}
    assert harness.submit(view, {"complete.actual_cost": text("$350.00")}).body in (b"", b"{}")

    report, notice, certificates, _ = thread_texts(harness, card)[posted_before:]
    # The report: totals per choice, changes per unit, who won, the outcome, the (2)(d) facts, the settlement.
    assert f"Recount report — {PINE_RIDGE}" in report
    assert "Sam Okafor          1,201      1,401     +200" in report
    assert "Dana Whitfield      1,547      1,347     −200" in report
    assert "• Precinct 1 — Dana Whitfield: 845 → 645 (−200)" in report
    assert "• Precinct 1 — Sam Okafor: 611 → 811 (+200)" in report and "Precinct 2 —" not in report
    assert "*Highest number of votes* (C.R.S. 1-13.5-1306(6)): *Sam Okafor* (1,401) — the seat." in report
    assert ("*Outcome:* the recount changes the result — before the recount: Dana Whitfield; after: Sam Okafor "
            "(C.R.S. 1-13.5-1306(6))") in report
    assert ("*Reversed in favor of the requester:* yes — requested in favor of Sam Okafor, who did not receive the "
            "highest number of votes before the recount and does now (C.R.S. 1-13.5-1306(2)(d))") in report
    assert ("*Amended margin:* 54 votes between Sam Okafor (1,401) and Dana Whitfield (1,347); ½ of 1% allows at "
            "most 7: outside — (1) would not have required a recount (C.R.S. 1-13.5-1306(1)") in report
    assert ("*Settlement* (C.R.S. 1-13.5-1306(2)(d)): (2)(d): the result was reversed in favor of the requester"
            in report)
    assert "• Expense: $350.00 — actual cost of the recount, paid from the deposit (C.R.S. 1-13.5-1306(2)(c))" in report
    assert "• Paid by the governing body: $350.00" in report
    assert "• Refund to the requester: $400.00 — refund of the payment (2)(d) (C.R.S. 1-13.5-1306(2)(d))" in report
    assert "*Next:* refund $400.00 to Sam Okafor." in report
    assert "The survey of returns now has version 2, amended by the recount" in report
    assert ledger(harness, case_id)[-3:] == [("expense", Decimal("350.00")), ("governing_body_payment",
                                                                               Decimal("350.00")),
                                             ("refund", Decimal("400.00"))]

    # The notice of the results, ready to send to the governing body.
    assert "*Notice of the results, ready to send* to Board of Directors of Front Range Special Districts" in notice
    assert "To: Board of Directors of Front Range Special Districts" in notice
    assert f"Re: Results of the recount - {PINE_RIDGE}, Regular Special District Election" in notice
    assert "    Sam Okafor          1,401 votes (survey of returns: 1,201)" in notice
    assert "    Dana Whitfield      1,347 votes (survey of returns: 1,547)" in notice
    assert "Sam Okafor received the highest number of votes and is elected." in notice
    assert "The recount changed the result of the election (before the recount: Dana Whitfield)." in notice
    assert "a certificate of election is made for Sam Okafor" in notice and "C.R.S. 1-13.5-1306(6)" in notice

    # The card: completed, with the key facts; the next steps as buttons.
    card_text = text_of(current(harness, card))
    assert "*Status*\ncompleted" in card_text and "*Recount completed*" in card_text
    assert "*Highest number of votes* (6)\n*Sam Okafor* (1,401) — the seat" in card_text
    assert "*Outcome* (6)\nthe recount changes the result" in card_text
    assert "*Reversed in favor of the requester* (2)(d)\nyes (Sam Okafor)" in card_text
    assert "*Settlement* (2)(d)\nrefund of the payment: $400.00 (actual cost $350.00)" in card_text
    assert "*Results not yet notified*" in card_text
    assert "*Certificate of election:* Sam Okafor (1,401 votes) — not yet delivered" in card_text
    assert "case.complete" not in buttons(current(harness, card))
    assert {"case.results_notice", "certificate.delivery", "certificate.new_link"} <= set(
        buttons(current(harness, card)))

    # The certificate of election behind its link, served by the bot's HTTP server.
    assert "*Certificates of election* (C.R.S. 1-13.5-1306(6))" in certificates
    assert "link valid until Sun 2026-12-06 09:00 MST" in certificates
    paths = certificate_paths([certificates])
    assert list(paths) == [SAM] and LINK.search(certificates).group(1) == "http://localhost:3000"
    reply = harness.get(paths[SAM])
    assert reply.status == 200 and reply.body.startswith(b"%PDF")
    certificate = pdf_text(reply.body)
    for expected in ("CERTIFICATE OF ELECTION", "Sam Okafor", "1,401", PINE_RIDGE, "Regular Special District Election",
                     "November 3, 2026", "Given on November 6, 2026", "Designated Election Official",
                     f"Recount case #{case_id}"):
        assert expected in certificate, expected
    assert DANA not in certificate
    # The PDF is uploaded into the thread too, after the report.
    [uploaded] = [f for f in harness.slack.state.files().values() if f["name"].startswith("certificate-of-election")]
    assert uploaded["name"] == "certificate-of-election-Sam-Okafor.pdf"
    assert uploaded["file"]["shares"]["public"][CHANNEL][0]["thread_ts"] == card["ts"]
    assert "Sam Okafor" in pdf_text(harness.slack.state.file_content(uploaded["id"]))
    assert "The certificate of election as PDF" in text_of(harness.thread(card["ts"])[-1])
    with harness.db.transaction() as s:
        assert s.scalar(select(Certificate.slack_file_id)) == uploaded["id"]
    assert harness.get("/certificates/" + "x" * 43).status == 404
    harness.clock.advance(days=31)
    gone = harness.get(paths[SAM])
    assert gone.status == 410 and b"Ask the election office for a new link" in gone.body

    # A new link from the card; the expired one no longer answers.
    answered = told_count(harness)
    harness.click(current(harness, card), "certificate.new_link", user=STAFF)
    assert "A new link for the certificate of Sam Okafor is in the case's thread." in last_told(harness, answered)
    renewed = certificate_paths(thread_texts(harness, card)[-1:])
    assert renewed[SAM] != paths[SAM] and harness.get(renewed[SAM]).status == 200
    assert harness.get(paths[SAM]).status == 404
    assert audit_count(harness, "certificate.link_renewed") == 1

    # Completing again (a stale modal) changes nothing and says so.
    posted = len(harness.thread(card["ts"]))
    rows = len(ledger(harness, case_id))
    answered = len(harness.slack.calls_to("chat.postEphemeral"))
    assert harness.submit(view, {"complete.actual_cost": text("350.00")}).body in (b"", b"{}")
    [again] = harness.wait("chat.postEphemeral", count=answered + 1)[answered:]
    assert "This recount was already completed Fri 2026-11-06 09:00 MST by <@U0OFFICIAL>; nothing changed" \
        in again.args["text"]
    assert len(harness.thread(card["ts"])) == posted and len(ledger(harness, case_id)) == rows
    assert audit_count(harness, "case.completed") == 1
    with harness.db.transaction() as s:
        assert len(s.scalars(select(SurveyVersion)).all()) == 2


# ================================================================ (2)(f): no change, the unused deposit returned
def test_a_recount_that_confirms_the_result_returns_the_unused_deposit_then_records_results_and_delivery(
        harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (845, 611), (701, 591))  # one ballot moves in Precinct 2
    posted_before = len(harness.thread(card["ts"]))
    _, reply = complete(harness, card, "310")
    assert reply.body in (b"", b"{}")
    report, notice, certificates, _ = thread_texts(harness, card)[posted_before:]
    assert "*Outcome:* the recount confirms the result — Dana Whitfield, as the survey of returns had it" in report
    assert "• Precinct 2 — Dana Whitfield: 702 → 701 (−1)" in report and "Precinct 1 —" not in report
    assert ("*Reversed in favor of the requester:* no — requested in favor of Sam Okafor, who still does not have "
            "the highest number of votes") in report
    assert "*Settlement* (C.R.S. 1-13.5-1306(2)(f)): (2)(f): the recount did not change the result" in report
    assert "• Unused deposit returned to the requester: $90.00" in report
    assert "*Next:* return the unused $90.00 to Sam Okafor." in report
    assert ledger(harness, case_id)[-2:] == [("expense", Decimal("310.00")), ("deposit_return", Decimal("90.00"))]
    assert "Dana Whitfield received the highest number of votes and is elected." in notice
    assert "The recount confirmed the result of the election." in notice
    assert "the unused $90.00 of the deposit is returned to the requester (C.R.S. 1-13.5-1306(2)(f))" in notice
    card_text = text_of(current(harness, card))
    assert "*Settlement* (2)(f)\nreturn of the unused deposit: $90.00 (actual cost $310.00)" in card_text
    assert list(certificate_paths([certificates])) == [DANA]
    assert "1,546" in pdf_text(harness.get(certificate_paths([certificates])[DANA]).body)

    # (6): the notice of the results to the governing body, recorded once.
    view = open_modal(harness, card, "case.results_notice", user=STAFF)
    assert view["title"]["text"] == "Record results notice"
    stale = current(harness, card)
    given = dt.datetime(2026, 11, 6, 16, 0, tzinfo=dt.timezone.utc)  # the harness's now: 09:00 in Denver
    missing = harness.submit(view, {"results.given_at": when(given)}, user=STAFF).json()["errors"]
    assert missing == {"results.given_by": "Say who gave the notice.",
                       "results.method": "Choose how the notice was given."}
    future = harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                                   "results.given_at": when(given + dt.timedelta(days=1))}, user=STAFF)
    assert future.json()["errors"] == {"results.given_at": "The notice cannot have been given in the future."}
    ok = harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                               "results.given_at": when(given)}, user=STAFF)
    assert ok.body in (b"", b"{}")
    recorded = thread_texts(harness, card)[-1]
    assert ("Notice of the results to Board of Directors of Front Range Special Districts recorded by <@U0STAFF001>: "
            "given by Dana Clerk by email, Fri 2026-11-06 09:00 MST (C.R.S. 1-13.5-1306(6))") in recorded
    card_text = text_of(current(harness, card))
    assert "*Results notified* to Board of Directors of Front Range Special Districts — by Dana Clerk by email" \
        in card_text
    assert "case.results_notice" not in buttons(current(harness, card))
    answered = told_count(harness)
    harness.click(stale, "case.results_notice", user=STAFF)
    assert "The notice of the results was already recorded: given by Dana Clerk by email" in last_told(harness,
                                                                                                        answered)
    assert audit_count(harness, "results.notified") == 1

    # (6): the certificate delivered to the candidate, recorded and audited.
    with harness.db.transaction() as s:
        certificate_id = s.scalar(select(Certificate.id).where(Certificate.case_id == case_id))
    view = open_modal(harness, card, "certificate.delivery", user=STAFF, value=str(certificate_id))
    assert view["title"]["text"] == "Record delivery" and "Dana Whitfield" in text_of({"blocks": view["blocks"]})
    delivered = harness.submit(view, {"delivery.by": text("Dana Clerk"), "delivery.method": select_("in person"),
                                      "delivery.at": when(given), "delivery.details": text("at the district office")},
                               user=STAFF)
    assert delivered.body in (b"", b"{}")
    assert ("Certificate of election delivered to *Dana Whitfield*, recorded by <@U0STAFF001>: delivered by Dana "
            "Clerk (in person), Fri 2026-11-06 09:00 MST (C.R.S. 1-13.5-1306(6))") in thread_texts(harness, card)[-1]
    assert ("*Certificate of election:* Dana Whitfield (1,546 votes) — delivered Fri 2026-11-06 09:00 MST by Dana "
            "Clerk (in person)") in text_of(current(harness, card))
    assert "certificate.delivery" not in buttons(current(harness, card))
    with harness.db.transaction() as s:
        row = s.get(Certificate, certificate_id)
        assert (row.delivered_by, row.delivery_method) == ("Dana Clerk", "in person")
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "certificate.delivered")).all()
        assert entry.after["details"] == "at the district office" and entry.actor == STAFF
        assert "token" not in json.dumps(entry.after) and row.token_sha256 not in json.dumps(entry.after)


# ================================================================ (2)(c): a balance due
def test_a_cost_above_the_deposit_leaves_a_balance_due_collected_from_the_card(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (845, 611), (702, 590))  # the recount matches the survey exactly
    posted_before = len(harness.thread(card["ts"]))
    complete(harness, card, "455.50")
    report = thread_texts(harness, card)[posted_before]
    assert "No vote changed in any unit: the recount matches the survey of returns." in report
    assert "*Settlement* (C.R.S. 1-13.5-1306(2)(c)): (2)(c): the actual cost $455.50 is more than the $400.00 paid" \
        in report
    assert "• Expense: $400.00 — actual cost of the recount, paid from the deposit" in report
    assert ("*Next:* $55.50 is due from Sam Okafor on demand (C.R.S. 1-13.5-1306(2)(c)); when it is paid, press "
            "*Record balance paid* on the card.") in report
    assert ledger(harness, case_id)[-1] == ("expense", Decimal("400.00"))
    card_text = text_of(current(harness, card))
    assert "*Settlement* (2)(c)\nbalance due from the requester: $55.50 (actual cost $455.50)\n*$55.50 still due*" \
        in card_text

    view = open_modal(harness, card, "case.balance", user=STAFF)
    [amount] = [b for b in view["blocks"] if b.get("block_id") == "balance.amount"]
    assert amount["element"]["initial_value"] == "55.50"
    values = {"balance.amount": text("60"), "balance.method": select_("check"),
              "balance.reference": text("check 1042"), "balance.received_by": text("Dana Clerk")}
    assert harness.submit(view, values, user=STAFF).json()["errors"] == {
        "balance.amount": "Only $55.50 is still due (C.R.S. 1-13.5-1306(2)(c))."}
    values["balance.amount"] = text("55.50")
    assert harness.submit(view, values, user=STAFF).json()["errors"] == {
        "balance.reference": "A payment with reference check 1042 is already recorded for this recount."}
    values["balance.reference"] = text("check 1077")
    assert harness.submit(view, values, user=STAFF).body in (b"", b"{}")
    assert ledger(harness, case_id)[-2:] == [("balance_collected", Decimal("55.50")), ("expense", Decimal("55.50"))]
    paid = thread_texts(harness, card)[-1]
    assert "Balance payment of *$55.50* recorded by <@U0STAFF001>: check, ref. check 1077" in paid
    assert "The balance is collected in full: the requester has paid the actual cost of the recount." in paid
    card_text = text_of(current(harness, card))
    assert ":white_check_mark: collected in full" in card_text and "case.balance" not in buttons(current(harness, card))
    assert audit_count(harness, "balance.collected") == 1
    # Nothing more can be collected.
    refused = harness.submit(view, {**values, "balance.reference": text("check 1078")}, user=STAFF).json()
    assert refused["response_action"] == "update"
    assert "The balance of $55.50 was already collected in full; nothing changed." in text_of(refused["view"])
    assert len(ledger(harness, case_id)) == 5


# ================================================================ refusals before the tally is complete
def test_completing_is_refused_until_every_unit_is_tallied_listing_what_is_missing(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (845, 611), None)
    assert "case.complete" not in buttons(current(harness, card))
    tally(harness, case_id, None, (702, 590))
    stale = current(harness, card)
    assert "case.complete" in buttons(stale)
    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    withdraw_sheet(harness.services, workspace_id=workspace_id, case_id=case_id, sheet_id="S-2",
                   reason="entered for the wrong precinct", actor=STAFF)
    answered = told_count(harness)
    harness.click(stale, "case.complete")
    refused = last_told(harness, answered)
    assert "The recount cannot be completed yet: not every unit is tallied (1 of 2, C.R.S. 1-13.5-1306(5))" in refused
    assert "Not yet counted: Precinct 2." in refused and "Nothing was recorded." in refused
    assert harness.slack.calls_to("views.open") == []
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None


# ================================================================ the case record, from Slack
def test_a_viewer_gets_the_case_record_as_json_and_pdf_in_a_direct_message(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    complete(harness, card, "350")
    harness.command(f"record {case_id}", user=VIEWER)
    told = harness.wait("response_url")[-1].args["text"]
    assert f"The record of case #{case_id} (JSON and PDF) is in your direct messages with me." in told
    stem = f"recount-case-{case_id}-record"
    files = {f["name"]: f for f in harness.slack.state.files().values() if f["name"].startswith(stem)}
    assert set(files) == {f"{stem}.json", f"{stem}.pdf"}
    shared = files[f"{stem}.json"]["shared"]["channel"]
    assert shared.startswith("D") and files[f"{stem}.pdf"]["shared"]["channel"] == shared
    record = json.loads(harness.slack.state.file_content(files[f"{stem}.json"]["id"]))
    assert record["case"]["id"] == case_id and record["case"]["status"] == "completed"
    assert [d["citation"] for d in record["decisions"]] == [
        "C.R.S. 1-13.5-1306(2)(a)", "C.R.S. 1-13.5-1306(6)", "C.R.S. 1-13.5-1306(2)(d)"]
    assert record["completion"]["winners_after"] == [SAM]
    assert {"case.completed", "counting.started", "payment.recorded"} <= {e["action"] for e in record["timeline"]}
    with harness.db.transaction() as s:
        stored = s.scalar(select(Certificate.token_sha256))
    assert stored not in json.dumps(record)
    [link] = [m.group(2) for text in thread_texts(harness, card) for m in LINK.finditer(text)]
    assert link.removeprefix("/certificates/") not in json.dumps(record)  # the link's token, as posted
    pdf = pdf_text(harness.slack.state.file_content(files[f"{stem}.pdf"]["id"]))
    assert f"Record of recount case #{case_id}" in pdf and "C.R.S. 1-13.5-1306(2)(d)" in pdf

    harness.command("record 999", user=VIEWER)
    assert "There is no recount case #999 in this office." in harness.wait("response_url", count=2)[-1].args["text"]
    harness.command("record", user=VIEWER)
    assert "Say which case" in harness.wait("response_url", count=3)[-1].args["text"]


def test_the_case_record_can_be_shared_in_the_channel(harness) -> None:
    case_id, _ = counting_case(harness)
    harness.command(f"record #{case_id} here", user=STAFF)
    [message] = [m for m in harness.posted() if m.get("files")]
    assert f"The record of recount case #{case_id}" in message["text"]
    assert sorted(f["name"] for f in message["files"]) == [f"recount-case-{case_id}-record.json",
                                                          f"recount-case-{case_id}-record.pdf"]


# ================================================================ automatic recounts (1): no money, a tie, a question
def automatic_card(harness, contest: str, *, give_notices: bool = True,
                   assistants: bool = True) -> tuple[int, dict]:
    """An automatic recount (1) counting on paper by precinct; every notice under (1) given unless told not to."""
    load_example(harness)
    harness.command("check")
    [card] = [m for m in harness.posted() if m["text"].startswith("Automatic recount") and contest in m["text"]]
    services = harness.services
    workspace_id = access.resolve_member(services, TEAM, OFFICIAL).workspace_id
    with services.db.transaction() as s:
        case_id = s.scalar(select(RecountCase.id).join(Contest).where(Contest.name == contest))
    if give_notices:
        give_all_notices(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    if assistants:
        record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)  # (3)
    assert start_counting(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    set_up_count(services, workspace_id=workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=OFFICIAL)
    return case_id, card


def enter(harness, case_id: int, sheets: dict[str, dict[str, int]]) -> None:
    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    for number, (unit, counts) in enumerate(sheets.items(), start=1):
        enter_sheet(harness.services, workspace_id=workspace_id, case_id=case_id, sheet_id=f"T-{number}", unit=unit,
                    counts=counts, entry=1, actor=OFFICIAL)
    from handlers.cards import refresh_card

    refresh_card(harness.services, cases.case_view(harness.services, case_id))
    harness.settle()


def test_an_automatic_recount_that_leaves_a_tie_for_the_last_seat_withholds_that_certificate(harness) -> None:
    contest = "Cherry Creek Valley Water and Sanitation District - Director"  # 2 seats; Reed and Natarajan tied
    case_id, card = automatic_card(harness, contest)
    enter(harness, case_id, {
        "Precinct 1": {"Maria Alvarez": 1412, "Thomas Reed": 1377, "Priya Natarajan": 1351, "Walt Kowalski": 601},
        "Precinct 2": {"Maria Alvarez": 1298, "Thomas Reed": 1290, "Priya Natarajan": 1316, "Walt Kowalski": 577}})
    confirm = next(e for b in current(harness, card)["blocks"] if b["type"] == "actions" for e in b["elements"]
                   if e["action_id"] == "case.complete")["confirm"]
    assert "It cannot be undone" in confirm["text"]["text"]
    posted_before = len(harness.thread(card["ts"]))
    harness.click(current(harness, card), "case.complete")  # no modal: the governing body pays (1)
    assert harness.slack.calls_to("views.open") == []
    report, notice, certificates, _ = thread_texts(harness, card)[posted_before:]
    assert "• Precinct 1 — Priya Natarajan: 1,350 → 1,351 (+1)" in report
    assert "• Precinct 2 — Thomas Reed: 1,289 → 1,290 (+1)" in report
    assert "*Highest number of votes* (C.R.S. 1-13.5-1306(6)): *Maria Alvarez* (2,710) — 1 of 2 seats; Thomas Reed " \
           "and Priya Natarajan tied for the last seat, to be decided by lot (C.R.S. 1-13.5-1304)." in report
    assert ("*Outcome:* a tie for the last seat, left to the lot — Maria Alvarez, with Thomas Reed and Priya Natarajan "
            "tied, as the survey of returns had it") in report
    assert ("*Tie for the last seat:* Thomas Reed and Priya Natarajan at 2,667 votes each — decided by lot by the "
            "canvass board (C.R.S. 1-13.5-1304)") in report
    assert "*Amended margin:* 0 votes" in report and "*within* — (1) would have required a recount" in report
    assert "Settlement" not in report and "Reversed in favor" not in report
    assert "Maria Alvarez received the highest number of votes and is elected (1 of 2 seats)." in notice
    assert "Thomas Reed and Priya Natarajan are tied for the last seat; under C.R.S. 1-13.5-1304" in notice
    assert list(certificate_paths([certificates])) == ["Maria Alvarez"]
    assert "The certificate for the tied seat is withheld until the lot is drawn" in certificates
    card_text = text_of(current(harness, card))
    assert "*Recount completed*" in card_text and "withheld until the canvass board draws the lot" in card_text
    assert "*Settlement*" not in card_text and "case.balance" not in buttons(current(harness, card))
    with harness.db.transaction() as s:
        assert [c.candidate for c in s.scalars(select(Certificate))] == ["Maria Alvarez"]


def test_an_automatic_recount_of_a_ballot_question_makes_no_certificate(harness) -> None:
    case_id, card = automatic_card(harness, "Bear Creek Fire Protection District - Ballot Issue 6A")
    enter(harness, case_id, {"Precinct 1": {"Yes": 2208, "No": 2190}, "Precinct 2": {"Yes": 2131, "No": 2128}})
    stale = current(harness, card)
    posted_before = len(harness.thread(card["ts"]))
    harness.click(stale, "case.complete")
    report, notice, certificates = thread_texts(harness, card)[posted_before:]
    assert "*Yes* has the most votes (4,339); a ballot question elects no one" in report
    assert "*Outcome:* the recount confirms the result — Yes, as the survey of returns had it" in report
    assert "Yes received the most votes." in notice and "certificate" not in notice.split("```")[1]
    assert certificates == ("A ballot question elects no one: there is no certificate of election to make "
                            "(C.R.S. 1-13.5-1306(6)).")
    answered = told_count(harness)
    harness.click(stale, "case.complete")
    assert "This recount was already completed Fri 2026-11-06 09:00 MST by <@U0OFFICIAL>; nothing changed" in \
        last_told(harness, answered)
    assert audit_count(harness, "case.completed") == 1


def test_a_reversal_whose_cost_exceeded_the_payment_refunds_it_all_and_the_governing_body_pays_the_rest(
        harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    complete(harness, card, "455.50")
    assert ledger(harness, case_id)[-4:] == [
        ("expense", Decimal("400.00")), ("governing_body_payment", Decimal("455.50")),
        ("expense", Decimal("55.50")), ("refund", Decimal("400.00"))]
    report = [t for t in thread_texts(harness, card) if "Recount report" in t][0]
    assert "no balance is due; the governing body bears the $455.50 actual cost" in report
    assert "• Expense: $55.50 — rest of the actual cost of the recount, borne by the governing body (2)(d)" in report
    assert "case.balance" not in buttons(current(harness, card))
