"""Block Kit as terminal text: messages and modals, the way a person reads them in Slack.

Supported: header, section (text, fields, accessory), context, divider, actions, input (modals), image.
Any other block prints as "[unsupported block: TYPE]" so nothing the bot sent is silently lost.
"""
from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any, Callable

from rules.calendar import DENVER

RULE = "─" * 48
ButtonLabel = Callable[[str, dict[str, Any]], str]  # (block_id, element) -> "[1] Record notice"
Names = Callable[[str], str]  # user id -> name
_LINK = re.compile(r"<([^<>]+)>")


def default_button(_block_id: str, element: dict[str, Any]) -> str:
    return f"[{text_of(element.get('text'))}]"


def text_of(obj: Any) -> str:
    return obj.get("text", "") if isinstance(obj, dict) else (obj or "")


def mrkdwn(text: str, names: Names = str) -> str:
    """Slack's control sequences as a person sees them: <@U1> -> @maya, <#C1|x> -> #x, <url|label> -> label (url)."""

    def replace(match: re.Match) -> str:
        inner = match.group(1)
        target, _, label = inner.partition("|")
        if target.startswith("@"):
            return "@" + (label or names(target[1:]))
        if target.startswith("#"):
            return "#" + (label or target[1:])
        if target.startswith("!date^"):
            return label or target
        if target.startswith("!"):
            return "@" + (label or target[1:].split("^")[0])
        return f"{label} ({target})" if label and label != target else target

    return html.unescape(_LINK.sub(replace, text))


def _element(element: dict[str, Any], block_id: str, button: ButtonLabel, names: Names) -> str:
    kind = element.get("type")
    if kind == "button":
        return button(block_id, element)
    if kind in ("mrkdwn", "plain_text"):
        return mrkdwn(element.get("text", ""), names) if kind == "mrkdwn" else element.get("text", "")
    if kind == "image":
        return f"[image: {element.get('alt_text', '')}]"
    placeholder = text_of(element.get("placeholder"))
    return f"[{kind}{': ' + placeholder if placeholder else ''}]"


def _section(block: dict[str, Any], button: ButtonLabel, names: Names) -> list[str]:
    lines = mrkdwn(text_of(block.get("text")), names).splitlines() if block.get("text") else []
    for field in block.get("fields") or []:
        lines += ["  " + line for line in mrkdwn(text_of(field), names).splitlines()]
    accessory = block.get("accessory")
    if accessory:
        lines.append("  " + _element(accessory, block.get("block_id", ""), button, names))
    return lines


def block_lines(block: dict[str, Any], button: ButtonLabel = default_button, names: Names = str) -> list[str]:
    kind = block.get("type")
    if kind == "header":
        title = text_of(block.get("text"))
        return [title, "═" * min(len(title), 48)]
    if kind == "section":
        return _section(block, button, names)
    if kind == "context":
        parts = [_element(e, block.get("block_id", ""), button, names) for e in block.get("elements") or []]
        return ["  " + line for line in " · ".join(parts).splitlines()]
    if kind == "divider":
        return [RULE]
    if kind == "actions":
        return ["  ".join(_element(e, block.get("block_id", ""), button, names) for e in block.get("elements") or [])]
    if kind == "image":
        return [f"[image: {block.get('alt_text', '')}]"]
    if kind == "input":
        optional = " (optional)" if block.get("optional") else ""
        element = block.get("element") or {}
        return [f"{text_of(block.get('label'))}{optional}: [{element.get('type', '?')}]"]
    return [f"[unsupported block: {kind}]"]


def message_lines(message: dict[str, Any], button: ButtonLabel = default_button, names: Names = str) -> list[str]:
    """A message's blocks as lines; its `text` when it has no blocks (the notification fallback otherwise)."""
    blocks = message.get("blocks") or []
    if not blocks:
        return mrkdwn(message.get("text") or "", names).splitlines() or [""]
    lines: list[str] = []
    for block in blocks:
        lines += block_lines(block, button, names)
    return lines


def view_lines(view: dict[str, Any], names: Names = str) -> list[str]:
    """A modal: its title, then every block except inputs (the console asks for those one by one)."""
    title = text_of(view.get("title"))
    lines = [f"┌─ {title} " + "─" * max(0, 44 - len(title))]
    for block in view.get("blocks") or []:
        if block.get("type") == "input":
            continue
        lines += ["│ " + line for line in block_lines(block, default_button, names)]
    return lines


def denver_time(epoch: int | float) -> str:
    return dt.datetime.fromtimestamp(epoch, tz=dt.timezone.utc).astimezone(DENVER).strftime("%Y-%m-%d %H:%M")


def clock(ts: str) -> str:
    """A message ts as the time of day in Colorado."""
    try:
        return dt.datetime.fromtimestamp(float(ts), tz=dt.timezone.utc).astimezone(DENVER).strftime("%H:%M")
    except (TypeError, ValueError):
        return "--:--"
