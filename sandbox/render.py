"""Block Kit as terminal text: messages and modals, the way a person reads them in Slack.

Supported: header, section (text, fields, accessory), context, divider, actions, input (modals), image.
Any other block prints as "[unsupported block: TYPE]" so nothing the bot sent is silently lost.
"""
from __future__ import annotations

import datetime as dt
import functools
import html
import re
from pathlib import Path
from typing import Any, Callable

from rules.calendar import DENVER

RULE = "─" * 48
ButtonLabel = Callable[[str, dict[str, Any]], str]  # (block_id, element) -> "[1] Record notice"
Names = Callable[[str], str]  # user id -> name
_LINK = re.compile(r"<([^<>]+)>")
_CODE = re.compile(r"```.*?```|`[^`\n]+`", re.DOTALL)
# Slack's emphasis: a marker after a start, a space or punctuation, hugging non-space text, on one line.
_MARKERS = tuple(re.compile(rf"(?<![\w{m}]){re.escape(m)}(?=\S)([^{m}\n]*?\S){re.escape(m)}(?![\w{m}])")
                 for m in "*_~")
_EMOJI_CODE = re.compile(r":([a-z0-9_+-]+):")
EMOJI_JS = Path(__file__).resolve().parent / "web" / "static" / "emoji.js"


def default_button(_block_id: str, element: dict[str, Any]) -> str:
    return f"[{text_of(element.get('text'))}]"


def text_of(obj: Any, names: Names = str) -> str:
    """A text object as a person reads it: mrkdwn rendered (see `mrkdwn`), plain_text with its emoji shown.
    Everything the console prints from the bot goes through here or `mrkdwn`: one renderer."""
    if not isinstance(obj, dict):
        return plain(obj or "")
    if obj.get("type") == "mrkdwn":
        return mrkdwn(obj.get("text", ""), names)
    return plain(obj.get("text", "")) if obj.get("emoji", True) else obj.get("text", "")


def plain(text: str) -> str:
    """plain_text as Slack shows it: only its :emoji: codes become emoji (nothing else in it is markup)."""
    return _EMOJI_CODE.sub(lambda m: emoji_table().get(m.group(1), m.group(0)), text)


@functools.lru_cache(maxsize=1)
def emoji_table() -> dict[str, str]:
    """Slack's emoji codes as Unicode: the page's own table (web/static/emoji.js), so both show the same."""
    source = EMOJI_JS.read_text(encoding="utf-8")
    table = {}
    for name, escaped in re.findall(r'(\w+): "((?:\\u\{?[0-9A-Fa-f]+\}?)+)"', source):
        table[name] = "".join(chr(int(code, 16)) for code in re.findall(r"\\u\{?([0-9A-Fa-f]+)\}?", escaped))
    return table


def mrkdwn(text: str, names: Names = str) -> str:
    """Slack's mrkdwn as plain text, the way a person reads it: <@U1> -> @maya, <#C1|x> -> #x, <!here> -> @here,
    <url|label> -> label (url); *bold*, _italic_ and ~strike~ lose their markers (a terminal has no bold, and a
    marker left in reads as a literal star); :emoji: codes become emoji; &lt; &gt; &amp; become < > &.
    `code` keeps its backticks (it marks what to type) and nothing inside it is rendered, as in Slack."""
    kept: list[str] = []

    def keep(rendered: str) -> str:
        kept.append(rendered)
        return f"\x00{len(kept) - 1}\x00"

    def control(match: re.Match) -> str:
        inner = match.group(1)
        target, _, label = inner.partition("|")
        if target.startswith("@"):
            return keep("@" + (label or names(target[1:])))
        if target.startswith("#"):
            return keep("#" + (label or target[1:]))
        if target.startswith("!date^"):
            return keep(label or target)
        if target.startswith("!"):
            return keep(label if label.startswith("@") else "@" + (label or target[1:].split("^")[0]))
        return keep(f"{label} ({target})" if label and label != target else target)

    text = _CODE.sub(lambda m: keep(m.group(0)), text.replace("\x00", ""))
    text = _LINK.sub(control, text)
    for marker in _MARKERS:
        text = marker.sub(r"\1", text)
    text = plain(text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)
    return html.unescape(text)


def _element(element: dict[str, Any], block_id: str, button: ButtonLabel, names: Names) -> str:
    kind = element.get("type")
    if kind == "button":
        return button(block_id, element)
    if kind in ("mrkdwn", "plain_text"):
        return text_of(element, names)
    if kind == "image":
        return f"[image: {element.get('alt_text', '')}]"
    placeholder = text_of(element.get("placeholder"), names)
    return f"[{kind}{': ' + placeholder if placeholder else ''}]"


def _section(block: dict[str, Any], button: ButtonLabel, names: Names) -> list[str]:
    lines = text_of(block.get("text"), names).splitlines() if block.get("text") else []
    for field in block.get("fields") or []:
        lines += ["  " + line for line in text_of(field, names).splitlines()]
    accessory = block.get("accessory")
    if accessory:
        lines.append("  " + _element(accessory, block.get("block_id", ""), button, names))
    return lines


def block_lines(block: dict[str, Any], button: ButtonLabel = default_button, names: Names = str) -> list[str]:
    kind = block.get("type")
    if kind == "header":
        title = text_of(block.get("text"), names)
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
        return [f"{text_of(block.get('label'), names)}{optional}: [{element.get('type', '?')}]"]
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
    title = text_of(view.get("title"), names)
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
