"""What someone outside the office can do in the sandbox: open the observers' page of a recount.

C.R.S. 1-13.5-1306(1) lets candidates and issue committees be present and observe a recount; the case card's
"Share observers' link" shows the official a read-only link to pass on (bot/web/observers.py serves it, no
Slack account needed). In life she emails it; in the sandbox, the links the office was shown are listed for the
sandbox's third person (Riley), who opens them in the browser (the page's sidebar) or as text (`observe` at the
console). Each opening is a real GET of the bot's server: counted and audited like any page view.
"""
from __future__ import annotations

import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser

from .office import Sandbox

_LINK = re.compile(r"(/observe/[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])")
_NUMBER = re.compile(r"Observers' link #(\d+)")
_BLOCK_TAGS = {"p", "div", "h1", "h2", "h3", "li", "tr", "section", "header", "footer", "table", "ul", "br"}
_SKIP_TAGS = {"script", "style", "head", "title"}


@dataclass(frozen=True)
class SharedLink:
    label: str  # "Observers' link #1"
    url: str  # on this sandbox's bot server


def shared_links(sandbox: Sandbox) -> list[SharedLink]:
    """Every observers' link the bot has shown anyone (oldest first), pointing at this sandbox's bot."""
    state = sandbox.standin.state
    texts: list[tuple[float, str]] = []
    for person in sandbox.people:
        texts += [(float(m["ts"]), _all_text(m)) for m in state.ephemeral_messages(person.user_id)]
    for channel_id in state.channels():
        texts += [(float(m["ts"]), _all_text(m)) for m in state.messages(channel_id)]
    found: dict[str, SharedLink] = {}
    for _, text in sorted(texts):
        for path in _LINK.findall(text):
            number = _NUMBER.search(text)
            label = f"Observers' link #{number.group(1)}" if number else "Observers' link"
            found.setdefault(path, SharedLink(label, sandbox.url + path))
    return list(found.values())


def _all_text(message: dict) -> str:
    parts = [message.get("text") or ""]
    for block in message.get("blocks") or []:
        parts += [str(value) for value in _strings(block)]
    return "\n".join(parts)


def _strings(node):
    if isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in _SKIP_TAGS:
            self.skipping += 1
        elif tag in _BLOCK_TAGS:
            self.flush()
        elif tag in ("td", "th"):
            self.current.append("  ")

    def handle_endtag(self, tag) -> None:
        if tag in _SKIP_TAGS:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCK_TAGS:
            self.flush()

    def handle_data(self, data) -> None:
        if not self.skipping:
            self.current.append(data)

    def flush(self) -> None:
        line = " ".join("".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []


def page_text(url: str) -> tuple[int, list[str]]:
    """Open the observers' page as a browser would (a GET: a counted, audited view); its status and its text."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=30) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, body = exc.code, exc.read()
    parser = _Text()
    parser.feed(body.decode("utf-8", "replace"))
    parser.close()
    parser.flush()
    return status, parser.lines
