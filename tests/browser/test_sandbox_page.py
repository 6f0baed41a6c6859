"""The sandbox page as a Slack client: what it shows and to whom. Some messages and views are put into the
Slack stand-in directly (as the bot would put them there), to show what the bot does not send today."""
from __future__ import annotations

import re

import pytest

from sandbox.people import CHANNEL
from tests.browser.conftest import needs_playwright

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

from tests.browser.client import Client  # noqa: E402

pytestmark = pytest.mark.slow

DANA, SAM, RILEY = "U0OFFMAYA1", "U0STAFFTHEO", "U0REQRILEY"


def test_a_block_the_page_cannot_show_is_named_not_dropped(page, sandbox) -> None:
    blocks = [
        {"type": "section", "text": {"type": "mrkdwn", "text": "Before the unknown block"}},
        {"type": "video", "title": {"type": "plain_text", "text": "Training"}, "video_url": "https://example.org/v"},
        {"type": "actions", "elements": [
            {"type": "workflow_button", "text": {"type": "plain_text", "text": "Run"}, "action_id": "w"},
            {"type": "button", "text": {"type": "plain_text", "text": "Still a button"}, "action_id": "b"}]},
        {"type": "section", "text": {"type": "mrkdwn", "text": "After the unknown block"}},
    ]
    # Posted straight into the stand-in: it reaches the page as a live update, nothing clicked.
    sandbox.standin.state.post_message(CHANNEL.id, text="an injected message", blocks=blocks)
    message = Client(page).message("Before the unknown block")
    expect(message.locator(".block-unsupported")).to_have_text("unsupported block: video")
    expect(message.locator(".unsupported")).to_have_text("unsupported element: workflow_button")
    expect(message.get_by_role("button", name="Still a button")).to_be_visible()
    expect(message).to_contain_text("After the unknown block")
    page.shots("unsupported")


def test_mrkdwn_is_rendered_and_nothing_anyone_writes_becomes_markup(page, sandbox) -> None:
    text = ("*bold* _italic_ ~struck~ `code &lt;b&gt;` <@U0STAFFTHEO> <#C0ELECTION|elections> "
            "<https://example.org/results?a=1&amp;b=2|the results> <!here> :white_check_mark: :not_an_emoji: "
            "snake_case_name 2*3*4\nsecond line\n&gt; a quote\n```\npre *not bold* &lt;i&gt;\n```\n"
            "&lt;img src=x onerror=alert(1)&gt; <javascript:alert(1)|a bad link>")
    sandbox.standin.state.post_message(CHANNEL.id, text="fallback", blocks=[
        {"type": "section", "text": {"type": "mrkdwn", "text": text}},
        {"type": "context", "elements": [{"type": "plain_text", "text": "plain *not bold* :warning:", "emoji": True}]},
    ])
    message = Client(page).message("second line")
    body = message.locator(".section-text")
    expect(body.locator("b.md-b")).to_have_text("bold")
    expect(body.locator("i.md-i")).to_have_text("italic")
    expect(body.locator("s.md-s")).to_have_text("struck")
    expect(body.locator("code.md-code")).to_have_text("code <b>")
    expect(body.locator(".mention").nth(0)).to_have_text("@theo")
    expect(body.locator(".mention").nth(1)).to_have_text("#elections")
    expect(body.locator(".mention").nth(2)).to_have_text("@here")
    link = body.locator("a.md-link", has_text="the results")
    expect(link).to_have_attribute("href", "https://example.org/results?a=1&b=2")
    expect(link).to_have_attribute("target", "_blank")
    expect(body.locator(".emoji[title=':white_check_mark:']")).to_have_text("\u2705")
    expect(body).to_contain_text(":not_an_emoji:")
    expect(body).to_contain_text("snake_case_name 2*3*4")  # no emphasis inside words
    expect(body.locator("br")).not_to_have_count(0)
    expect(body.locator("blockquote.md-quote")).to_have_text("a quote")
    expect(body.locator("pre.md-pre")).to_have_text("pre *not bold* <i>")
    expect(body).to_contain_text("<img src=x onerror=alert(1)>")
    expect(body.locator("img")).to_have_count(0)
    expect(body.locator("a", has_text="a bad link")).to_have_count(0)  # only web and mail links are links
    context = message.locator(".block-context")
    expect(context).to_contain_text("plain *not bold*")
    expect(context.locator(".emoji")).to_have_text("\u26A0\uFE0F")
    page.shots("mrkdwn")

    # What a person types is escaped by Slack, and shown as they typed it.
    Client(page).send("<b>not bold</b> & <script>alert(1)</script>")
    mine = Client(page).message("not bold</b>")
    expect(mine.locator(".message-author")).to_have_text("Maya Lindqvist")
    expect(mine.locator("b, script")).to_have_count(0)
    assert sandbox.standin.state.messages(CHANNEL.id)[-1]["text"] == (
        "&lt;b&gt;not bold&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;")


