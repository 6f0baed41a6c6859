"""The escaping rule (handlers/slack_text.py), and the walk that enforces it (tests/flows/hostile_support.py) shown to
fail where it must: a test that cannot fail enforces nothing."""
from __future__ import annotations

import pytest

from handlers.slack_text import (
    ECHO_LIMIT,
    ERROR_LIMIT,
    channel_link,
    clip,
    echo,
    esc,
    field_error,
    link,
    mention,
    outgoing,
    said,
)
from services.errors import UserError
from services.wording import Person, words
from tests.flows.hostile_support import Allowed, Walk, hostile, mrkdwn_problems, walk_call

ALLOWED = Allowed(users={"U0OFFICIAL"}, channels={"C0ELECTION"}, team_domain="recount-test")


# ---------------------------------------------------------------- part 1: names are escaped
def test_a_name_is_escaped_so_nothing_in_it_is_read_as_a_control_sequence() -> None:
    name = "Water <!channel> & <@U0OFFICIAL> <#C0ELECTION> <https://evil.example|x> District"
    assert esc(name) == ("Water &lt;!channel&gt; &amp; &lt;@U0OFFICIAL&gt; &lt;#C0ELECTION&gt; "
                         "&lt;https://evil.example|x&gt; District")
    assert mrkdwn_problems(esc(name), ALLOWED) == []
    assert esc(None) == ""


def test_an_echo_is_bounded_on_one_line_then_escaped() -> None:
    flood = "<!channel>\n" * 6_000
    echoed = echo(flood)
    assert echoed.endswith("…") and "<" not in echoed and "\n" not in echoed
    assert len(echoed.replace("&lt;", "<").replace("&gt;", ">")) == ECHO_LIMIT
    assert echo("12b") == "12b" and echo("a & b", limit=3) == "a …"


# ---------------------------------------------------------------- part 2: the bot's own sequences
def test_mentions_are_made_only_of_slack_user_ids() -> None:
    assert mention("U0OFFICIAL") == "<@U0OFFICIAL>" and mention("W0ENTERPRISE1") == "<@W0ENTERPRISE1>"
    assert mention("cli:jane") == "cli:jane"  # the CLI's actor: text, not a mention
    assert mention("U1><!channel") == "U1&gt;&lt;!channel"
    assert mention("") == "someone" and mention(None) == "someone"
    assert channel_link("C0ELECTION") == "<#C0ELECTION>" and channel_link("D0DM12345") == "<#D0DM12345>"
    assert channel_link("<!here>") == "&lt;!here&gt;"


def test_links_are_made_only_to_http_addresses_with_an_escaped_label() -> None:
    assert link("https://recount.example.org/certificates/abc", "Ann <!here>") == \
        "<https://recount.example.org/certificates/abc|Ann &lt;!here&gt;>"
    assert link("javascript:alert(1)", "click") == "click"
    assert link("https://x.example/a>b|c", "<x>") == "&lt;x&gt;"


# ---------------------------------------------------------------- part 3: the gate
@pytest.mark.parametrize("sent, received", [
    ("<!channel> meeting", "&lt;!channel&gt; meeting"),
    ("<!here|here>", "&lt;!here|here&gt;"),
    ("<!subteam^S123|@board>", "&lt;!subteam^S123|@board&gt;"),
    ("<!everyone>", "&lt;!everyone&gt;"),
    ("<mailto:a@b.example|mail>", "&lt;mailto:a@b.example|mail&gt;"),
    ("<@cli:jane>", "&lt;@cli:jane&gt;"),
    ("<#general>", "&lt;#general&gt;"),
    ("AT&T 1<2 3>2", "AT&amp;T 1&lt;2 3&gt;2"),  # Slack would read "<2 3>" as a sequence
    ("1 < 2", "1 &lt; 2"), ("3 > 2", "3 > 2"),  # a lone > inside a line is shown as it is
    ("> a quote\nb > c", "&gt; a quote\nb > c"),
    ("<@U0OFFICIAL> in <#C0ELECTION>", "<@U0OFFICIAL> in <#C0ELECTION>"),
    ("<https://x.example/p?a=1&b=2|the card>", "<https://x.example/p?a=1&b=2|the card>"),
    ("<https://x.example|a & b>", "<https://x.example|a &amp; b>"),
    ("&lt;already&gt; &amp; escaped", "&lt;already&gt; &amp; escaped"),
    ("<<!channel>>", "&lt;&lt;!channel&gt;&gt;"),
])
def test_the_gate_keeps_the_bots_sequences_and_escapes_everything_else(sent: str, received: str) -> None:
    assert outgoing(sent) == received
    assert outgoing(received) == received  # idempotent: escaped text passes unchanged


