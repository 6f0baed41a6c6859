"""Each task of the clerk guide (docs/clerk-guide/), walked in the browser sandbox as its page describes it, taking
the page's screenshots on the way (tests/browser/guide_images.py says where they go). A step the guide tells a clerk
to take that the bot no longer offers fails here, so the guide's pictures and steps stay true."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from storage.models import AuditEntry, EvidenceDemand, LotDrawing, SurveyVersion
from tests.browser.conftest import needs_playwright
from tests.browser.guide_images import GuideImages
from tests.support.assistants import record_an_assistant_of

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

from tests.browser.client import Client  # noqa: E402

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "survey-of-returns.csv"
BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"
PINE = "Pine Ridge Metropolitan District - Director"
CHERRY = "Cherry Creek Valley Water and Sanitation District - Director"
ASPEN_QUESTION = "Aspen Grove Library District - Ballot Question 7B"


def show(message) -> None:
    """Scroll so that the top of a message (a case card is taller than the window) is at the top of the pane."""
    message.evaluate("element => element.scrollIntoView({block: 'start'})")


def show_part(message, text: str) -> None:
    """Scroll so that the part of a message that shows `text` is at the top of the pane."""
    message.get_by_text(text).first.evaluate("element => element.scrollIntoView({block: 'start'})")


def record_notice(client: Client, card_text: str, *, given_by: str = "Theo Grant") -> None:
    client.click(client.message(card_text), "Record notice")
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


def start_counting(client: Client, page, card_text: str) -> None:
    client.message(card_text).get_by_role("button", name="Start counting").click()
    page.locator(".confirm .confirm-yes").click()
    client.settled()


def set_up_count(client: Client, card_text: str) -> None:
    client.click(client.message(card_text), "Set up the count")
    client.expect_modal("Set up the count", "tally.set_up")
    client.choose("How the votes are recounted", "Paper ballots")
    client.submit()
    client.expect_closed()


# ====================================================================== 01, 02
def test_checking_and_entering_returns(page, sandbox, db, tmp_path) -> None:
    client, guide = Client(page), GuideImages(page)

    # 01: /recount check, the verdicts closest first, and a case card for each contest inside the margin.
    client.send("/recount check")
    verdicts = client.message("Survey of returns checked")
    expect(verdicts.locator(".md-b", has_text="RECOUNT").first).to_be_visible()
    show(verdicts)
    guide("check-verdicts")
    card = client.message(f"Automatic recount: {BEAR}")
    expect(card).to_contain_text("Complete no later than")
    show(card)
    guide("check-case-card")

    # 02: a contest's returns typed into the form: a new ballot question of the library district's election.
    client.send("/recount returns")
    client.expect_modal("Enter returns", "returns.pick")
    client.choose("Election", "Aspen Grove Library District")
    client.choose("Contest", "New contest…")
    client.type_into("New contest: name", ASPEN_QUESTION)
    client.choose("Kind", "Ballot issue or question")
    client.type_into("Choices, one per line", "Yes\nNo")
    guide("returns-new-contest")
    client.submit()
    client.expect_modal("Enter returns", "returns.enter")
    client.type_into("Yes", "1204")
    client.type_into("No", "1187")
    guide("returns-entry")
    client.submit()
    client.expect_closed()
    recorded = client.message(ASPEN_QUESTION)
    recorded.scroll_into_view_if_needed()
    guide("returns-recorded")

    # 02: the vendor's results file instead: attached, previewed with every verdict, saved as the next version.
    corrected = tmp_path / "pine-ridge-returns.csv"
    header, *rows = EXAMPLE.read_text().splitlines(keepends=True)
    corrected.write_text(header + "".join(r for r in rows if r.startswith(PINE)).replace(
        f"{PINE},Dana Whitfield,845", f"{PINE},Dana Whitfield,840"))
    client.send("/recount returns upload")
    client.expect_modal("Returns from a file", "returns.upload")
    client.choose("Election", "Pine Ridge Metropolitan District")
    field = client.field("Results file")
    field.locator("input[type=file]").set_input_files(str(corrected))
    expect(field.locator(".file-chip")).to_contain_text("pine-ridge-returns.csv")
    guide("upload-attached")
    client.submit()
    preview = client.expect_modal("Returns from a file", "returns.upload_preview")
    expect(preview.locator(".modal-submit")).to_have_text(re.compile(r"Save as survey version \d+"))
    guide("upload-preview")
    client.submit()
    expect(client.modal).to_contain_text("saved as survey version")
    with db.transaction() as s:
        assert s.scalars(select(SurveyVersion.source_name).order_by(SurveyVersion.id)).all()[-1] == \
            "pine-ridge-returns.csv"
    guide.expect_all_of({"01-checking-for-automatic-recounts.md", "02-entering-returns.md"})


# ====================================================================== 03, 04, 05, 06, 07
def test_a_requested_recount_from_the_request_to_the_certificates(page, sandbox, db) -> None:
    client, guide = Client(page), GuideImages(page)
    case_card = f"Requested recount: {PINE}"

    # 03: staff enter the written request; the official approves it in its card's thread.
    client.act_as("staff")
    client.send("/recount request")
    client.expect_modal("Recount request", "request.pick")
    client.choose("Contest", PINE)
    client.expect_modal("Recount request", "request.enter")
    client.type_into("Requester's name", "Sam Okafor")
    client.type_into("Requester's contact", "sam@example.org, 12 Aspen Way, Pine Ridge CO")
    client.choose("The requester is", "A candidate in this contest")
    client.choose("In favor of", "Sam Okafor")
    client.date_time("Written request received on", "2027-05-06")
    client.type_into("Reference to the written request", "Letter of 2027-05-06, file R-01")
    guide("request-form")
    client.submit()
    client.expect_closed()
    request = client.message(f"Recount request: {PINE}")
    expect(request).to_contain_text("awaiting a decision")
    request.scroll_into_view_if_needed()
    guide("request-card")
    client.act_as("official")
    client.click(client.message(f"Recount request: {PINE}"), "Approve")
    client.expect_modal("Approve request", "request.decision")
    client.type_into("Note", "Timely; the requester is a candidate.")
    guide("request-approve")
    client.submit()
    client.expect_closed()
    card = client.message(case_card)
    expect(card).to_contain_text("4 of 4 steps outstanding")
    show(card)
    guide("request-case-card")

    # 04: the notices of (2)(b)(I), the cost, the requester told of it, the deposit collected.
    for _ in range(3):
        record_notice(client, case_card)
    client.click(client.message(case_card), "Determine cost")
    client.expect_modal("Determine cost", "case.cost")
    client.type_into(None, "10", block_id="cost.staff_hours")
    client.type_into(None, "30", block_id="cost.staff_rate")
    client.type_into(None, "40", block_id="cost.supplies")
    guide("cost-modal")
    client.submit()
    client.expect_closed()
    client.click(client.message(case_card), "Record cost notice")
    client.expect_modal(re.compile(".+"), "case.cost_notice")
    client.choose(None, "Email", block_id="cost.notice_method")
    client.date_time(None, "2027-05-07", "08:30", block_id="cost.notice_at")
    client.type_into(None, "Theo Grant", block_id="cost.notice_by")
    client.submit()
    client.expect_closed()
    client.click(client.message(case_card), "Record payment")
    client.expect_modal(re.compile(".+"), "case.payment")
    client.type_into(None, "340.00", block_id="payment.amount")
    client.choose(None, "Check", block_id="payment.method")
    client.type_into(None, "Check 1042", block_id="payment.reference")
    client.type_into(None, "Theo Grant", block_id="payment.received_by")
    guide("cost-payment")
    client.submit()
    client.expect_closed()
    card = client.message(case_card)
    expect(card).to_contain_text("(2)(b): ready to count")
    show(card)
    guide("cost-ready")

    # 05: counting starts behind a confirm dialog; the count is set up; one tally sheet per precinct.
    client.message(case_card).get_by_role("button", name="Start counting").click()
    expect(page.locator(".confirm .confirm-title")).to_have_text("Start counting?")
    guide("counting-confirm")
    page.locator(".confirm .confirm-yes").click()
    client.settled()
    client.click(client.message(case_card), "Set up the count")
    client.expect_modal("Set up the count", "tally.set_up")
    client.choose("How the votes are recounted", "Paper ballots")
    guide("counting-set-up")
    client.submit()
    client.expect_closed()
    enter_sheet(client, case_card, "T-1", "Precinct 1", {"Dana Whitfield": "845", "Sam Okafor": "611"})
    client.click(client.message(case_card), "Enter tally sheet")
    client.expect_modal("Enter tally sheet", "tally.sheet")
    client.type_into("Sheet id", "T-2")
    client.choose("Unit", "Precinct 2")
    client.type_into("Dana Whitfield", "700")
    client.type_into("Sam Okafor", "590")
    guide("counting-tally-sheet")
    client.submit()
    client.expect_closed()
    card = client.message(case_card)
    show_part(card, "Tally sheets")
    guide("counting-card")

    # 06: under (4) the official demands evidence, then corrects the survey of returns with the reason.
    client.click(client.message(case_card), "Demand evidence")
    client.expect_modal("Demand evidence", "evidence.demand")
    client.type_into("What is demanded", "The poll book pages of Precinct 2 for the two voters challenged")
    client.type_into("Of whom", "Pine Ridge election judges")
    guide("corrections-evidence")
    client.submit()
    client.expect_closed()
    with db.transaction() as s:
        assert s.scalars(select(EvidenceDemand)).one().demanded_of == "Pine Ridge election judges"
    client.send(f"/recount returns {PINE}")
    client.expect_modal("Correct returns", "returns.enter")
    client.choose("Unit (precinct, machine or batch)", "Precinct 2")
    client.type_into("Dana Whitfield", "700")
    client.type_into("Reason for the correction", "Two ballots of Precinct 2 were cast by voters not eligible")
    client.type_into("Evidence presented", "Poll book pages 14-15 of Precinct 2")
    guide("corrections-returns")
    client.submit()
    client.expect_closed()

    # 07: completed with its actual cost; the certificate of election in the case's thread. Someone is recorded as
    # assisting first (3): completion is refused without.
    record_an_assistant_of(sandbox.services, PINE)
    client.click(client.message(case_card), "Complete the recount")
    client.expect_modal("Complete the recount", "case.complete")
    client.type_into("Actual cost of the recount ($)", "300")
    guide("completion-modal")
    client.submit()
    client.expect_closed()
    card = client.message(case_card)
    expect(card).to_contain_text("Recount completed")
    show_part(card, "Recount completed")
    guide("completion-card")
    thread = client.open_thread(card)
    expect(thread.locator("a.md-link[href*='/certificates/']").first).to_be_visible()
    guide("completion-thread")
    guide.expect_all_of({"03-a-request-arrives.md", "04-cost-and-deposit.md", "05-counting-and-tally-sheets.md",
                         "06-corrections.md", "07-completion-and-certificates.md"})


# ====================================================================== 08
CHERRY_TIED = {"Precinct 1": {"Maria Alvarez": "1412", "Thomas Reed": "1377", "Priya Natarajan": "1351",
                              "Walt Kowalski": "601"},
               "Precinct 2": {"Maria Alvarez": "1298", "Thomas Reed": "1290", "Priya Natarajan": "1316",
                              "Walt Kowalski": "577"}}


def test_the_lot_for_a_tie_the_recount_left(page, sandbox, db) -> None:
    client, guide = Client(page), GuideImages(page)
    case_card = f"Automatic recount: {CHERRY}"
    client.send("/recount check")
    for _ in range(5):  # the governing body and the four candidates (1)
        record_notice(client, case_card)
    expect(client.message(case_card)).to_contain_text("5 of 5 given")
    start_counting(client, page, case_card)
    set_up_count(client, case_card)
    for number, (unit, counts) in enumerate(CHERRY_TIED.items(), start=1):
        enter_sheet(client, case_card, f"W-{number}", unit, counts)
    # Automatic, every notice given: no form, Slack's confirm dialog (someone recorded as assisting first, (3)).
    record_an_assistant_of(sandbox.services, CHERRY)
    client.message(case_card).get_by_role("button", name="Complete the recount").click()
    expect(page.locator(".confirm .confirm-title")).to_have_text("Complete the recount?")
    page.locator(".confirm .confirm-yes").click()
    client.settled()
    card = client.message(case_card)
    expect(card).to_contain_text("A tie for the last seat is left to the lot")
    show_part(card, "Recount completed")
    guide("lot-card")

    client.click(client.message(case_card), "Record the lot")
    client.expect_modal("Record the lot", "case.lot")
    client.type_into("Where", "District office, 120 Main St, board room")
    client.type_into("Drawn by (the canvass board)", "Canvass board: Maya Lindqvist, Lee Park, Ana Ruiz")
    client.type_into("Witnessed by", "Thomas Reed; Priya Natarajan; two members of the public")
    client.choose("Method", "Names drawn from a container")
    client.choose("Who won the lot", "Thomas Reed")
    for name in ("Thomas Reed", "Priya Natarajan"):
        client.date_time(f"Notice of the drawing to {name}: when", "2027-05-06", "16:00")
        client.choose(f"Notice to {name}: how", "Phone")
    guide("lot-modal")
    client.submit()
    client.expect_closed()
    card = client.message(case_card)
    expect(card).to_contain_text("Thomas Reed")
    thread = client.open_thread(card)
    expect(thread.locator(".message", has_text="The lot for the tie").last).to_be_visible()
    thread.locator(".message", has_text="The lot for the tie").last.evaluate(
        "element => element.scrollIntoView({block: 'start'})")
    guide("lot-recorded")
    with db.transaction() as s:
        assert s.scalars(select(LotDrawing)).one().place == "District office, 120 Main St, board room"
    guide.expect_all_of({"08-the-lot-for-ties.md"})


# ====================================================================== 09
def test_observers_follow_the_recount_from_a_shared_link(page, sandbox, db) -> None:
    client, guide = Client(page), GuideImages(page)
    client.send("/recount check")
    client.act_as("staff")
    client.click(client.message(f"Automatic recount: {BEAR}"), "Share observers' link")
    shared = client.message("Observers' link #1")
    expect(shared).to_contain_text("/observe/")
    shared.scroll_into_view_if_needed()
    guide("observers-share")
    client.act_as("requester")
    link = page.locator(".sidebar-observe a", has_text="Observers' link #1")
    expect(link).to_be_visible()
    guide("observers-sidebar")
    with page.context.expect_page() as opened:
        link.click()
    observer = opened.value
    observer.set_viewport_size({"width": 1000, "height": 780})
    observer.wait_for_load_state()
    expect(observer.locator("h1")).to_have_text(BEAR)
    guide("observers-page", page=observer)
    observer.close()
    with db.transaction() as s:
        actions = s.scalars(select(AuditEntry.action).where(AuditEntry.action.like("observer%"))).all()
    assert "observers.page_viewed" in actions
    guide.expect_all_of({"09-observers.md"})
