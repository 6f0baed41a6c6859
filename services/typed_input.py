"""Text a person typed into a form, checked the same way by every use case: present when it must be, and within
the column that stores it. The refusal names the field (`UserError.field`) so the form shows it there."""
from __future__ import annotations

from services.errors import UserError


def typed_text(value: str | None, *, field: str, limit: int, missing: str | None, one_line: bool = False) -> str:
    """`value` without the spaces around it (`one_line`: every run of spaces, tabs and newlines one space);
    UserError `missing` when there is nothing and `missing` is given, or when it is over `limit` characters.
    "" when nothing was typed and nothing is missing."""
    text = " ".join((value or "").split()) if one_line else (value or "").strip()
    if not text and missing is not None:
        raise UserError(missing, field=field)
    if len(text) > limit:
        raise UserError(f"At most {limit:,} characters here.", field=field)
    return text
