"""`/recount help` names every results format the readers know (rules/returns/registry.py), each with where its
files come from, escaped for Slack like any other text."""
from __future__ import annotations

from rules.returns.registry import KNOWN_AS, READERS
from tests.support.slack_app import OUTSIDER, text_of


def test_help_lists_every_format_read_with_its_source(harness) -> None:
    assert harness.command("help", user=OUTSIDER).status == 200
    [answer] = harness.wait("response_url")
    text = text_of(answer.args)
    assert "*Results files I read*" in text
    lines = [line for line in text.splitlines() if line.startswith("• ")]
    assert [line.split("(`")[1].split("`)")[0] for line in lines] == list(READERS)
    assert "• Dominion statement of votes (`dominion-sov`) — 62 of Colorado's 64 counties (Results Tally &amp; " \
           "Reporting; Adams, Boulder, Clear Creek, Jefferson, Larimer, Park as published)" in lines
    assert "• county long-form export (`county-export`) — counties' election-management exports (Arapahoe " \
           "2010-2020 .xls, Delta)" in lines
    for name, known in KNOWN_AS.items():
        assert any(f"(`{name}`) — " in line and known.title in line for line in lines), name
