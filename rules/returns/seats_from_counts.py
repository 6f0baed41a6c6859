"""Seats read from a Dominion statement's own counts: votes, undervotes, overvotes and ballots.

Dominion's flat statement (Boulder County's) gives, on every row of a precinct and contest, the precinct's
Total Ballots, Total Undervotes and Total Overvotes for the contest beside the choice's Total Votes. Each
ballot of a vote-for-N contest is N marks: votes for choices, marks left blank (undervotes), or, on a
ballot marked for more than N, an overvote, counted once per ballot whose N marks are all lost:

    N x ballots = votes + undervotes + N x overvotes,   so   N = (votes + undervotes) / (ballots - overvotes)

Checked on Boulder's 2023 statement: City of Boulder Council (113,379 + 23,345) / (34,249 - 68) = 4,
Lafayette (32,124 + 13,272) / (11,357 - 8) = 4, Superior's charter commission 9, Louisville Ward 3 2, and 1
for every single-seat contest and question. A county that counts an overvote once per lost mark instead
gives N = (votes + undervotes + overvotes) / ballots; either reading is tried, and the seats are taken only
when exactly one whole number comes out (named as a reading). Otherwise nothing is inferred and
`rules.seats` decides whether one seat can be read.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.contest import ContestKind
from rules.returns.dominion_common import header_key
from rules.returns.draft import Draft

BALLOTS, UNDER, OVER = "total ballots", "total undervotes", "total overvotes"


@dataclass
class BallotCounts:
    """Per contest and unit, the ballots, undervotes and overvotes (read once per unit: every row repeats them)."""

    columns: dict[str, int]
    names: dict[str, str]
    by_contest: dict[str, dict[str, tuple[int, int, int]]] = field(default_factory=dict)
    unreadable: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, header: list[str]) -> "BallotCounts":
        """The counts of a header's columns; with any of the three missing, one that infers nothing."""
        keys = [header_key(c) for c in header]
        found = {key: keys.index(key) for key in (BALLOTS, UNDER, OVER) if key in keys}
        if len(found) < 3:
            found = {}
        return cls(found, {key: " ".join(header[i].split()) for key, i in found.items()})

    def add(self, contest: str, unit: str, cells: list[str]) -> None:
        units = self.by_contest.setdefault(contest, {})
        if not self.columns or unit in units or contest in self.unreadable:
            return
        try:
            ballots, under, over = (int(cells[self.columns[key]].replace(",", "").strip()) for key in (BALLOTS, UNDER, OVER))
        except (ValueError, IndexError):
            self.unreadable.add(contest)  # "N/A", a hidden count: infer nothing for this contest
            return
        units[unit] = (ballots, under, over)

    def settle(self, draft: Draft) -> None:
        """Set the draft's seats when its counts give exactly one whole number (see the module docstring)."""
        if not self.columns or draft.seats is not None or draft.kind is not ContestKind.CANDIDATE \
                or draft.name in self.unreadable:
            return
        units = self.by_contest.get(draft.name)
        if not units or draft.uncertain:
            return
        votes = sum(sum(counts.values()) for counts in draft.votes_by_unit.values())
        ballots, under, over = (sum(u[i] for u in units.values()) for i in range(3))
        found = set()
        if ballots > over and (votes + under) % (ballots - over) == 0:
            found.add((votes + under) // (ballots - over))
        if ballots > 0 and (votes + under + over) % ballots == 0:
            found.add((votes + under + over) // ballots)
        found.discard(0)
        if len(found) != 1:
            return
        seats = found.pop()
        draft.seats, draft.seats_location = seats, "the file's counts"
        draft.readings.append(
            f"seats: {seats}, from the file's counts: (votes {votes:,} + {self.names[UNDER]} {under:,}) / "
            f"({self.names[BALLOTS]} {ballots:,} - {self.names[OVER]} {over:,}) = {seats} "
            f"{'vote' if seats == 1 else 'votes'} per ballot")
