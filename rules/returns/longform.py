"""A county's own long-form export: a row per precinct, contest and choice, whatever it names its columns.

Counties export their precinct results as one long table from their tabulation or election-management
system, and each names the columns its own way (see tests/fixtures/returns/README.md):

    PRECINCT | CONTEST | CANDIDATE | TOTAL VOTES                        Arapahoe 2014-2020 (.xls)
    PRECINCT_NAME | CONTEST_FULL_NAME | CANDIDATE_NAME | TOTAL_VOTES     Arapahoe 2010
    Precinct_name, ..., Contest_title, candidate_name, ..., total_votes, total_under_votes, ...   Delta 2010

So the columns are found by their header words, not by one spelling (`_ROLES`): the contest ("contest",
"race", "office"), the choice ("candidate", "choice", "selection"), the votes ("votes", "total votes", "vote
count"; never under-, over- or blank votes, ballots or percentages), and optionally the unit ("precinct",
"precinct portion", "ward", "split") and the party. The mapping used is named as a reading; columns read as
none of these are listed. A new county's layout should rarely need a new reader.

Quirks of the real files:
- a note row under the header ("NOTE: *** denotes vote totals moved to another precinct to protect voter
  privacy", Arapahoe), or the same note in an unnamed column beside the first row of data (2020). When the
  file says so, a "***" cell's votes were moved into another precinct's row: read as counted there (set
  aside here, named as a reading). Without such a note a "***" hides a count: a range (`rules.bounds`).
- precinct numbers stored as numbers ("1260303101"), a placeholder "There are no candidates for this
  office." (not results), a generic "Write-in" line (an aggregate: never a winner);
- rows of one contest scattered through the sheet (sorted by precinct): gathered by contest;
- a precinct whose rows start over (Arapahoe 2020: precinct 1260303113's rows run from Presidential Electors
  at row 1278 to the last ballot issue, then from Presidential Electors again at row 1385, with other
  counts: a precinct split between ballot styles, the export having no split column): each start is a part
  of the precinct, read as its own unit ("1260303113, part 2") and named as a reading. Only a repeat of the
  part's first row starts a part; any other repeated row is a problem of its contest.
Rows naming no choice are set aside and named; a unit named as a total ("Total", "County Total") is a
subtotal, cross-checked against its precincts.
"""
from __future__ import annotations

import re

from rules.returns.dominion_common import clean, put, read_count, records
from rules.returns.dominion_flat import settle_subtotals
from rules.returns.draft import Draft
from rules.returns.problems import Report
from rules.returns.source import Source
from rules.row_kinds import RowKind, choice_row_kind, is_subtotal_unit, normalise

DESCRIPTION = ("a county's long-form export: one row per precinct, contest and choice, its columns named by header "
               "words (e.g. PRECINCT, CONTEST, CANDIDATE, TOTAL VOTES)")
ONE_COUNTY = "one county's precinct export"
_ID_WORDS = frozenset({"id", "code", "seq", "sort", "order", "type", "nbr", "number", "num", "no", "key", "index"})
_NOT_VOTES = frozenset({"under", "over", "undervotes", "overvotes", "blank", "blanks", "ballots", "percent", "pct",
                        "registered", "turnout", "voters", "reg"})
# role -> (exact header words, a word the header must contain)
_ROLES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "contest": (frozenset({"contest", "contest name", "contest title", "contest full name", "race", "race name",
                           "office", "office name", "contest description"}), frozenset({"contest", "race", "office"})),
    "choice": (frozenset({"candidate", "candidate name", "choice", "choice name", "candidate question", "selection",
                          "candidate or question", "option", "response", "candidate full name"}),
               frozenset({"candidate", "choice", "selection"})),
    "votes": (frozenset({"total votes", "votes", "vote count", "total vote", "votes cast", "total", "count",
                         "vote total"}), frozenset({"votes", "vote"})),
    "unit": (frozenset({"precinct", "precinct name", "precinct code", "precinct portion", "pct", "precinct number",
                        "ward", "split", "precinct split"}), frozenset({"precinct"})),
    "party": (frozenset({"party", "party code", "party name", "party abbreviation"}), frozenset({"party"})),
}
REQUIRED = ("contest", "choice", "votes")
_MOVED_NOTE = re.compile(r"\*+\s*(?:denotes|=|means|indicates)\s+.*\bmoved\b.*\bprecinct", re.I)


