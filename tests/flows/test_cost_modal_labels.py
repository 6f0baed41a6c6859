"""The cost modal says "(optional)" once: Slack (and the sandbox, drawing the same Block Kit) adds the word to an
optional input's label itself, so a label must not carry it as well."""
from __future__ import annotations

from sandbox.render import block_lines
from tests.flows.test_requested_case_flow import open_modal, requested_card
from tests.support.slack_app import STAFF


def test_every_optional_field_of_the_cost_modal_says_optional_once(harness) -> None:
    card = requested_card(harness)
    view = open_modal(harness, card, "case.cost", user=STAFF)
    inputs = [b for b in view["blocks"] if b["type"] == "input"]
    assert not [b["label"]["text"] for b in inputs if "optional" in b["label"]["text"].lower()]
    shown = [line for b in inputs for line in block_lines(b)]
    assert "Who (optional): [plain_text_input]" in shown and "What (optional): [plain_text_input]" in shown
    assert all(line.count("(optional)") <= 1 for line in shown), shown
