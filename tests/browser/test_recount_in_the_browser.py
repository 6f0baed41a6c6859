"""A recount in the browser sandbox, as an office would rehearse it: the official checks the election, records
the notices from a case card; a staff member files a written request; the official approves it in its
card's modal; the cost is determined, the requester notified and paid; counting starts behind its confirm
dialog; the tally sheets are entered; the recount is completed and its certificate of election opened.
Every step is a click or a keystroke on the page; the bot gets only what Slack would send it."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from storage.models import Notice, RecountCase
from tests.browser.conftest import needs_playwright
from tests.support.assistants import record_an_assistant_of

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

from tests.browser.client import Client  # noqa: E402

pytestmark = pytest.mark.slow

BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"
PINE = "Pine Ridge Metropolitan District - Director"


def record_notice(client: Client, card_text: str, *, given_by: str = "Dana Whitfield") -> None:
    card = client.message(card_text)
    client.click(card, "Record notice")
    client.expect_modal("Record notice", "notice.record")
    client.type_into("Given by", given_by)
    client.choose("How", "Email")
    client.date_time("When", "2027-05-06", "10:00")
    client.submit()
    client.expect_closed()


def enter_sheet(client: Client, card_text: str, sheet_id: str, unit: str, counts: dict[str, str]) -> None:
    client.click(client.message(card_text), "Enter tally sheet")
    client.expect_modal("Enter tally sheet", "tally.sheet")
    client.type_into("Sheet id", sheet_id)
    client.choose("Unit", unit)
    for choice, votes in counts.items():
        client.type_into(choice, votes)
    client.submit()
    client.expect_closed()


def test_a_recount_from_the_check_to_the_certificate(page, sandbox, db) -> None:
    client = Client(page)
    # The first screen: the channel, the hint, nobody has done anything yet.
    expect(page.locator(".channel-intro")).to_contain_text("type /recount check")
    expect(page.locator(".pane-title")).to_have_text("# elections")
    page.shots("first-screen")

    # The official checks the election: the bot's Block Kit, rendered.
    client.send("/recount check")
    verdicts = client.message("Survey of returns checked")
    expect(verdicts.locator(".block-header").first).to_have_text(
        "Survey of returns checked: Regular Special District Election")
    expect(verdicts.locator(".md-b", has_text="RECOUNT").first).to_be_visible()  # *RECOUNT*
    expect(verdicts.locator(".emoji[title=':rotating_light:']").first).to_have_text("\U0001F6A8")
    expect(verdicts.locator(".mention", has_text="@maya")).to_be_visible()  # <@U0OFFMAYA1>
    expect(verdicts.locator(".badge-app")).to_have_text("APP")
    card = client.message(f"Automatic recount: {BEAR}")
    expect(card.locator(".section-fields").first).to_contain_text("Margin")
    expect(card.get_by_role("button", name="Start counting")).to_have_class(re.compile("btn-primary"))
    page.shots("checked")

    # The notice, from the card: Slack's own check of a required field, then the bot's check on its field.
    client.click(card, "Record notice")
    client.expect_modal("Record notice", "notice.record")
    page.shots("notice-modal")
    client.submit()
    expect(client.error_on("Given by")).to_have_text("Please complete this required field.")
    client.type_into("Given by", "Dana Whitfield")
    client.choose("How", "Email")
    client.date_time("When", "2027-05-21", "10:00")  # after the sandbox's today: the bot refuses it
    client.submit()
    expect(client.error_on("When")).to_have_text("The notice cannot have been given in the future.")
    expect(client.error_on("Given by")).to_have_count(0)
    expect(client.field("Given by").locator("input")).to_have_value("Dana Whitfield")  # kept, as Slack keeps it
    page.shots("notice-error-from-the-bot")
    client.date_time("When", "2027-05-06", "10:00")
    client.submit()
    client.expect_closed()
    card = client.message(f"Automatic recount: {BEAR}")
    expect(card.locator(".message-edited")).to_have_text("(edited)")
    expect(card).to_contain_text("1 of 1 given")
    thread = client.open_thread(card)
    expect(thread.locator(".message", has_text="Notice to Governing body Board of Directors of the Bear Creek Fire Protection District recorded by")).to_be_visible()
    page.shots("thread")
    thread.locator(".thread-close").click()
    with db.transaction() as s:
        notice = s.scalars(select(Notice).where(Notice.given_at.is_not(None))).one()
        assert (notice.given_by, notice.method, notice.recorded_by) == ("Dana Whitfield", "email", "U0OFFMAYA1")

    # A staff member enters a written request: choosing the contest redraws the form (dispatch_action).
    client.act_as("staff")
    client.send("/recount request")
    client.expect_modal("Recount request", "request.pick")
    client.choose("Contest", PINE)
    client.expect_modal("Recount request", "request.enter")
    expect(client.field("Contest").locator("select")).to_have_value(re.compile(r"\d+"))  # kept across the update
    client.type_into("Requester's name", "Sam Okafor")
    client.type_into("Requester's contact", "sam@example.org, 12 Aspen Way, Pine Ridge CO")
    client.choose("The requester is", "A candidate in this contest")
    client.choose("In favor of", "Sam Okafor")
    client.date_time("Written request received on", "2027-05-06")
    client.type_into("Reference to the written request", "Letter of 2027-05-06, file R-01")
    page.shots("request-form")
    client.submit()
    client.expect_closed()
    request = client.message(f"Recount request: {PINE}")
    expect(request).to_contain_text("awaiting a decision")

    # The official approves it from its card: the decision's note is a multiline input.
    client.act_as("official")
    client.click(client.message(f"Recount request: {PINE}"), "Approve")
    client.expect_modal("Approve request", "request.decision")
    expect(client.field("Note").locator("textarea")).to_be_visible()
    client.type_into("Note", "Timely; the requester is a candidate.")
    client.submit()
    client.expect_closed()
    expect(client.message(f"Recount request: {PINE}")).to_contain_text("approved")
    case_card = f"Requested recount: {PINE}"
    expect(client.message(case_card)).to_contain_text("4 of 4 steps outstanding")
    page.shots("approved")

    # (2)(b)(I): the notices of the requested recount, each from its button on the card.
    for _ in range(3):
        record_notice(client, case_card)
    expect(client.message(case_card)).to_contain_text("3 of 3 given")

    # (2)(b)(II)-(IV): the cost, the requester notified, the payment.
    client.click(client.message(case_card), "Determine cost")
    client.expect_modal("Determine cost", "case.cost")
    client.type_into(None, "10", block_id="cost.staff_hours")
    client.type_into(None, "30", block_id="cost.staff_rate")
    client.type_into(None, "40", block_id="cost.supplies")
    page.shots("cost-modal")
    client.submit()
    client.expect_closed()
    expect(client.message(case_card)).to_contain_text("$340.00")

    client.click(client.message(case_card), "Record cost notice")
    client.expect_modal(re.compile(".+"), "case.cost_notice")
    client.choose(None, "Email", block_id="cost.notice_method")
    client.date_time(None, "2027-05-07", "08:30", block_id="cost.notice_at")
    client.type_into(None, "Dana Whitfield", block_id="cost.notice_by")
    client.submit()
    client.expect_closed()

    client.click(client.message(case_card), "Record payment")
    client.expect_modal(re.compile(".+"), "case.payment")
    client.type_into(None, "340.00", block_id="payment.amount")
    client.choose(None, "Check", block_id="payment.method")
    client.type_into(None, "Check 1042", block_id="payment.reference")
    client.type_into(None, "Dana Whitfield", block_id="payment.received_by")
    client.submit()
    client.expect_closed()
    expect(client.message(case_card)).to_contain_text("(2)(b): ready to count")

    # Counting starts behind Slack's confirm dialog: "Not yet" sends nothing, "Start" does.
    card = client.message(case_card)
    card.get_by_role("button", name="Start counting").click()
    dialog = page.locator(".confirm")
    expect(dialog.locator(".confirm-title")).to_have_text("Start counting?")
    page.shots("confirm")
    calls = len(sandbox.standin.calls)
    dialog.locator(".confirm-no").click()
    expect(dialog).to_have_count(0)
    assert len(sandbox.standin.calls) == calls
    card.get_by_role("button", name="Start counting").click()
    page.locator(".confirm .confirm-yes").click()
    client.settled()
    with db.transaction() as s:
        case = s.scalars(select(RecountCase).where(RecountCase.kind == "requested")).one()
        assert case.counting_started_at is not None
    page.shots("counting")

    # (5): how the votes are recounted, then one tally sheet per precinct (a number input per choice).
    client.click(client.message(case_card), "Set up the count")
    client.expect_modal("Set up the count", "tally.set_up")
    expect(client.field("Double entry").locator("input[type=checkbox]")).not_to_be_checked()
    client.choose("How the votes are recounted", "Paper ballots")
    client.submit()
    client.expect_closed()
    enter_sheet(client, case_card, "T-1", "Precinct 1", {"Dana Whitfield": "845", "Sam Okafor": "611"})
    client.click(client.message(case_card), "Enter tally sheet")
    client.type_into("Sheet id", "T-2")
    client.choose("Unit", "Precinct 2")
    client.type_into("Dana Whitfield", "700")
    client.type_into("Sam Okafor", "five hundred ninety")
    client.submit()
    expect(client.error_on("Sam Okafor")).to_have_text("Please enter a number.")  # Slack's own check
    client.type_into("Sam Okafor", "590")
    page.shots("tally-sheet")
    client.submit()
    client.expect_closed()

    # (6): completed with its actual cost; the certificate of election is a link in the case's thread. Someone is
    # recorded as assisting first (3): completion is refused without.
    record_an_assistant_of(sandbox.services, PINE)
    client.click(client.message(case_card), "Complete the recount")
    client.expect_modal("Complete the recount", "case.complete")
    client.type_into("Actual cost of the recount ($)", "300")
    client.submit()
    client.expect_closed()
    card = client.message(case_card)
    expect(card).to_contain_text("Recount completed")
    expect(card).to_contain_text("return of the unused deposit: $40.00")
    page.shots("completed")
    thread = client.open_thread(card)
    link = thread.locator("a.md-link[href*='/certificates/']").first
    expect(link).to_have_attribute("target", "_blank")
    href = link.get_attribute("href")
    assert href.startswith(sandbox.url + "/certificates/")
    page.shots("certificate-link")
    with page.context.expect_page() as opened:
        link.click()
    certificate = opened.value
    certificate.wait_for_load_state()
    assert certificate.url == href
    response = page.context.request.get(href)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = PdfReader(io.BytesIO(response.body())).pages[0].extract_text()
    assert "Dana Whitfield" in text and PINE in " ".join(text.split())
    certificate.close()
