"""What Slack's client does with a modal's inputs before the bot ever sees a submission.

The page sends the state of each input as Slack keeps it ({block_id: {action_id: state}}); here it is
completed (an input the person never touched is sent with its initial value, or empty) and checked as
Slack's client checks it: a required input left empty, a number that is not one or is out of range, text
shorter than `min_length`. Only a submission that passes reaches the bot; otherwise the errors are shown
on their fields, exactly where the bot's own `response_action: errors` appear.

A date-and-time picker shows the person's own time zone; the page sends what they picked as local
"YYYY-MM-DDTHH:MM" and it becomes the epoch seconds Slack sends (`selected_date_time`).

A `file_input` holds files the person uploaded (the page uploads each to the Slack stand-in first); the page
sends their ids and they become the file objects Slack sends (`files`), found by `files(file_id)`. Slack's
client keeps to the element's `filetypes` and `max_files`, and so does this.
"""
from __future__ import annotations

import datetime as dt
import decimal
import re
import zoneinfo
from typing import Any, Callable

Values = dict[str, dict[str, dict[str, Any]]]

REQUIRED = "Please complete this required field."
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
URL = re.compile(r"^https?://\S+$", re.IGNORECASE)

# The key of each element's state, and what "empty" is for it.
STATE_KEYS: dict[str, tuple[str, Any]] = {
    "plain_text_input": ("value", None), "number_input": ("value", None), "email_text_input": ("value", None),
    "url_text_input": ("value", None), "static_select": ("selected_option", None),
    "external_select": ("selected_option", None), "multi_static_select": ("selected_options", []),
    "users_select": ("selected_user", None), "multi_users_select": ("selected_users", []),
    "conversations_select": ("selected_conversation", None), "channels_select": ("selected_channel", None),
    "multi_conversations_select": ("selected_conversations", []), "multi_channels_select": ("selected_channels", []),
    "datepicker": ("selected_date", None), "timepicker": ("selected_time", None),
    "datetimepicker": ("selected_date_time", None), "checkboxes": ("selected_options", []),
    "radio_buttons": ("selected_option", None), "file_input": ("files", []),
}
FileLookup = Callable[[str], "dict[str, Any] | None"]  # a file id -> the person's uploaded file, as Slack sends it
INITIAL_KEYS = {"value": "initial_value", "selected_option": "initial_option", "selected_options": "initial_options",
                "selected_user": "initial_user", "selected_users": "initial_users",
                "selected_conversation": "initial_conversation", "selected_channel": "initial_channel",
                "selected_conversations": "initial_conversations", "selected_channels": "initial_channels",
                "selected_date": "initial_date", "selected_time": "initial_time",
                "selected_date_time": "initial_date_time"}


def action_id_of(block: dict[str, Any]) -> str:
    """The element's action_id (Slack makes one up when the app gave none; the block's id stands in here)."""
    return (block.get("element") or {}).get("action_id") or block.get("block_id", "")


def input_blocks(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in view.get("blocks") or [] if b.get("type") == "input"]


def initial_state(element: dict[str, Any]) -> dict[str, Any]:
    kind = element.get("type", "")
    key, empty = STATE_KEYS.get(kind, ("value", None))
    value = element.get(INITIAL_KEYS.get(key, ""), empty)  # a file_input starts empty: Slack has no initial files
    if isinstance(value, list):
        value = list(value)
    if key == "value" and value is not None:
        value = str(value)
    return {"type": kind, key: value}


def _options(element: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(element.get("options") or [])
    for group in element.get("option_groups") or []:
        found += group.get("options") or []
    return found


def _is_empty(state: dict[str, Any], key: str) -> bool:
    value = state.get(key)
    return value is None or value == "" or value == [] or (isinstance(value, str) and not value.strip())


def _local_to_epoch(local: str, tz: str) -> int:
    moment = dt.datetime.fromisoformat(local)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zoneinfo.ZoneInfo(tz))
    return int(moment.timestamp())


class Checked:
    """The completed values and the errors, by block_id."""

    def __init__(self) -> None:
        self.values: Values = {}
        self.errors: dict[str, str] = {}


