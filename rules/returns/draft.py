"""`Draft`: one contest while a reader gathers it, before `build.finish` makes it a `Contest`.

Every reader fills drafts, and the shared steps (build.py, primaries.py, subtotals.py) work on them, so the
draft stands below all of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import MutableMapping

from rules.contest import Bound, ContestKind


@dataclass(eq=False)
class Draft:
    """One contest while it is being read.

    seats is None when the file does not say (the caller's `seats=` or 1 then applies);
    seats_location says where the file said it, for messages about a disagreement.
    choices is an ordered set (a dict with None values) so source order is kept.
    kind_stated: the format said whether this is a question (so its choices do not decide it).
    unit_parent: unit -> the group it belongs to (a precinct's county), for subtotal detection.
    uncertain: (unit, choice) -> Bound for a cell the file does not give exactly; its low is in votes_by_unit.
    primary_party: the party whose primary this contest is, when the file or a split says so.
    totals: see below.
    """

    name: str
    kind: ContestKind = ContestKind.CANDIDATE
    seats: int | None = None
    seats_location: str = ""
    choices: dict[str, None] = field(default_factory=dict)
    # unit -> choice -> votes: a dict of dicts, or `UnitCounts` (a column per choice) from a reader of large files
    votes_by_unit: MutableMapping[str, MutableMapping[str, int]] = field(default_factory=dict)
    details: dict[str, dict[str, str]] = field(default_factory=dict)
    kind_stated: bool = False
    unit_parent: dict[str, str] = field(default_factory=dict)
    uncertain: dict[tuple[str, str], Bound] = field(default_factory=dict)
    primary_party: str = ""
    readings: list[str] = field(default_factory=list)
    if_primary: list["Draft"] = field(default_factory=list)
    # The votes per choice summed over `votes_by_unit`, when the subtotal step has summed them (it sums every
    # unit anyway); None otherwise. Set in `build.finish` by that step, after the last one that changes the counts.
    totals: dict[str, int] | None = None

    def add_uncertain(self, unit: str, choice: str, bound: Bound) -> None:
        """Record a cell given only as a range; its lowest value counts until the range is resolved."""
        self.choices.setdefault(choice, None)
        self.votes_by_unit.setdefault(unit, {})[choice] = bound.low
        self.uncertain[(unit, choice)] = bound


def seats_location(name: str) -> str:
    return f"seats[{name!r}]"
