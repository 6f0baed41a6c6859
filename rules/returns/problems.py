"""What went wrong in a file of returns, what was set aside, and what was quietly normalised.

Parsers never stop at the first bad cell: they record every problem in a `Report` and raise one
`ReturnsError` at the end, so a clerk fixes the whole file in one go (the Arlo habit).

Two kinds of problem:
- `problem()`: the file as a whole cannot be read (no header, not JSON, a required column missing).
  Nothing is decided.
- `row_problem(..., contest=)`: one row or cell cannot be read. Only its contest is left undecided
  (listed with why and where); every other contest is still decided. A row that names no contest
  (`contest=None`) is reported as undecided too: its votes could belong to any contest.
Rows that are not votes for a choice (totals, turnout, over/under votes, subtotals) are neither:
`set_aside()` counts them by kind and keeps where the first few were.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum


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
# Where the first rows set aside of each kind are, for the clerk to look; the rest are only counted.
SET_ASIDE_EXAMPLES = 5
# Locations kept per undecided contest (the count of the rest is said).
ROWS_PER_UNDECIDED = 20


class Report:
    """Collects problems, rows set aside and notes while a parser walks the input."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []  # the file as a whole cannot be read
        self.contest_problems: dict[str, list[Problem]] = {}  # contest -> its unreadable rows/cells
        self.unplaced: list[Problem] = []  # rows that name no contest
        self._row_problems: list[Problem] = []  # every row problem, in the order found
        self.hidden: list[tuple] = []  # (contest, unit, choice, Bound) of every count given only as a range
        self.stated_kind: tuple | None = None  # (ElectionKind, where the file says it), when the file says
        self.set_aside_counts: Counter[str] = Counter()
        self.set_aside_rows: dict[str, list[str]] = {}
        self._notes: list[str] = []
        self._kind_counts: Counter[str] = Counter()
        self._overflow_order: list[str] = []

    def problem(self, location: str, message: str) -> None:
        self.problems.append(Problem(location, message))

    def row_problem(self, location: str, message: str, contest: str | None) -> None:
        """A row or cell that cannot be read: its contest (None: it names none) is left undecided."""
        problem = Problem(location, message)
        self._row_problems.append(problem)
        if contest is None:
            self.unplaced.append(problem)
        else:
            self.contest_problems.setdefault(contest, []).append(problem)

    def has_row_problems(self, contest: str | None = None) -> bool:
        if contest is None:
            return bool(self.contest_problems or self.unplaced)
        return contest in self.contest_problems

    def all_problems(self) -> list[Problem]:
        """Every problem: the file's first, then the rows', in the order they were found."""
        return self.problems + self._row_problems

    def set_aside(self, kind: "str | Enum", location: str, count: int = 1) -> None:
        """Rows (or cells) of `kind` that are not votes for a choice; never compared, never added."""
        key = kind.value if isinstance(kind, Enum) else kind
        self.set_aside_counts[key] += count
        examples = self.set_aside_rows.get(key)
        if examples is None:
            examples = self.set_aside_rows[key] = []
        if len(examples) < SET_ASIDE_EXAMPLES:
            examples.append(location)

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
