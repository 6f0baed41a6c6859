"""The shape every rule answers in."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True, kw_only=True)
class Decision:
    """What a rule decided, and why.

    outcome   short machine-readable value ("automatic_recount", "refused", ...)
    citation  the subsection applied, e.g. "C.R.S. 1-13.5-1306(2)(d)"
    reason    one line a clerk could read aloud
    numbers   the figures the rule used (ints, Decimals, dates, strings), for display and audit
    reading   where the statute is ambiguous, the documented reading applied; None when not ambiguous
    """

    outcome: str
    citation: str
    reason: str
    numbers: Mapping[str, Any] = field(default_factory=dict)
    reading: str | None = None

    def as_dict(self) -> dict[str, Any]:
        from rules.serialize import to_jsonable

        return to_jsonable(self)
