"""Clarity ENR (Scytl) summary.csv: one row per contest and choice, the whole contest's votes in one cell.

The Colorado Secretary of State and most Colorado counties publish their results with Clarity; its
"Summary CSV" (summary.zip) has this header (2024 general, Colorado SoS):

    "line number","contest name","choice name","party name","total votes","percent of votes",
    "registered voters","ballots cast","num Area total","num Area rptg","over votes","under votes"

Older and county exports name some columns otherwise ("num County total", "num Precinct rptg"), so
only contest name, choice name and total votes are required (in any case and order); party name is
read when present. Every other column is ignored with a note: percent of votes is derived, and
registered voters, ballots cast and the over and under votes are figures of the contest repeated on
each of its rows, never votes for a choice (nor rows to set aside: they are columns). There are no
units: each contest has the one unit "" (the whole contest).

Quirks of the real file (tests/rules/test_returns_clarity.py) this reader handles:
- Windows-1252 text ("Campa\u00f1a", "M\u00e1rquez", "Rom\u00e1n"); `rules.returns.source` settles it.
- The seats are in the contest's name, "Presidential Electors (Vote For 1)", "Town of Erie Council
  Member - District 2 (Vote For 2)": they become the contest's seats, and "(Vote For N)" is dropped from
  the name, so it reads as the Secretary of State's precinct file and detail.xml name the contest
  (a note says so). Older files write no "(Vote For N)" (2014: "UNITED STATES SENATOR"); one seat is
  then assumed and said (`build.finish`).
- party name is a party for candidates ("DEM", "UAF") but "Y"/"N" beside a retention question's Yes and
  No, and "1", "2", "3" for the nonpartisan Town of Erie candidates: such cells are not kept as parties.
- Ballot measures (Yes/For, No/Against) and judges' retention (Yes, No) are questions because their
  choices are answers (`build.finish`); the file does not say which contests are questions.
- A choice named as a total, turnout or over/under votes (`rules.row_kinds`) is set aside, and so is a
  "contest" that counts voters or ballots; a row naming nothing at all is set aside as not results.
A contest naming the same choice twice is refused, naming both rows; a row this reader cannot read
leaves only its contest undecided.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.contest import WHOLE_CONTEST, Bound
from rules.returns.csv_table import Table, open_table
from rules.returns.draft import Draft
from rules.returns.numbers import MAX_DIGITS, CountError, hidden_count, parse_count
from rules.returns.problems import Report
from rules.returns.sentinel import MISSING, Missing
from rules.returns.source import Source
from rules.row_kinds import RowKind, answer, choice_row_kind, office_row_kind

DESCRIPTION = ("a CSV whose header has contest name, choice name and total votes "
               "(Clarity ENR summary.csv: Colorado Secretary of State and counties)")
CONTEST, CHOICE, VOTES, PARTY = "contest name", "choice name", "total votes", "party name"
REQUIRED = (CONTEST, CHOICE, VOTES)
OPTIONAL = (PARTY,)
# "(Vote For 2)" as Clarity writes it; "(Vote for not more than 2)" as some counties retype it.
VOTE_FOR = re.compile(r"\s*\(\s*vote\s+for\s*(?:not\s+more\s+than\s+|up\s+to\s+)?(\d{1,3})\s*\)", re.I)


def detect(head) -> bool:
    """Clarity's summary: contest name and choice name, even if total votes is missing (then the reader
    says to add it)."""
    return {CONTEST, CHOICE} <= head.header


@dataclass(eq=False)
class _Contest:
    draft: Draft
    first_row: dict[str, int] = field(default_factory=dict)  # choice -> the row that gave it


def parse(source: Source, report: Report) -> list[Draft]:
    table = open_table(source, report, required=REQUIRED, optional=OPTIONAL, ignore_unknown=True)
    if table is None:
        return []
    if table.ignored:
        report.note(f"columns {', '.join(table.ignored)} ignored: they are not votes for a choice "
                    "(total votes holds each choice's votes)")
    reader = _Reader(table, report)
    reader.read()
    if table.data_rows == 0 and not report.problems:
        report.problem("file", "has a header but no rows of returns")
    reader.notes()
    return [c.draft for c in reader.by_name.values()]


class _Reader:
    def __init__(self, table: Table, report: Report) -> None:
        self.table, self.report = table, report
        self.contests: dict[str, _Contest | None] = {}  # raw contest cell -> contest (None: turnout, set aside)
        self.by_name: dict[str, _Contest] = {}  # name without "(Vote For N)" -> contest
        self.not_parties: dict[str, dict[str, None]] = {}  # contest -> party name cells that are numbers
        self.seats_named = 0

    def read(self) -> None:
        table, report = self.table, self.report
        c = table.columns
        i_contest, i_choice, i_votes, i_party = c[CONTEST], c[CHOICE], c[VOTES], c.get(PARTY)
        for row, cells in table.rows():
            raw = cells[i_contest]
            contest = self.contests.get(raw, MISSING)
            if contest is MISSING:
                contest = self._contest(row, raw, cells, i_choice, i_votes)
                if contest is MISSING:
                    continue
            if contest is None:
                report.set_aside(RowKind.TURNOUT, f"row {row}")
                continue
            name = contest.draft.name
            if row in table.trouble:
                report.row_problem(*table.trouble[row], name)
                continue
            choice = cells[i_choice].strip()
            if not choice:
                report.nameless(table.location(row, CHOICE), name, cells[i_votes])
                continue
            kind = choice_row_kind(choice)
            if kind is not None:
                report.set_aside(kind, f"row {row}")
                continue
            cell = cells[i_votes]
            if len(cell) <= MAX_DIGITS and cell.isascii() and cell.isdigit():  # is_plain_count, inlined
                votes: int | Bound = int(cell)
            else:
                slow = self._slow_count(row, cell, name)
                if slow is None:
                    continue
                votes = slow
            earlier = contest.first_row.get(choice)
            if earlier is not None:
                report.row_problem(f"row {row}", f"repeats row {earlier}: contest {name!r}, choice {choice!r}", name)
                continue
            contest.first_row[choice] = row
            draft = contest.draft
            if isinstance(votes, int):
                draft.choices[choice] = None
                draft.votes_by_unit.setdefault(WHOLE_CONTEST, {})[choice] = votes
            else:
                draft.add_uncertain(WHOLE_CONTEST, choice, votes)
            if i_party is not None:
                self._party(contest, choice, cells[i_party].strip())

    def _contest(self, row: int, raw: str, cells: list[str], i_choice: int,
                 i_votes: int) -> _Contest | None | Missing:
        """The contest of a contest name cell not seen before; MISSING when the row is set aside or refused."""
        text = " ".join(raw.split())
        if not text:
            if not cells[i_choice].strip() and not cells[i_votes].strip():
                self.report.set_aside(RowKind.NOT_RESULTS, f"row {row}")  # nothing in it counts for anyone
            else:
                self.report.row_problem(self.table.location(row, CONTEST), "is empty; every row needs a contest",
                                        None)
            return MISSING
        match = VOTE_FOR.search(text)
        name = (text[:match.start()] + text[match.end():]).strip() if match else text
        if not name:
            self.report.row_problem(self.table.location(row, CONTEST), f"names no contest, only {text!r}", None)
            return MISSING
        if office_row_kind(name) is not None:
            self.contests[raw] = None
            return None
        contest = self.by_name.get(name)
        if contest is None:
            contest = self.by_name[name] = _Contest(Draft(name=name))
        self.contests[raw] = contest
        if match is not None:
            self._seats(contest, int(match[1]), row)
        return contest

    def _seats(self, contest: _Contest, seats: int, row: int) -> None:
        draft, where = contest.draft, self.table.location(row, CONTEST)
        if seats < 1:
            self.report.row_problem(where, f"says to vote for {seats}; a contest fills at least one seat", draft.name)
        elif draft.seats is None:
            draft.seats, draft.seats_location = seats, where
            self.seats_named += 1
        elif draft.seats != seats:
            self.report.row_problem(where, f"says {seats} seats for {draft.name!r}, but {draft.seats_location} says "
                                           f"{draft.seats}", draft.name)

    def _party(self, contest: _Contest, choice: str, label: str) -> None:
        if not label:
            return
        draft = contest.draft
        if label.isdigit():
            self.not_parties.setdefault(draft.name, {})[label] = None
        elif not (label.upper() in ("Y", "N") and answer(choice) is not None):
            draft.details[choice] = {"party": label}

    def _slow_count(self, row: int, cell: str, contest: str) -> int | Bound | None:
        """A total votes cell that is not plain digits; None (reported) when it cannot be read."""
        where = self.table.location(row, VOTES)
        try:
            votes, note = parse_count(cell)
        except CountError as exc:
            hidden = hidden_count(cell, where)
            if hidden is None:
                self.report.row_problem(where, str(exc), contest)
            return hidden
        if note:
            self.report.note(f"row {row}: {note}", kind="counts normalised")
        return votes

    def notes(self) -> None:
        if self.seats_named:
            self.report.note(f"seats read from \"(Vote For N)\" in {self.seats_named} contest name"
                             f"{'s' if self.seats_named != 1 else ''}, which are shown without it")
        if self.not_parties:
            names = list(self.not_parties)
            shown = ", ".join(repr(n) for n in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            cells = sorted({c for found in self.not_parties.values() for c in found}, key=lambda c: (len(c), c))
            self.report.note(f"party name cells {', '.join(cells)} in {shown} are numbers, not parties; "
                             "not kept as parties")

