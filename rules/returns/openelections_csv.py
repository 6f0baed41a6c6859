"""OpenElections CSV: county,[precinct,]office,district,party,candidate,votes[,no_votes].

Quirks of the real Colorado files, 2002-2024 (see tests/rules/test_returns_openelections*.py):
- Rows that are not votes for a candidate are set aside (`rules.row_kinds`): an office that counts
  voters ("Voters"/"Cast" in El Paso 2012, "Registered Voters"), a candidate that is a total
  ("Total" in Douglas 2018), turnout ("Registration", "Ballots") or over/under votes ("Over Vote",
  "Under-votes"); and a row with a blank candidate whose votes are the total of its contest, or of
  one party's candidates, at its unit (the statewide files of 2002-2014 carry one after every
  county's candidates). A blank-candidate row that is neither names no choice: set aside and named
  (`Report.nameless`), never counted and never a reason to withhold a verdict.
- Subtotal rows sit among the unit rows: county TOTAL/TOTALS (any case) or blank, and with a
  precinct column a precinct that names the county ("CO", "EL PASO CO", "Total", blank). Counting
  them would double every total. Where a candidate has rows beneath one, it is cross-checked
  against their sum and set aside; where it has none, it is used.
- "0*": a footnote marker after a number (Weld, RTD District K, 2018). Read as the number, noted.
  "(< 25)" (Douglas 2018), "***" (Arapahoe 2016) and empty cells hide a count: read as a range.
- A non-blank no_votes makes the row a yes/no question ("{office}: {candidate}"), e.g. judicial
  retention: "Supreme Court: Richard L. Gabriel" with choices Yes and No. A party cell holding the
  answer (Rio Blanco 2012: party YES/NO, candidate "Legalize Marijuana") is read the same way.
- Judicial retention without no_votes (the 2016 file has no such column): each judge of "Supreme
  Court", "Court of Appeals", "District Court, ...", "County Court, ..." (and Denver's probate and
  juvenile courts) is read as its own question "{office}: {judge}" with the one choice Yes, since
  only the yes votes were published; a note says these cannot be checked from the file.
- A contest whose choices are answers (Yes/For, No/Against) is a question (`build.finish`).
Columns OpenElections adds for breakdowns (election_day, absentee, ...) are ignored with a note:
the votes column ("total_votes" in some files) already holds the row's total. county, precinct,
district, party and no_votes may be absent (read as blank); office, candidate and votes are required.
A row this reader cannot read leaves only its contest undecided.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.contest import WHOLE_CONTEST, Bound, ContestKind
from rules.returns.csv_table import Table, open_table
from rules.returns.draft import Draft
from rules.returns.numbers import CountError, hidden_count, is_plain_count, parse_count
from rules.returns.problems import Report
from rules.returns.source import Source
from rules.row_kinds import RowKind, answer, choice_row_kind, is_subtotal_unit, office_row_kind

DESCRIPTION = "a CSV whose header has office, candidate, votes and county or precinct (OpenElections)"
REQUIRED = ("office", "candidate", "votes")
OPTIONAL = ("county", "precinct", "district", "party", "no_votes")
ALIASES = {"total_votes": "votes", "total votes": "votes"}
TOTAL_NAMES = frozenset({"", "TOTAL", "TOTALS"})
YES, NO = "Yes", "No"
# Offices whose "candidates" are judges standing for retention (Colo. Const. art. VI, sec. 25), as
# the files name them: "Supreme Court", "Court of Appeals", "District Court, 1st Judicial District",
# "County Court, Adams"; Denver's probate and juvenile courts too; and as the 2008 precinct files do:
# "County judge" and "District Judge" (Boulder: each judge's Yes votes under one office, never a race
# between the judges), "Justice of the Colorado Supreme Court".
RETENTION_OFFICE = re.compile(
    r"\s*(?:supreme court|court of appeals|(?:denver\s+)?(?:district|county|probate|juvenile)\s+court"
    r"|(?:county|district|probate|juvenile)\s+judge|justice of the\b|judge of the\b)\b", re.I)
# A retention office whose rows name the answers rather than the judge is an ordinary yes/no contest.
_ANSWERS = frozenset({"yes", "no", "for", "against"})

# A figure as read: (votes or the range of a hidden count, row, column name).
Figure = tuple["int | Bound", int, str]
Level = "tuple[str, str | None] | str | None"  # see _level


@dataclass(eq=False)
class _Tally:
    """One contest while reading: unit rows, county subtotals and grand totals kept apart."""

    name: str
    kind: ContestKind
    choices: dict[str, None] = field(default_factory=dict)
    first_row: dict[str, int] = field(default_factory=dict)  # choice -> first row naming it
    details: dict[str, dict[str, str]] = field(default_factory=dict)
    leaves: dict[tuple[str, str | None], dict[str, "int | Bound"]] = field(default_factory=dict)
    leaf_rows: dict[tuple[tuple[str, str | None], str], int] = field(default_factory=dict)
    subtotals: dict[str, dict[str, Figure]] = field(default_factory=dict)  # county -> choice -> figure
    totals: dict[str, Figure] = field(default_factory=dict)  # choice -> figure
    blank_rows: list[tuple[object, "int | Bound", int, str]] = field(default_factory=list)  # level, votes, row, party
    incomplete: set[str] = field(default_factory=set)  # choices with a refused or repeated row: no cross-check
    retention: tuple[str, str] | None = None  # (office, judge) of a judge read from rows without no_votes
    yes_only_row: int = 0  # the first such row
    stated: bool = False  # the rows say it is a question (no_votes, a retention, answers in the party cell)
    unit_totals: dict[tuple[str, str | None], int] = field(default_factory=dict)  # a "Total" row per unit


def detect(head) -> bool:
    """OpenElections: office and candidate, and where (county or precinct), even if votes is missing
    (the reader then says which column to add)."""
    names = head.header
    return {"office", "candidate"} <= names and bool({"county", "precinct"} & names)


def parse(source: Source, report: Report) -> list[Draft]:
    table = open_table(source, report, required=REQUIRED, optional=OPTIONAL, ignore_unknown=True, aliases=ALIASES)
    if table is None:
        return []
    if table.ignored:
        report.note(f"columns {', '.join(table.ignored)} ignored: the votes column holds each row's total")
    tallies = _read_rows(table, report)
    counties = {county for t in tallies.values() for county, _ in t.leaves}
    if len(counties) == 1 and "precinct" in table.columns and "county" in table.columns:
        report.one_county = f"one county's returns ({next(iter(counties))})"  # a county's precinct file
    if table.data_rows == 0 and not report.problems:
        report.problem("file", "has a header but no rows of returns")
    _check_question_rows(table, tallies, report)
    _note_unpaired_retention(tallies, report)
    used: set[int] = set()
    drafts = [_resolve(t, table, report, used) for t in tallies.values()]
    if used:
        report.note(f"{_rows(len(used))} used as the only figures for their candidate (no county rows)")
    return drafts


def _rows(n: int) -> str:
    return f"{n} total row" if n == 1 else f"{n} total rows"


def _read_rows(table: Table, report: Report) -> dict[str, _Tally]:
    c = table.columns
    i_office, i_candidate, i_votes = c["office"], c["candidate"], c["votes"]
    i_county, i_precinct, i_district = c.get("county"), c.get("precinct"), c.get("district")
    i_party, i_no = c.get("party"), c.get("no_votes")
    votes_col = table.header[i_votes]
    no_col = table.header[i_no] if i_no is not None else ""
    tallies: dict[str, _Tally] = {}
    repeated_rows: set[int] = set()
    trouble = table.trouble
    for row, cells in table.rows():
        county = cells[i_county].strip() if i_county is not None else ""
        office = cells[i_office].strip()
        candidate = cells[i_candidate].strip()
        party = cells[i_party].strip() if i_party is not None else ""
        if office_row_kind(office):
            report.set_aside(RowKind.TURNOUT, f"row {row}")
            continue
        set_aside = choice_row_kind(candidate)
        if set_aside is not None:
            report.set_aside(set_aside, f"row {row}")
            if set_aside is RowKind.CONTEST_TOTAL and office and not party:
                _keep_unit_total(tallies, cells, office, county, row, i_district, i_precinct, i_votes, i_no)
            continue
        if not office:
            report.row_problem(table.location(row, "office"), "is empty; every row needs an office", None)
            continue
        district = cells[i_district].strip() if i_district is not None else ""
        base = f"{office} - District {district}" if district else office
        precinct = cells[i_precinct].strip() if i_precinct is not None else None
        level_key = _level(county, precinct, has_county=i_county is not None)
        no_cell = cells[i_no].strip() if i_no is not None else ""
        if trouble and row in trouble:
            report.row_problem(*trouble[row], base if not candidate else _name_of(base, candidate, no_cell, party))
            continue
        if not candidate:
            if no_cell:
                report.row_problem(table.location(row, "candidate"), "is empty; a yes/no row needs the question", base)
                continue
            votes = _count(table, row, "votes", cells[i_votes], report, base)
            if votes is not None:
                tallies.setdefault(base, _Tally(name=base, kind=ContestKind.CANDIDATE)).blank_rows.append(
                    (level_key, votes, row, party))
            continue
        retention = None
        stated = False
        if no_cell:
            name, kind, stated = f"{base}: {candidate}", ContestKind.QUESTION, True
            choices: tuple[str, ...] = (YES, NO)
        elif party and answer(party) is not None and answer(candidate) is None:
            # Rio Blanco 2012: the answer in the party cell, the question's title in the candidate cell.
            name, kind, stated, choices = f"{base}: {candidate}", ContestKind.QUESTION, True, (party,)
        elif RETENTION_OFFICE.match(office) and candidate.casefold() not in _ANSWERS:
            name, kind, retention, stated = f"{base}: {candidate}", ContestKind.QUESTION, (base, candidate), True
            choices = (YES,)
        else:
            name, kind, choices = base, ContestKind.CANDIDATE, (candidate,)
        votes = _count(table, row, "votes", cells[i_votes], report, name)
        no_votes = _count(table, row, "no_votes", no_cell, report, name) if no_cell else None
        tally = tallies.get(name)
        if tally is None:
            tally = tallies[name] = _Tally(name=name, kind=kind)
        tally.stated = tally.stated or stated
        if retention is not None and not tally.yes_only_row:
            tally.retention, tally.yes_only_row = retention, row
        if votes is None or (no_cell and no_votes is None):
            # Already a problem; checking this choice's total too would only repeat it in other words.
            tally.incomplete.update(ch for ch, v in zip(choices, (votes, no_votes)) if v is None)
            continue
        entries: list[Figure] = [(votes, row, votes_col)]
        if no_cell and no_votes is not None:  # not None: refused above
            entries.append((no_votes, row, no_col))
        for choice in choices:
            if choice not in tally.choices:
                tally.choices[choice] = None
                tally.first_row[choice] = row
        if kind is ContestKind.CANDIDATE and party:
            _keep_party(tally, candidate, party, row, report)
        for choice, figure in zip(choices, entries):
            first = _store(tally, level_key, choice, figure)
            if first is not None:
                tally.incomplete.add(choice)
            if first is not None and row not in repeated_rows:
                repeated_rows.add(row)
                report.row_problem(f"row {row}", f"repeats row {first}: {name!r}, {candidate!r}, {_where(level_key)}",
                                   name)
    return tallies


def _keep_unit_total(tallies, cells, office, county, row, i_district, i_precinct, i_votes, i_no) -> None:
    """Remember a unit's "Total" row (Douglas 2018): it narrows the counts the same unit hides ("(< 25)")."""
    if i_no is not None and cells[i_no].strip():
        return
    district = cells[i_district].strip() if i_district is not None else ""
    base = f"{office} - District {district}" if district else office
    precinct = cells[i_precinct].strip() if i_precinct is not None else None
    level_key = _level(county, precinct)
    votes = cells[i_votes].strip()
    if isinstance(level_key, tuple) and is_plain_count(votes):
        tally = tallies.setdefault(base, _Tally(name=base, kind=ContestKind.CANDIDATE))
        tally.unit_totals[level_key] = int(votes)


