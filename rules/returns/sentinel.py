"""The sentinel of the readers' lookup caches: "not looked up yet", told apart from None ("looked up: nothing
here") by `is`. An enum member, not an `object()`, so the type checker narrows `x is MISSING` as the code does."""
from __future__ import annotations

import enum
from typing import Final


class Missing(enum.Enum):
    MISSING = "not looked up yet"


MISSING: Final = Missing.MISSING
