"""The Colorado Secretary of State's precinct-level results: County, Precinct, Contest, Choice, Party, Total Votes.

One row per precinct, contest and choice (2024: 283,724 rows), as CSV or as XLSX (which `rules.returns.xlsx`
turns into the same CSV rows). Header names are matched case-insensitively and in any order; other columns
are ignored with a note. Quirks of the real files this reader handles (2024 general, the SoS's own export):
- Windows-1252 text ("Karina Garc\u00eda", "M\u00e1rquez", "Rom\u00e1n"); `rules.returns.source` settles it.
- Cells quoted as strings ("224") or bare (319), precincts too; the csv module reads both alike.
- A last row `"End of worksheet",,,,,`: a row naming no contest, choice, party or votes is set aside as
  not a row of results, never a problem.
- Each unit is "COUNTY / PRECINCT", grouped by its county (`Draft.unit_parent`), so a unit that is the sum
  of its county's other precincts is found and set aside (`rules.returns.subtotals`).
- A precinct cell naming a subtotal ("Total", "CO", the county's name) or left blank is the county's
  subtotal, and a county cell naming one ("Total", "State Total") a total of every county: each is
  cross-checked against the rows beneath it and set aside (used only where nothing is beneath it).
- Contest names are unique in the file (district contests carry the district), and a general election
  lists every party's candidates under one name; each choice keeps its party (`details["party"]`), so a
  primary is split per party by the shared pipeline. The Party cell is not a party where it is "Y"/"N"
  beside a Yes/No answer, or a number (the 2024 file gives nonpartisan RTD directors "1", "2", "3"):
  such cells are not kept as parties (a note says which).
- Ballot questions (Yes/For, No/Against) and judges' retention (Yes, No) are questions because their
  choices are answers (`build.finish`); the file never says how many seats, so seats stay None.
Rows of one contest, unit and choice twice are refused, naming both rows; a row this reader cannot read
leaves only its contest undecided.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import MutableMapping, cast

from rules.contest import Bound
from rules.returns.csv_table import Table, open_table
from rules.returns.draft import Draft
from rules.returns.numbers import MAX_DIGITS, CountError, hidden_count, parse_count
from rules.returns.problems import Report
from rules.returns.sentinel import MISSING, Missing
from rules.returns.source import Source
from rules.row_kinds import RowKind, answer, choice_row_kind, is_subtotal_unit, office_row_kind

DESCRIPTION = ("a CSV whose header has County, Precinct, Contest, Choice, Party and Total Votes "
               "(Colorado Secretary of State precinct-level results)")
REQUIRED = ("county", "precinct", "contest", "choice", "total votes")
OPTIONAL = ("party",)
VOTES = "total votes"
GRAND_TOTAL = None  # the level of a row whose county cell names a total of every county


@dataclass(eq=False)
class _Tally:
    """One contest while reading. `leaves` holds precinct rows; subtotal rows are kept apart until checked."""

    name: str
    choices: dict[str, None] = field(default_factory=dict)
    # raw Choice cell -> (choice name shared by every row, the Party cell its first row had)
    seen: dict[str, tuple[str, str]] = field(default_factory=dict)
    first: dict[str, tuple[str, str]] = field(default_factory=dict)  # the same, by choice name
    details: dict[str, dict[str, str]] = field(default_factory=dict)
    leaves: dict[str, dict[str, int]] = field(default_factory=dict)  # unit -> choice -> votes
    uncertain: dict[tuple[str, str], Bound] = field(default_factory=dict)
    # (county, or GRAND_TOTAL; choice) -> (votes, row)
    subtotals: dict[tuple[str | None, str], tuple[int | Bound, int]] = field(default_factory=dict)


def detect(head) -> bool:
    """The SoS precinct file: County, Precinct, Contest and Choice, even if Total Votes is missing (the
    reader then says to add it)."""
    return {"county", "precinct", "contest", "choice"} <= head.header


def parse(source: Source, report: Report) -> list[Draft]:
    table = open_table(source, report, required=REQUIRED, optional=OPTIONAL, ignore_unknown=True)
    if table is None:
        return []
    if table.ignored:
        report.note(f"columns {', '.join(table.ignored)} ignored: Total Votes holds each row's votes")
    reader = _Reader(table, report)
    reader.read()
    if table.data_rows == 0 and not report.problems:
        report.problem("file", "has a header but no rows of returns")
    if reader.repeats:
        _report_repeats(source, reader.repeats, report)
    reader.note_party_cells()
    return [_resolve(t, reader.unit_county, table, report) for t in reader.tallies.values() if t is not None]


class _Reader:
    def __init__(self, table: Table, report: Report) -> None:
        self.table, self.report = table, report
        # raw Contest cell -> its tally (None: an "office" that counts voters, set aside)
        self.tallies: dict[str, _Tally | None] = {}
        self.by_name: dict[str, _Tally] = {}  # stripped contest name -> tally (raw spellings may differ)
        # (raw County, raw Precinct) -> unit name, or (level,) for a subtotal: level is a county or GRAND_TOTAL
        self.units: dict[tuple[str, str], str | tuple[str | None]] = {}
        self.unit_county: dict[str, str] = {}
        self.repeats: list[tuple[int, tuple[str, str, str]]] = []  # (row, (contest, unit, choice))
        self.not_parties: dict[str, dict[str, None]] = {}  # contest -> Party cells not kept as parties

    def read(self) -> None:
        table, report = self.table, self.report
        c = table.columns
        i_county, i_precinct, i_contest = c["county"], c["precinct"], c["contest"]
        i_choice, i_votes, i_party = c["choice"], c[VOTES], c.get("party")
        tallies, units, repeats = self.tallies, self.units, self.repeats
        trouble = table.trouble
        # The hot loop: a statewide file has ~300,000 rows. Every name is looked up by its raw cell, so a
        # cell is stripped, classified and shared once per distinct value, not once per row.
        for row, cells in table.rows():
            contest = cells[i_contest]
            tally = tallies.get(contest, MISSING)
            if tally is MISSING:
                tally = self._contest(row, cells, i_contest, i_choice, i_votes, i_party)
                if tally is MISSING:
                    continue
            if tally is None:
                report.set_aside(RowKind.TURNOUT, f"row {row}")
                continue
            if trouble and row in trouble:
                report.row_problem(*trouble[row], tally.name)
                continue
            party = cells[i_party] if i_party is not None else ""
            known = tally.seen.get(cells[i_choice])
            if known is None or known[1] != party:
                known = self._choice(tally, row, cells[i_choice], party, known, cells[i_votes])
                if known is None:
                    continue
            choice = known[0]
            cell = cells[i_votes]
            if len(cell) <= MAX_DIGITS and cell.isascii() and cell.isdigit():  # is_plain_count, inlined
                votes: int | Bound = int(cell)
            else:
                slow = self._slow_count(row, cell, tally.name)
                if slow is None:
                    continue
                votes = slow
            unit = units.get((cells[i_county], cells[i_precinct]))
            if unit is None:
                unit = self._unit(row, cells[i_county], cells[i_precinct], tally.name)
                if unit is None:
                    continue
            if isinstance(unit, tuple):  # a subtotal row
                key = (unit[0], choice)
                if key in tally.subtotals:
                    repeats.append((row, (tally.name, _level_name(unit[0]), choice)))
                else:
                    tally.subtotals[key] = (votes, row)
                continue
            counts = tally.leaves.get(unit)
            if counts is None:
                counts = tally.leaves[unit] = {}
            if choice in counts:
                repeats.append((row, (tally.name, unit, choice)))
                continue
            if isinstance(votes, int):
                counts[choice] = votes
            else:
                counts[choice] = votes.low
                tally.uncertain[(unit, choice)] = votes
            tally.choices[choice] = None

    def _contest(self, row: int, cells: list[str], i_contest: int, i_choice: int, i_votes: int,
                 i_party: int | None) -> _Tally | None | Missing:
        """The tally of a Contest cell not seen before; MISSING when the row is set aside or refused."""
        raw = cells[i_contest]
        name = raw.strip()
        if not name:
            rest = [cells[i_choice], cells[i_votes]] + ([cells[i_party]] if i_party is not None else [])
            if not any(x.strip() for x in rest):
                # "End of worksheet": nothing in it is a count for anyone.
                self.report.set_aside(RowKind.NOT_RESULTS, f"row {row}")
            else:
                self.report.row_problem(self.table.location(row, "contest"), "is empty; every row needs a contest",
                                        None)
            return MISSING
        if office_row_kind(name) is not None:
            self.tallies[raw] = None
            return None
        tally = self.by_name.get(name)
        if tally is None:
            tally = self.by_name[name] = _Tally(name=name)
        self.tallies[raw] = tally
        return tally

    def _choice(self, tally: _Tally, row: int, raw: str, party: str, known: tuple[str, str] | None,
                votes: str = ""):
        """(name, Party cell of its first row) for a Choice cell first seen in this contest, or seen with
        another Party cell; None when the row is set aside or refused."""
        if known is None:
            name = raw.strip()
            if not name:
                self.report.nameless(self.table.location(row, "choice"), tally.name, votes)
                return None
            if (kind := choice_row_kind(name)) is not None:
                self.report.set_aside(kind, f"row {row}")
                return None
            known = tally.first.get(name)  # the same name with other spaces around it shares its entry
            if known is None:
                known = tally.first[name] = (name, party)
                self._keep_party(tally, name, party.strip())
            tally.seen[raw] = known
        if known[1] != party and known[1].strip() != party.strip():
            self.report.note(f"row {row}: {known[0]!r} in {tally.name!r} has party {party.strip()!r} here but "
                             f"{known[1].strip()!r} earlier; kept {known[1].strip()!r}", kind="party differs")
        return known

    def _keep_party(self, tally: _Tally, name: str, label: str) -> None:
        if not label:
            return
        if label.isdigit() or (label.upper() in ("Y", "N") and answer(name) is not None):
            self.not_parties.setdefault(tally.name, {})[label] = None
        else:
            tally.details[name] = {"party": label}

    def _slow_count(self, row: int, cell: str, contest: str) -> int | Bound | None:
        """A Total Votes cell that is not plain digits; None (reported) when it cannot be read."""
        try:
            votes, note = parse_count(cell)
        except CountError as exc:
            hidden = hidden_count(cell, self.table.location(row, VOTES))
            if hidden is None:
                self.report.row_problem(self.table.location(row, VOTES), str(exc), contest)
            return hidden
        if note:
            self.report.note(f"row {row}: {note}", kind="counts normalised")
        return votes

    def _unit(self, row: int, county_raw: str, precinct_raw: str, contest: str) -> str | tuple[str | None] | None:
        """The unit of a (County, Precinct) pair not seen before: "COUNTY / PRECINCT", or (level,) for a
        subtotal; None (reported) when the county is blank."""
        county, precinct = county_raw.strip(), precinct_raw.strip()
        if not county:
            self.report.row_problem(self.table.location(row, "county"), "is empty; every row needs a county",
                                    contest)
            return None  # not cached: each such row is reported in its own contest
        if is_subtotal_unit(county):
            unit: str | tuple[str | None] = (GRAND_TOTAL,)
        # A precinct number (every precinct of the 2024 file) names no subtotal: that test is skipped for
        # the thousands of them.
        elif not precinct or (not precinct.isdigit() and is_subtotal_unit(precinct, county)):
            unit = (county,)
        else:
            unit = f"{county} / {precinct}"
            self.unit_county[unit] = county
        self.units[(county_raw, precinct_raw)] = unit
        return unit

    def note_party_cells(self) -> None:
        """Say which contests had Party cells that are not parties (see the module docstring)."""
        numbers = {name: cells for name, cells in self.not_parties.items()
                   if any(label.isdigit() for label in cells)}
        if numbers:
            names = list(numbers)
            shown = ", ".join(repr(n) for n in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            report_cells = sorted({c for cells in numbers.values() for c in cells}, key=lambda c: (len(c), c))
            self.report.note(f"Party cells {', '.join(report_cells)} in {shown} are numbers, not parties; "
                             "not kept as parties")



def _level_name(level: str | None) -> str:
    return "the total of every county" if level is GRAND_TOTAL else f"the subtotal of {level}"


def _resolve(tally: _Tally, unit_county: dict[str, str], table: Table, report: Report) -> Draft:
    """Cross-check every subtotal row that has precinct rows beneath it (then set it aside); use the others."""
    draft = Draft(name=tally.name, choices=tally.choices, votes_by_unit=cast(MutableMapping, tally.leaves), details=tally.details,
                  uncertain=tally.uncertain)
    for unit in tally.leaves:
        draft.unit_parent[unit] = unit_county[unit]
    if not tally.subtotals:
        return draft
    # A contest with a refused row is undecided already; its sums would only repeat that in other words.
    check = not report.has_row_problems(tally.name)
    county_levels = [((county, choice), figure) for (county, choice), figure in tally.subtotals.items()
                     if county is not None]  # not GRAND_TOTAL (None)
    totals = [(key, figure) for key, figure in tally.subtotals.items() if key[0] is GRAND_TOTAL]
    by_county = _sums(draft, lambda unit: draft.unit_parent.get(unit, unit))
    for (county, choice), (votes, row) in county_levels:
        below = by_county.get((county, choice))
        if below is None:
            _use(draft, county, county, choice, votes)
        else:
            if check:
                _cross_check(tally.name, choice, votes, below, row, f"{county}'s precinct", table, report)
            report.set_aside(RowKind.SUBTOTAL, f"row {row}")
    everything = _sums(draft, lambda unit: "")
    for (_, choice), (votes, row) in totals:
        below = everything.get(("", choice))
        if below is None:
            _use(draft, "Total", None, choice, votes)
        else:
            if check:
                _cross_check(tally.name, choice, votes, below, row, "county", table, report)
            report.set_aside(RowKind.SUBTOTAL, f"row {row}")
    return draft


def _use(draft: Draft, unit: str, county: str | None, choice: str, votes: int | Bound) -> None:
    """A subtotal with nothing beneath it is the only figure for its choice there: it is counted."""
    draft.choices[choice] = None
    if unit in draft.votes_by_unit and draft.unit_parent.get(unit) != county:
        unit += " (subtotal)"  # a county cell "A / B" beside the precinct "B" of county "A": keep both apart
    if county is not None:
        draft.unit_parent[unit] = county
    if isinstance(votes, int):
        draft.votes_by_unit.setdefault(unit, {})[choice] = votes
    else:
        draft.add_uncertain(unit, choice, votes)


def _sums(draft: Draft, group_of) -> dict[tuple[str, str], tuple[int, int | None]]:
    """(group, choice) -> (lowest, highest or None) of the sum of the unit rows of each group."""
    out: dict[tuple[str, str], tuple[int, int | None]] = {}
    for unit, counts in draft.votes_by_unit.items():
        group = group_of(unit)
        for choice, low in counts.items():
            bound = draft.uncertain.get((unit, choice))
            high = low if bound is None else bound.high
            lo, hi = out.get((group, choice), (0, 0))
            out[(group, choice)] = (lo + low, None if hi is None or high is None else hi + high)
    return out


def _cross_check(contest: str, choice: str, votes: int | Bound, below: tuple[int, int | None], row: int,
                 what: str, table: Table, report: Report) -> None:
    if type(votes) is not int:
        return  # a hidden subtotal says nothing to check against
    low, high = below
    if low <= votes and (high is None or votes <= high):
        return
    shown = f"{low:,}" if low == high else f"{low:,} to {'any number' if high is None else f'{high:,}'}"
    report.row_problem(table.location(row, VOTES), f"subtotal {votes:,} for {choice!r} in {contest!r} does not "
                       f"match the sum of its {what} rows, {shown}", contest)


def _report_repeats(source: Source, repeats: list[tuple[int, tuple[str, str, str]]], report: Report) -> None:
    """Name both rows of each repeat. The first rows are found by a second read, only when there are
    repeats, so the hot loop does not keep a row number for every cell."""
    scratch = Report()
    table = open_table(source, scratch, required=REQUIRED, optional=OPTIONAL, ignore_unknown=True)
    assert table is not None  # the same text opened fine a moment ago
    reader = _Reader(table, scratch)
    first_row: dict[tuple[str, str, str], int] = {}
    wanted = {key for _, key in repeats}
    c = table.columns
    for row, cells in table.rows():
        contest, choice = cells[c["contest"]].strip(), cells[c["choice"]].strip()
        unit = reader.units.get((cells[c["county"]], cells[c["precinct"]]))
        if unit is None:
            unit = reader._unit(row, cells[c["county"]], cells[c["precinct"]], contest)
        where = _level_name(unit[0]) if type(unit) is tuple else unit
        key = (contest, where, choice)
        if key in wanted and key not in first_row and _readable(cells[c[VOTES]]):
            first_row[key] = row
    for row, (contest, where, choice) in repeats:
        earlier = first_row.get((contest, where, choice))
        said = f"repeats row {earlier}" if earlier is not None else "repeats an earlier row"
        report.row_problem(f"row {row}", f"{said}: contest {contest!r}, choice {choice!r}, {where}", contest)


def _readable(cell: str) -> bool:
    try:
        parse_count(cell)
    except CountError:
        return hidden_count(cell) is not None
    return True
