"""A reload of the sandbox page is a new Slack client: a modal left open in it does not come back (Slack does not
restore a modal after its client reloads). The sandbox closes the modals that tab had opened, as their X would
(the Slack stand-in no longer holds them), so the reloaded page shows none and a click opens a live one again.
A modal another tab opened stays open there. A sandbox restarted behind the same port is followed too."""
from __future__ import annotations

import pytest

from tests.browser.conftest import needs_playwright

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

from tests.browser.client import Client  # noqa: E402

pytestmark = pytest.mark.slow

BEAR = "Automatic recount: Bear Creek Fire Protection District"
MAYA = "U0OFFMAYA1"


def open_notice_modal(client: Client) -> None:
    client.click(client.message(BEAR), "Record notice")
    client.expect_modal("Record notice", "notice.record")


def test_a_reload_shows_no_modal_left_open_and_a_click_opens_a_live_one(page, sandbox) -> None:
    client = Client(page)
    client.send("/recount check")
    open_notice_modal(client)
    client.type_into("Given by", "Dana Whitfield")
    assert len(sandbox.standin.state.open_views(MAYA)) == 1

    page.reload()
    page.wait_for_selector("body[data-version]", state="attached")
    client.settled()
    expect(page.locator("#modal-root")).to_be_hidden()
    assert sandbox.standin.state.open_views(MAYA) == []  # closed in Slack too, not only hidden
    page.shots("reloaded-no-modal")

    open_notice_modal(client)  # the card's button still works: a fresh, live modal, empty
    expect(client.field("Given by").locator("input")).to_have_value("")
    [view] = sandbox.standin.state.open_views(MAYA)
    assert client.modal.get_attribute("data-view-id") == view["id"]


def test_a_modal_another_tab_opened_stays_open_when_this_one_reloads(page, browser, web, sandbox) -> None:
    client = Client(page)
    client.send("/recount check")
    other = page.context.new_page()  # a second tab: its own Slack client
    try:
        other.goto(web.url)
        other.wait_for_selector("body[data-version]", state="attached")
        open_notice_modal(Client(other))
        page.reload()
        page.wait_for_selector("body[data-version]", state="attached")
        client.settled()
        assert len(sandbox.standin.state.open_views(MAYA)) == 1
        expect(Client(other).modal.locator(".modal-title")).to_have_text("Record notice")
    finally:
        other.close()


def test_an_open_page_follows_the_sandbox_restarted_behind_its_port(browser, sandbox, web) -> None:
    """Its own tab: while the page server is down, the page's requests fail (the browser logs that), as they
    would while `recount-bot sandbox` restarts."""
    from sandbox.people import CHANNEL
    from sandbox.web import WebSandbox

    context = browser.new_context(locale="en-US", timezone_id="America/Denver")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(web.url)
        page.wait_for_selector("body[data-version]", state="attached")
        client = Client(page)
        client.send("/recount check")  # the page now holds a high version number
        port = web.server.port
        web.stop()
        restarted = WebSandbox(sandbox, port=port).start()  # a new page server: its versions start again at 0
        try:
            assert restarted.server.port == port
            sandbox.standin.state.post_message(CHANNEL.id, text="after the restart")
            expect(page.locator("#main .message", has_text="after the restart")).to_be_visible(timeout=10_000)
        finally:
            restarted.stop()
        assert errors == []
    finally:
        context.close()
