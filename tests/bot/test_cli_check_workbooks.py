"""`recount-bot check` on workbooks and county exports, through the real command line."""
from __future__ import annotations

import json

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
