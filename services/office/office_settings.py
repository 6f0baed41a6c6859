"""An office's own settings (stored as JSON on its workspace row), validated by pydantic."""
from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, field_validator

from rules.calendar import ColoradoCalendar
from rules.deadlines import CompletionRollover
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MultiSeatRule
from rules.reminders import DEFAULT_HOUR, DEFAULT_OFFSETS, validate_offsets

DEFAULT_OFFICIAL_TITLE = "Designated Election Official"
SIGNER_LIMIT = 200  # certificates.signer_name / signer_title


class OfficeSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", use_enum_values=False)

    # 1306 is silent on multi-seat contests: the office picks the reading; every verdict names it.
    multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE
    # Completion deadlines do not roll by default ("no later than"); an office may choose to roll them.
    completion_rollover: CompletionRollover = CompletionRollover.NONE
    # Where accepted recount requests are posted for approval (a channel id); None: where they were entered.
    approvals_channel: str | None = None
    # Deadline reminders: days before each deadline, and the hour (America/Denver) they go out.
    reminder_offsets: tuple[int, ...] = DEFAULT_OFFSETS
    reminder_hour: dt.time = DEFAULT_HOUR
    # Days the governor or the president appointed as a holiday: legal holidays under C.R.S. 24-11-101(1), so the
    # office's calendar skips them (`/recount admin closed-day`). {date: name}.
    appointed_holidays: dict[dt.date, str] = {}
    # Who signs the certificates of election (6): the official's name and title on the signature line
    # (`/recount admin setting official-name|official-title ...`). No name: the line carries the title only.
    official_name: str | None = None
    official_title: str = DEFAULT_OFFICIAL_TITLE

    @field_validator("official_name", "official_title")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = " ".join(value.split())
        if len(value) > SIGNER_LIMIT:
            raise ValueError(f"at most {SIGNER_LIMIT} characters")
        return value or None

    @property
    def calendar(self) -> ColoradoCalendar:
        """The office's legal calendar: Colorado's legal holidays and the days appointed it entered."""
        return ColoradoCalendar(appointed_holidays=self.appointed_holidays)

    @field_validator("reminder_offsets")
    @classmethod
    def _offsets(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        return validate_offsets(value)

    @classmethod
    def of(cls, raw: dict | None) -> "OfficeSettings":
        return cls.model_validate(raw or {})

    def stored(self) -> dict:
        return self.model_dump(mode="json")
