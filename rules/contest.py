"""The survey of returns as the rules see it: contests, their choices and the votes per unit.

A unit is where votes were counted and reported: a precinct, a voting machine, a ballot batch, a
county. A file that gives no units has a single unit named "" (the whole contest).

A published file may hide small counts ("(< 25)", "***") or leave a cell empty. Such a cell is an
`uncertain` one: `votes_by_unit` holds its lowest possible value and `uncertain` its range, so the
rules can decide only what holds for every value the cell could have (`rules.verdicts`). A survey
recorded by the office never has uncertain cells.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, repeat
from operator import methodcaller
from types import MappingProxyType
from typing import Iterable, Mapping, cast

from rules.row_kinds import is_write_in_bucket
from rules.unit_counts import UnitCounts

WHOLE_CONTEST = ""


class ContestKind(str, enum.Enum):
    CANDIDATE = "candidate"  # an office: choices are candidates
    QUESTION = "question"  # a ballot issue or question: choices are Yes/No, For/Against


@dataclass(frozen=True)
class Bound:
    """The values a cell the file does not give exactly could hold: low..high (None: no upper limit)."""

    low: int
    high: int | None
    written: str  # the cell as the file wrote it, for the clerk
    location: str = ""  # where it is ("row 8, column votes")

    def describe(self) -> str:
        upper = "no upper limit" if self.high is None else f"{self.high:,}"
        return f"{self.written!r} ({self.low:,} to {upper})"


@dataclass(frozen=True)
class Contest:
    """One contest's returns. Votes are ints; the order of `choices` is the order of the source."""

    name: str
    choices: tuple[str, ...]
    votes_by_unit: Mapping[str, Mapping[str, int]]
    seats: int = 1
    kind: ContestKind = ContestKind.CANDIDATE
    # Extra facts from the source per choice (e.g. party); never used to decide.
    choice_details: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # (unit, choice) -> the range of a cell the file does not give exactly; votes_by_unit holds its low.
    uncertain: Mapping[tuple[str, str], Bound] = field(default_factory=dict)
    # How this contest was read where the file left a choice open ("one seat: the file does not say").
    readings: tuple[str, ...] = ()
    # When the file may be a party primary but does not say: the contests this one is if it is (one per
    # party). Empty when the file's kind is known or it shows no sign of a primary.
    if_primary: tuple["Contest", ...] = ()
    # False when the file does not say how many seats and nobody gave them: `seats` is then 1, a reading that
    # `rules.seats` accepts only where no other plausible number of seats changes the verdict.
    seats_stated: bool = True
    # Non-empty when this file holds only part of the contest's district (one county's returns of a district that
    # crosses county lines, or of a statewide contest): why. A verdict on it is on that share alone; the law
    # compares the whole district's survey of returns, which this file does not hold.
    part_of_district: str = ""

    def __post_init__(self) -> None:
        if self.seats < 1:
            raise ValueError(f"contest {self.name!r}: seats must be at least 1, not {self.seats}")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError(f"contest {self.name!r}: a choice is listed twice")
        known = set(self.choices)
        if _plain_counts(known, self.votes_by_unit):
            return
        for unit, counts in self.votes_by_unit.items():  # something is wrong: find it, to say what
            for choice, votes in counts.items():
                if choice not in known:
                    raise ValueError(f"contest {self.name!r}: unit {unit!r} counts unknown choice {choice!r}")
                if type(votes) is not int or votes < 0:
                    raise ValueError(f"contest {self.name!r}: votes for {choice!r} in {unit!r} must be a whole number >= 0")

    def __getstate__(self) -> dict:
        """The fields only: `totals`, once read, is a cached read-only view that pickle cannot copy (a contest
        crosses a pipe from the process that read it, `rules.returns.outcome`)."""
        state = dict(self.__dict__)
        state.pop("totals", None)
        return state

    @classmethod
    def from_totals(
        cls, name: str, totals: Mapping[str, int] | Iterable[tuple[str, int]], *, seats: int = 1,
        kind: ContestKind = ContestKind.CANDIDATE,
    ) -> "Contest":
        pairs = list(totals.items()) if isinstance(totals, Mapping) else list(totals)
        return cls(
            name=name, choices=tuple(c for c, _ in pairs), votes_by_unit={WHOLE_CONTEST: dict(pairs)},
            seats=seats, kind=kind,
        )

    @cached_property
    def totals(self) -> Mapping[str, int]:
        """Votes per choice summed over units, in the order of `choices`."""
        if isinstance(self.votes_by_unit, UnitCounts):  # kept a column per choice: summed a column at a time
            sums = self.votes_by_unit.sums()
            return MappingProxyType({choice: sums.get(choice, 0) for choice in self.choices})
        tables = list(self.votes_by_unit.values())
        cells = sum(map(len, tables))
        if set(map(type, tables)) <= {dict} and len(self.choices) * len(tables) <= 2 * cells:
            # A choice at a time in C: a statewide contest has thousands of units and a few choices.
            plain = cast(list[dict[str, int]], tables)
            return MappingProxyType({choice: sum(map(dict.get, plain, repeat(choice), repeat(0)))
                                     for choice in self.choices})
        sums = dict.fromkeys(self.choices, 0)
        for counts in tables:
            for choice, votes in counts.items():
                sums[choice] += votes
        return MappingProxyType(sums)

    @property
    def buckets(self) -> tuple[str, ...]:
        """Aggregate write-in lines ("Write-ins"): votes for people not named, so never a winner."""
        return tuple(c for c in self.choices if is_write_in_bucket(c))

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(self.votes_by_unit)

    def ranked(self) -> list[tuple[str, int]]:
        """Choices from most votes to fewest; equal votes keep source order (a tie is still a tie)."""
        return sorted(self.totals.items(), key=lambda cv: -cv[1])

    @property
    def total_votes(self) -> int:
        return sum(self.totals.values())


