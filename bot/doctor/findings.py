"""What one check of `recount-bot doctor` found, and how it is printed."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Status(str, Enum):
    OK = "ok"
    FAIL = "fail"
    SKIPPED = "skipped"  # not checked, because something it needs failed first


@dataclass(frozen=True)
class Finding:
    check: str  # "settings", "database", "slack token", ...
    status: Status
    detail: str  # what was found, in a sentence
    fix: str | None = None  # what to do about it (for FAIL and SKIPPED)

    @classmethod
    def ok(cls, check: str, detail: str) -> "Finding":
        return cls(check, Status.OK, detail)

    @classmethod
    def fail(cls, check: str, detail: str, fix: str) -> "Finding":
        return cls(check, Status.FAIL, detail, fix)

    @classmethod
    def skipped(cls, check: str, because: str) -> "Finding":
        """Not checked: `because` names the failed check it needs ("the database is not migrated")."""
        return cls(check, Status.SKIPPED, f"not checked, {because}")

    def line(self) -> str:
        mark = {Status.OK: "ok  ", Status.FAIL: "FAIL", Status.SKIPPED: "skip"}[self.status]
        fix = f" -> {self.fix}" if self.fix and self.status is Status.FAIL else ""
        return f"{mark}  {self.check}: {self.detail}{fix}"

    def as_json(self) -> dict:
        return {"check": self.check, "status": self.status.value, "detail": self.detail, "fix": self.fix}


def age(seconds: float) -> str:
    """A duration as a person says it: "12 s", "4 min", "3 h 5 min", "2 days"."""
    whole = int(seconds)
    if whole < 120:
        return f"{whole} s"
    if whole < 2 * 3600:
        return f"{whole // 60} min"
    if whole < 2 * 86400:
        return f"{whole // 3600} h {whole % 3600 // 60} min"
    return f"{whole // 86400} days"
