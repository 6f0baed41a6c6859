"""The console prints text, not Slack markup: everything it shows from the bot (messages, cards, ephemeral
answers, modals and their questions) goes through one renderer (sandbox/render.py). Driven through the
real console, in-process: typed lines go to the real bot as signed Slack requests."""
from __future__ import annotations

import re

from sandbox.render import emoji_table, mrkdwn, text_of
from tests.sandbox.test_console import BEAR, button_on, console, do, sandbox  # noqa: F401 - fixtures

# What Slack would have turned into something else: a control sequence, an entity, an emoji code, emphasis.
MARKUP = re.compile(r"<[@#!][^>]*>|<https?://|&(?:lt|gt|amp);|:(?:warning|white_check_mark|hourglass_flowing_sand"
                    r"|rotating_light|scales|eyes|no_entry):|(?<![\w*])\*\S[^*\n]*\*(?![\w*])|(?<![\w_])_\S[^_\n]*_(?!\w)")


def names(uid: str) -> str:
    return {"U0OFFMAYA1": "maya"}.get(uid, uid)


def test_mrkdwn_is_text_as_a_person_reads_it() -> None:
    said = mrkdwn(":warning: *Governing body:* _not yet_ ~given~ by <@U0OFFMAYA1> in <#C0ELECTION|elections> "
                  "<!here> <!subteam^S1|@clerks> see <https://x.test/a_b|the page> &lt;b&gt; &amp; `a *b* c` "
                  "2*3*4 file_name_x <@U0OFFMAYA1|the_official>", names)
    assert said == ("⚠️ Governing body: not yet given by @maya in #elections @here @clerks see the page "
                    "(https://x.test/a_b) <b> & `a *b* c` 2*3*4 file_name_x @the_official")
    # A hostile name, escaped by the bot, reads as what was typed, and notifies nobody.
    assert mrkdwn("Contest &lt;!channel&gt; *&lt;@U1&gt;*") == "Contest <!channel> <@U1>"
    assert text_of({"type": "plain_text", "text": ":scales: *as typed*"}) == "⚖️ *as typed*"
    assert emoji_table()["white_check_mark"] == "✅"


def test_every_emoji_the_bot_sends_has_a_glyph() -> None:
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    used = {m for folder in ("handlers", "bot") for path in (root / folder).rglob("*.py")
            for m in re.findall(r":([a-z][a-z0-9_]+):", path.read_text(encoding="utf-8"))}
    not_emoji = {"dm", "memory", "emoji"}  # "sqlite:///:memory:", ":emoji: codes" in comments
    assert used - not_emoji - set(emoji_table()) == set()


def test_the_console_prints_cards_links_and_modals_as_text(console, sandbox) -> None:
    checked = do(console, "/recount check")
    assert "🚨 RECOUNT · Cherry Creek Valley Water and Sanitation District - Director · 2 seats" in checked
    assert "checked by @maya" in checked and "Governing body:" in checked
    shared = do(console, f"click {next(n for n, b in console.buttons.items() if b.label == 'Share observers' + chr(39) + ' link')}")
    assert "👀 Observers' link #1" in shared and "/observe/" in shared
    modal = do(console, f"click {button_on(console, BEAR)}", "/cancel")
    assert "┌─ Record notice" in modal and f"Notice of the recount of {BEAR}" in modal
    helped = do(console, "/recount help")
    assert "`/recount check [contest]`" in helped  # what to type keeps its backticks
    for out in (checked, shared, modal, helped):
        assert MARKUP.findall(out) == [], MARKUP.findall(out)


def test_the_requester_opens_the_observers_page_the_office_shared(console, sandbox, db) -> None:
    from sqlalchemy import select

    from storage.models import AuditEntry

    do(console, "as requester")
    assert "No observers' link has been shared yet" in do(console, "observe")
    do(console, "as official")
    do(console, "/recount check")
    do(console, f"click {next(n for n, b in console.buttons.items() if b.label == 'Share observers' + chr(39) + ' link')}")
    do(console, "as requester")
    listed = do(console, "observe")
    assert re.search(rf"1\) Observers' link #1: {re.escape(sandbox.url)}/observe/[\w-]{{43}}", listed), listed
    page = do(console, "observe 1")
    assert "(HTTP 200)" in page and "Cherry Creek Valley Water and Sanitation District - Director" in page
    assert "may be present during and observe the recount (C.R.S. 1-13.5-1306(1))" in page
    assert "Counting has not started." in page
    assert "No observers' link 7; type observe to list them." in do(console, "observe 7")
    with db.transaction() as s:  # a real page view, audited as any browser's
        assert s.scalars(select(AuditEntry.action).where(AuditEntry.action == "observers.page_viewed")).all()