def _name_of(base: str, candidate: str, no_cell: str, party: str) -> str:
    """The contest a row belongs to, as _read_rows names it (for rows reported before they are read)."""
    if no_cell or (party and answer(party) is not None and answer(candidate) is None):
        return f"{base}: {candidate}"
    return base


def _count(table: Table, row: int, column: str, cell: str, report: Report, contest: str) -> "int | Bound | None":
    if is_plain_count(cell):
        return int(cell)
    try:
        votes, note = parse_count(cell, footnotes=True)
    except CountError as exc:
        hidden = hidden_count(cell, table.location(row, column))
        if hidden is not None:
            return hidden
        report.row_problem(table.location(row, column), str(exc), contest)
        return None
    if note:
        report.note(f"row {row}: {note}", kind="counts normalised")
    return votes


def _level(county: str, precinct: str | None, *, has_county: bool = True):
    """None: a grand total row. str: a county subtotal (precinct blank, TOTAL or naming the county).
    tuple: a unit row."""
    if has_county and county.upper() in TOTAL_NAMES:
        return None
    if precinct is None:
        return (county, None)
    if precinct.upper() in TOTAL_NAMES or is_subtotal_unit(precinct, county):
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
            report.row_problem(table.location(tally.yes_only_row, "no_votes"),
                               f"is empty, but {judge!r} in {office!r} has no votes on row "
                               f"{tally.first_row[NO]}; a yes/no question needs them on every row", tally.name)
            tally.incomplete.add(NO)  # its totals cannot add up; saying so again would only repeat this
            continue
        if tally.kind is not ContestKind.CANDIDATE:
            continue
        for choice, row in tally.first_row.items():
            question = tallies.get(f"{tally.name}: {choice}")
            if question is not None and question.kind is ContestKind.QUESTION and NO in question.first_row:
                report.row_problem(table.location(row, "no_votes"),
                                   f"is empty, but {choice!r} in {tally.name!r} has no votes on row "
                                   f"{question.first_row[NO]}; a yes/no question needs them on every row",
                                   question.name)


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
                f"(e.g. {offices[names[0]]!r}) with only its Yes votes: not checkable, so left undecided")


