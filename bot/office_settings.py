"""An office's own settings (stored as JSON on its workspace row), validated by pydantic."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from rules.deadlines import CompletionRollover
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MultiSeatRule


class OfficeSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", use_enum_values=False)

    # 1306 is silent on multi-seat contests: the office picks the reading; every verdict names it.
    multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE
    # Completion deadlines do not roll by default ("no later than"); an office may choose to roll them.
    completion_rollover: CompletionRollover = CompletionRollover.NONE

    @classmethod
    def of(cls, raw: dict | None) -> "OfficeSettings":
        return cls.model_validate(raw or {})

    def stored(self) -> dict:
        return self.model_dump(mode="json")
