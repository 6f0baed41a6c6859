"""The GpUnits of a NIST report: their names, how they nest, and which counts of a contest are its votes.

A report may count one contest at several levels: a county's total and its precincts' counts (every
NIST synthetic file: "Test County" beside its precincts), a city and its 42 precincts. Adding the
levels would count every vote twice or more, so for each contest one level is used (the lowest that
covers the contest) and every other counted unit is set aside as a subtotal and cross-checked against
it; a disagreement leaves the contest undecided (we cannot tell which figure is right).

What real files show, and so how the levels are found (`settle`), in this order:
1. ComposingGpUnitIds, at any depth: a unit whose parts are counted in the contest is above them
   (the fixture's district; Cambridge MA's city, districts, polling places and vote centers, though
   Cambridge counts only precincts). A parent is checked against the sum of its counted parts (so a
   file counting votes at vote centers that list every precinct they serve would be undecided: those
   counts are not the sum of the precincts').
2. The contest's district (ElectionDistrictId) and the election's scope (ElectionScopeId): a contest
   has votes only inside its district, so a count for either is the whole contest's, and it is above
   every other unit counted in the contest, linked or not (NIST's gen-*/prim-* files link nothing:
   their county is Type "other", their precincts "precinct", "split-precinct" or
   "combined-precinct"). Checked against the sum of the level used.
3. Still unlinked, units of different kinds: each GpUnit Type has a rank, precinct level
   (precinct, split-precinct, combined-precinct, ballot-style-area) < counting places (polling-place,
   vote-center, drop-box, ballot-batch, a ReportingDevice) < areas (ward, town, city, county, any
   district, state, other, ...). A unit with no ComposingGpUnitIds whose rank is above the lowest
   rank counted is a higher level; the units of one Type are then checked together: their sum must
   equal the sum of the level used (they are not linked to single units, so only the level as a
   whole can be compared). A unit that has ComposingGpUnitIds, none of them counted here, stays a
   unit: its parts simply were not reported (a county total beside another county's precincts).
Before that, counts for units known to lie outside the contest's district (`outside`: the district
lists its parts and the unit is none of them) are taken out: Cambridge MA's exports repeat the city's
write-in line, all 42 precincts, in every district contest (see `nist_json_contest`).

Units of one precinct level are assumed not to overlap: gen-01 counts split precincts 2a and 2b
beside combined precincts "1,4,5,6" and "3,7,8,9" and never precinct 2 itself. A file counting a
precinct and its splits must link them; when it also counts the district or the scope, the check of
rule 2 catches the double count.

The shared `finish` step sets aside a unit whose votes equal the sum of the others' (a subtotal no
name gives away). Here the levels are already settled, and that test would take one of two precincts
with equal counts (gen-01's split precincts 2a and 2b) for the other's subtotal and halve the figures
shown, so the reader gives every unit a group of its own (`Draft.unit_parent`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from rules.returns.problems import Report

PRECINCT_LEVEL = frozenset({"precinct", "split-precinct", "combined-precinct", "ballot-style-area"})
COUNTING_PLACES = frozenset({"polling-place", "vote-center", "drop-box", "ballot-batch"})
DEVICE = "ReportingDevice"


@dataclass(frozen=True)
class Higher:
    """A counted unit set aside as a higher level, and what it is checked against."""

    unit: str
    why: str  # for the set-aside row: "made of units counted here", ...
    against: str  # "parts" (its counted parts), "all" (every unit used), "level" (with its Type's units)


class GpUnits:
    def __init__(self, gpunits: list[dict[str, Any]], report: Report) -> None:
        self.report = report
        self._index: dict[str, int] = {}
        for i, unit in enumerate(gpunits):
            uid = unit["@id"]
            if uid in self._index:
                report.problem(f"$.GpUnit[{i}].@id", f"@id {uid!r} is used twice (first at $.GpUnit[{self._index[uid]}])")
                continue
            self._index[uid] = i
        self._composed: set[str] = set()  # units that say what they are made of
        self._parents: dict[str, list[str]] = {}
        for uid, i in self._index.items():
            parts = gpunits[i].get("ComposingGpUnitIds", [])
            if parts:
                self._composed.add(uid)
            for k, part in enumerate(parts):
                if part in self._index:
                    self._parents.setdefault(part, []).append(uid)
                else:
                    report.problem(f"$.GpUnit[{i}].ComposingGpUnitIds[{k}]", f"no GpUnit has @id {part!r}")
        self._kind = {uid: _kind(gpunits[i]) for uid, i in self._index.items()}
        self._ancestors: dict[str, frozenset[str]] = {}
        self._meets: dict[str, set[str]] = {}  # district -> the units inside it or above a part of it
        self._names = _display_names({uid: text_of(gpunits[i].get("Name")).strip() or uid for uid, i in self._index.items()})
        self._find_loop(gpunits)

    def known(self, uid: str) -> bool:
        return uid in self._index

    def name(self, uid: str) -> str:
        return self._names[uid]

    def kind(self, uid: str) -> str:
        return self._kind[uid]

    def ancestors(self, uid: str) -> frozenset[str]:
        """Every unit uid is part of, at any depth (computed once per unit)."""
        cached = self._ancestors.get(uid)
        if cached is None:
            found: set[str] = set()
            stack = list(self._parents.get(uid, ()))
            while stack:  # not recursive: a file may nest deeper than Python's recursion limit
                parent = stack.pop()
                if parent not in found:
                    found.add(parent)
                    stack.extend(self._parents.get(parent, ()))
            cached = self._ancestors[uid] = frozenset(found)
        return cached

    def outside(self, district: str, uid: str) -> bool:
        """True when uid is known to lie outside the district: the district lists its parts
        (ComposingGpUnitIds), and uid is none of them, holds none of them and is not above them, and is
        either of precinct level or lists its own parts. An unlinked larger unit is left to `settle`."""
        if district not in self._composed or not self.known(district):
            return False
        meets = self._meets.get(district)
        if meets is None:
            inside = {district} | {u for u in self._index if district in self.ancestors(u)}
            meets = set(inside)
            for uid_inside in inside:
                meets |= self.ancestors(uid_inside)
            self._meets[district] = meets
        return uid not in meets and (self._rank(uid) == 0 or uid in self._composed)

    def _find_loop(self, gpunits: list[dict[str, Any]]) -> None:
        """A unit made, at some depth, of itself breaks every level above it: the file cannot be read."""
        state: dict[str, int] = {}  # 1 on the path being walked, 2 done
        for start in self._index:
            if state.get(start):
                continue
            stack = [(start, iter(self._parents.get(start, ())))]
            state[start] = 1
            while stack:
                uid, parents = stack[-1]
                parent = next(parents, None)
                if parent is None:
                    state[uid] = 2
                    stack.pop()
                elif state.get(parent) == 1:
                    self.report.problem(f"$.GpUnit[{self._index[parent]}].ComposingGpUnitIds",
                                        f"{self.name(parent)!r} is made, through its parts, of itself")
                    return
                elif not state.get(parent):
                    state[parent] = 1
                    stack.append((parent, iter(self._parents.get(parent, ()))))

    def settle(self, counted: Iterable[str], whole: Iterable[str]) -> tuple[list[str], list[Higher]]:
        """The units whose counts are the contest's votes, and the higher levels set aside (see the docstring).

        counted: units with a count in the contest, in file order; whole: the contest's district and the
        election's scope (a count for either is the whole contest's).
        """
        units = list(dict.fromkeys(counted))
        if len(units) < 2:
            return units, []
        present = set(units)
        parents: set[str] = set()
        for uid in units:
            parents |= self.ancestors(uid) & present
        totals = [u for u in dict.fromkeys(whole) if u in present]
        leaves = [u for u in units if u not in parents and u not in totals]
        if not leaves:  # only the district and the scope were counted: the district is the lower
            leaves, totals = totals[:1], totals[1:]
        higher = [Higher(u, "made of units counted here", "parts") for u in units if u in parents and u not in totals]
        lowest = min(self._rank(u) for u in leaves)
        used = []
        for uid in leaves:
            if self._rank(uid) > lowest and uid not in self._composed:
                higher.append(Higher(uid, f"a {self.kind(uid)} count beside counts of smaller units", "level"))
            else:
                used.append(uid)
        for uid in totals:  # checked against every unit used; worded as its parts when it lists them all
            holds_all = all(uid in self.ancestors(u) for u in used)
            higher.append(Higher(uid, "the whole contest, counted again in its parts", "parts" if holds_all else "all"))
        return used, higher

    def _rank(self, uid: str) -> int:
        kind = self._kind[uid]
        return 0 if kind in PRECINCT_LEVEL else 1 if kind in COUNTING_PLACES or kind == DEVICE else 2


def _kind(unit: dict[str, Any]) -> str:
    if unit.get("@type") == "ElectionResults.ReportingDevice":
        return DEVICE
    kind = unit.get("Type", "other")
    return unit.get("OtherType") or kind if kind == "other" else kind


def text_of(international: Any) -> str:
    """InternationalizedText -> one string: the first English text, else the first text."""
    texts = international.get("Text", []) if isinstance(international, dict) else []
    for text in texts:
        if str(text.get("Language", "")).casefold().split("-")[0] == "en":
            return text.get("Content", "")
    return texts[0].get("Content", "") if texts else ""


def _display_names(names: dict[str, str]) -> dict[str, str]:
    """Two units with the same Name would merge into one unit; tell them apart by @id."""
    seen: dict[str, int] = {}
    for name in names.values():
        seen[name] = seen.get(name, 0) + 1
    return {uid: name if seen[name] == 1 else f"{name} ({uid})" for uid, name in names.items()}
