"""What a person does in the sandbox page, in a person's words: type in the composer, switch people, click a
button on a message, fill in a modal's fields by their labels, submit."""
from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect


class Client:
    def __init__(self, page: Page) -> None:
        self.page = page

    # ----------------------------------------------------------------- waiting
    def settled(self) -> None:
        """Until the page has the sandbox's answer to what was done (the bot has finished by then)."""
        self.page.wait_for_selector("body[data-busy='0']", state="attached")

    # ----------------------------------------------------------------- people and places
    def act_as(self, key: str) -> None:
        self.page.select_option("#as", key)
        self.page.wait_for_selector(f"body[data-as='{key}']", state="attached")
        self.settled()

    def open_channel(self, name: str = "elections") -> None:
        self.page.locator(".sidebar-item", has_text=name).click()

    def open_app(self, tab: str = "Home") -> None:
        self.page.locator(".sidebar-item[data-app]").click()
        if tab != "Home":
            self.page.locator(".tab", has_text=tab).click()
        self.settled()

    # ----------------------------------------------------------------- the composer
    def send(self, text: str, where: str = ".pane") -> None:
        box = self.page.locator(f"{where} .composer-input")
        box.fill(text)
        box.press("Enter")
        self.settled()

    # ----------------------------------------------------------------- messages
    def message(self, text: str, where: str = "#main") -> Locator:
        """The latest message (in the channel, or `where`) that shows `text`."""
        found = self.page.locator(f"{where} .message", has_text=text).last
        expect(found).to_be_visible()
        return found

    def click(self, message: Locator, label: str, *, first: bool = True) -> None:
        buttons = message.get_by_role("button", name=label, exact=True)
        (buttons.first if first else buttons.last).click()
        self.settled()

    def open_thread(self, message: Locator) -> Locator:
        message.locator(".thread-summary").click()
        panel = self.page.locator("#thread")
        expect(panel).to_be_visible()
        return panel

    # ----------------------------------------------------------------- modals
    @property
    def modal(self) -> Locator:
        return self.page.locator("#modal-root .modal")

    def expect_modal(self, title: str, callback_id: str | None = None) -> Locator:
        expect(self.modal.locator(".modal-title")).to_have_text(title)
        if callback_id:
            expect(self.modal).to_have_attribute("data-callback-id", callback_id)
        return self.modal

    def field(self, label: str | None = None, *, block_id: str | None = None) -> Locator:
        if block_id is not None:
            return self.modal.locator(f".input-block[data-block-id='{block_id}']")
        label_re = re.compile(rf"^\s*{re.escape(label)}(\s*\(optional\))?\s*$")
        return self.modal.locator(".input-block").filter(
            has=self.page.locator(".input-label", has_text=label_re)).first

    def type_into(self, label: str, text: str, **where) -> None:
        self.field(label, **where).locator("input, textarea").first.fill(text)

    def choose(self, label: str, option: str, **where) -> None:
        """A static select, a users select, or a radio button / checkbox by its text."""
        block = self.field(label, **where)
        select = block.locator("select")
        if select.count():
            labels = [text.strip() for text in select.locator("option").all_inner_texts()]
            select.select_option(label=next((t for t in labels if t.startswith(option)), option))
        else:
            block.get_by_text(option, exact=True).click()
        self.settled()

    def date_time(self, label: str, day: str, time: str | None = None, **where) -> None:
        block = self.field(label, **where)
        block.locator("input[type=date]").fill(day)
        if time is not None:
            block.locator("input[type=time]").fill(time)

    def submit(self) -> None:
        self.modal.locator(".modal-submit").click()
        self.settled()

    def error_on(self, label: str | None = None, **where) -> Locator:
        return self.field(label, **where).locator(".input-error")

    def expect_closed(self) -> None:
        expect(self.page.locator("#modal-root")).to_be_hidden()