def check(view: dict[str, Any], given: Values, *, tz: str = "America/Denver",
          files: FileLookup | None = None) -> Checked:
    out = Checked()
    for block in input_blocks(view):
        block_id, action_id = block.get("block_id", ""), action_id_of(block)
        element = block.get("element") or {}
        kind = element.get("type", "")
        sent = ((given.get(block_id) or {}).get(action_id))
        state = dict(sent) if isinstance(sent, dict) else initial_state(element)
        state["type"] = kind
        key, empty = STATE_KEYS.get(kind, ("value", None))
        error = None
        try:
            state = _normalise(element, state, key, tz, files)
        except ValueError as problem:
            error = str(problem)
        if error is None and _is_empty(state, key):
            state[key] = empty
            if not block.get("optional"):
                error = REQUIRED
        elif error is None:
            error = _limits(element, state, key)
        out.values[block_id] = {action_id: state}
        if error:
            out.errors[block_id] = error
    return out


def normalise_element(element: dict[str, Any], state: dict[str, Any], *, tz: str = "America/Denver",
                      files: FileLookup | None = None) -> dict[str, Any]:
    """An element's state as Slack sends it (a chosen option as the app defined it, a local date and time as
    epoch seconds). ValueError when the state cannot be the element's."""
    kind = element.get("type", "")
    key, _ = STATE_KEYS.get(kind, ("value", None))
    if kind == "overflow":
        key = "selected_option"
    return _normalise(element, {**state, "type": kind}, key, tz, files)


def _files(element: dict[str, Any], given: Any, files: FileLookup | None) -> list[dict[str, Any]]:
    """The file objects of the ids the page sent: each one this person uploaded, of a type the element takes."""
    found = []
    for item in given if isinstance(given, list) else []:
        file_id = item.get("id") if isinstance(item, dict) else item
        file = files(str(file_id)) if files is not None and file_id else None
        if file is None:
            raise ValueError("That file is not one you uploaded; attach it again.")
        kinds = [str(t).lower() for t in element.get("filetypes") or []]
        if kinds and str(file.get("filetype") or "").lower() not in kinds:
            raise ValueError(f"{file.get('name')} is not a file this field takes ({', '.join(kinds)}).")
        found.append(file)
    most = element.get("max_files")
    if most and len(found) > int(most):
        raise ValueError(f"Please attach no more than {most} file{'s' if int(most) != 1 else ''}.")
    return found


def _normalise(element: dict[str, Any], state: dict[str, Any], key: str, tz: str,
               files: FileLookup | None = None) -> dict[str, Any]:
    kind = element.get("type")
    if kind == "file_input":
        state[key] = _files(element, state.get(key), files)
    elif kind == "datetimepicker":
        local = state.pop("local", None)
        if local:
            try:
                state[key] = _local_to_epoch(str(local), tz)
            except ValueError:
                raise ValueError("Please choose a date and a time.") from None
        elif local is not None:
            state[key] = None
    elif kind == "number_input" and state.get(key) not in (None, ""):
        state[key] = str(state[key]).strip()
    elif kind in ("static_select", "radio_buttons", "overflow") and state.get(key):
        # What Slack sends is the option as the app defined it, not whatever the page says it was.
        chosen = next((o for o in _options(element) if o.get("value") == state[key].get("value")), None)
        if chosen is None:
            raise ValueError("That choice is not one of the options.")
        state[key] = chosen
    elif kind in ("checkboxes", "multi_static_select") and state.get(key):
        wanted = {o.get("value") for o in state[key] if isinstance(o, dict)}
        state[key] = [o for o in _options(element) if o.get("value") in wanted]
    return state


def _limits(element: dict[str, Any], state: dict[str, Any], key: str) -> str | None:
    kind, value = element.get("type"), state.get(key)
    if kind in ("plain_text_input", "email_text_input", "url_text_input"):
        low, high = element.get("min_length"), element.get("max_length")
        if low and len(value) < int(low):
            return f"Please enter at least {low} characters."
        if high and len(value) > int(high):
            return f"Please enter no more than {high} characters."
        if kind == "email_text_input" and not EMAIL.match(value):
            return "Please enter a valid email address."
        if kind == "url_text_input" and not URL.match(value):
            return "Please enter a valid URL."
    if kind == "number_input":
        try:
            number = decimal.Decimal(value)
        except decimal.InvalidOperation:
            return "Please enter a number."
        if not number.is_finite():
            return "Please enter a number."
        if not element.get("is_decimal_allowed") and number != number.to_integral_value():
            return "Please enter a whole number."
        low, high = element.get("min_value"), element.get("max_value")
        if low not in (None, "") and number < decimal.Decimal(str(low)):
            return f"Please enter a number greater than or equal to {low}."
        if high not in (None, "") and number > decimal.Decimal(str(high)):
            return f"Please enter a number less than or equal to {high}."
    if kind in ("checkboxes", "multi_static_select", "multi_users_select"):
        most = element.get("max_selected_items")
        if most and len(value) > int(most):
            return f"Please choose no more than {most}."
    return None