def _resolve(tally: _Tally, table: Table, report: Report, used: set[int]) -> Draft:
    """Choose the units, cross-check every total that has units beneath it, and build the Draft."""
    has_precincts = "precinct" in table.columns
    draft = Draft(name=tally.name, kind=tally.kind, choices=tally.choices, details=tally.details,
                  kind_stated=tally.stated)
    by_county: dict[str, dict[str, int | Bound]] = {}
    set_aside_rows: dict[int, None] = {}  # a question's row holds two figures (yes and no): one row
    for (county, precinct), counts in tally.leaves.items():
        unit = f"{county} / {precinct}" if precinct is not None else county
        if precinct is not None:
            draft.unit_parent[unit] = county
        _put(draft, unit, counts, tally, (county, precinct))
        sums = by_county.setdefault(county, {})
        for choice, votes in counts.items():
            sums[choice] = _add(sums.get(choice, 0), votes)
    for county, per_choice in tally.subtotals.items():
        for choice, figure in per_choice.items():
            below = by_county.get(county, {})
            if choice in below:
                _cross_check(tally, choice, figure, below[choice], "precinct", report)
                set_aside_rows[figure[1]] = None
            else:
                _put_one(draft, county, choice, figure)
                used.add(figure[1])
    for choice, figure in tally.totals.items():
        unit_sums = [counts[choice] for counts in _figures_by_unit(draft).values() if choice in counts]
        if unit_sums:
            total_below: int | Bound = 0
            for value in unit_sums:
                total_below = _add(total_below, value)
            _cross_check(tally, choice, figure, total_below, "precinct" if has_precincts else "county", report)
            set_aside_rows[figure[1]] = None
        else:
            _put_one(draft, WHOLE_CONTEST, choice, figure)
            used.add(figure[1])
    for row in set_aside_rows:
        report.set_aside(RowKind.SUBTOTAL, f"row {row}")
    _settle_blank_rows(tally, draft, report)
    _narrow_by_unit_totals(tally, draft, report)
    return draft


