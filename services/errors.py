"""Errors a use case raises for a person to read. Nothing was written when one is raised."""
from __future__ import annotations


class UserError(Exception):
    """Bad input or a refused action: shown to the user as is. `field` names the input at fault."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotFound(UserError):
    pass


class Denied(UserError):
    pass
