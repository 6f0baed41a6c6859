"""`recount-bot check` on workbooks and county exports, through the real command line."""
from __future__ import annotations

import json
from pathlib import Path

from tests.bot.test_cli_check import recount_bot
from tests.support.workbooks import TURNOUT_SHEET, statement_sheet, workbook


def test_a_statement_of_votes_workbook_lists_its_worksheets_and_the_seats_to_give(tmp_path) -> None:
    council = statement_sheet("City Council    ", ["A", "B", "C", "D", "E", "F"],
                              [("101", [16000, 15500, 15000, 14412, 14365, 900])])
    issue = statement_sheet("Ballot Issue 6D (Vote for  1)", ["Yes/For", "No/Against"], [("101", [18, 18])], page=3)
    path = tmp_path / "statement.xlsx"
    path.write_bytes(workbook([("Sheet1", TURNOUT_SHEET), ("Sheet2", council), ("Sheet3", issue)]))
    result = recount_bot("check", path)
    assert result.returncode == 3, result.stderr
    out = result.stdout
    assert out.startswith("1 contest checked (dominion-sov format), closest first; 1 needs an automatic recount")
    assert "Seats not stated (1): give them to decide this contest, e.g.:\n  --seats \"City Council=N\"" in out
    assert ("Worksheets (3): 2 read, 1 not read.\n- Sheet1: turnout (5 rows of registered voters and ballots cast; "
            "no votes for a choice)\n- Sheet2: contests ('City Council')\n- Sheet3: contests ('Ballot Issue 6D')") in out
    given = recount_bot("check", path, "--seats", "City Council=4", "--format", "json")
    assert given.returncode == 0, given.stderr
    data = json.loads(given.stdout)
    assert sorted(c["contest"] for c in data["contests"] if c["automatic_recount"]) == ["Ballot Issue 6D", "City Council"]
    assert [(s["name"], s["role"]) for s in data["sheets"]] == [
        ("Sheet1", "turnout"), ("Sheet2", "contests"), ("Sheet3", "contests")]


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "returns"


def test_a_county_statement_of_votes_through_the_command() -> None:
    result = recount_bot("check", FIXTURES / "colorado_adams_2020_general_sovc_cut.xlsx")
    assert result.returncode == 3, result.stderr  # the Lochbuie contests: their votes are in Weld County's returns
    out = result.stdout
    assert out.startswith("4 contests checked (dominion-sov format), closest first; 1 needs an automatic recount")
    recount = next(line for line in out.splitlines() if line.startswith("RECOUNT"))
    assert recount.split()[:2] == ["RECOUNT", "(share)"] and "Ilana Spiegel 28,650" in recount and "117" in recount
    assert "(share): 2 contests of districts that cross county lines or are statewide" in out
    assert "- SOVC: turnout (" in out and "- Lochbuie Trustee: contests ('Town of Lochbuie Trustee')" in out
    assert "Note: sheet 'SOVC': cell B269 (=SUM(B9:C268)) holds a formula" in out


def test_a_county_export_in_a_legacy_xls_through_the_command() -> None:
    result = recount_bot("check", FIXTURES / "colorado_arapahoe_2016_primary_precinct_export.xls", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["source_format"] == "county-export" and data["sheets"][0]["role"] == "long form"
    assert data["readings"][0].startswith("columns by their header words: contest = 'CONTEST', choice = 'CANDIDATE'")
    senate = {c["contest"]: c for c in data["contests"]}["United States Senator - REP"]
    assert (senate["margin"], senate["max_margin_for_recount"], senate["automatic_recount"]) == (2_576, 56, False)