def _figures_by_unit(draft: Draft) -> dict[str, dict[str, int | Bound]]:
    out: dict[str, dict[str, int | Bound]] = {}
    for unit, counts in draft.votes_by_unit.items():
        out[unit] = {c: draft.uncertain.get((unit, c), v) for c, v in counts.items()}
    return out


def _put(draft: Draft, unit: str, counts: dict[str, int | Bound], tally: _Tally, key) -> None:
    for choice, votes in counts.items():
        if isinstance(votes, Bound):
            draft.add_uncertain(unit, choice, votes)
        else:
            draft.votes_by_unit.setdefault(unit, {})[choice] = votes


def _put_one(draft: Draft, unit: str, choice: str, figure: Figure) -> None:
    votes = figure[0]
    if isinstance(votes, Bound):
        draft.add_uncertain(unit, choice, votes)
    else:
        draft.votes_by_unit.setdefault(unit, {})[choice] = votes


def _add(a: int | Bound, b: int | Bound) -> int | Bound:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    lo = (a.low if isinstance(a, Bound) else a) + (b.low if isinstance(b, Bound) else b)
    ha = a.high if isinstance(a, Bound) else a
    hb = b.high if isinstance(b, Bound) else b
    return Bound(lo, None if ha is None or hb is None else ha + hb, "a sum with hidden counts")


def _cross_check(tally: _Tally, choice: str, figure: Figure, below: int | Bound, what: str, report: Report) -> None:
    total, row, column = figure
    if choice in tally.incomplete or isinstance(total, Bound):
        return
    if isinstance(below, Bound):
        if total < below.low or (below.high is not None and total > below.high):
            report.row_problem(f"row {row}, column {column}",
                               f"total {total:,} for {choice!r} in {tally.name!r} cannot be the sum of its {what} "
                               f"rows, {below.low:,} to {'any number' if below.high is None else f'{below.high:,}'}",
                               tally.name)
        return
    if total != below:
        report.row_problem(f"row {row}, column {column}",
                           f"total {total:,} for {choice!r} in {tally.name!r} does not match the sum of its "
                           f"{what} rows, {below:,}", tally.name)


