"""What went wrong in a file of returns, and what was quietly normalised.

Parsers never stop at the first bad cell: they record every problem in a `Report` and raise one
`ReturnsError` at the end, so a clerk fixes the whole file in one go (the Arlo habit).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input.

    location  where a spreadsheet user or a JSON tool finds it: "row 7, column votes",
              "$.Election[0].Contest[2].Name", "file", "seats['Mayor']"
    message   what is wrong there, in words a clerk can act on
    """

    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


class ReturnsError(Exception):
    """The input is not a usable survey of returns. `problems` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(self.problems)  # args must rebuild the error: pickling calls ReturnsError(*args)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


# A file with thousands of footnoted cells should not produce thousands of notes: the first few
# of each kind are spelled out and the rest summarised in one line.
NOTES_PER_KIND = 10


class Report:
    """Collects problems and notes while a parser walks the input."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self._notes: list[str] = []
        self._kind_counts: Counter[str] = Counter()
        self._overflow_order: list[str] = []

    def problem(self, location: str, message: str) -> None:
        self.problems.append(Problem(location, message))

    def note(self, message: str, *, kind: str | None = None) -> None:
        """Record a normalisation. Notes of the same `kind` beyond NOTES_PER_KIND are only counted."""
        if kind is not None:
            self._kind_counts[kind] += 1
            if self._kind_counts[kind] > NOTES_PER_KIND:
                if self._kind_counts[kind] == NOTES_PER_KIND + 1:
                    self._overflow_order.append(kind)
                return
        self._notes.append(message)

    @property
    def notes(self) -> tuple[str, ...]:
        extra = [
            f"... and {self._kind_counts[kind] - NOTES_PER_KIND} more like this ({kind})"
            for kind in self._overflow_order
        ]
        return tuple(self._notes + extra)

    def raise_if_problems(self) -> None:
        if self.problems:
            raise ReturnsError(self.problems)
