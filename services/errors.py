"""Errors a use case raises for a person to read. Nothing was written when one is raised."""
from __future__ import annotations

from services.wording import Message, Words, plain_words, words


class UserError(Exception):
    """Bad input or a refused action, in plain words (services/wording.py): a handler or the CLI says it in its
    medium (`said(exc.words)`). `message` is the plain text; `field` names the input at fault."""

    def __init__(self, message: Message, *, field: str | None = None) -> None:
        self.words: Words = message if isinstance(message, Words) else words(message)
        self.message = plain_words(message)
        super().__init__(self.message)
        self.field = field


class NotFound(UserError):
    pass


class Denied(UserError):
    pass
