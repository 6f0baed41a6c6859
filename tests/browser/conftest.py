"""The browser sandbox driven by Playwright in Debian's Chromium, headless, as a person would use it.

Skipped (with the reason) when /usr/bin/chromium (or RECOUNT_CHROMIUM) or Playwright is missing, unless
RECOUNT_BROWSER_REQUIRED=1 (CI sets it where it installed Chromium): then that is a failure. Playwright never
downloads a browser here.
Screenshots go to tests/browser/screenshots/ (git-ignored), or to RECOUNT_SCREENSHOTS.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sandbox.clock import DEMO_START, SandboxClock
from sandbox.office import Sandbox
from sandbox.web import WebSandbox
from tests.support.databases import migrated_database

CHROMIUM = Path(os.environ.get("RECOUNT_CHROMIUM") or "/usr/bin/chromium")  # Debian's; never a downloaded one
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(os.environ.get("RECOUNT_SCREENSHOTS") or Path(__file__).parent / "screenshots")


def _unavailable(reason: str) -> None:
    if os.environ.get("RECOUNT_BROWSER_REQUIRED") == "1":
        pytest.fail(f"RECOUNT_BROWSER_REQUIRED=1 but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


def needs_playwright() -> None:
    """At the top of a test module, before importing Playwright: skip the module (or fail, when required)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if os.environ.get("RECOUNT_BROWSER_REQUIRED") == "1":
            raise
        pytest.skip("browser tests skipped: playwright is not installed (pip install -e '.[test]')",
                    allow_module_level=True)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def db(tmp_path):
    """SQLite only: the sandbox's own database (the storage tests cover PostgreSQL)."""
    with migrated_database("sqlite", tmp_path) as database:
        yield database


@pytest.fixture
def sandbox(db, monkeypatch):
    # The example's calendar: three days after its election day, inside the request window.
    sb = Sandbox(db, port=0, clock=SandboxClock(DEMO_START)).start()
    monkeypatch.setenv("PUBLIC_BASE_URL", sb.url)  # the links the bot posts lead to this bot, as the CLI sets
    try:
        yield sb
        assert sb.standin.server_errors == [], "the Slack stand-in failed on a call"
    finally:
        sb.stop()


@pytest.fixture
def web(sandbox):
    with WebSandbox(sandbox, port=0) as running:
        yield running


@pytest.fixture
def page(browser, web, request):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="en-US",
                                  timezone_id="America/Denver")
    context.set_default_timeout(20_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
            if message.type in ("error", "warning") else None)
    page.goto(web.url)
    page.wait_for_selector("body[data-version]", state="attached")
    page.shots = Shots(page, request.node.name)
    try:
        yield page
        assert problems == [], f"the page reported problems: {problems}"
    finally:
        context.close()


class Shots:
    """page.shots("label"): a numbered screenshot of the whole window, named after the test."""

    def __init__(self, page, test_name: str) -> None:
        self.page, self.count = page, 0
        self.prefix = re.sub(r"[^\w-]+", "_", test_name.removeprefix("test_"))[:60]

    def __call__(self, label: str) -> Path:
        self.count += 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.prefix}-{self.count:02d}-{label}.png"
        self.page.screenshot(path=str(path))
        return path
