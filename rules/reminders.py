"""When to remind people of a deadline: pure date arithmetic in America/Denver.

Defaults (an office can change the offsets and the hour): 7, 3 and 1 days before the deadline at
9:00, on the day itself at 9:00, then every day at 9:00 while the step is overdue. Times are
wall-clock times in Colorado, so 9:00 stays 9:00 across the change to and from daylight time; the
instants returned are timezone-aware (UTC).
"""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass

from rules.calendar import DENVER

DEFAULT_OFFSETS = (7, 3, 1)
DEFAULT_HOUR = dt.time(9, 0)


class ReminderKind(str, enum.Enum):
    BEFORE = "before"  # n days before
    ON_THE_DAY = "on_the_day"
    OVERDUE = "overdue"  # each day after, while the step is not done


@dataclass(frozen=True)
class ReminderSlot:
    kind: ReminderKind
    fire_at: dt.datetime  # aware, UTC
    days: int  # days before (BEFORE), 0 (ON_THE_DAY), days overdue (OVERDUE)

    def label(self) -> str:
        if self.kind is ReminderKind.BEFORE:
            return f"{self.days} day{'s' if self.days != 1 else ''} before"
        if self.kind is ReminderKind.ON_THE_DAY:
            return "due today"
        return f"overdue by {self.days} day{'s' if self.days != 1 else ''}"


def at_denver(day: dt.date, hour: dt.time = DEFAULT_HOUR) -> dt.datetime:
    """`day` at `hour` Colorado time, as an aware UTC instant (zoneinfo resolves the DST offset)."""
    return dt.datetime.combine(day, hour, tzinfo=DENVER).astimezone(dt.timezone.utc)


def validate_offsets(offsets) -> tuple[int, ...]:
    cleaned = sorted({int(o) for o in offsets}, reverse=True)
    if any(o < 1 or o > 60 for o in cleaned):
        raise ValueError("reminder offsets are whole days between 1 and 60 before the deadline")
    return tuple(cleaned)


def schedule(due: dt.date, *, offsets=DEFAULT_OFFSETS, hour: dt.time = DEFAULT_HOUR) -> list[ReminderSlot]:
    """The reminders before a deadline and on its day (overdue ones follow from `next_overdue`)."""
    slots = [ReminderSlot(ReminderKind.BEFORE, at_denver(due - dt.timedelta(days=n), hour), n)
             for n in validate_offsets(offsets)]
    slots.append(ReminderSlot(ReminderKind.ON_THE_DAY, at_denver(due, hour), 0))
    return slots


def overdue_slot(due: dt.date, days_overdue: int, *, hour: dt.time = DEFAULT_HOUR) -> ReminderSlot:
    if days_overdue < 1:
        raise ValueError("an overdue reminder is at least one day after the deadline")
    return ReminderSlot(ReminderKind.OVERDUE, at_denver(due + dt.timedelta(days=days_overdue), hour), days_overdue)


def next_overdue(due: dt.date, after: dt.datetime, *, hour: dt.time = DEFAULT_HOUR) -> ReminderSlot:
    """The first overdue reminder strictly after `after` (aware)."""
    if after.tzinfo is None:
        raise ValueError("`after` must be timezone-aware")
    local_day = after.astimezone(DENVER).date()
    days = max(1, (local_day - due).days)
    slot = overdue_slot(due, days, hour=hour)
    while slot.fire_at <= after:
        days += 1
        slot = overdue_slot(due, days, hour=hour)
    return slot
