"""The sandbox's third person does what someone outside the office really can: Riley Chen, an elector, opens the
observers' page of a recount (C.R.S. 1-13.5-1306(1): candidates and issue committees may be present and
observe), from the link the official shared on the case card. The page's sidebar lists the links the office
passed on; the link opens the bot's own observers' page in a new tab, without Slack, and the view is audited."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from storage.models import AuditEntry
from tests.browser.conftest import needs_playwright

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

from tests.browser.client import Client  # noqa: E402

pytestmark = pytest.mark.slow

BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"


def test_riley_opens_the_observers_page_the_official_shared(page, sandbox, db) -> None:
    client = Client(page)
    client.act_as("requester")
    observe = page.locator(".sidebar-observe")
    expect(observe).to_contain_text("None shared with you yet")
    client.act_as("official")
    expect(page.locator(".sidebar-observe")).to_have_count(0)  # the office shares links; it is not shown them
    client.send("/recount check")
    client.click(client.message(f"Automatic recount: {BEAR}"), "Share observers' link")
    expect(client.message("Observers' link #1")).to_contain_text("/observe/")

    client.act_as("requester")
    link = page.locator(".sidebar-observe a", has_text="Observers' link #1")
    expect(link).to_have_attribute("href", f"{sandbox.url}/observe/" + link.get_attribute("href").rsplit("/", 1)[1])
    page.shots("riley-sidebar")
    with page.context.expect_page() as opened:
        link.click()
    observer = opened.value
    observer.wait_for_load_state()
    expect(observer.locator("h1")).to_have_text(BEAR)
    expect(observer.locator("body")).to_contain_text("may be present during and observe the recount")
    observer.close()
    with db.transaction() as s:
        views = s.scalars(select(AuditEntry.action).where(AuditEntry.action == "observers.page_viewed")).all()
    assert views == ["observers.page_viewed"]
