"""A synthetic statewide Dominion "Statement of Votes Cast" workbook, for the workbook benchmark.

    python -m benchmarks.workbook_synthetic PATH [PRECINCTS] [SEED]  -> writes PATH, prints a JSON summary

Deterministic (random.Random(seed).random() only). Laid out as Colorado's county statements are
(tests/fixtures/returns/README.md; Jefferson 2020's layout, at the state's size): a table of contents, a turnout
worksheet, then one worksheet per contest: a page row, the title "(Vote for  N)   " (two spaces), a blank row, the
header (Precinct, Times Cast, Registered Voters, Precinct again, each choice over a merged pair of columns, Total
Votes), a row per precinct, and "Electionwide - Total". 64 counties of PRECINCTS / 64 precincts each (3,200 by
default, about Colorado's count); 40 contests: 20 statewide (10 offices of 2 to 6 candidates, 10 questions), 8
congressional districts (8 counties each) and 12 county commissioners. Some small precincts of each statewide
question hide their counts ("****"), the total row exact, as Jefferson's do.

Built in, for the benchmark to check the verdicts: Amendment C exactly at the largest margin that triggers
(highest // 200), Congress District 3 decided by 1 vote, and Proposition 118 one vote outside the margin.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

GENERATOR_VERSION = 1
DEFAULT_PRECINCTS = 3_200
DEFAULT_SEED = 2026
COUNTIES = 64
EXPECTED_RECOUNTS = ("Amendment C", "Congress District 3")
EXPECTED_NO_RECOUNT = ("Proposition 118",)


def contests(rng: random.Random) -> list[tuple[str, list[str], range | None, int]]:
    """(name, choices, counties it covers (None: all), seats)."""
    out: list[tuple[str, list[str], range | None, int]] = []
    offices = ["President", "United States Senator", "Governor", "Secretary of State", "State Treasurer",
               "Attorney General", "Regent At Large", "State Board of Education At Large", "Supreme Court Seat A",
               "Court of Appeals Seat B"]
    for i, office in enumerate(offices):
        out.append((office, [f"{office.split()[0]} Candidate {c + 1}" for c in range(2 + i % 5)], None, 1))
    for name in ("Amendment A", "Amendment B", "Amendment C", "Amendment D", "Amendment E", "Proposition 113",
                 "Proposition 114", "Proposition 115", "Proposition 117", "Proposition 118"):
        out.append((name, ["Yes/For", "No/Against"], None, 1))
    for district in range(8):
        out.append((f"Congress District {district + 1}", [f"CD{district + 1} Candidate {c + 1}" for c in range(3)],
                    range(district * 8, district * 8 + 8), 1))
    for county in range(12):
        out.append((f"County {county + 1} Commissioner", ["First Candidate", "Second Candidate"],
                    range(county * 5, county * 5 + 1), 1))
    return out


def generate(path: Path, precincts: int = DEFAULT_PRECINCTS, seed: int = DEFAULT_SEED) -> dict:
    import openpyxl

    rng = random.Random(seed)
    per_county = max(precincts // COUNTIES, 1)
    units = [(county, f"2{county:02d}{n:07d}") for county in range(COUNTIES) for n in range(per_county)]
    book = openpyxl.Workbook(write_only=True)
    all_contests = contests(rng)
    toc = book.create_sheet("Table of Contents")
    toc.append(["Table of Contents"])
    toc.append(["Tab", "Details"])
    for i, (name, _, _, seats) in enumerate(all_contests):
        toc.append([f"Sheet {i + 2}", f"{name} (Vote for  {seats})   "])
    turnout = book.create_sheet("Sheet1")
    turnout.append([None, None, "Statement of Votes Cast"])
    turnout.append(["Precinct", "Registered\nVoters", None, "Voters Cast", None, "% Turnout"])
    for _, unit in units:
        turnout.append([unit, 900, None, 700, None, "77.78%"])
    turnout.append(["Electionwide - Total", 900 * len(units), None, 700 * len(units), None, "77.78%"])
    cells = 0
    for i, (name, choices, covers, seats) in enumerate(all_contests):
        mine = [unit for county, unit in units if covers is None or county in covers]
        table = _votes(rng, name, choices, len(mine))
        sheet = book.create_sheet(f"Sheet{i + 2}")
        rows = _sheet_rows(i + 2, len(all_contests) + 1, name, seats, choices, mine, table,
                           masked=name.startswith(("Amendment", "Proposition")))
        for row in rows:
            sheet.append(row)
            cells += len(row)
    book.save(path)
    return {"path": str(path), "bytes": path.stat().st_size, "precincts": len(units), "contests": len(all_contests),
            "cells": cells, "seed": seed, "generator_version": GENERATOR_VERSION,
            "expected_recounts": list(EXPECTED_RECOUNTS), "expected_no_recount": list(EXPECTED_NO_RECOUNT)}


def _votes(rng: random.Random, name: str, choices: list[str], precincts: int) -> list[list[int]]:
    """Votes per precinct and choice; the built-in contests adjusted in their last precinct."""
    weights = [1.0 + rng.random() for _ in choices]
    table = [[int(200 * w * (0.5 + rng.random())) for w in weights] for _ in range(precincts)]
    totals = [sum(row[c] for row in table) for c in range(len(choices))]
    top, second = sorted(range(len(choices)), key=lambda c: -totals[c])[:2]
    wanted = {"Amendment C": totals[top] // 200, "Congress District 3": 1, "Proposition 118": totals[top] // 200 + 1}
    if name in wanted:
        table[-1][second] += totals[top] - wanted[name] - totals[second]
    return table


def _sheet_rows(page: int, pages: int, name: str, seats: int, choices: list[str], units: list[str],
                table: list[list[int]], masked: bool) -> list[list]:
    header: list = ["Precinct", "Times Cast", "Registered \nVoters", None, "Precinct"]
    for choice in choices:
        header += [f"{choice}\n ", None]
    header.append("Total Votes")
    title = f"{name} (Vote for  {seats})   " + ("**** - Insufficient Turnout to Protect Voter Privacy" if masked else "")
    rows: list[list] = [[f"Page: {page} of {pages}"], [title], [], header]
    for n, (unit, votes) in enumerate(zip(units, table, strict=True)):
        hide = masked and n % 97 == 0
        row: list = [unit, sum(votes) + 5, 900, None, unit]
        for count in votes:
            row += ["****", "****"] if hide else [count, f"{count / max(sum(votes), 1):.2%}"]
        row.append("****" if hide else sum(votes))
        rows.append(row)
    totals = [sum(votes[c] for votes in table) for c in range(len(choices))]
    total_row: list = ["Electionwide - Total", sum(totals) + 5 * len(units), 900 * len(units), None,
                       "Electionwide - Total"]
    for count in totals:
        total_row += [count, f"{count / max(sum(totals), 1):.2%}"]
    total_row.append(sum(totals))
    rows.append(total_row)
    return rows


if __name__ == "__main__":
    target = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_PRECINCTS
    print(json.dumps(generate(target, count, int(sys.argv[3]) if len(sys.argv) > 3 else DEFAULT_SEED)))
