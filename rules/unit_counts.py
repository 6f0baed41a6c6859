"""`UnitCounts`: one contest's votes per unit and choice, kept a column per choice instead of a dict per unit.

A statewide precinct file has hundreds of thousands of (contest, unit) pairs with two or three choices each. A dict
per pair costs some 230 bytes (the dict, its keys table, the slots): 130 MiB at 1.6 million rows. Here a file's
units are numbered once (`UnitNumbers`, shared by its contests), a contest maps a unit's number to its row (nothing
kept while its units come in the file's order, else 8 bytes a pair) and keeps, per choice, a column with one slot
per row: 4 bytes a cell.

A column is an `array('i')` of counts, MISSING (-1) where the unit has no count for that choice: 4 bytes a cell,
where a list of shared ints took 8 (issue 25 item 3: 13.5 MiB of the 26 a statewide file of 1.6 million rows kept).
A count past 2**31 - 1 widens its column to `array('q')`; a value no reader stores (a negative count, a bool, a
count past 2**63 - 1, anything else a caller gives the mapping) turns the column into a list, None where there is
no count, so `Contest` still sees the value as given and refuses it as before.

It reads and writes as the mapping it replaces, unit -> {choice: votes} (`Contest.votes_by_unit`), so every step
written for dicts works unchanged: `counts[unit]` is a live view of that unit's row. The steps that run over every
unit of a large file (the totals, the subtotal rule, the validation of a contest) use the columns directly
(`sums`, `column`, `units_with_votes`, `plain`), a choice at a time in C.

Votes are never negative (a reader refuses a negative count before it stores one), so MISSING cannot be a count.
"""
from __future__ import annotations

from array import array
from itertools import compress, islice, repeat
from operator import gt
from typing import Iterator, Mapping, MutableMapping, Union

_NONE_TYPE = type(None)
MISSING = -1  # in an array column: no count for the unit of that row (a count is never negative)
_LARGEST = {"i": 2**31 - 1, "q": 2**63 - 1}  # the largest count each array's type code holds
# A column: counts by row in an array (MISSING: none), or, once given a value no array holds, a list (None: none).
Column = Union["array[int]", "list[object]"]


def new_column() -> Column:
    """An empty column, 4 bytes a count."""
    return array("i")


def value_at(column: Column, row: int) -> object | None:
    """The count at `row`, None where there is none."""
    if row >= len(column):
        return None
    if isinstance(column, list):
        return column[row]
    value = column[row]
    return None if value < 0 else value


def _sum(column: Column) -> int:
    if isinstance(column, list):
        return sum(filter(None, column))  # type: ignore[arg-type]  # as when every column was a list
    return sum(column) + column.count(MISSING)  # each MISSING took one away


def _empty(column: Column) -> bool:
    if isinstance(column, list):
        return column.count(None) == len(column)
    return column.count(MISSING) == len(column)


