"""The survey of returns as the rules see it: contests, their choices and the votes per unit.

A unit is where votes were counted and reported: a precinct, a voting machine, a ballot batch, a
county. A file that gives no units has a single unit named "" (the whole contest).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping

WHOLE_CONTEST = ""


class ContestKind(str, enum.Enum):
    CANDIDATE = "candidate"  # an office: choices are candidates
    QUESTION = "question"  # a ballot issue or question: choices are Yes/No, For/Against


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

    def __post_init__(self) -> None:
        if self.seats < 1:
            raise ValueError(f"contest {self.name!r}: seats must be at least 1, not {self.seats}")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError(f"contest {self.name!r}: a choice is listed twice")
        known = set(self.choices)
        for unit, counts in self.votes_by_unit.items():
            for choice, votes in counts.items():
                if choice not in known:
                    raise ValueError(f"contest {self.name!r}: unit {unit!r} counts unknown choice {choice!r}")
                if type(votes) is not int or votes < 0:
                    raise ValueError(f"contest {self.name!r}: votes for {choice!r} in {unit!r} must be a whole number >= 0")

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
        sums = dict.fromkeys(self.choices, 0)
        for counts in self.votes_by_unit.values():
            for choice, votes in counts.items():
                sums[choice] += votes
        return MappingProxyType(sums)

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(self.votes_by_unit)

    def ranked(self) -> list[tuple[str, int]]:
        """Choices from most votes to fewest; equal votes keep source order (a tie is still a tie)."""
        return sorted(self.totals.items(), key=lambda cv: -cv[1])

    @property
    def total_votes(self) -> int:
        return sum(self.totals.values())


@dataclass(frozen=True)
class Returns:
    """A parsed survey of returns: its contests, the format it came in and notes on what was normalised."""

    contests: tuple[Contest, ...]
    source_format: str
    notes: tuple[str, ...] = ()

    def contest(self, name: str) -> Contest:
        for contest in self.contests:
            if contest.name == name:
                return contest
        folded = name.casefold().strip()
        matches = [c for c in self.contests if c.name.casefold() == folded]
        if len(matches) == 1:
            return matches[0]
        raise KeyError(name)
