"""The one rule for text the bot sends to Slack.

Slack reads control sequences in message text — the top-level `text` of chat.postMessage, chat.update,
chat.postEphemeral and response_url messages (also when it is only the fallback of a message with blocks: it
is what notifications are made from), mrkdwn text objects, a file's initial comment: `<!channel>`, `<!here>`,
`<!subteam^S…>` notify many people, `<@U…>` notifies one, `<#C…>` links a channel, `<https://x|y>` is a link
that says something else than where it goes. `&`, `<` and `>` are its three control characters.

The rule, in three parts:

1. Whatever a person or a file named — a contest, a choice, a requester, a note, a file name, a unit, a
   reference, a Slack display name — goes into text through `esc` (or `echo`, for input echoed back to the
   person who typed it: also cut to `ECHO_LIMIT` characters). Escaped, `<!channel>` reads as itself.
   What a use case says (a refusal, `UserError`) is plain words with names as written (services/wording.py):
   it goes into text through `said`, which escapes its every text and mentions its people, once.
2. The bot's own control sequences come only from `mention`, `channel_link` and `link`, built from what Slack
   gave the bot (the id of the person who acted, a stored actor, a channel id) or an address the bot made
   (a certificate link, a permalink). An id is checked against Slack's id format: a stored actor that is not
   a Slack user (the CLI's `cli:jane`) is written as text, not as a mention. Typed text never becomes one of
   these: part 1 escaped it before it got near.
3. Every text leaves through `outgoing` (`md()` for mrkdwn blocks, the handlers' posting helpers and the
   outbox for `text`): it keeps a mention only of a Slack-shaped user id, a channel link only of a
   channel-shaped id, a link only to an http(s) address, and escapes everything else that Slack would read —
   a broadcast (`<!…>`), any other `<…>`, a bare `<`, a bare `&`, a `>` opening a line (a quote) — and bounds
   the length. It is idempotent (escaped text passes unchanged), so a name that missed part 1 still cannot
   notify a channel.

plain_text objects (headers, buttons, options, titles, labels) and a modal's field errors are not parsed by
Slack: they show what they hold, so they are bounded, never escaped (an escaped name would show "&lt;");
`field_error` gives a refusal's plain words, bounded.

Besides Slack's markup, Unicode's own: the explicit directional formatting characters (U+202A-U+202E embeddings
and overrides, U+2066-U+2069 isolates) reorder what is shown, within a name and past its end (a requester named
"Sam\u202eRejected" reads "Sam detcejeR" and turns whatever follows backwards). `bidi_visible` shows each as its
code point, "[U+202E]", so the clerk sees that the name carries one and reads the rest as typed; `esc`, `outgoing`
and `field_error` apply it, and so does every plain_text the block builders make (handlers/blocks/common.plain).
Right-to-left letters themselves, and the marks U+200E/U+200F/U+061C (which reorder nothing), are left as they are.
"""
from __future__ import annotations

import re

from services.wording import ECHO_LIMIT, ELLIPSIS, Message, Person, echoed, plain_words

# Slack truncates a message's text beyond 40,000 characters and refuses longer ones (msg_too_long).
TEXT_LIMIT = 40_000
# The fallback of a message with blocks: what a notification or a screen reader gets, never the whole message.
FALLBACK_LIMIT = 3_000

USER_ID = re.compile(r"[UW][A-Z0-9]{2,}")
CHANNEL_ID = re.compile(r"[CGD][A-Z0-9]{2,}")
# One control sequence as Slack reads it: from `<` to the next `>`, no `<` inside.
_SEQUENCE = re.compile(r"<([^<>]*)>")
# What Slack would read in text outside a control sequence: `<` opens one, `&` starts an entity, `>` starts a
# quote at the start of a line (elsewhere a lone `>` is shown as it is; names have theirs escaped by `esc`).
_BARE = re.compile(r"&(?!amp;|lt;|gt;)|<|^>", re.MULTILINE)
_BARE_REPLACE = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_URL = re.compile(r"https?://[^\s<>|]+")
# Unicode's explicit directional embeddings, overrides and isolates, and the characters that end them.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def bidi_visible(text: str) -> str:
    """Each explicit directional formatting character in `text` as its code point ("[U+202E]"): nothing a name
    holds reorders what Slack shows. Idempotent."""
    return _BIDI_CONTROLS.sub(lambda m: f"[U+{ord(m.group()):04X}]", text)