def test_an_ephemeral_message_is_shown_only_to_its_recipient(page, sandbox) -> None:
    client = Client(page)
    client.act_as("requester")
    client.send("/recount check")
    told = client.message("You need the staff role")
    expect(told).to_have_class(re.compile("message-ephemeral"))
    expect(told.locator(".ephemeral-label")).to_have_text("Only visible to you")
    page.shots("ephemeral")
    client.act_as("official")
    expect(page.locator(".message", has_text="You need the staff role")).to_have_count(0)
    client.act_as("requester")
    told = client.message("You need the staff role")
    told.get_by_role("button", name="Dismiss message").click()
    client.settled()
    expect(page.locator(".message", has_text="You need the staff role")).to_have_count(0)


def test_the_user_switcher_acts_as_each_person(page, sandbox) -> None:
    client = Client(page)
    for key, name in (("official", "Maya Lindqvist"), ("staff", "Theo Grant"), ("requester", "Riley Chen")):
        client.act_as(key)
        expect(page.locator("#as")).to_have_value(key)
        expect(page.locator(".sidebar-person.is-me")).to_contain_text(name)
        assert f"as={key}" in page.url  # a second tab can act as someone else
        client.send("/recount help")
        role = {"official": "official", "staff": "staff", "requester": "none yet"}[key]
        expect(client.message(f"Your role here: {role}")).to_be_visible()
    page.shots("switcher")
    recipients = {m["recipient"] for u in (DANA, SAM, RILEY) for m in sandbox.standin.state.ephemeral_messages(u)}
    assert recipients == {DANA, SAM, RILEY}


def test_the_app_home_tab_shows_what_the_bot_published_for_the_person(page, sandbox) -> None:
    client = Client(page)
    client.send("/recount check")
    client.open_app("Home")
    home = page.locator(".home-view")
    expect(home).to_contain_text("Open recount cases")
    expect(home).to_contain_text("Bear Creek Fire Protection District - Ballot Issue 6A")
    assert sandbox.standin.state.home_view(DANA) is not None  # published by the bot on app_home_opened
    page.shots("app-home")
    client.act_as("requester")  # each person has their own Home, published when they open it
    expect(page.locator(".home-view")).to_contain_text("no role")
    client.open_app("About")
    expect(page.locator(".about")).to_contain_text("/recount")
    client.open_app("Messages")
    expect(page.locator(".pane .composer-input")).to_have_attribute("placeholder", "Message recount-bot")


def test_modal_stack_pushed_views_go_back_and_the_x_closes_all(page, sandbox) -> None:
    state = sandbox.standin.state
    view = {"type": "modal", "title": {"type": "plain_text", "text": "First"},
            "close": {"type": "plain_text", "text": "Cancel"},
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "the first view"}}]}
    state.open_view(state.issue_trigger_id(DANA), view)
    client = Client(page)
    client.expect_modal("First")
    state.push_view(state.issue_trigger_id(DANA), {**view, "title": {"type": "plain_text", "text": "Second"},
                                                    "blocks": [{"type": "section", "text": {"type": "mrkdwn",
                                                                                          "text": "pushed"}}]})
    client.expect_modal("Second")
    expect(client.modal.locator(".modal-back")).to_be_visible()
    page.shots("pushed")
    client.modal.locator(".modal-back").click()
    client.expect_modal("First")
    assert [v["title"]["text"] for v in state.open_views(DANA)] == ["First"]
    state.push_view(state.issue_trigger_id(DANA), {**view, "title": {"type": "plain_text", "text": "Again"}})
    client.expect_modal("Again")
    client.modal.locator(".modal-close").click()
    client.expect_closed()
    assert state.open_views(DANA) == []


def test_the_composer_suggests_the_apps_commands(page) -> None:
    box = page.locator(".pane .composer-input")
    box.fill("/rec")
    suggestion = page.locator(".suggestions .suggestion").first
    expect(suggestion).to_contain_text("/recount")
    box.press("Tab")
    expect(box).to_have_value("/recount ")
    box.type("che")
    expect(page.locator(".suggestions .suggestion").first).to_contain_text("/recount check [contest]")
    page.shots("suggestions")
    box.press("Enter")
    expect(box).to_have_value("/recount check ")


def test_a_permalink_to_a_message_here_opens_it_here(page, sandbox) -> None:
    state = sandbox.standin.state
    _, parent = state.post_message(CHANNEL.id, text="the card")
    _, reply = state.post_message(CHANNEL.id, text="the reply in its thread", thread_ts=parent["ts"])
    _, link = state.permalink(CHANNEL.id, reply["ts"])
    state.post_message(CHANNEL.id, text=f"See <{link}|the reply> and <https://example.org|elsewhere>.")
    message = Client(page).message("See the reply")
    expect(message.locator("a", has_text="elsewhere")).to_have_attribute("target", "_blank")
    message.locator("a", has_text="the reply").click()
    panel = page.locator("#thread")
    expect(panel.locator(f".message[data-ts='{reply['ts']}']")).to_have_class(re.compile("is-highlighted"))
    assert len(page.context.pages) == 1  # opened here, not in a new tab