def test_the_gate_bounds_and_never_cuts_an_entity_or_a_sequence_in_half() -> None:
    assert outgoing("<!channel>" * 10_000, 100).endswith("…")
    assert len(outgoing("x" * 50_000)) == 40_000
    for limit in range(2, 30):
        cut = clip("ab &amp; <@U0OFFICIAL> cd", limit)
        assert len(cut) <= limit and mrkdwn_problems(cut, ALLOWED) == [], (limit, cut)


def test_a_field_error_is_plain_text_what_was_typed() -> None:
    # A use case's refusal is plain words (services/wording.py): under a field, Slack shows them as they are.
    assert field_error("“<!channel> & co” is listed twice.") == "“<!channel> & co” is listed twice."
    assert field_error("“&lt;b&gt;” is listed twice.") == "“&lt;b&gt;” is listed twice."  # typed so, shown so
    assert field_error(words(Person("U0OFFICIAL"), " has no role")) == "U0OFFICIAL has no role"
    assert len(field_error("x" * 5_000)) == ERROR_LIMIT


# ---------------------------------------------------------------- what a use case said
def test_a_refusal_is_escaped_once_and_its_people_mentioned() -> None:
    name = "Water <!channel> & <@U0EVIL0001> District"
    refused = UserError(words("No contest called “", name, "”; ", Person("U0OFFICIAL"), " and ",
                              Person("cli:jane <!here>"), " may decide it instead."))
    text = said(refused.words)
    assert text == (f"No contest called “{esc(name)}”; <@U0OFFICIAL> and cli:jane &lt;!here&gt; may decide it "
                    "instead.")
    assert "&amp;lt;" not in text and "&amp;amp;" not in text  # escaped once, never twice
    assert mrkdwn_problems(text, ALLOWED) == []
    assert said("AT&T <b>") == "AT&amp;T &lt;b&gt;" and said(words(Person(None), " acted")) == "someone acted"
    # Its plain words, for a test or a log: the person as the id the bot holds.
    assert refused.message == f"No contest called “{name}”; U0OFFICIAL and cli:jane <!here> may decide it instead."


# ---------------------------------------------------------------- the walk can fail
def test_the_walk_finds_every_kind_of_unescaped_sequence() -> None:
    for raw in ("<!channel>", "<!here>", "<!subteam^S1>", "<@U0EVIL0001>", "<#C0EVIL0001>", "<https://evil.example|x>",
                "<mailto:a@b.example>", "AT&T", "1 < 2", "\n> quoted"):
        assert mrkdwn_problems(f"Water {raw} District", ALLOWED), raw
    assert mrkdwn_problems("69,200 > 1,547", ALLOWED) == []  # a lone > inside a line is shown as it is
    assert mrkdwn_problems("<@U0OFFICIAL> in <#C0ELECTION> &amp; &lt;x&gt;", ALLOWED) == []
    assert mrkdwn_problems("<https://recount-test.slack.com/archives/C0ELECTION/p1|its card>", ALLOWED) == []


def test_the_walk_looks_at_text_comments_blocks_views_and_plain_text() -> None:
    walk = Walk()
    walk_call("chat.postMessage", {"text": "<!here>", "blocks": '[{"type": "section", "text": '
                                   '{"type": "mrkdwn", "text": "<@U0EVIL0001>"}}]'}, ALLOWED, walk)
    walk_call("files.completeUploadExternal", {"initial_comment": "<#C0EVIL0001>"}, ALLOWED, walk)
    walk_call("views.open", {"view": {"blocks": [{"type": "header", "text": {"type": "plain_text",
                                                                                "text": "Ann &lt;x&gt;"}}]}},
              ALLOWED, walk)
    walk_call("chat.update", {"text": "x" * 3_001, "blocks": [{"type": "divider"}]}, ALLOWED, walk)
    assert len(walk.problems) == 5, walk.problems
    assert walk.distinct() == 4


def test_a_hostile_name_fits_its_field_and_carries_a_broadcast() -> None:
    for limit in (75, 100, 200, 300):
        name = hostile("Tag", limit)
        assert len(name) <= limit and "<!channel>" in name and "<@U0EVIL0001>" in name


def test_plain_text_is_cut_where_it_is() -> None:
    assert clip("AT&T Broadband", 8, markup=False) == "AT&T Br…"
    assert clip("AT&T Broadband", 8) == "AT…"  # in markup, half an entity is never left behind
