"""Unicode's directional controls in names never reach Slack as controls (issue 23, item 13): a contest, a choice, a
requester, a contact, a reference and a decision's note carrying U+202E (right-to-left override) and its kin,
through the request form, its card, the decision and the case card, over signed HTTP into the real app. Every Web
API call the bot made is walked: no explicit directional formatting character is in any of them, and the card
shows where each was ("[U+202E]"), so the clerk sees the name carried one (handlers/slack_text.bidi_visible)."""
from __future__ import annotations

import json
import re

from tests.flows.conftest import load_example
from tests.flows.test_request_flow import choose_contest, decide, details, grant, open_form, request_card
from tests.support.slack_app import OFFICIAL, STAFF, text_of

CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
CONTEST = "Pine Ridge \u202eDirector"
SAM = "Sam \u2067Okafor\u2069"
RETURNS = f"""contest,choice,votes,kind,unit
{CONTEST},Dana Whitfield,800,candidate,Precinct 1
{CONTEST},Dana Whitfield,747,candidate,Precinct 2
{CONTEST},{SAM},611,candidate,Precinct 1
{CONTEST},{SAM},590,candidate,Precinct 2
"""


def test_directional_controls_in_names_are_shown_never_sent(harness, tmp_path) -> None:
    survey = tmp_path / "survey.csv"
    survey.write_text(RETURNS, encoding="utf-8")
    load_example(harness, path=survey)
    grant(harness, STAFF, "staff")
    # The form's choices (plain_text options) show the names as the card will.
    view = choose_contest(harness, open_form(harness), "Pine Ridge [U+202E]Director")
    values = details(view, contest="Pine Ridge [U+202E]Director", name="Sam \u202eRejected",
                     contact="\u2066sam@example.org", in_favor_of="Sam [U+2067]Okafor[U+2069]",
                     reference="Letter \u202bR-01\u202c")
    assert harness.submit(view, values, user=STAFF).status == 200
    card = request_card(harness)
    shown = text_of(card)
    assert "Sam [U+202E]Rejected" in shown and "[U+2066]sam@example.org" in shown
    assert "Pine Ridge [U+202E]Director" in shown and "Sam [U+2067]Okafor[U+2069]" in shown
    assert decide(harness, card, note="Timely \u202eyes", user=OFFICIAL).status == 200
    harness.settle()

    calls = harness.slack.calls
    assert any(c.method == "chat.postMessage" and "[U+202E]" in json.dumps(c.args, ensure_ascii=False)
               for c in calls)
    for call in calls:
        sent = json.dumps(call.args, ensure_ascii=False)
        found = CONTROLS.search(sent)
        assert found is None, f"{call.method} sent U+{ord(found.group()):04X}: {sent[max(found.start() - 60, 0):][:160]}"
