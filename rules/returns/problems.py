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
        # What the file is when a reader knows it holds one county's returns ("Adams County's statement of
        # votes"): its contests of districts crossing county lines are then flagged (`districts`).
        self.one_county = ""
        self.readings: list[str] = []  # how the file as a whole was read (e.g. which column is which), for Returns
        self.set_aside_counts: Counter[str] = Counter()
        self.set_aside_rows: dict[str, list[str]] = {}
        self._notes: list[str] = []
        self._note_kinds: list[str | None] = []
        self.nameless_with_votes: list[Problem] = []  # rows naming no choice that hold votes (see nameless())
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

    def nameless(self, location: str, contest: str | None, votes: str, why: str = "") -> None:
        """A row that names no choice (candidate or answer): never a vote for a choice, so set aside and named,
        never a reason to withhold a verdict the named choices decide. `votes` is its count as written: a
        survey of returns to record (`parse_returns`) refuses such a row when it holds votes."""
        self.set_aside("no choice named", location)
        shown = votes.strip()
        shown = shown if len(shown) <= 20 else shown[:17] + "..."
        where = f" of {contest!r}" if contest else ""
        self.note(f"{location}{where} names no choice" + (f" (votes {shown!r})" if shown else "")
                  + (f"; {why}" if why else "") + ": set aside, never counted for a choice", kind="rows naming no choice")
        if shown and shown.strip("0"):
            self.nameless_with_votes.append(Problem(location, f"has votes ({shown}) but names no choice{where}; "
                                                              "name the choice or remove the row"))

    def note(self, message: str, *, kind: str | None = None) -> None:
        """Record a normalisation. Notes of the same `kind` beyond NOTES_PER_KIND are only counted."""
        if kind is not None:
            self._kind_counts[kind] += 1
            if self._kind_counts[kind] > NOTES_PER_KIND:
                if self._kind_counts[kind] == NOTES_PER_KIND + 1:
                    self._overflow_order.append(kind)
                return
        self._notes.append(message)
        self._note_kinds.append(kind)

    @property
    def notes(self) -> tuple[str, ...]:
        extra = [
            f"... and {self._kind_counts[kind] - NOTES_PER_KIND} more like this ({kind})"
            for kind in self._overflow_order
        ]
        return tuple(self._notes + extra)

    def absorb(self, other: "Report", where: str = "") -> None:
        """Take in what `other` (one worksheet's report) found, every location prefixed with `where`
        ("sheet 'Sheet12'"). With `where`, a problem of the whole worksheet becomes a row naming no contest:
        the other worksheets are still read, and it is listed as undecided, never dropped. Without, the
        worksheet is the file (a workbook of one worksheet) and its problems are the file's."""
        def at(problem: Problem) -> Problem:
            if not where:
                return problem
            location = where if problem.location in ("", "file") else f"{where}, {problem.location}"
            return Problem(location, problem.message)

        for problem in other.problems:
            if where:
                self.row_problem(at(problem).location, problem.message, None)
            else:
                self.problems.append(problem)
        self._row_problems.extend(map(at, other._row_problems))
        for contest, problems in other.contest_problems.items():
            self.contest_problems.setdefault(contest, []).extend(map(at, problems))
        self.unplaced.extend(map(at, other.unplaced))
        self.nameless_with_votes.extend(map(at, other.nameless_with_votes))
        for kind, count in other.set_aside_counts.items():
            self.set_aside_counts[kind] += count
            examples = self.set_aside_rows.setdefault(kind, [])
            room = SET_ASIDE_EXAMPLES - len(examples)
            examples.extend(at(Problem(r, "")).location for r in other.set_aside_rows.get(kind, ())[:max(room, 0)])
        self._absorb_notes(other, where)
        self.hidden.extend(other.hidden)
        self.stated_kind = self.stated_kind or other.stated_kind
        self.one_county = self.one_county or other.one_county
        self.readings.extend(f"{where}: {r}" if where else r for r in other.readings if r not in self.readings)

    def _absorb_notes(self, other: "Report", where: str) -> None:
        for message, kind in zip(other._notes, other._note_kinds, strict=True):
            self.note(f"{where}: {message}" if where else message, kind=kind)
        for kind in other._overflow_order:  # notes only counted there stay counted here
            self._kind_counts[kind] += other._kind_counts[kind] - NOTES_PER_KIND
            if kind not in self._overflow_order:
                self._overflow_order.append(kind)

    def raise_if_problems(self) -> None:
        if self.problems:
            raise ReturnsError(self.problems)
