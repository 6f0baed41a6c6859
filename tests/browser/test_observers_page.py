"""The observers' page (C.R.S. 1-13.5-1306(1)) in Debian's Chromium, headless, as a candidate would watch it: the
link a staff member shared from the case card, open in a browser with no Slack account, follows the count live
(tally sheets entered through signed requests into the real app appear without a reload), under its strict
Content-Security-Policy (a violation is a console error, which fails the test); once the link expires the open
page says so, and opening it again is refused."""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import needs_playwright
from tests.flows.test_conduct_flow import enter_sheet, voting_machines_case
from tests.support.slack_app import STAFF, SlackHarness

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

pytestmark = pytest.mark.slow
LINK = re.compile(r"<(https?://[^/|>]+)(/observe/[A-Za-z0-9_-]{43})\|")


@pytest.fixture
def harness(db):
    h = SlackHarness(db, observer_poll_ms=300)  # the page asks every 0.3 s here (5 s by default)
    try:
        yield h
        assert h.slack.server_errors == [], "the Slack stand-in failed on a call"
    finally:
        h.close()


@pytest.fixture
def viewer(browser):
    context = browser.new_context(locale="en-US", timezone_id="America/Denver")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
    # A CSP violation is reported on the console as an error: none may happen.
    page.on("console", lambda message: page.problems.append(f"console {message.type}: {message.text}")
            if message.type == "error" and "410" not in message.text else None)
    try:
        yield page
    finally:
        context.close()


def shared_link(harness, card) -> str:
    before = len(harness.slack.calls_to("response_url"))
    harness.click(harness.slack.state.message(card["channel"], card["ts"]), "observers.share", user=STAFF)
    said = harness.wait("response_url", count=before + 1)[-1].args["text"]
    [(_, path)] = LINK.findall(said)
    return harness.server.url + path


def test_the_observers_page_follows_the_count_live_and_refuses_an_expired_link(harness, viewer) -> None:
    card = voting_machines_case(harness)  # Ballot Issue 6A, voting machines M-01 and M-02, double entry
    card.setdefault("channel", "C0ELECTION")
    url = shared_link(harness, card)
    navigations: list[str] = []
    viewer.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == viewer.main_frame else None)

    response = viewer.goto(url)
    assert response.status == 200 and "script-src 'nonce-" in response.headers["content-security-policy"]
    expect(viewer.locator("h1")).to_have_text("Bear Creek Fire Protection District - Ballot Issue 6A")
    expect(viewer.locator("#progress")).to_contain_text("0 of 2 units tallied")
    expect(viewer.locator("#live-note")).to_contain_text("Last checked", timeout=5_000)  # polling, 304s

    # M-01 entered twice and agreeing: counted; the page shows it without a reload.
    enter_sheet(harness, "T-1", "M-01", "2208", "2190", user="U0OFFICIAL")
    enter_sheet(harness, "T-1", "M-01", "2208", "2190")
    expect(viewer.locator("#progress")).to_contain_text("1 of 2 units tallied")
    expect(viewer.locator("#totals")).to_contain_text("2,208")
    expect(viewer.locator("#units")).to_contain_text("counted")

    # M-02's two entries disagree: the disagreement shows, the unit does not count.
    enter_sheet(harness, "T-2", "M-02", "2131", "2128", user="U0OFFICIAL")
    enter_sheet(harness, "T-2", "M-02", "2131", "2129")
    expect(viewer.locator("#disagreements")).to_contain_text("No 2,128 (entry 1) vs 2,129 (entry 2)")
    expect(viewer.locator("#progress")).to_contain_text("1 of 2 units tallied")
    assert navigations == [url]  # one load: everything after came by polling
    assert viewer.problems == []

    # The link expires: the open page says so at its next poll, and stops; opening it again is refused.
    harness.clock.advance(days=30)
    expect(viewer.locator("#live-note")).to_contain_text("This observers' link has expired")
    expect(viewer.locator("body")).to_have_attribute("data-state", "gone")
    response = viewer.goto(url)
    assert response.status == 410
    expect(viewer.locator("#gone")).to_contain_text("has expired")
    altered = url[:-1] + ("A" if url[-1] != "A" else "B")
    assert viewer.goto(altered).status == 404
