"""OpenElections CSV: county,[precinct,]office,district,party,candidate,votes[,no_votes].

Quirks of the real Colorado files (see tests/rules/test_returns_openelections.py):
- Total rows sit among the county rows: county TOTAL/TOTALS (any case) or blank. They are not units;
  counting them would double every total. Where a candidate has unit rows too, the total is
  cross-checked against their sum and skipped; where it has only a total, the total is used.
  With a precinct column, a county row with a blank/TOTAL precinct is that county's subtotal and is
  handled the same way one level down.
- "0*": a footnote marker after a number (Weld, RTD District K, 2018). Read as the number, noted.
- A non-blank no_votes makes the row a yes/no question ("{office}: {candidate}"), e.g. judicial
  retention: "Supreme Court: Richard L. Gabriel" with choices Yes and No.
- Judicial retention without no_votes (the 2016 file has no such column): each judge of "Supreme
  Court", "Court of Appeals", "District Court, ...", "County Court, ..." (and Denver's probate and
  juvenile courts) is read as its own question "{office}: {judge}" with the one choice Yes, since
  only the yes votes were published. Read as one candidate contest, the judges would be compared
  with each other, a verdict about nothing on the ballot; as a Yes-only question the check says
  uncontested, and a note tells the clerk these retentions cannot be checked from the file. A judge
  with no_votes on some rows but not others is refused, as for any question.
Columns OpenElections adds for breakdowns (election_day, absentee, ...) are ignored with a note:
the votes column already holds the row's total. district, party, precinct and no_votes may be
absent (read as blank); county, office, candidate and votes are required.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.contest import WHOLE_CONTEST, ContestKind
from rules.returns.build import Draft
from rules.returns.csv_table import Table, open_table
from rules.returns.numbers import CountError, is_plain_count, parse_count
from rules.returns.problems import Report
from rules.returns.source import Source

REQUIRED = ("county", "office", "candidate", "votes")
OPTIONAL = ("precinct", "district", "party", "no_votes")
TOTAL_NAMES = frozenset({"", "TOTAL", "TOTALS"})
YES, NO = "Yes", "No"
# Offices whose "candidates" are judges standing for retention (Colo. Const. art. VI, sec. 25), as
# the files name them: "Supreme Court", "Court of Appeals", "District Court, 1st Judicial District",
# "County Court, Adams"; Denver's probate and juvenile courts too.
RETENTION_OFFICE = re.compile(
    r"\s*(?:supreme court|court of appeals|(?:denver\s+)?(?:district|county|probate|juvenile)\s+court)\b", re.I)
# A retention office whose rows name the answers rather than the judge is an ordinary yes/no contest.
_ANSWERS = frozenset({"yes", "no", "for", "against"})

# A figure as read: (votes, row, column name) - the row and column are for cross-check messages.
Figure = tuple[int, int, str]


@dataclass(eq=False)
class _Tally:
    """One contest while reading: unit rows, county subtotals and grand totals kept apart."""

    name: str
    kind: ContestKind
    choices: dict[str, None] = field(default_factory=dict)
    first_row: dict[str, int] = field(default_factory=dict)  # choice -> first row naming it
    details: dict[str, dict[str, str]] = field(default_factory=dict)
    leaves: dict[tuple[str, str | None], dict[str, int]] = field(default_factory=dict)  # (county, precinct)
    leaf_rows: dict[tuple[tuple[str, str | None], str], int] = field(default_factory=dict)
    subtotals: dict[str, dict[str, Figure]] = field(default_factory=dict)  # county -> choice -> figure
    totals: dict[str, Figure] = field(default_factory=dict)  # choice -> figure
    incomplete: set[str] = field(default_factory=set)  # choices with a refused or repeated row: no cross-check
    retention: tuple[str, str] | None = None  # (office, judge) of a judge read from rows without no_votes
    yes_only_row: int = 0  # the first such row


def parse(source: Source, report: Report) -> list[Draft]:
    table = open_table(source, report, required=REQUIRED, optional=OPTIONAL, ignore_unknown=True)
    if table is None:
        return []
    if table.ignored:
        report.note(f"columns {', '.join(table.ignored)} ignored: the votes column holds each row's total")
    tallies = _read_rows(table, report)
    if table.data_rows == 0 and not report.problems:
        report.problem("file", "has a header but no rows of returns")
    _check_question_rows(table, tallies, report)
    _note_unpaired_retention(tallies, report)
    skipped: set[int] = set()
    used: set[int] = set()
    drafts = [_resolve(t, table, report, skipped, used) for t in tallies.values()]
    if skipped:
        report.note(f"{_rows(len(skipped))} cross-checked and skipped (county TOTAL, TOTALS or blank)")
    if used:
        report.note(f"{_rows(len(used))} used as the only figures for their candidate (no county rows)")
    return drafts


def _rows(n: int) -> str:
    return f"{n} total row" if n == 1 else f"{n} total rows"


def _read_rows(table: Table, report: Report) -> dict[str, _Tally]:
    c = table.columns
    i_county, i_office, i_candidate, i_votes = c["county"], c["office"], c["candidate"], c["votes"]
    i_precinct, i_district, i_party, i_no = c.get("precinct"), c.get("district"), c.get("party"), c.get("no_votes")
    votes_col = table.header[i_votes]
    no_col = table.header[i_no] if i_no is not None else ""
    tallies: dict[str, _Tally] = {}
    repeated_rows: set[int] = set()
    for row, cells in table.rows():
        county = cells[i_county].strip()
        office = cells[i_office].strip()
        candidate = cells[i_candidate].strip()
        ok = True
        if not office:
            report.problem(table.location(row, "office"), "is empty; every row needs an office")
            ok = False
        if not candidate:
            report.problem(table.location(row, "candidate"), "is empty; every row needs a candidate")
            ok = False
        votes = _count(table, row, "votes", cells[i_votes], report)
        no_cell = cells[i_no].strip() if i_no is not None else ""
        no_votes = _count(table, row, "no_votes", no_cell, report) if no_cell else None
        if not ok:
            continue
        district = cells[i_district].strip() if i_district is not None else ""
        base = f"{office} - District {district}" if district else office
        retention = None
        if no_cell:
            name, kind = f"{base}: {candidate}", ContestKind.QUESTION
            entries: list[tuple[int | None, int, str]] = [(votes, row, votes_col), (no_votes, row, no_col)]
            choices = (YES, NO)
        elif RETENTION_OFFICE.match(office) and candidate.casefold() not in _ANSWERS:
            name, kind, retention = f"{base}: {candidate}", ContestKind.QUESTION, (base, candidate)
            entries, choices = [(votes, row, votes_col)], (YES,)
        else:
            name, kind = base, ContestKind.CANDIDATE
            entries, choices = [(votes, row, votes_col)], (candidate,)
        tally = tallies.get(name)
        if tally is None:
            tally = tallies[name] = _Tally(name=name, kind=kind)
        if retention is not None and not tally.yes_only_row:
            tally.retention, tally.yes_only_row = retention, row
        if votes is None or (no_cell and no_votes is None):
            # Already a problem; checking this choice's total too would only repeat it in other words.
            tally.incomplete.update(ch for ch, (v, _, _) in zip(choices, entries) if v is None)
            continue
        for choice in choices:
            if choice not in tally.choices:
                tally.choices[choice] = None
                tally.first_row[choice] = row
        if kind is ContestKind.CANDIDATE and i_party is not None:
            _keep_party(tally, candidate, cells[i_party].strip(), row, report)
        level_key = _level(county, cells[i_precinct].strip() if i_precinct is not None else None)
        for choice, figure in zip(choices, entries):
            first = _store(tally, level_key, choice, figure)
            if first is not None:
                tally.incomplete.add(choice)
            if first is not None and row not in repeated_rows:
                repeated_rows.add(row)
                report.problem(f"row {row}", f"repeats row {first}: {name!r}, {candidate!r}, {_where(level_key)}")
    return tallies


def _count(table: Table, row: int, column: str, cell: str, report: Report) -> int | None:
    if is_plain_count(cell):
        return int(cell)
    try:
        votes, note = parse_count(cell, footnotes=True)
    except CountError as exc:
        report.problem(table.location(row, column), str(exc))
        return None
    if note:
        report.note(f"row {row}: {note}", kind="counts normalised")
    return votes


def _level(county: str, precinct: str | None) -> tuple[str, str | None] | str | None:
    """None: a grand total row. str: a county subtotal (precinct blank/TOTAL). tuple: a unit row."""
    if county.upper() in TOTAL_NAMES:
        return None
    if precinct is None:
        return (county, None)
    if precinct.upper() in TOTAL_NAMES:
        return county
    return (county, precinct)


def _where(level_key) -> str:
    if level_key is None:
        return "the total"
    if isinstance(level_key, str):
        return f"county {level_key!r}, its subtotal"
    county, precinct = level_key
    return f"county {county!r}" + (f", precinct {precinct!r}" if precinct is not None else "")


def _store(tally: _Tally, level_key, choice: str, figure: Figure) -> int | None:
    """File one figure; return the earlier row if this one repeats it (then nothing is stored)."""
    votes, row, _ = figure
    if level_key is None:
        earlier = tally.totals.get(choice)
        if earlier is not None:
            return earlier[1]
        tally.totals[choice] = figure
    elif isinstance(level_key, str):
        per_choice = tally.subtotals.setdefault(level_key, {})
        if choice in per_choice:
            return per_choice[choice][1]
        per_choice[choice] = figure
    else:
        units = tally.leaves.get(level_key)
        if units is None:
            units = tally.leaves[level_key] = {}
        if choice in units:
            return tally.leaf_rows[(level_key, choice)]
        units[choice] = votes
        tally.leaf_rows[(level_key, choice)] = row
    return None


def _keep_party(tally: _Tally, candidate: str, party: str, row: int, report: Report) -> None:
    if not party:
        return
    known = tally.details.get(candidate)
    if known is None:
        tally.details[candidate] = {"party": party}
    elif known["party"] != party:
        report.note(f"row {row}: {candidate!r} in {tally.name!r} is listed as {party!r} here but "
                    f"{known['party']!r} earlier; kept {known['party']!r}", kind="party differs")


def _check_question_rows(table: Table, tallies: dict[str, _Tally], report: Report) -> None:
    """A question row with its no_votes left blank would silently become a candidate contest (or, for
    a judge, lose its No votes)."""
    if "no_votes" not in table.columns:
        return
    for tally in tallies.values():
        if tally.retention is not None and NO in tally.choices:
            office, judge = tally.retention
            report.problem(table.location(tally.yes_only_row, "no_votes"),
                           f"is empty, but {judge!r} in {office!r} has no votes on row "
                           f"{tally.first_row[NO]}; a yes/no question needs them on every row")
            tally.incomplete.add(NO)  # its totals cannot add up; saying so again would only repeat this
            continue
        if tally.kind is not ContestKind.CANDIDATE:
            continue
        for choice, row in tally.first_row.items():
            question = tallies.get(f"{tally.name}: {choice}")
            if question is not None and question.kind is ContestKind.QUESTION:
                report.problem(table.location(row, "no_votes"),
                               f"is empty, but {choice!r} in {tally.name!r} has no votes on row "
                               f"{question.first_row[NO]}; a yes/no question needs them on every row")


def _note_unpaired_retention(tallies: dict[str, _Tally], report: Report) -> None:
    """Name the offices whose judges were read with Yes votes only (see the module docstring)."""
    offices: dict[str, str] = {}  # office -> its first judge's contest, as an example
    for tally in tallies.values():
        if tally.retention is not None and NO not in tally.choices:
            offices.setdefault(tally.retention[0], tally.name)
    if not offices:
        return
    names = list(offices)
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    report.note(f"retention: no 'No' votes in the file for {shown}; each judge is read as its own question "
                f"(e.g. {offices[names[0]]!r}) with only its Yes votes: not checkable (shown as uncontested)")


def _resolve(tally: _Tally, table: Table, report: Report, skipped: set[int], used: set[int]) -> Draft:
    """Choose the units, cross-check every total that has units beneath it, and build the Draft."""
    has_precincts = "precinct" in table.columns
    votes_by_unit: dict[str, dict[str, int]] = {}
    by_county: dict[str, dict[str, int]] = {}
    for (county, precinct), counts in tally.leaves.items():
        votes_by_unit[f"{county} / {precinct}" if precinct is not None else county] = counts
        sums = by_county.setdefault(county, {})
        for choice, votes in counts.items():
            sums[choice] = sums.get(choice, 0) + votes
    for county, per_choice in tally.subtotals.items():
        for choice, figure in per_choice.items():
            below = by_county.get(county, {})
            if choice in below:
                _cross_check(tally, choice, figure, below[choice], "precinct", report)
                skipped.add(figure[1])
            else:
                votes_by_unit.setdefault(county, {})[choice] = figure[0]
                used.add(figure[1])
    for choice, figure in tally.totals.items():
        unit_sums = [counts[choice] for counts in votes_by_unit.values() if choice in counts]
        if unit_sums:
            _cross_check(tally, choice, figure, sum(unit_sums), "precinct" if has_precincts else "county", report)
            skipped.add(figure[1])
        else:
            votes_by_unit.setdefault(WHOLE_CONTEST, {})[choice] = figure[0]
            used.add(figure[1])
    return Draft(name=tally.name, kind=tally.kind, choices=tally.choices, votes_by_unit=votes_by_unit,
                 details=tally.details)


def _cross_check(tally: _Tally, choice: str, figure: Figure, below: int, what: str, report: Report) -> None:
    total, row, column = figure
    if total != below and choice not in tally.incomplete:
        report.problem(f"row {row}, column {column}",
                       f"total {total:,} for {choice!r} in {tally.name!r} does not match the sum of its "
                       f"{what} rows, {below:,}")