def with_totals(contest: Contest, sums: Mapping[str, int]) -> Contest:
    """`contest` with its `totals` already known: `sums` of its votes per choice over every unit, as a reader's
    last step summed them (rules/returns/subtotals.py), so they are not summed again. A choice missing from `sums`
    has no votes."""
    contest.__dict__["totals"] = MappingProxyType({choice: sums.get(choice, 0) for choice in contest.choices})
    return contest  # (where functools.cached_property keeps the value it computed: the same place)


def _plain_counts(known: set[str], votes_by_unit: Mapping[str, Mapping[str, int]]) -> bool:
    """Every unit counts only `known` choices, each with an int >= 0: the usual, checked without a Python step per
    cell (a statewide contest has tens of thousands)."""
    if isinstance(votes_by_unit, UnitCounts):
        return votes_by_unit.plain(known)
    tables = list(votes_by_unit.values())
    if not all(map(known.issuperset, tables)):
        return False
    votes = list(chain.from_iterable(map(_values, tables)))
    return not votes or (set(map(type, votes)) <= {int} and min(votes) >= 0)


_values = methodcaller("values")


@dataclass(frozen=True)
class SetAside:
    """Rows of one kind that were not counted (totals, turnout, over/under votes, subtotals)."""

    kind: str
    count: int
    rows: tuple[str, ...] = ()  # where the first few are ("row 12"), for the clerk to look


@dataclass(frozen=True)
class Undecided:
    """A contest the file does not let us decide, and why. contest is None for rows naming no contest.
    seats_not_stated: decided as soon as the seats are given (`rules.seats`)."""

    contest: str | None
    reason: str
    rows: tuple[str, ...] = ()
    seats_not_stated: bool = False


@dataclass(frozen=True)
class Worksheet:
    """One worksheet of a workbook and what was done with it: role is "contests", "long form", "table of
    contents", "turnout", "empty" or "skipped"; detail says what it held or why it was not read."""

    name: str
    role: str
    detail: str = ""
    hidden: bool = False

    @property
    def read(self) -> bool:
        return self.role in ("contests", "long form")


@dataclass(frozen=True)
class Returns:
    """A parsed survey of returns: its contests, the format it came in and notes on what was normalised.

    set_aside  rows that were not votes for a choice, by kind
    undecided  contests that could not be read (each with why and where); they are not in `contests`
    readings   how the file as a whole was read where it did not say (e.g. a party primary)
    sheets     for a workbook, every worksheet and what was done with it (read, or skipped and why)
    """

    contests: tuple[Contest, ...]
    source_format: str
    notes: tuple[str, ...] = ()
    set_aside: tuple[SetAside, ...] = ()
    undecided: tuple[Undecided, ...] = ()
    readings: tuple[str, ...] = ()
    sheets: tuple[Worksheet, ...] = ()

    def contest(self, name: str) -> Contest:
        for contest in self.contests:
            if contest.name == name:
                return contest
        folded = name.casefold().strip()
        matches = [c for c in self.contests if c.name.casefold() == folded]
        if len(matches) == 1:
            return matches[0]
        raise KeyError(name)
