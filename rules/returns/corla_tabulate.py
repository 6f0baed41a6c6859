"""ColoradoRLA's tabulation exports: tabulate.csv and tabulate_county.csv (and their _plurality forms).

The Colorado risk-limiting audit tool (ColoradoRLA, "CORLA") exports, for every contest in the CVR files
the counties uploaded, the votes per choice as PostgreSQL writes a query's result (`COPY ... TO STDOUT
WITH CSV HEADER`, server/eclipse-project/src/main/resources/sql/tabulate*.sql):

    contest_name,choice,votes                          tabulate.csv, tabulate_plurality.csv
    county_name,contest_name,choice,votes              tabulate_county.csv, tabulate_county_plurality.csv

Rows are sorted by contest and then by votes, most first; the county file's units are the counties.
CORLA tabulates the cast vote records the counties uploaded for the audit, not the canvass: a county's
official statement of votes can differ by a few votes (Boulder 2024: 41 of the 47 contests both give).
Quirks of the real files (the 2024 general and 2025 coordinated audits, see tests/rules/test_returns_corla.py):
- choices of ballot measures are "Yes/For" and "No/Against", of judicial retentions "Yes" and "No";
  both are read as questions;
- there is no seat count: a multi-seat contest ("Academy School District 20 Board of Directors - 4 Year
  Term") reads as one seat until --seats says otherwise. Older exports that add the contest's
  votes_allowed or winners_allowed (the 2017 smoke test's tabulation) give the seats from it;
- a county may spell a contest with extra spaces ("State Representative - District 1  " in Denver's CVR,
  "State Representative - District 1" in Jefferson's, 2024): CORLA then tabulates the two spellings
  apart, from different counties. Names are compared with runs of spaces as one and none at the ends;
  in tabulate.csv (no counties) each spelling's rows are a unit of the one contest (noted), in the county
  file the counties are the units anyway;
- the same contest, choice (and county) twice is refused, naming both rows, since adding or keeping
  either could change a result.
Other columns of those older exports (winners, min_margin, ballot counts) are not votes: ignored, noted.
"""
from __future__ import annotations

from rules.contest import Bound
from rules.returns.csv_table import open_table
from rules.returns.draft import Draft
from rules.returns.numbers import CountError, hidden_count, is_plain_count, parse_count
from rules.returns.problems import Report
from rules.returns.source import Source
from rules.row_kinds import choice_row_kind

# CORLA's figures are the audit's tabulation of the uploaded cast vote records, not the canvassed survey of
# returns 1306(1) speaks of: every verdict from them says so.
CVR_READING = ("CORLA tabulation: counts of the cast vote records uploaded for the audit, not the canvassed "
               "survey of returns; confirm against the official statement of votes")
DESCRIPTION = "a CSV whose header is contest_name, choice, votes and optionally county_name (ColoradoRLA's tabulate)"
REQUIRED = ("contest_name", "choice", "votes")
OPTIONAL = ("county_name", "winners_allowed", "votes_allowed")


def detect(head) -> bool:
    """contest_name and choice (even without votes: the reader then says to add it)."""
    return {"contest_name", "choice"} <= head.header


def parse(source: Source, report: Report) -> list[Draft]:
    table = open_table(source, report, required=REQUIRED, optional=OPTIONAL, ignore_unknown=True)
    if table is None:
        return []
    if table.ignored:
        report.note(f"columns {', '.join(table.ignored)} ignored: they are not votes for a choice")
    c = table.columns
    i_contest, i_choice, i_votes, i_county = c["contest_name"], c["choice"], c["votes"], c.get("county_name")
    seat_columns = [(name, c[name]) for name in ("winners_allowed", "votes_allowed") if name in c]
    drafts: dict[str, Draft] = {}
    seen: dict[tuple[str, str, str], int] = {}
    spellings: dict[str, dict[str, None]] = {}  # contest -> its names as written, when they differ
    for row, cells in table.rows():
        written, choice, cell = cells[i_contest], cells[i_choice].strip(), cells[i_votes]
        contest = " ".join(written.split())
        if i_county is not None:
            county = cells[i_county].strip()
        else:  # a spelling of its own is a tabulation of other counties: a unit of the contest
            county = "" if written == contest else repr(written)
            if written != contest:
                spellings.setdefault(contest, {})[written] = None
        if row in table.trouble:
            report.row_problem(*table.trouble[row], contest or None)
            continue
        if not contest:
            report.row_problem(table.location(row, "contest_name"), "is empty; every row needs a contest", None)
            continue
        if not choice:
            report.nameless(table.location(row, "choice"), contest, cells[table.columns["votes"]])
            continue
        kind = choice_row_kind(choice)
        if kind is not None:
            report.set_aside(kind, f"row {row}")
            continue
        if i_county is not None and not county:
            report.row_problem(table.location(row, "county_name"), "is empty; other rows name their county", contest)
            continue
        votes = _count(cell, table.location(row, "votes"), report, contest)
        if votes is None:
            continue
        key = (contest, county, choice)
        if key in seen:
            where = f", county {county!r}" if i_county is not None else (f", written {written!r}" if county else "")
            report.row_problem(f"row {row}", f"repeats row {seen[key]}: {contest!r}, {choice!r}{where}", contest)
            continue
        seen[key] = row
        draft = drafts.get(contest) or drafts.setdefault(contest, Draft(name=contest, readings=[CVR_READING]))
        for name, index in seat_columns:
            _seats(draft, cells[index].strip(), table.location(row, name), report)
        if isinstance(votes, Bound):
            draft.add_uncertain(county, choice, votes)
        else:
            draft.choices.setdefault(choice, None)
            draft.votes_by_unit.setdefault(county, {})[choice] = votes
    if table.data_rows == 0 and not report.problems:
        report.problem("file", "has a header but no rows of returns")
    for contest, spelled in spellings.items():
        if contest in drafts and len(drafts[contest].votes_by_unit) > 1:
            report.note(f"{contest!r} is also written {', '.join(map(repr, spelled))} (extra spaces, from another "
                        "county's CVR); CORLA tabulated the spellings apart: added together, each a unit",
                        kind="spellings added")
    return list(drafts.values())


def _count(cell: str, location: str, report: Report, contest: str) -> "int | Bound | None":
    if is_plain_count(cell):
        return int(cell)
    try:
        votes, note = parse_count(cell)
    except CountError as exc:
        hidden = hidden_count(cell, location)
        if hidden is None:
            report.row_problem(location, str(exc), contest)
        return hidden
    if note:
        report.note(f"{location}: {note}", kind="counts normalised")
    return votes


def _seats(draft: Draft, text: str, location: str, report: Report) -> None:
    """winners_allowed / votes_allowed: the seats, the same on every row of the contest."""
    if not text:
        return
    if not is_plain_count(text) or int(text) < 1:
        report.row_problem(location, f"must be a whole number of seats, at least 1 (got {text!r})", draft.name)
        return
    seats = int(text)
    if draft.seats is None:
        draft.seats, draft.seats_location = seats, location
    elif draft.seats != seats:
        report.row_problem(location, f"says {seats} seats for {draft.name!r}, but {draft.seats_location} says "
                                     f"{draft.seats}", draft.name)