class UnitNumbers:
    """The units of one file, numbered in the order first seen: shared by the `UnitCounts` of its contests, so a
    unit's name is looked up in one dict, not one per contest (a statewide file has thousands of units and dozens
    of contests: a dict per contest took 20 MiB at 1.6 million rows), and a contest's rows name their units by
    number (4 bytes, where a reference to the name took 8)."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}
        self.names: list[str] = []  # number -> unit

    def number(self, unit: str) -> int:
        found = self.known.get(unit)
        if found is None:
            found = self.known[unit] = len(self.names)
            self.names.append(unit)
        return found


class UnitCounts(MutableMapping[str, MutableMapping[str, int]]):
    """unit -> choice -> votes, stored a column per choice (see the module docstring). Units keep the order in
    which they were first given; choices, within a unit, the order in which the contest first named them."""

    def __init__(self, counts: Mapping[str, Mapping[str, int]] | None = None, *,
                 numbers: UnitNumbers | None = None) -> None:
        # unit -> its row, in two steps: the unit's number in the file (shared by every contest of a file, so one
        # dict holds the units' names) and, per contest, number -> row.
        self.numbers = numbers if numbers is not None else UnitNumbers()
        # While the contest's units are the file's units numbered `first`, `first` + 1, ... in that order (a
        # statewide contest in a file listed by unit, a county's contest in one listed by county: 57 of the 60
        # contests of the benchmark's statewide file), row r is the unit numbered `first` + r and the two arrays
        # are None: 8 bytes a (contest, unit) pair saved, 5.8 MiB at 1.6 million rows. They are made when a unit
        # comes out of that order or is removed.
        self.first = 0
        self.row_by_number: array[int] | None = None  # number -> row in 4 bytes (-1: not a unit of this contest)
        self.unit_numbers: array[int] | None = None  # row -> the unit's number (-1 once the unit is removed)
        self.row_count = 0  # rows made (a removed unit keeps its row, empty)
        self.size = 0  # units present
        self.columns: dict[str, Column] = {}  # choice -> votes by row; a column may be shorter than rows
        for unit, votes in (counts or {}).items():
            self[unit] = votes

    def __getstate__(self) -> dict:
        """Plain data only (a read's outcome crosses a pipe to an unpickler that builds nothing else): the arrays
        as (type code, list)."""
        state = dict(self.__dict__)
        if self.row_by_number is not None and self.unit_numbers is not None:
            state["row_by_number"] = self.row_by_number.tolist()
            state["unit_numbers"] = self.unit_numbers.tolist()
        state["columns"] = {choice: (column.typecode, column.tolist()) if type(column) is array else column
                            for choice, column in self.columns.items()}
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if state["row_by_number"] is not None:
            self.row_by_number = array("i", state["row_by_number"])
            self.unit_numbers = array("i", state["unit_numbers"])
        self.columns = {choice: array(*column) if type(column) is tuple else column
                        for choice, column in state["columns"].items()}

    def unit_at(self, row: int) -> str | None:
        """The unit of `row` (None if it was removed)."""
        if self.unit_numbers is None:
            return self.numbers.names[self.first + row]
        number = self.unit_numbers[row]
        return self.numbers.names[number] if number >= 0 else None

    def row(self, unit: object) -> int | None:
        """The unit's row, or None if it is not a unit of this contest."""
        number = self.numbers.known.get(unit)  # type: ignore[call-overload]
        if number is None:
            return None
        rows = self.row_by_number
        if rows is None:
            row = number - self.first
            return row if 0 <= row < self.row_count else None
        if number >= len(rows):
            return None
        row = rows[number]
        return row if row >= 0 else None

    # The reader's steps, in its hot loop: a row for a unit, a column for a choice.
    def row_of(self, unit: str) -> int:
        """The unit's row, added (empty) if the unit is new."""
        number = self.numbers.known.get(unit)  # UnitNumbers.number, its usual case inlined: a call a unit less
        if number is None:
            number = self.numbers.number(unit)
        rows = self.row_by_number
        if rows is None:  # the units in the file's order so far (see __init__)
            if not self.row_count:
                self.first = number
            row = number - self.first
            if row == self.row_count:
                self.row_count += 1
                self.size += 1
                return row
            if 0 <= row < self.row_count:
                return row
            rows = self._numbered()
        if number >= len(rows):  # as far as the units the file has named so far (the array grows its own way)
            rows.extend(repeat(-1, len(self.numbers.known) - len(rows)))
        row = rows[number]
        if row < 0:
            row = rows[number] = self.row_count
            self.unit_numbers.append(number)  # type: ignore[union-attr]  # made with row_by_number
            self.row_count += 1
            self.size += 1
        return row

    def _numbered(self) -> array[int]:
        """The rows as arrays (a unit out of the file's order, or removed): number -> row and row -> number."""
        first, count = self.first, self.row_count
        self.unit_numbers = array("i", range(first, first + count))
        rows = self.row_by_number = array("i", repeat(-1, first))
        rows.extend(range(count))
        return rows

    def column(self, choice: str) -> Column:
        """The choice's column (created empty if new)."""
        found = self.columns.get(choice)
        if found is None:
            found = self.columns[choice] = new_column()
        return found

    def put(self, row: int, choice: str, votes: object) -> bool:
        """Store a count; False (and nothing stored) if the unit already has one for this choice."""
        if value_at(self.column(choice), row) is not None:
            return False
        self._store(row, choice, votes)
        return True

    def _store(self, row: int, choice: str, votes: object) -> None:
        """Store `votes` at `row` of the choice's column, widening the column first if it cannot hold them."""
        column = self.column(choice)
        if type(column) is array and not (type(votes) is int and 0 <= votes <= _LARGEST[column.typecode]):
            column = self.columns[choice] = _widened(column, votes)
        size = len(column)
        if size > row:
            column[row] = votes  # type: ignore[call-overload]
            return
        if size < row:
            column.extend(repeat(None if isinstance(column, list) else MISSING, row - size))  # type: ignore[arg-type]
        column.append(votes)  # type: ignore[arg-type]

    def _remove(self, row: int, choice: str) -> None:
        column = self.columns[choice]
        if isinstance(column, list):
            column[row] = None
        else:
            column[row] = MISSING

    # Whole-contest steps, a column at a time.
    def sums(self) -> dict[str, int]:
        """Votes per choice over every unit, every choice a unit has a count for (in the order first named)."""
        return {choice: _sum(column) for choice, column in self.columns.items() if not _empty(column)}

    def units_with_votes(self) -> set[str]:
        """The units with at least one vote."""
        rows: set[int] = set()
        for column in self.columns.values():
            if isinstance(column, list):
                rows.update(compress(range(len(column)), column))
            else:  # MISSING (-1) is not a vote
                rows.update(compress(range(len(column)), map(gt, column, repeat(0))))
        return {unit for unit in map(self.unit_at, rows) if unit is not None}

    def plain(self, known: set[str]) -> bool:
        """Every count is for a choice in `known` and an int >= 0 (what `Contest` requires)."""
        for choice, column in self.columns.items():
            if choice not in known and not _empty(column):
                return False
            if not isinstance(column, list):
                continue  # an array holds nothing else (see _store)
            if not set(map(type, column)) <= {int, _NONE_TYPE} or min(filter(None, column), default=0) < 0:  # type: ignore[type-var, operator]
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
        if self.row_by_number is None:
            self._numbered()
        assert self.row_by_number is not None and self.unit_numbers is not None
        self.row_by_number[self.numbers.known[unit]] = -1
        self.unit_numbers[row] = -1
        self.size -= 1
        self._clear(row)

    def _clear(self, row: int) -> None:
        for choice, column in self.columns.items():
            if row < len(column):
                self._remove(row, choice)

    def __iter__(self) -> Iterator[str]:
        names = self.numbers.names
        if self.unit_numbers is None:
            return islice(names, self.first, self.first + self.row_count)
        return (names[number] for number in self.unit_numbers if number >= 0)

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
        votes = None if column is None else value_at(column, self._row)
        if votes is None:
            raise KeyError(choice)
        return votes  # type: ignore[return-value]

    def __setitem__(self, choice: str, votes: int) -> None:
        self._counts._store(self._row, choice, votes)

    def __delitem__(self, choice: str) -> None:
        self[choice]  # KeyError if absent
        self._counts._remove(self._row, choice)

    def __iter__(self) -> Iterator[str]:
        row = self._row
        return iter([choice for choice, column in self._counts.columns.items() if value_at(column, row) is not None])

    def __len__(self) -> int:
        row = self._row
        return sum(1 for column in self._counts.columns.values() if value_at(column, row) is not None)

    def __contains__(self, choice: object) -> bool:
        column = self._counts.columns.get(choice)  # type: ignore[call-overload]
        return column is not None and value_at(column, self._row) is not None

    def __repr__(self) -> str:
        return repr(dict(self))


def _widened(column: "array[int]", votes: object) -> Column:
    """The column as one that holds `votes`: an 8-byte array for a count past 2**31 - 1, else a list (None where
    there is no count) for a value no array holds."""
    if type(votes) is int and 0 <= votes <= _LARGEST["q"]:
        return array("q", column)
    return [None if value < 0 else value for value in column]
