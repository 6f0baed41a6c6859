"""What a submitted modal holds, read one way everywhere: what was typed, the option selected, the day or moment
picked, the blocks it shows and the JSON it carries in `private_metadata`.

Each input block holds one element whose action_id is the block's id (handlers/blocks/inputs.py builds them so),
so a view's state is read as state["values"][block_id][block_id]. Slack sends what the person did, but a
payload is still input: a missing block reads as nothing chosen, a value of the wrong shape as nothing chosen,
never as an exception.
"""
from __future__ import annotations

import datetime as dt
import json
from typing import Any

from handlers.ids import Block


def value_of(view_state: dict, block: Block | str) -> dict:
    """The element's state in block `block` ({} when the view has no such block)."""
    key = block.value if isinstance(block, Block) else block
    return view_state.get("values", {}).get(key, {}).get(key, {})


def typed(view_state: dict, block: Block | str) -> str:
    """What was typed in a text input, without the spaces around it; "" when nothing was."""
    value = value_of(view_state, block).get("value")
    return value.strip() if isinstance(value, str) else ""


def selected(view_state: dict, block: Block | str) -> str | None:
    """The value of the option selected in a select; None when none is."""
    value = (value_of(view_state, block).get("selected_option") or {}).get("value")
    return value if isinstance(value, str) else None


def date_picked(view_state: dict, block: Block | str) -> dt.date | None:
    """A date picker's day; None when none was picked or Slack sent something that is not a date."""
    raw = value_of(view_state, block).get("selected_date")
    try:
        return dt.date.fromisoformat(raw) if isinstance(raw, str) and raw else None
    except ValueError:
        return None


def moment_picked(view_state: dict, block: Block | str) -> dt.datetime | None:
    """A date-and-time picker's moment (timezone-aware, UTC); None when none was picked or it is no timestamp."""
    stamp = value_of(view_state, block).get("selected_date_time")
    if isinstance(stamp, bool) or not isinstance(stamp, (int, str)):
        return None
    try:
        return dt.datetime.fromtimestamp(int(stamp), tz=dt.timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None


def shown_blocks(view: dict) -> set[str]:
    """The ids of the blocks a view shows: a field error goes only on one of them."""
    return {b["block_id"] for b in view.get("blocks", []) if isinstance(b, dict) and b.get("block_id")}


def metadata_of(view: dict) -> dict[str, Any]:
    """The JSON object a modal carries in `private_metadata` ({} when it carries none, or no object)."""
    try:
        data = json.loads(view.get("private_metadata") or "{}")
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def case_form(view: dict) -> tuple[dict, int]:
    """A submitted modal about one recount case: its state, and the case its metadata names."""
    return view.get("state", {}), int(metadata_of(view)["case_id"])
