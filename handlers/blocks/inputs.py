"""A modal's input blocks and their elements, one builder each, within Slack's limits.

Every element's action_id is its block's id: handlers/view_state.py reads a submitted view so
(state["values"][block_id][block_id]). Labels, hints and placeholders are plain_text: bounded, never escaped.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Iterable

from handlers.blocks.common import option, plain
from handlers.ids import Block

LABEL_LIMIT = 2000
HINT_LIMIT = 2000
PLACEHOLDER_LIMIT = 150
GROUP_LABEL_LIMIT = 75
SELECT_OPTIONS_LIMIT = 100  # options in a select, and option groups in one
TEXT_LIMIT = 3000  # a plain_text_input's max_length


def block_id_of(block: Block | str) -> str:
    return block.value if isinstance(block, Block) else block


def input_block(block: Block | str, label: str, element: dict[str, Any], *, optional: bool = False,
                hint: str | None = None, dispatch: bool = False) -> dict[str, Any]:
    """An input block holding `element`; `dispatch` sends an action when it changes (a select that redraws)."""
    block_id = block_id_of(block)
    out: dict[str, Any] = {"type": "input", "block_id": block_id, "label": plain(label, LABEL_LIMIT),
                           "element": {**element, "action_id": block_id}, "optional": optional}
    if hint:
        out["hint"] = plain(hint, HINT_LIMIT)
    if dispatch:
        out["dispatch_action"] = True
    return out


def static_select(options: list[dict], *, placeholder: str, initial: str | None = None) -> dict[str, Any]:
    """A static_select element; over 100 options they go in groups of 100 (Slack's limits). `initial` is the
    value of the option selected at first (none when no option has it)."""
    element: dict[str, Any] = {"type": "static_select", "placeholder": plain(placeholder, PLACEHOLDER_LIMIT)}
    if len(options) <= SELECT_OPTIONS_LIMIT:
        element["options"] = options
    else:
        element["option_groups"] = [
            {"label": plain(f"{i + 1}–{min(i + SELECT_OPTIONS_LIMIT, len(options))}", GROUP_LABEL_LIMIT),
             "options": options[i:i + SELECT_OPTIONS_LIMIT]}
            for i in range(0, len(options), SELECT_OPTIONS_LIMIT)][:SELECT_OPTIONS_LIMIT]
    chosen = next((o for o in options if o["value"] == initial), None)
    if chosen is not None:
        element["initial_option"] = chosen
    return element


def word_options(values: Iterable[str]) -> list[dict]:
    """Options of a select whose values are words shown capitalised: "mail" shows as "Mail"."""
    return [option(value.capitalize(), value) for value in values]


def select_input(block: Block | str, label: str, options: list[dict], *, placeholder: str,
                 initial: str | None = None, optional: bool = False, hint: str | None = None,
                 dispatch: bool = False) -> dict[str, Any]:
    return input_block(block, label, static_select(options, placeholder=placeholder, initial=initial),
                       optional=optional, hint=hint, dispatch=dispatch)


def text_input(block: Block | str, label: str, *, max_length: int = 300, optional: bool = False,
               initial: str | None = None, placeholder: str | None = None, multiline: bool = False,
               hint: str | None = None) -> dict[str, Any]:
    """A plain_text_input; `initial` is cut to `max_length` (Slack refuses a longer one)."""
    element: dict[str, Any] = {"type": "plain_text_input", "multiline": multiline,
                               "max_length": min(max_length, TEXT_LIMIT)}
    if initial:
        element["initial_value"] = initial[:max_length]
    if placeholder:
        element["placeholder"] = plain(placeholder, PLACEHOLDER_LIMIT)
    return input_block(block, label, element, optional=optional, hint=hint)


def number_input(block: Block | str, label: str, *, minimum: int = 0, decimal: bool = False, optional: bool = False,
                 initial: int | str | None = None, hint: str | None = None) -> dict[str, Any]:
    element: dict[str, Any] = {"type": "number_input", "is_decimal_allowed": decimal, "min_value": str(minimum)}
    if initial is not None:
        element["initial_value"] = str(initial)
    return input_block(block, label, element, optional=optional, hint=hint)


def date_input(block: Block | str, label: str, *, initial: dt.date | None = None, placeholder: str | None = None,
               optional: bool = False, hint: str | None = None) -> dict[str, Any]:
    element: dict[str, Any] = {"type": "datepicker"}
    if initial is not None:
        element["initial_date"] = initial.isoformat()
    if placeholder:
        element["placeholder"] = plain(placeholder, PLACEHOLDER_LIMIT)
    return input_block(block, label, element, optional=optional, hint=hint)


def moment_input(block: Block | str, label: str, *, initial: dt.datetime, optional: bool = False,
                 hint: str | None = None) -> dict[str, Any]:
    """A date-and-time picker set to `initial` (when something was done: given, delivered, drawn)."""
    element = {"type": "datetimepicker", "initial_date_time": int(initial.timestamp())}
    return input_block(block, label, element, optional=optional, hint=hint)