def columns(header: list[str]) -> dict[str, int]:
    """role -> column index, by header words: an exact name first, else a name holding the role's word (never
    an id, code or sequence column; never under-/over-votes or ballots for the votes)."""
    keys = [normalise(c) for c in header]
    found: dict[str, int] = {}
    for role, (exact, words) in _ROLES.items():
        taken = set(found.values())
        match = next((i for i, k in enumerate(keys) if k in exact and i not in taken), None)
        if match is None:
            for i, key in enumerate(keys):
                parts = set(key.split())
                if i in taken or not parts & words or parts & _ID_WORDS:
                    continue
                if role == "votes" and parts & _NOT_VOTES:
                    continue
                match = i
                break
        if match is not None:
            found[role] = match
    return found


def detect(head) -> bool:
    if not head.records:
        return False
    found = columns(head.records[0])
    return all(role in found for role in REQUIRED)


def parse(source: Source, report: Report) -> list[Draft]:
    rows = records(source, report)
    start = next(((row, cells) for row, cells in rows if any(c.strip() for c in cells)), None)
    if start is None:
        report.problem("file", "is empty")
        return []
    first, header = start
    found = columns(header)
    missing = [role for role in REQUIRED if role not in found]
    if missing:
        report.problem(f"row {first}", f"no column for the {' or '.join(missing)}: expected header words such "
                                       "as CONTEST, CANDIDATE and TOTAL VOTES")
        return []
    report.one_county = report.one_county or ONE_COUNTY
    table = _LongTable(header, found, report)
    for row, cells in rows:
        if any(c.strip() for c in cells):
            table.read(row, cells)
    return table.finish()


