"""`UnitCounts`: one contest's votes per unit and choice, kept a column per choice instead of a dict per unit.

A statewide precinct file has hundreds of thousands of (contest, unit) pairs with two or three choices each. A dict
per pair costs some 230 bytes (the dict, its keys table, the slots): 130 MiB at 1.6 million rows. Here a file's
units are numbered once (`UnitNumbers`, shared by its contests), a contest maps a unit's number to its row in 4
bytes and keeps, per choice, a list with one slot per row (a shared int, or None where the unit has no count for
that choice): about 12 bytes a pair plus 8 a cell.

It reads and writes as the mapping it replaces, unit -> {choice: votes} (`Contest.votes_by_unit`), so every step
written for dicts works unchanged: `counts[unit]` is a live view of that unit's row. The steps that run over every
unit of a large file (the totals, the subtotal rule, the validation of a contest) use the columns directly
(`sums`, `column`, `units_with_votes`, `plain`), a choice at a time in C.

Votes are never negative (a reader refuses a negative count before it stores one), so `filter(None, column)`
keeps exactly the votes that add something to a sum.
"""
from __future__ import annotations

from array import array
from itertools import compress, repeat
from typing import Iterator, Mapping, MutableMapping

_NONE_TYPE = type(None)
# Row numbers as shared int objects: every contest of a statewide file numbers its units from 0, and an int past 256
# is otherwise an object of its own (28 bytes) for every (contest, unit) pair, some 15 MiB at 1.6 million rows. It
# only grows, to the most units one contest has had.
_ROW_NUMBERS: list[int] = list(range(1024))


def _shared(number: int) -> int:
    """The int `number` as one shared object (see _ROW_NUMBERS)."""
    if number >= len(_ROW_NUMBERS):
        _ROW_NUMBERS.extend(range(len(_ROW_NUMBERS), 2 * number + 1))
    return _ROW_NUMBERS[number]


