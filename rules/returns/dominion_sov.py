"""Dominion Democracy Suite statements of votes: the flat export and the wide "Statement of Votes Cast".

62 of Colorado's 64 counties count with Dominion; what their Results Tally & Reporting exports comes
in two layouts, both read here (CSV, or XLSX turned into the same rows by `rules.returns.xlsx`):
- flat (`dominion_flat`): a header row "Precinct Code, ..., Contest Title, Choice Name, ..., Total Votes,
  ...", one row per precinct, contest and choice (Boulder County's Statement and Summary of Votes);
- wide (`dominion_wide`): title rows, then a table per contest: "Precinct, Times Cast, Registered Voters,
  ..., <a column per choice>, Total Votes", rows per precinct and vote type, subtotals and totals.
The layout is told by the first row: the flat header, or not.
"""
from __future__ import annotations

from rules.returns import dominion_flat, dominion_wide
from rules.returns.dominion_common import header_key, records
from rules.returns.draft import Draft
from rules.returns.problems import Report
from rules.returns.source import Source

DESCRIPTION = ("a Dominion statement of votes: a header with Contest Title, Choice Name and Total Votes, or "
               "tables headed Precinct, Times Cast, Registered Voters and a column per choice")


def detect(head) -> bool:
    """The flat header first; else a table header ("Precinct", Times Cast or Registered Voters...) below the
    report's title rows (a first row naming Times Cast is enough)."""
    if not head.records:
        return False
    if dominion_flat.is_flat_header(head.records[0]):
        return True
    for i, cells in enumerate(head.records):
        if dominion_wide.is_header(cells) and (i > 0 or any(header_key(c) == "times cast" for c in cells)):
            return True
    return False


def parse(source: Source, report: Report) -> list[Draft]:
    for _, cells in records(source, Report()):  # a peek at the first row; the reader reports what is wrong
        if any(c.strip() for c in cells):
            if dominion_flat.is_flat_header(cells):
                return dominion_flat.parse(source, report)
            break
    rows = list(records(source, report))
    if not any(dominion_wide.is_header(cells) for _, cells in rows):
        report.problem("file", "has no table header: expected a row starting with Precinct and naming Times Cast "
                               "or Registered Voters, or a first row with Contest Title, Choice Name and Total Votes")
        return []
    return dominion_wide.parse(rows, report)
