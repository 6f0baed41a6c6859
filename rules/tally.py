"""Subsection (5): tally sheets.

"In elections using paper or electronic ballots, the recounts are of the ballots cast and the votes
must be tallied on sheets other than those used at the election. In elections using voting
machines, the recount is of the votes tabulated on the voting machines, and separate tally sheets
must be used for each machine."

A tally sheet records one unit's recounted votes: a voting machine (its id is the unit), or for
paper and electronic ballots a ballot batch or precinct. `accept_sheets` decides, from every sheet
entered so far, which sheet counts for each unit, what disagrees, what waits, and what is wrong;
`amended_contest` turns a complete tally into the amended contest; `compare_with_original` shows
what the recount changed.

Readings (the text is silent; each is applied on purpose):

- One sheet per unit. (5) requires it for machines ("separate tally sheets ... for each machine"); for
  paper and electronic ballots it is the bot's rule, so that no ballots are counted twice. Two
  different sheets (different `sheet_id`, entry 1) for one unit are a problem naming both, and the
  unit does not count until one of them is withdrawn: the rules cannot know which is right.
- A second entry is the same sheet (same `sheet_id`) keyed in again. With double entry on, a unit
  counts only when entry 1 and entry 2, by different people, agree on every choice. With it off,
  entry 1 counts; a second entry that disagrees is still shown as a disagreement but does not block.
  A second entry by the person who made the first is a problem either way (it checks nothing); with
  double entry on, the unit waits for a second entry by someone else.
- A second entry with no first entry of the same sheet is a problem and counts for nothing.
- The same sheet entered twice identically (a double click, a retried event) is one entry.
- A sheet with any problem (unknown or missing choice, a count that is not a whole number >= 0, an
  unexpected unit, a machine sheet with no machine id, a sheet used at the election) does not count.
  A choice with no votes is written as 0: a blank is not a zero.
- "Sheets other than those used at the election" is checked when the caller passes the ids of the
  sheets used at the election (`election_sheet_ids`, as the office entered them), for paper and electronic
  ballots, as the text says (with voting machines (5) asks instead for a separate sheet per machine).
  Identifiers are compared ignoring case and extra spaces (`sheet_key`).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Collection, Iterable, Mapping, Sequence

from rules.contest import Contest
from rules.corrections import VoteChange, describe_changes, diff_contests, signed, unit_label
from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.statute import cite

CITATION = cite("(5)")


def tally_citation(law: LawProfile = DEFAULT_LAW) -> str:
    """How the recount tallies: 1306(5) by default; 31-10-1207(5); under 1-10.5, the Secretary of State's rules that
    1-10.5-102(2) calls for (the statute itself has no tally-sheet rule)."""
    return CITATION if law is DEFAULT_LAW else law.cite(Part.TALLY)
FIRST, SECOND = 1, 2


class CountMethod(str, enum.Enum):
    PAPER = "paper"
    ELECTRONIC = "electronic"
    VOTING_MACHINE = "voting_machine"

    @property
    def unit_word(self) -> str:
        return "machine" if self is CountMethod.VOTING_MACHINE else "unit"


def _method_name(method: CountMethod | str) -> str:
    return method.value if isinstance(method, CountMethod) else method


@dataclass(frozen=True)
class TallySheet:
    """One entry of one tally sheet. Deliberately lenient: `validate_sheet` reports what is wrong."""

    sheet_id: str
    unit: str
    method: CountMethod | str  # made a CountMethod when it names one; anything else validate_sheet reports
    counts: Mapping[str, int]
    entered_by: str
    entry: int = FIRST  # 1st or 2nd entry of the same sheet

    def __post_init__(self) -> None:
        # Freeze a copy, so the sheet cannot change after it is accepted.
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))
        try:
            object.__setattr__(self, "method", CountMethod(self.method))
        except ValueError:
            pass  # reported by validate_sheet

    def same_entry_as(self, other: "TallySheet") -> bool:
        return (self.sheet_id, self.unit, self.method, dict(self.counts), self.entered_by, self.entry) == (
            other.sheet_id, other.unit, other.method, dict(other.counts), other.entered_by, other.entry)


@dataclass(frozen=True)
class SheetProblem:
    sheet_id: str
    field: str
    message: str
    citation: str | None = None  # set when the problem is a requirement of (5) itself

    def __str__(self) -> str:
        return f"sheet {self.sheet_id or '(no id)'}: {self.field}: {self.message}"


@dataclass(frozen=True)
class Disagreement:
    unit: str
    first: TallySheet
    second: TallySheet
    differences: Mapping[str, tuple[int, int]]  # choice -> (first entry, second entry)

    def __str__(self) -> str:
        diffs = ", ".join(f"{c} {a:,} vs {b:,}" for c, (a, b) in self.differences.items())
        return (f"{unit_label(self.unit)}: sheet {self.first.sheet_id} entries disagree "
                f"({self.first.entered_by} / {self.second.entered_by}): {diffs}")


def sheet_key(sheet_id: str) -> str:
    """A sheet identifier as compared with the election's: "E-1", " e-1 " and "E-1" are one sheet (people type
    identifiers in either case and with stray spaces; two sheets told apart only by case would be a trap)."""
    return " ".join(sheet_id.split()).casefold()


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def validate_sheet(
    sheet: TallySheet, *, contest: Contest, expected_units: Sequence[str], election_sheet_ids: Collection[str] = (),
    law: LawProfile = DEFAULT_LAW,
) -> list[SheetProblem]:
    """Every problem with one sheet on its own (problems between sheets are found by `accept_sheets`)."""
    citation = tally_citation(law)
    sid = sheet.sheet_id if isinstance(sheet.sheet_id, str) else str(sheet.sheet_id)
    problems: list[SheetProblem] = []

    def add(field_name: str, message: str, citation: str | None = None) -> None:
        problems.append(SheetProblem(sid, field_name, message, citation))

    if not isinstance(sheet.sheet_id, str) or not sheet.sheet_id.strip():
        add("sheet_id", "the sheet has no id")
    if not isinstance(sheet.entered_by, str) or not sheet.entered_by.strip():
        add("entered_by", "the sheet does not say who entered it")
    if sheet.entry not in (FIRST, SECOND) or type(sheet.entry) is not int:
        add("entry", f"entry must be 1 (first entry) or 2 (second entry), not {sheet.entry!r}")
    if not isinstance(sheet.method, CountMethod):
        add("method", f"unknown count method {sheet.method!r}; use one of "
                      f"{', '.join(m.value for m in CountMethod)}")
    elif sheet.method is CountMethod.VOTING_MACHINE and not (isinstance(sheet.unit, str) and sheet.unit.strip()):
        add("unit", "a voting-machine sheet must name its machine; separate tally sheets are used for each machine",
            citation)
    if isinstance(sheet.method, CountMethod) and sheet.method is not CountMethod.VOTING_MACHINE \
            and isinstance(sheet.sheet_id, str) and sheet_key(sheet.sheet_id) in {sheet_key(e) for e in
                                                                                 election_sheet_ids}:
        add("sheet_id", f"sheet {sheet.sheet_id.strip()} is one of the tally sheets used at the election; the "
                        "votes must be tallied on sheets other than those used at the election", citation)
    if sheet.unit not in expected_units and not (sheet.method is CountMethod.VOTING_MACHINE and not sheet.unit):
        add("unit", f"{unit_label(sheet.unit)!r} is not one of the {len(expected_units):,} units expected "
                    f"for {contest.name}")
    for choice, value in sheet.counts.items():
        if choice not in contest.choices:
            add(f"counts.{choice}", f"{choice!r} is not a choice in {contest.name}")
        elif not _is_count(value):
            add(f"counts.{choice}", f"the count for {choice} must be a whole number >= 0, not {value!r}")
    for choice in contest.choices:
        if choice not in sheet.counts:
            add(f"counts.{choice}", f"no count for {choice}; write 0 if {choice} has no votes")
    return problems


@dataclass(frozen=True)
class TallyState:
    counted: Mapping[str, TallySheet]  # unit -> the sheet that counts
    disagreements: tuple[Disagreement, ...]
    awaiting_second_entry: tuple[str, ...]
    problems: tuple[SheetProblem, ...]
    expected_units: tuple[str, ...]
    double_entry: bool = False
    citation: str = CITATION

    @property
    def progress(self) -> tuple[int, int]:
        """(units tallied, units expected)."""
        return sum(1 for u in self.expected_units if u in self.counted), len(self.expected_units)

    @property
    def missing_units(self) -> tuple[str, ...]:
        return tuple(u for u in self.expected_units if u not in self.counted)

    @property
    def complete(self) -> bool:
        return not self.missing_units

    def decision(self) -> Decision:
        """Where the tally stands, cited to (5), in a line a clerk can read aloud."""
        tallied, expected = self.progress
        parts = [f"{tallied:,} of {expected:,} units tallied"]
        if self.awaiting_second_entry:
            parts.append(f"{len(self.awaiting_second_entry):,} awaiting a second entry")
        blocking = [d for d in self.disagreements if d.unit not in self.counted]
        if self.disagreements:
            parts.append(f"{len(self.disagreements):,} disagreement{'s' if len(self.disagreements) != 1 else ''}"
                         + (f" ({len(blocking):,} blocking)" if blocking else ""))
        if self.problems:
            parts.append(f"{len(self.problems):,} problem{'s' if len(self.problems) != 1 else ''}")
        outcome = "complete" if self.complete else "in_progress"
        return Decision(
            outcome=outcome, citation=self.citation, reason="Tally: " + "; ".join(parts) + ".",
            numbers={"tallied": tallied, "expected": expected, "missing_units": list(self.missing_units),
                     "awaiting_second_entry": list(self.awaiting_second_entry),
                     "disagreements": len(self.disagreements), "problems": len(self.problems),
                     "double_entry": self.double_entry},
            reading=("double entry: a unit counts when two people's entries agree" if self.double_entry
                     else "single entry: the first entry counts; a second entry is a check"),
        )


def _differences(first: TallySheet, second: TallySheet, choices: Iterable[str]) -> dict[str, tuple[int, int]]:
    return {c: (first.counts[c], second.counts[c]) for c in choices if first.counts[c] != second.counts[c]}


def accept_sheets(
    sheets: Iterable[TallySheet], *, contest: Contest, expected_units: Sequence[str], double_entry: bool,
    election_sheet_ids: Collection[str] = (), law: LawProfile = DEFAULT_LAW,
) -> TallyState:
    """Decide which sheet counts for each unit from every entry so far (see the module's readings)."""
    citation = tally_citation(law)
    expected = tuple(expected_units)
    if len(set(expected)) != len(expected):
        raise ValueError("expected_units lists a unit twice")
    problems: list[SheetProblem] = []

    # 1. Each sheet on its own; drop exact repeats (a double click is one entry).
    valid: list[TallySheet] = []
    seen: list[TallySheet] = []
    for sheet in sheets:
        if any(sheet.same_entry_as(s) for s in seen):
            continue
        seen.append(sheet)
        own = validate_sheet(sheet, contest=contest, expected_units=expected, election_sheet_ids=election_sheet_ids,
                             law=law)
        problems.extend(own)
        if not own:
            valid.append(sheet)

    # 2. A sheet id belongs to one unit.
    units_of_id: dict[str, list[str]] = {}
    for s in valid:
        if s.unit not in units_of_id.setdefault(s.sheet_id, []):
            units_of_id[s.sheet_id].append(s.unit)
    for sid, units in units_of_id.items():
        if len(units) > 1:
            problems.append(SheetProblem(sid, "unit", f"sheet {sid} is entered for {len(units)} units "
                                         f"({', '.join(unit_label(u) for u in units)}); a sheet tallies one unit"))
    valid = [s for s in valid if len(units_of_id[s.sheet_id]) == 1]

    counted: dict[str, TallySheet] = {}
    disagreements: list[Disagreement] = []
    awaiting: list[str] = []
    for unit in expected:
        in_unit = [s for s in valid if s.unit == unit]
        firsts = [s for s in in_unit if s.entry == FIRST]
        seconds = [s for s in in_unit if s.entry == SECOND]
        if not in_unit:
            continue

        # 3. One sheet per unit (per machine, as (5) requires for machines).
        first_ids = list(dict.fromkeys(s.sheet_id for s in firsts))
        if len(first_ids) > 1:
            method = firsts[0].method
            if method is CountMethod.VOTING_MACHINE:
                message = (f"sheets {' and '.join(first_ids)} both tally machine {unit}; separate tally sheets must "
                           f"be used for each machine, one sheet per machine")
            else:
                message = (f"sheets {' and '.join(first_ids)} both tally {unit_label(unit)}; one tally sheet per "
                           f"ballot batch or precinct, so no ballot is counted twice")
            problems.append(SheetProblem(first_ids[1], "unit", message, citation))
            continue
        if len(firsts) > 1:  # same sheet, entry 1 keyed twice with different figures
            problems.append(SheetProblem(first_ids[0], "entry", f"first entry of sheet {first_ids[0]} is entered "
                                         f"{len(firsts)} times with different counts; withdraw all but one"))
            continue

        first = firsts[0] if firsts else None
        usable_seconds: list[TallySheet] = []
        for s in seconds:
            if first is None or s.sheet_id != first.sheet_id:
                problems.append(SheetProblem(s.sheet_id, "entry", f"second entry of sheet {s.sheet_id} has no valid "
                                             f"first entry of that sheet for {unit_label(unit)}"))
            elif s.method is not first.method:
                problems.append(SheetProblem(s.sheet_id, "method", f"second entry says {_method_name(s.method)} but "
                                             f"the first entry says {_method_name(first.method)}"))
            elif s.entered_by.strip().casefold() == first.entered_by.strip().casefold():
                problems.append(SheetProblem(s.sheet_id, "entered_by", f"both entries of sheet {s.sheet_id} are by "
                                             f"{first.entered_by}; the second entry must be made by someone else"))
            else:
                usable_seconds.append(s)
        if first is None:
            continue
        if len(usable_seconds) > 1:
            problems.append(SheetProblem(first.sheet_id, "entry", f"second entry of sheet {first.sheet_id} is "
                                         f"entered {len(usable_seconds)} times with different counts; withdraw all "
                                         f"but one"))
            if double_entry:
                continue
            usable_seconds = []

        second = usable_seconds[0] if usable_seconds else None
        differences = _differences(first, second, contest.choices) if second else {}
        if second is not None and differences:
            disagreements.append(Disagreement(unit, first, second, MappingProxyType(differences)))
        if not double_entry:
            counted[unit] = first
        elif second is None:
            awaiting.append(unit)
        elif not differences:
            counted[unit] = first

    return TallyState(
        counted=MappingProxyType(counted), disagreements=tuple(disagreements), awaiting_second_entry=tuple(awaiting),
        problems=tuple(problems), expected_units=expected, double_entry=double_entry, citation=citation,
    )


class TallyIncomplete(ValueError):
    """The tally is not complete; `missing` lists the units that do not yet count."""

    def __init__(self, contest: str, missing: Sequence[str]) -> None:
        self.missing = tuple(missing)
        super().__init__(f"{contest}: the tally is not complete; {len(self.missing):,} unit(s) do not yet count: "
                         f"{', '.join(unit_label(u) for u in self.missing)}")


def amended_contest(contest: Contest, state: TallyState) -> Contest:
    """The contest with the recounted votes per unit (the units the tally expected, in that order)."""
    if state.missing_units:
        raise TallyIncomplete(contest.name, state.missing_units)
    return Contest(
        name=contest.name, choices=contest.choices,
        votes_by_unit={u: {c: state.counted[u].counts[c] for c in contest.choices} for u in state.expected_units},
        seats=contest.seats, kind=contest.kind, choice_details=contest.choice_details,
    )


@dataclass(frozen=True, kw_only=True)
class TallyComparison(Decision):
    """What the recount changed: per unit and choice (changed rows only), and per choice in total."""

    contest: str
    changes: tuple[VoteChange, ...]
    totals_before: Mapping[str, int]
    totals_after: Mapping[str, int]
    total_changes: Mapping[str, int] = field(default_factory=dict)  # choice -> after - before (every choice)
    same_units: bool = True


def compare_with_original(original: Contest, amended: Contest, law: LawProfile = DEFAULT_LAW) -> TallyComparison:
    """Rows for every (unit, choice) that changed, and the change in each choice's total.

    Units present on one side only count as 0 on the other; when the recount's units differ from the
    survey's (machines against precincts), `same_units` is False and the totals are the comparison to read.
    """
    if original.name != amended.name or set(original.choices) != set(amended.choices):
        raise ValueError(f"cannot compare {original.name!r} with {amended.name!r}: not the same contest and choices")
    changes = tuple(diff_contests(original, amended))
    before, after = dict(original.totals), {c: amended.totals[c] for c in original.choices}
    total_changes = {c: after[c] - before[c] for c in original.choices}
    same_units = set(original.units) == set(amended.units)
    moved = [f"{c} {before[c]:,} -> {after[c]:,} ({signed(d)})" for c, d in total_changes.items() if d]
    if not changes:
        reason = f"{original.name}: the recount matches the survey of returns in every unit."
        outcome = "unchanged"
    elif not moved:
        reason = (f"{original.name}: totals unchanged; {len(changes):,} unit count(s) differ: "
                  f"{describe_changes(changes, 5)}.")
        outcome = "units_changed"
    else:
        where = describe_changes(changes, 5) if same_units else "recount units differ from the survey's"
        reason = f"{original.name}: recount totals {'; '.join(moved)} — by unit: {where}."
        outcome = "changed"
    return TallyComparison(
        outcome=outcome, citation=tally_citation(law), reason=reason,
        numbers={"changes": list(changes), "totals_before": before, "totals_after": after,
                 "total_changes": total_changes, "same_units": same_units},
        contest=original.name, changes=changes, totals_before=MappingProxyType(before),
        totals_after=MappingProxyType(after), total_changes=MappingProxyType(total_changes), same_units=same_units,
    )