def _settle_blank_rows(tally: _Tally, draft: Draft, report: Report) -> None:
    """A blank-candidate row is set aside when its votes are the total of its contest (or of one party's
    candidates) at its unit; otherwise it is votes for nobody we can name, and its contest is undecided."""
    if not tally.blank_rows:
        return
    figures = _figures_by_unit(draft)
    for level_key, votes, row, _party in tally.blank_rows:
        if isinstance(level_key, tuple):
            county, precinct = level_key
            units = [f"{county} / {precinct}" if precinct is not None else county]
        elif isinstance(level_key, str):
            units = [u for u in figures if u == level_key or draft.unit_parent.get(u) == level_key]
        else:
            units = list(figures)
        groups: dict[str, list[int | Bound]] = {"": []}
        for unit in units:
            for choice, value in figures.get(unit, {}).items():
                groups[""].append(value)
                groups.setdefault(tally.details.get(choice, {}).get("party", ""), []).append(value)
        if isinstance(votes, Bound) or any(_matches(votes, values) for values in groups.values() if values):
            report.set_aside(RowKind.CONTEST_TOTAL, f"row {row}")
            continue
        total = _sum(groups[""])
        shown = f"{total:,}" if isinstance(total, int) else f"{total.low:,} or more"
        # Not a total: votes on a row naming no candidate. Never a vote for a candidate, so set aside and named
        # (the 2002 statewide file's U.S. House District 7 rows), never a reason to withhold the verdict.
        report.nameless(f"row {row}, column candidate", tally.name, f"{votes:,}",
                        f"not the total at {_where(level_key)} ({shown}) nor of one party's candidates there")


def _sum(values: list[int | Bound]) -> int | Bound:
    total: int | Bound = 0
    for value in values:
        total = _add(total, value)
    return total


def _matches(votes: int, values: list[int | Bound]) -> bool:
    total = _sum(values)
    if isinstance(total, int):
        return total == votes
    return total.low <= votes and (total.high is None or votes <= total.high)


def _narrow_by_unit_totals(tally: _Tally, draft: Draft, report: Report) -> None:
    """Narrow the hidden counts of a unit by its "Total" row, when this contest's Total rows are trusted.

    Douglas County 2018 gives, per precinct, each candidate ("(< 25)" when small) and a "Total" row.
    Where every count of a precinct is given, Total is their sum; so where some are hidden, they add up
    to Total minus the rest, and each lies within that. Trusted only when every precinct of the contest
    with all its counts given agrees with its Total (a "Total" that also counted blank ballots would
    not): otherwise the Total rows are only set aside.
    """
    if not tally.unit_totals or not draft.uncertain:
        return
    hidden_by_unit: dict[str, list[tuple[str, Bound]]] = {}
    for (unit, choice), bound in draft.uncertain.items():
        hidden_by_unit.setdefault(unit, []).append((choice, bound))
    totals = {(f"{c} / {p}" if p is not None else c): t for (c, p), t in tally.unit_totals.items()}
    checked = 0
    for unit, total in totals.items():
        counts = draft.votes_by_unit.get(unit)
        if counts is None or unit in hidden_by_unit:
            continue
        if sum(counts.values()) != total:
            return
        checked += 1
    if not checked:
        return
    narrowed = 0
    for unit, hidden in hidden_by_unit.items():
        unit_total = totals.get(unit)
        if unit_total is None:
            continue
        known = sum(v for c, v in draft.votes_by_unit[unit].items() if (unit, c) not in draft.uncertain)
        rest = unit_total - known
        lows = sum(b.low for _, b in hidden)
        limits = [b.high for _, b in hidden if b.high is not None]
        highs = sum(limits) if len(limits) == len(hidden) else None  # None: one of them has no upper limit
        for choice, bound in hidden:
            low = bound.low if highs is None or bound.high is None else max(bound.low, rest - (highs - bound.high))
            high = rest - (lows - bound.low)
            high = high if bound.high is None else min(bound.high, high)
            if low > high or low < 0:
                return  # the Total cannot be the sum here: trust none of it
            if (low, high) != (bound.low, bound.high):
                draft.add_uncertain(unit, choice, Bound(low, high, bound.written, bound.location))
                narrowed += 1
    if narrowed:
        report.note(f"{tally.name!r}: {narrowed} hidden count{'s' if narrowed != 1 else ''} narrowed by "
                    "their precinct's Total row (checked against every precinct whose counts are all given)",
                    kind="hidden counts narrowed")
