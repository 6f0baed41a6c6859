"""What a use case says to a person, in no medium's markup.

A use case words its refusals (`services.errors.UserError`) and the few texts it hands up (who may decide instead,
the notices still owed) in plain words: names as they were written, no Slack escaping, no terminal escaping.
Input echoed back to the person who typed it goes through `echoed`: one line, and cut, so a pasted page is not
said back whole.

Each medium words a message for itself, once, where it leaves: `handlers.slack_text.said` for Slack's mrkdwn
(every text escaped, people mentioned) and `field_error` for a modal's plain-text field errors; `bot.terminal_text
.said` for a terminal (control and bidirectional characters written as escapes). A use case that escaped a name
itself would have it escaped twice in Slack ("&amp;lt;") and shown as "&lt;" in a terminal.

A person the bot holds by id (a Slack user id, or the CLI's `cli:jane`) is a `Person` part of `Words`: Slack
mentions a Slack user, a terminal writes the id. A message naming nobody that way is a plain `str`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, TypeAlias

# Input echoed back to the person who typed it ("No contest called “…”"): enough to recognise it.
ECHO_LIMIT = 100
ELLIPSIS = "…"
# People named in a refusal ("A, B or C may decide it instead"); more are counted.
NAMED = 5


def echoed(text: str | None, limit: int = ECHO_LIMIT) -> str:
    """Input said back to whoever typed it (an unknown contest, a date that is not one): on one line (a newline
    would break the message it is quoted in), at most `limit` characters, an ellipsis marking a cut."""
    raw = " ".join((text or "").split())
    return raw if len(raw) <= limit else raw[: max(limit - len(ELLIPSIS), 0)] + ELLIPSIS


@dataclass(frozen=True)
class Person:
    """A person named by the id the bot holds for them: the one who acted, a stored actor. None is "someone"."""

    actor: str | None


Part: TypeAlias = "str | Person"


@dataclass(frozen=True)
class Words:
    """A message made of text and people, in order. Build one with `words`; read it with a medium's `said`
    (or `plain_words` where no medium applies: a test, an exception's str)."""

    parts: tuple[Part, ...]


Message: TypeAlias = "str | Words"


def words(*parts: str | Person | Words) -> Words:
    """One message of `parts` in order: texts, people, and other messages (flattened)."""
    out: list[Part] = []
    for part in parts:
        for piece in part.parts if isinstance(part, Words) else (part,):
            if isinstance(piece, str) and out and isinstance(out[-1], str):
                out[-1] += piece
            elif piece != "":
                out.append(piece)
    return Words(tuple(out))


def plain_words(message: Message) -> str:
    """The message as plain text: a person as the id the bot holds ("someone" when none)."""
    if isinstance(message, str):
        return message
    return "".join(p if isinstance(p, str) else (p.actor or "someone") for p in message.parts)


def either_of(actors: Sequence[str], *, shown: int = NAMED) -> Words:
    """People who may do something instead: "A", "A or B", "A, B or C", or the first `shown` "and 3 more"."""
    people = [Person(actor) for actor in actors[:shown]]
    more = len(actors) - len(people)
    if more:
        return words(joined(people, ", "), f" and {more} more")
    if len(people) > 1:
        return words(joined(people[:-1], ", "), " or ", people[-1])
    return words(*people)


def joined(parts: Sequence[str | Person | Words], separator: str) -> Words:
    """`parts` one after the other, `separator` between them: `str.join` for messages that may name people."""
    out: list[str | Person | Words] = []
    for index, part in enumerate(parts):
        if index:
            out.append(separator)
        out.append(part)
    return words(*out)
