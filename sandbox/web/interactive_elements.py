"""Finding what a person acted on in Block Kit: the interactive elements of a message, modal or App Home, and
the one a click or a change names (by its block, its action and, for a button, its value)."""
from __future__ import annotations

from typing import Any

from . import inputs

INTERACTIVE = {"button", "static_select", "external_select", "multi_static_select", "users_select",
               "multi_users_select", "conversations_select", "channels_select", "overflow", "datepicker",
               "timepicker", "datetimepicker", "checkboxes", "radio_buttons", "plain_text_input", "number_input",
               "email_text_input", "url_text_input"}


def interactive_elements(blocks: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """(block_id, element) for every interactive element: in actions blocks, section accessories, inputs."""
    found = []
    for block in blocks or []:
        kind, block_id = block.get("type"), block.get("block_id", "")
        if kind == "actions":
            found += [(block_id, e) for e in block.get("elements") or []]
        elif kind == "section" and block.get("accessory"):
            found.append((block_id, block["accessory"]))
        elif kind == "input" and block.get("element"):
            found.append((block_id, {**block["element"], "action_id": inputs.action_id_of(block)}))
    return [(b, e) for b, e in found if e.get("type") in INTERACTIVE]


def find_element(blocks: list[dict[str, Any]], block_id: str, action_id: str,
                 value: str | None = None) -> dict[str, Any] | None:
    for found_block, element in interactive_elements(blocks):
        if found_block == block_id and element.get("action_id") == action_id and (
                value is None or element.get("type") != "button" or element.get("value") == value):
            return element
    return None