class UnitNumbers:
    """The units of one file, numbered in the order first seen: shared by the `UnitCounts` of its contests, so a
    unit's name is looked up in one dict, not one per contest (a statewide file has thousands of units and dozens
    of contests: a dict per contest took 20 MiB at 1.6 million rows)."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}

    def number(self, unit: str) -> int:
        found = self.known.get(unit)
        if found is None:
            found = self.known[unit] = _shared(len(self.known))
        return found


class UnitCounts(MutableMapping[str, MutableMapping[str, int]]):
    """unit -> choice -> votes, stored a column per choice (see the module docstring). Units keep the order in
    which they were first given; choices, within a unit, the order in which the contest first named them."""

    def __init__(self, counts: Mapping[str, Mapping[str, int]] | None = None, *,
                 numbers: UnitNumbers | None = None) -> None:
        # unit -> its row, in two steps: the unit's number in the file (shared by every contest of a file, so one
        # dict holds the units' names) and, per contest, number -> row in 4 bytes (-1: not a unit of this contest)
        self.numbers = numbers if numbers is not None else UnitNumbers()
        self.row_by_number = array("i")
        self.units: list[str | None] = []  # row -> unit (None once the unit is removed)
        self.size = 0  # units present
        self.columns: dict[str, list[int | None]] = {}  # choice -> votes by row; a column may be shorter than rows
        for unit, votes in (counts or {}).items():
            self[unit] = votes

    def __getstate__(self) -> dict:
        """Plain data only (a read's outcome crosses a pipe to an unpickler that builds nothing else): the rows by
        number as a list."""
        state = dict(self.__dict__)
        state["row_by_number"] = self.row_by_number.tolist()
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.row_by_number = array("i", state["row_by_number"])

    def row(self, unit: object) -> int | None:
        """The unit's row, or None if it is not a unit of this contest."""
        number = self.numbers.known.get(unit)  # type: ignore[call-overload]
        if number is None or number >= len(self.row_by_number):
            return None
        row = self.row_by_number[number]
        return row if row >= 0 else None

    # The reader's steps, in its hot loop: a row for a unit, a column for a choice.
    def row_of(self, unit: str) -> int:
        """The unit's row, added (empty) if the unit is new."""
        number = self.numbers.number(unit)
        rows = self.row_by_number
        if number >= len(rows):  # as far as the units the file has named so far (the array grows its own way)
            rows.extend(repeat(-1, len(self.numbers.known) - len(rows)))
        row = rows[number]
        if row < 0:
            row = rows[number] = len(self.units)
            self.units.append(unit)
            self.size += 1
        return row

    def column(self, choice: str) -> list[int | None]:
        """The choice's column (created empty if new): votes by row, None where a unit has no count for it."""
        found = self.columns.get(choice)
        if found is None:
            found = self.columns[choice] = []
        return found

    def put(self, row: int, choice: str, votes: int) -> bool:
        """Store a count; False (and nothing stored) if the unit already has one for this choice."""
        column = self.column(choice)
        size = len(column)
        if size > row:
            if column[row] is not None:
                return False
            column[row] = votes
            return True
        if size < row:
            column.extend([None] * (row - size))
        column.append(votes)
        return True

    # Whole-contest steps, a column at a time.
    def sums(self) -> dict[str, int]:
        """Votes per choice over every unit, every choice a unit has a count for (in the order first named)."""
        return {choice: sum(filter(None, column)) for choice, column in self.columns.items()
                if column.count(None) != len(column)}

    def units_with_votes(self) -> set[str]:
        """The units with at least one vote."""
        rows: set[int] = set()
        for column in self.columns.values():
            rows.update(compress(range(len(column)), column))
        return {unit for unit in map(self.units.__getitem__, rows) if unit is not None}

    def plain(self, known: set[str]) -> bool:
        """Every count is for a choice in `known` and an int >= 0 (what `Contest` requires)."""
        for choice, column in self.columns.items():
            if choice not in known and column.count(None) != len(column):
                return False
            if not set(map(type, column)) <= {int, _NONE_TYPE} or min(filter(None, column), default=0) < 0:
                return False
        return True

    # The mapping.
    def __getitem__(self, unit: str) -> "UnitRow":
        row = self.row(unit)
        if row is None:
            raise KeyError(unit)
        return UnitRow(self, row)

    def __setitem__(self, unit: str, votes: Mapping[str, int]) -> None:
        votes = dict(votes)  # `votes` may be this unit's own row, cleared below
        row = self.row(unit)
        if row is not None:  # a unit given again keeps its place, as in a dict
            self._clear(row)
        else:
            row = self.row_of(unit)
        for choice, count in votes.items():
            self.put(row, choice, count)

    def __delitem__(self, unit: str) -> None:
        row = self.row(unit)
        if row is None:
            raise KeyError(unit)
        self.row_by_number[self.numbers.known[unit]] = -1
        self.units[row] = None
        self.size -= 1
        self._clear(row)

    def _clear(self, row: int) -> None:
        for column in self.columns.values():
            if row < len(column):
                column[row] = None

    def __iter__(self) -> Iterator[str]:
        return (unit for unit in self.units if unit is not None)

    def __len__(self) -> int:
        return self.size

    def __contains__(self, unit: object) -> bool:
        return self.row(unit) is not None

    def pop(self, unit: str, *default):  # type: ignore[override]
        """The unit's counts as a dict (a view would be empty once the unit is gone), removing the unit."""
        if unit not in self:
            if default:
                return default[0]
            raise KeyError(unit)
        counts = dict(self[unit])
        del self[unit]
        return counts

    def setdefault(self, unit: str, default: Mapping[str, int] | None = None) -> "UnitRow":  # type: ignore[override]
        """The unit's live row, added with `default`'s counts if the unit is new (dict.setdefault returns the
        stored value, so writing to what it returns must reach the counts)."""
        if unit not in self:
            self[unit] = default or {}
        return self[unit]

    def __repr__(self) -> str:
        return f"UnitCounts({ {unit: dict(self[unit]) for unit in self}!r})"


class UnitRow(MutableMapping[str, int]):
    """One unit's counts, choice -> votes: a live view of its row in the contest's columns."""

    __slots__ = ("_counts", "_row")

    def __init__(self, counts: UnitCounts, row: int) -> None:
        self._counts, self._row = counts, row

    def __getitem__(self, choice: str) -> int:
        column = self._counts.columns.get(choice)
        if column is None or self._row >= len(column) or column[self._row] is None:
            raise KeyError(choice)
        return column[self._row]  # type: ignore[return-value]

    def __setitem__(self, choice: str, votes: int) -> None:
        column = self._counts.column(choice)
        if self._row < len(column):
            column[self._row] = votes
        else:
            self._counts.put(self._row, choice, votes)

    def __delitem__(self, choice: str) -> None:
        self[choice]  # KeyError if absent
        self._counts.columns[choice][self._row] = None

    def __iter__(self) -> Iterator[str]:
        row = self._row
        return iter([choice for choice, column in self._counts.columns.items()
                     if row < len(column) and column[row] is not None])

    def __len__(self) -> int:
        row = self._row
        return sum(1 for column in self._counts.columns.values() if row < len(column) and column[row] is not None)

    def __contains__(self, choice: object) -> bool:
        column = self._counts.columns.get(choice)  # type: ignore[call-overload]
        return column is not None and self._row < len(column) and column[self._row] is not None

    def __repr__(self) -> str:
        return repr(dict(self))

