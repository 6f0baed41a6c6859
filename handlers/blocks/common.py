"""Small Block Kit helpers that keep within Slack's limits; every mrkdwn text passes the escaping rule's gate
(handlers/slack_text.py: `esc` for what a person or a file named, `outgoing` for the whole text)."""
from __future__ import annotations

import datetime as dt
import json
from typing import Any

from handlers.slack_text import bidi_visible, clip, esc, outgoing  # noqa: F401  (esc: the builders import it)
from rules.calendar import DENVER

SECTION_TEXT_LIMIT = 3000
FIELD_LIMIT = 2000
HEADER_LIMIT = 150
CONTEXT_ELEMENTS_LIMIT = 10
MESSAGE_BLOCKS_LIMIT = 50
MODAL_BLOCKS_LIMIT = 100
TITLE_LIMIT = 24
OPTION_TEXT_LIMIT = 75


def plain(text: str, limit: int = SECTION_TEXT_LIMIT) -> dict[str, Any]:
    return {"type": "plain_text", "text": clip(bidi_visible(text), limit, markup=False), "emoji": True}


def md(text: str, limit: int = SECTION_TEXT_LIMIT) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": outgoing(text, limit)}


def header(text: str) -> dict[str, Any]:
    return {"type": "header", "text": plain(text, HEADER_LIMIT)}


def section(text: str, *, fields: list[str] | None = None, accessory: dict | None = None,
            block_id: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "section", "text": md(text)}
    if fields:
        block["fields"] = [md(f, FIELD_LIMIT) for f in fields[:10]]
    if accessory:
        block["accessory"] = accessory
    if block_id:
        block["block_id"] = block_id
    return block


def chunks(lines: list[str], limit: int = SECTION_TEXT_LIMIT) -> list[str]:
    """Lines (mrkdwn) packed into texts of at most `limit` characters, one per section; a line longer than that
    alone is clipped (never cutting an entity or a mention in half)."""
    out, current = [], ""
    for line in lines:
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    return out + ([current] if current else [])


def fields_section(fields: list[str]) -> dict[str, Any]:
    return {"type": "section", "fields": [md(f, FIELD_LIMIT) for f in fields[:10]]}


def context(*texts: str) -> dict[str, Any]:
    return {"type": "context", "elements": [md(t) for t in texts[:CONTEXT_ELEMENTS_LIMIT]]}


def divider() -> dict[str, Any]:
    return {"type": "divider"}


def button(text: str, action_id: str, value: str, *, style: str | None = None,
           confirm: dict | None = None) -> dict[str, Any]:
    element: dict[str, Any] = {"type": "button", "text": plain(text, 75), "action_id": action_id, "value": value}
    if style:
        element["style"] = style
    if confirm:
        element["confirm"] = confirm
    return element


def election_label(election: Any, elections: Any) -> str:
    """An election as a select's option: its name and day; its local government first when another election of
    the office has the same name and day (an office conducting several districts' elections on one day)."""
    same = sum(1 for e in elections if (e.name, e.election_date) == (election.name, election.election_date))
    if same > 1:
        return f"{election.local_government} — {election.name}, {day(election.election_date)}"
    return f"{election.name} — {day(election.election_date)}"


def option(text: str, value: str) -> dict[str, Any]:
    return {"text": plain(text, OPTION_TEXT_LIMIT), "value": value}


def modal(title: str, blocks: list[dict], *, callback_id: str, submit: str | None = None,
          close: str = "Cancel", private_metadata: str = "") -> dict[str, Any]:
    view: dict[str, Any] = {
        "type": "modal", "callback_id": callback_id, "title": plain(title, TITLE_LIMIT),
        "close": plain(close, TITLE_LIMIT), "blocks": blocks[:MODAL_BLOCKS_LIMIT],
    }
    if submit:
        view["submit"] = plain(submit, TITLE_LIMIT)
    if private_metadata:
        if len(private_metadata) > 3000:
            raise ValueError("private_metadata over Slack's 3,000 characters")
        view["private_metadata"] = private_metadata
    return view


def metadata(data: dict[str, Any]) -> str:
    """What a modal carries to its submission (`private_metadata`): compact JSON, read by
    handlers/view_state.metadata_of. `modal` refuses more than Slack's 3,000 characters."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def message_modal(title: str, text: str) -> dict[str, Any]:
    from handlers.ids import View

    return modal(title, [section(text)], callback_id=View.MESSAGE.value, close="Close")


def denver(moment: dt.datetime) -> str:
    """A timestamp as a Colorado clerk reads it: 'Thu 2026-11-05 14:30 MST'."""
    local = moment.astimezone(DENVER)
    return local.strftime("%a %Y-%m-%d %H:%M %Z")


def day(date: dt.date) -> str:
    return date.strftime("%a %Y-%m-%d")
