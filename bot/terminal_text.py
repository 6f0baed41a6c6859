"""The one rule for text the bot writes to a terminal (the CLI's answers and errors, text log lines).

A name in a message — a contest, a file, a candidate, a person's id — may hold what a terminal acts on: an
escape sequence that repaints the screen or retitles the window (ESC, CSI), a carriage return or a newline that
writes over the line or forges a line of its own, the Unicode line separators, and the bidirectional overrides and
isolates that reorder what is shown (a name that reads "Yes" and is "seY"). `escaped` writes each of them as a
Python escape (\\x1b, \\r, \\u202e): the character is visible, never obeyed.

What a use case said (services/wording.py: plain words, a person as the id the bot holds) leaves through `said`:
its lines kept (a refusal may list one problem per line), each escaped, every line after the first indented, so
no line of a message reads as the start of another command's output.
"""
from __future__ import annotations

from services.wording import Message, plain_words

_UNSAFE = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ESCAPES = {code: repr(chr(code))[1:-1] for code in _UNSAFE}
CONTINUATION = "  "


def escaped(text: str) -> str:
    """`text` on one line: its control characters as Python escapes (\\n, \\x1b, \\u2028)."""
    return text.translate(_ESCAPES)


def said(message: Message) -> str:
    """What a use case said, for a terminal: its own lines kept, each escaped, the later ones indented."""
    return ("\n" + CONTINUATION).join(escaped(line) for line in plain_words(message).split("\n"))