def esc(text: str | None) -> str:
    """A name a person or a file gave, as text in a mrkdwn field or a message's `text`: Slack's three control
    characters escaped, so nothing in it is read as a mention, a channel, a link or a broadcast."""
    return bidi_visible((text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def clip(text: str, limit: int, *, markup: bool = True) -> str:
    """At most `limit` characters, an ellipsis marking a cut. In markup (mrkdwn, a message's text) a cut never
    splits an entity (`&amp;`) or a control sequence (`<@U1>`): half of one would read as a bare `&` or `<`.
    Plain text (`markup=False`) is cut where it is."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - len(ELLIPSIS), 0)]
    for opener, closer in (("&", ";"), ("<", ">")) if markup else ():
        start = cut.rfind(opener)
        if start != -1 and closer not in cut[start:]:
            cut = cut[:start]
    return cut + ELLIPSIS


def echo(text: str | None, limit: int = ECHO_LIMIT) -> str:
    """Input echoed back to whoever typed it (an unknown contest, subcommand, case number): on one line, bounded
    (`services.wording.echoed`), then escaped."""
    return esc(echoed(text, limit))


def mention(actor: str | None) -> str:
    """`<@U…>` for a Slack user id the bot holds (the person who acted, a stored actor). Anything else (the CLI's
    `cli:jane`, an empty value) is written as escaped text: it is no Slack user to mention."""
    actor = actor or ""
    if USER_ID.fullmatch(actor):
        return f"<@{actor}>"
    return esc(actor) or "someone"


def said(message: Message) -> str:
    """What a use case said (a refusal's `exc.words`, plain words: services/wording.py) as mrkdwn: every text
    escaped, every person mentioned. The one way a service's message reaches a Slack message or mrkdwn block."""
    if isinstance(message, str):
        return esc(message)
    return "".join(mention(part.actor) if isinstance(part, Person) else esc(part) for part in message.parts)


def channel_link(channel_id: str | None) -> str:
    """`<#C…>` for a channel id the bot holds; anything else as escaped text."""
    channel_id = channel_id or ""
    if CHANNEL_ID.fullmatch(channel_id):
        return f"<#{channel_id}>"
    return esc(channel_id) or "the channel"


def link(url: str, label: str) -> str:
    """`<url|label>` for an address the bot made (a certificate link, a permalink); `label` is escaped. An address
    that is not a plain http(s) URL is written as text, not as a link."""
    if not _URL.fullmatch(url or ""):
        return esc(label)
    return f"<{url}|{esc(label)}>"


def _sequence(match: re.Match) -> str:
    inner = match.group(1)
    target, bar, label = inner.partition("|")
    kept = ((target[:1] == "@" and USER_ID.fullmatch(target[1:]))
            or (target[:1] == "#" and CHANNEL_ID.fullmatch(target[1:]))
            or _URL.fullmatch(target))
    if not kept:
        return f"&lt;{_escape_bare(inner)}&gt;"
    return f"<{target}{bar}{_escape_bare(label)}>" if bar else f"<{target}>"


def _escape_bare(text: str) -> str:
    return _BARE.sub(lambda m: _BARE_REPLACE[m.group(0)], text)


def outgoing(text: str | None, limit: int = TEXT_LIMIT) -> str:
    """The gate every mrkdwn text and message `text` passes on its way to Slack (part 3 of the rule): keeps the
    bot's own mentions, channel links and http(s) links, escapes every other control sequence and bare control
    character, and bounds the length. Escaped text passes unchanged."""
    text = bidi_visible(text or "")
    out, last = [], 0
    for match in _SEQUENCE.finditer(text):
        out.append(_escape_bare(text[last:match.start()]))
        out.append(_sequence(match))
        last = match.end()
    out.append(_escape_bare(text[last:]))
    return clip("".join(out), limit)


def fallback(text: str | None) -> str:
    """The top-level `text` of a message whose blocks carry the content: what notifications show."""
    return outgoing(text, FALLBACK_LIMIT)


# A modal's field error: Slack shows it under the field as plain text.
ERROR_LIMIT = 1_500


def field_error(message: Message | None) -> str:
    """A refusal shown under a modal's field (`response_action: errors`). Slack shows it as plain text, never as
    a message: nothing in it notifies anyone, and an escaped name there would read "&lt;". So it is the
    refusal's plain words (a person as their id), bidi controls made visible, bounded; never escaped."""
    return clip(bidi_visible(plain_words(message or "")), ERROR_LIMIT, markup=False)
