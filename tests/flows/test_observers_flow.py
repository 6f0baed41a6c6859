"""Observers' links from the case card (C.R.S. 1-13.5-1306(1)), through signed requests into the real app and the
real HTTP server: staff share a link, shown only to them; the thread and the card say a link exists without
showing it; the page answers; a viewer may not share; revoking from the card makes the page answer 410."""
from __future__ import annotations

import re

from sqlalchemy import select

from storage.models import AuditEntry
from tests.flows.hostile_support import ESCAPED_MARK, MARK, hostile_office, walk_everything
from tests.flows.test_conduct_flow import card_text, current, issue_card, start_counting, thread_texts
from tests.support.slack_app import OFFICIAL, STAFF, VIEWER, text_of

LINK = re.compile(r"<(https?://[^/|>]+)(/observe/[A-Za-z0-9_-]{43})\|")


def told(harness, before: int) -> str:
    return harness.wait("response_url", count=before + 1)[-1].args["text"]


def told_count(harness) -> int:
    return len(harness.slack.calls_to("response_url"))


def audited(harness, prefix: str = "observers.") -> list[tuple[str, str]]:
    with harness.db.transaction() as s:
        return [(e.action, e.actor) for e in s.scalars(select(AuditEntry).where(AuditEntry.action.like(prefix + "%"))
                                                      .order_by(AuditEntry.id))]


def test_staff_share_a_link_only_they_see_and_revoke_it_from_the_card(harness) -> None:
    card = issue_card(harness)
    start_counting(harness, card)
    shown = card_text(harness, card)
    assert "*Observers* (C.R.S. 1-13.5-1306(1))" in shown and "No observers' link shared yet." in shown

    # A viewer may not share one.
    before = told_count(harness)
    harness.click(current(harness, card), "observers.share", user=VIEWER)
    assert "You need the staff role" in told(harness, before)
    assert audited(harness) == []

    # Staff share: the link comes back in an ephemeral answer only.
    before = told_count(harness)
    harness.click(current(harness, card), "observers.share", user=STAFF)
    answer = harness.slack.calls_to("response_url")[before]
    assert answer.args.get("response_type") == "ephemeral"
    said = told(harness, before)
    [(origin, path)] = LINK.findall(said)
    assert "Observers' link #1" in said and "only you see this message" in said and "C.R.S. 1-13.5-1306(1)" in said
    token = path.rsplit("/", 1)[1]
    thread = thread_texts(harness, card)[-1]
    assert "Observers' link #1 made by <@U0STAFF001>" in thread and token not in thread
    assert all(token not in str(call.args) for call in harness.slack.calls if call.method != "response_url")
    shown = card_text(harness, card)
    assert "Link #1 by <@U0STAFF001>, works until" in shown and "not viewed yet" in shown and token not in shown

    page = harness.get(path)
    assert page.status == 200 and b"Bear Creek Fire Protection District - Ballot Issue 6A" in page.body

    # A second click at once is the same click: no second link.
    before = told_count(harness)
    harness.click(current(harness, card), "observers.share", user=STAFF)
    assert "moments ago" in told(harness, before)
    assert audited(harness, "observers.link_made") == [("observers.link_made", STAFF)]

    # Revoked from the card: the page answers 410, the card drops the link, the thread says so.
    harness.click(current(harness, card), "observers.revoke", user=OFFICIAL, value="1")
    assert harness.get(path).status == 410
    assert "Observers' link #1 revoked by <@U0OFFICIAL>" in thread_texts(harness, card)[-1]
    assert "No observers' link shared yet." in card_text(harness, card)
    assert [a for a, _ in audited(harness)] == ["observers.link_made", "observers.page_viewed",
                                                "observers.link_revoked"]


def test_sharing_and_revoking_on_a_hostile_case_sends_nothing_unescaped(harness) -> None:
    hostile_office(harness)
    harness.command("check")
    card = next(m for m in harness.posted() if m["text"].startswith("Automatic recount") and ESCAPED_MARK in m["text"])
    harness.click(card, "observers.share", user=STAFF)
    [(_, path)] = LINK.findall(harness.slack.calls_to("response_url")[-1].args["text"])
    page = harness.get(path).body.decode()
    assert MARK not in page and "&lt;!channel&gt;" in page  # the page escapes for HTML, as Slack text for Slack
    harness.click(current(harness, card), "observers.revoke", user=STAFF, value="1")
    assert "is revoked" in text_of(harness.slack.calls_to("response_url")[-1].args)
    walk = walk_everything(harness)  # the cards, thread posts and answers with the links, hostile names around
    assert walk.calls["response_url"] >= 2


def test_the_card_counts_each_links_page_loads_as_the_database_does(harness) -> None:
    """Loads of the page are counted on the card, link by link, as they are in the database; polls are not."""
    card = issue_card(harness)
    start_counting(harness, card)
    paths = []
    for user in (STAFF, OFFICIAL):
        before = told_count(harness)
        harness.click(current(harness, card), "observers.share", user=user)
        paths.append(LINK.findall(told(harness, before))[0][1])
    assert "not viewed yet" in card_text(harness, card)
    for path, loads in zip(paths, (2, 3), strict=True):
        for _ in range(loads):
            assert harness.get(path).status == 200
        assert harness.get(path + "/state.json").status == 200  # a poll: no view
    harness.settle()
    shown = card_text(harness, card)
    assert re.search(r"Link #1 by <@U0STAFF001>, works until [^\n]* · viewed 2 times", shown), shown
    assert re.search(r"Link #2 by <@U0OFFICIAL>, works until [^\n]* · viewed 3 times", shown), shown
    assert "not viewed yet" not in shown
    with harness.db.transaction() as s:
        from storage.models import ObserverLink

        assert [r.views for r in s.scalars(select(ObserverLink).order_by(ObserverLink.id))] == [2, 3]
