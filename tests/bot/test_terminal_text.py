"""The one rule for text written to a terminal (bot/terminal_text.py): a name's control and bidirectional
characters are shown as escapes, never obeyed; a message's own lines are kept, the later ones indented."""
from __future__ import annotations

from bot.terminal_text import escaped, said
from services.wording import Person, words


def test_control_and_bidi_characters_are_shown_not_obeyed() -> None:
    name = "Ann\x1b]0;owned\x07 \u202eseY\u202c\r\u2028Bo"
    assert escaped(name) == "Ann\\x1b]0;owned\\x07 \\u202eseY\\u202c\\r\\u2028Bo"
    assert escaped("José 王秀英 <!channel> &amp;") == "José 王秀英 <!channel> &amp;"  # no other medium's escaping


def test_a_message_keeps_its_lines_each_escaped_the_later_ones_indented() -> None:
    message = words("The record cannot be printed: “Ann\x1b[2J”\n• also ", Person("cli:jane\x1b[31m"),
                    "\nrecount-bot import: done")
    assert said(message).split("\n") == [
        "The record cannot be printed: “Ann\\x1b[2J”", "  • also cli:jane\\x1b[31m", "  recount-bot import: done"]
