"""A use case's refusal is plain words (services/wording.py), and Slack gets it worded once, where it leaves
(handlers/slack_text.said): a name in it escaped exactly once — never left raw, never escaped twice ("&amp;lt;")
— and a person it names mentioned. Through signed requests into the real app; every call walked for a control
sequence the bot did not make (tests/flows/hostile_support.py). The terminal's side: tests/bot/test_cli_import.py.
"""
from __future__ import annotations

from handlers.slack_text import esc, mention
from tests.flows.hostile_support import ELECTION, MARK, hostile_office, walk_everything
from tests.support.slack_app import OFFICIAL, VIEWER, text_of

TYPED = "Water <!channel> & <@U0EVIL0001> <b>Co</b>"


def told(harness, typed: str) -> str:
    before = len(harness.slack.calls_to("response_url"))
    harness.command(typed)
    calls = harness.slack.calls_to("response_url")
    assert len(calls) > before, "nobody was told anything"
    return text_of(calls[-1].args)


def test_a_hostile_name_in_a_refusal_reaches_slack_escaped_exactly_once(harness) -> None:
    hostile_office(harness)
    # NotFound from the use case, naming what was typed and the (hostile) election it looked in.
    answer = told(harness, f"check {TYPED}")
    assert answer.startswith(f"No contest called “{esc(TYPED)}” in {esc(ELECTION)}. Contests: "), answer[:400]
    assert MARK not in answer and "&amp;lt;" not in answer and "&amp;amp;" not in answer

    # A refusal naming a person by their Slack id mentions them; the typed token around it is not echoed.
    answer = told(harness, f"admin approver <@{OFFICIAL}|dana> on")
    assert answer.startswith(f"{mention(OFFICIAL)} is a designated election official and may always decide"), answer
    answer = told(harness, f"admin approver <@{VIEWER}> on")
    assert answer == (f"{mention(VIEWER)} has viewer; an approver needs at least the staff role (`/recount admin role "
                      f"{mention(VIEWER)} staff`).")
    walk_everything(harness)