class _LongTable:
    """One long table while it is read: its columns, its contests, and what its rows have shown so far."""

    def __init__(self, header: list[str], found: dict[str, int], report: Report) -> None:
        self.header, self.found, self.report = header, found, report
        self.width = len(header)
        self.named = [i for i, c in enumerate(header) if c.strip()]
        mapping = ", ".join(f"{role} = {clean(header[i])!r}" for role, i in found.items())
        unread = [clean(header[i]) for i in self.named if i not in found.values()]
        report.readings.append(f"columns by their header words: {mapping}"
                               + (f"; not read: {', '.join(map(repr, unread))}" if unread else ""))
        self.i_unit, self.i_party = found.get("unit"), found.get("party")
        self.drafts: dict[str, Draft] = {}
        self.seen: dict[tuple[str, str, str], int] = {}
        self.subtotals: dict[str, list] = {}
        self.masked: list[int] = []  # rows of "***" cells
        self.moved_note = ""  # where the file says "*** denotes vote totals moved to another precinct"
        self.data_rows = 0
        self.parts: dict[str, int] = {}  # unit -> how many times its rows have started over
        self.first_key: dict[str, tuple[str, str]] = {}  # unit -> the (contest, choice) of its first row
        self.in_part: dict[str, set[tuple[str, str]]] = {}  # unit -> the (contest, choice) of its current part

    def location(self, row: int, role: str) -> str:
        return f"row {row}, column {clean(self.header[self.found[role]])}"

    def read(self, row: int, cells: list[str]) -> None:
        if len(cells) < self.width:
            cells = cells + [""] * (self.width - len(cells))
        self._unnamed_cells(row, cells)
        if not any(cells[i].strip() for i in self.named):
            return
        contest, choice = clean(cells[self.found["contest"]]), clean(cells[self.found["choice"]])
        cell = cells[self.found["votes"]].strip()
        if not contest:
            if _MOVED_NOTE.search(" ".join(cells)):  # 2016: the note on a row of its own, under the header
                self.moved_note = self.moved_note or f"row {row}"
                self.report.set_aside(RowKind.NOT_RESULTS, f"row {row}")
            else:
                self.data_rows += 1
                self.report.row_problem(self.location(row, "contest"), "is empty; every row needs a contest", None)
            return
        self.data_rows += 1
        draft = self.drafts.get(contest) or self.drafts.setdefault(contest, Draft(name=contest))
        if not choice:
            self.report.nameless(self.location(row, "choice"), contest, cell)
        elif (kind := choice_row_kind(choice)) is not None:
            self.report.set_aside(kind, f"row {row}")
        else:
            self._count(row, cells, draft, choice, cell)

    def _unnamed_cells(self, row: int, cells: list[str]) -> None:
        """The privacy note beside the data (2020, column F); anything else in a column with no name is a problem."""
        for i, text in enumerate(cells):
            if not text.strip() or (i < self.width and self.header[i].strip()):
                continue
            if _MOVED_NOTE.search(text):
                self.moved_note = self.moved_note or f"row {row}, column {i + 1}"
            else:
                self.report.row_problem(f"row {row}, column {i + 1}", f"holds {clean(text)[:60]!r}, but the column "
                                        "has no name in the header", clean(cells[self.found["contest"]]) or None)

    def _count(self, row: int, cells: list[str], draft: Draft, choice: str, cell: str) -> None:
        contest = draft.name
        unit = clean(cells[self.i_unit]) if self.i_unit is not None else ""
        if unit:
            unit = _part_of(unit, (contest, choice), self.parts, self.first_key, self.in_part)
        if cell and cell.strip("*") == "":
            self.masked.append(row)
            if self.moved_note:  # the file says these votes were moved into another precinct's row
                self.report.set_aside(RowKind.MOVED, f"row {row}")
                draft.choices.setdefault(choice, None)
                return
        votes = read_count(cell, self.location(row, "votes"), self.report, contest)
        if votes is None:
            return
        key = (contest, unit, choice)
        if key in self.seen:
            self.report.row_problem(f"row {row}", f"repeats row {self.seen[key]}: {contest!r}, {choice!r}"
                                    + (f", precinct {unit!r}" if self.i_unit is not None else ""), contest)
            return
        self.seen[key] = row
        if self.i_party is not None and cells[self.i_party].strip():
            draft.details.setdefault(choice, {"party": clean(cells[self.i_party])})
        if self.i_unit is not None and (not unit or is_subtotal_unit(unit)):
            self.subtotals.setdefault(contest, []).append((unit, choice, votes, row))
        else:
            put(draft, unit, choice, votes)

    def finish(self) -> list[Draft]:
        report = self.report
        if self.data_rows == 0 and not report.problems:
            report.problem("file", "has a header but no rows of returns")
        for name, figures in self.subtotals.items():
            settle_subtotals(self.drafts[name], figures, report)
        split = [u for u, n in self.parts.items() if n > 1]
        if split:
            report.readings.append(f"{len(split)} precinct{'s' if len(split) != 1 else ''} (e.g. {split[0]!r}) have "
                                   "rows that start over with other counts, as a precinct split between ballot styles "
                                   "is exported: each start is read as a part of its precinct and added")
        if self.masked and self.moved_note:
            report.readings.append(f"'***' cells ({len(self.masked)}, the first at row {self.masked[0]}): the file's "
                                   f"note ({self.moved_note}) says their votes were moved to another precinct to "
                                   "protect voter privacy, so they are counted in that precinct's row and read as "
                                   "none here")
        return [d for d in self.drafts.values() if d.choices or d.name in report.contest_problems]


def _part_of(unit: str, key: tuple[str, str], parts: dict, first_key: dict, in_part: dict) -> str:
    """The unit a row counts in: its precinct, or "precinct, part N" once the precinct's rows have started over
    (the part's first (contest, choice) seen again)."""
    seen = in_part.get(unit)
    if seen is None:
        parts[unit], first_key[unit], seen = 1, key, in_part.setdefault(unit, set())
    elif key == first_key[unit] and key in seen:
        parts[unit] += 1
        seen.clear()
    seen.add(key)
    return unit if parts[unit] == 1 else f"{unit}, part {parts[unit]}"
