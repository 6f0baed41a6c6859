"""The name of the governing body owed the notices of C.R.S. 1-13.5-1306(1) and (6), in one place.

An office types the body's name as it knows it: sometimes whole ("Board of Directors of the Pine Ridge
Metropolitan District"), sometimes only the office ("Board of Directors"), and when it types nothing the bot
records "the governing body of <local government>". A notice, a letter or a card must name the body once and
whole, so the local government is added only when the typed name does not already carry it.
"""
from __future__ import annotations


def _plain(text: str) -> str:
    return " ".join(text.split())


def governing_body_name(body: str | None, local_government: str) -> str:
    """The governing body's whole name: `body` as typed when it already names `local_government` (compared
    without regard to case or spacing), else `body` "of" the local government; "the governing body of ..." when
    nothing was typed."""
    government = _plain(local_government or "")
    typed = _plain(body or "")
    if not typed:
        return f"the governing body of {government}" if government else "the governing body"
    if not government or government.casefold() in typed.casefold():
        return typed
    return f"{typed} of {government}"
