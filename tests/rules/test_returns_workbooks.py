"""Workbooks as counties publish them: every worksheet classified, contests read from each, nothing dropped.

The workbooks here are laid out as Colorado's Dominion statements of votes are (tests/support/workbooks.py);
the real ones are in test_returns_colorado_real.py.
"""
from __future__ import annotations

import pytest

from rules.contest import ContestKind
from rules.returns import ReturnsError, read_returns
from rules.verdicts import decide_returns
from tests.support.workbooks import TURNOUT_SHEET, statement_sheet, workbook

TOC = [["Table of Contents"], ["Tab", "Details"], ["Sheet 2", "Town Council (Vote for  2)   "],
       ["Sheet 3", "Ballot Issue 6D"]]


def decided(returns):
    verdicts = decide_returns(returns)
    return {d.contest: d for d in verdicts.decisions}, {u.contest: u for u in verdicts.undecided}


def test_every_worksheet_is_classified_and_each_contest_read() -> None:
    council = statement_sheet("Town Council (Vote for  2)   ", ["Ann Lee", "Bo Diaz", "Cy Park"],
                              [("101", [40, 38, 12]), ("102", [30, 31, 10])])
    issue = statement_sheet("Glenn Ridge Ballot Issue 6D    ", ["Yes/For", "No/Against"], [("2154935426 - 11", [18, 18])],
                            unit_header="Precinct Portion", page=3)
    data = workbook([("Table of Contents", TOC), ("Sheet1", TURNOUT_SHEET), ("Sheet2", council), ("Sheet3", issue),
                     ("Notes", [["Prepared by the clerk"]]), ("Empty", [])])
    returns = read_returns(data)
    assert [(w.name, w.role) for w in returns.sheets] == [
        ("Table of Contents", "table of contents"), ("Sheet1", "turnout"), ("Sheet2", "contests"),
        ("Sheet3", "contests"), ("Notes", "skipped"), ("Empty", "empty")]
    assert returns.sheets[4].detail == "no table of returns recognised; its first row: Prepared by the clerk"
    # "(Vote for  2)" with two spaces gives the seats; the title is the name without it.
    town = returns.contest("Town Council")
    assert (town.seats, dict(town.totals)) == (2, {"Ann Lee": 70, "Bo Diaz": 69, "Cy Park": 22})
    assert returns.contest("Glenn Ridge Ballot Issue 6D").kind is ContestKind.QUESTION
    verdicts, undecided = decided(returns)
    assert verdicts["Glenn Ridge Ballot Issue 6D"].automatic_recount  # 18 against 18
    assert not verdicts["Town Council"].automatic_recount and not undecided
    # Every location names its worksheet once several hold anything.
    assert {s.kind: s.rows[0] for s in returns.set_aside}["subtotal"] == "sheet 'Sheet2', row 7"


def test_a_workbook_with_no_table_is_refused_naming_each_worksheet() -> None:
    with pytest.raises(ReturnsError) as caught:
        read_returns(workbook([("Table of Contents", TOC), ("Sheet1", TURNOUT_SHEET)]))
    [problem] = caught.value.problems
    assert problem.location == "file"
    assert problem.message.startswith("is an Excel workbook, but no worksheet holds a table of returns this program "
                                      "reads ('Table of Contents': table of contents (lists the worksheets")
    assert "'Sheet1': turnout" in problem.message


def test_masked_precincts_are_read_from_the_total_row() -> None:
    # Jefferson 2020: "****" in every vote cell of a small precinct; the total row still carries the true totals.
    sheet = statement_sheet("Forest Hills Metropolitan District Ballot Issue 6C (Vote for  1)   **** - Insufficient "
                            "Turnout to Protect Voter Privacy", ["Yes/For", "No/Against"],
                            [("2162530042", ["****", "****"]), ("Forest Hills Metropolitan District", ["****", "****"])],
                            totals=[139, 131])
    returns = read_returns(workbook([("Sheet1", TURNOUT_SHEET), ("Sheet54", sheet)]))
    issue = returns.contest("Forest Hills Metropolitan District Ballot Issue 6C")
    assert dict(issue.totals) == {"Yes/For": 139, "No/Against": 131} and not issue.uncertain
    verdicts, _ = decided(returns)
    assert (verdicts[issue.name].automatic_recount, verdicts[issue.name].margin) == (False, 8)


def test_redacted_rows_whose_votes_are_in_another_precinct_or_county() -> None:
    moved = statement_sheet("Greater Brighton Fire Protection District BALLOT ISSUE 7B (Vote for  1)   ",
                            ["Yes/For", "No/Against"], [("6253001154", [8, 40]), ("6253001226", [95, 92])])
    moved.insert(6, ["6253001242", 8, 7, None, "6253001242", "REDACTED - INCLUDED IN PRECINCT 6253001226 RESULTS"])
    weld = statement_sheet("Town of Lochbuie Trustee (Vote for  4)   ", ["Antonopulos", "Kuemmerle", "White",
                                                                        "Wescott", "Reyes"], [])
    weld.insert(4, ["6255601178", 1, 1, None, "6255601178", "REDACTED - INCLUDED IN WELD COUNTY TOTALS"])
    weld[-1] = ["Electionwide - Total", 1, 1, None, "Electionwide - Total"]  # the total row is blank
    returns = read_returns(workbook([("7B", moved), ("Lochbuie Trustee", weld)]))
    issue = returns.contest("Greater Brighton Fire Protection District BALLOT ISSUE 7B")
    assert dict(issue.totals) == {"Yes/For": 103, "No/Against": 132}
    assert "sheet '7B', row 7" in {s.kind: s.rows for s in returns.set_aside}["votes reported in another unit"]
    assert any("their votes are included in another precinct's row (PRECINCT 6253001226)" in n for n in returns.notes)
    [lochbuie] = returns.undecided
    assert lochbuie.contest == "Town of Lochbuie Trustee"
    assert "no votes of 'Town of Lochbuie Trustee' are in this file: every precinct with votes says they are " \
           "included in WELD COUNTY" in lochbuie.reason


def test_a_title_with_the_party_on_a_second_line() -> None:
    # Clear Creek 2018: 'Attorney General - DEM (Vote for  1) \nDEM ' is the contest 'Attorney General - DEM'.
    sheet = statement_sheet("Attorney General - DEM (Vote for  1) \nDEM ", ["Phil Weiser\n(DEM)", "Joe Salazar\n(DEM)"],
                            [("2021310001", [118, 119])])
    returns = read_returns(workbook([("Sheet6", sheet)]))
    assert [c.name for c in returns.contests] == ["Attorney General - DEM"]


def test_a_statement_without_vote_for_and_a_council_shape_holds_the_contest_until_seats_are_given() -> None:
    # Larimer's titles say no "(Vote for N)". A council of several seats, 4th and 5th 47 apart: as one seat
    # no recount; as four, a recount (47 * 200 = 9,400 <= 14,412). Never green on a guess.
    sheet = statement_sheet("City Council    ", ["A", "B", "C", "D", "E", "F"],
                            [("101", [16000, 15500, 15000, 14412, 14365, 900])])
    returns = read_returns(workbook([("Sheet9", sheet)]))
    verdicts, undecided = decided(returns)
    assert not verdicts and undecided["City Council"].seats_not_stated
    assert "as one seat, no automatic recount; as 4 seats, automatic recount (D vs E)" in undecided["City Council"].reason
    given = read_returns(workbook([("Sheet9", sheet)]), seats={"City Council": 4})
    assert decided(given)[0]["City Council"].automatic_recount


def test_a_formula_cell_is_named() -> None:
    # Adams 2020's turnout worksheet totals its Registered Voters with =SUM(B9:C268): only the value Excel last
    # saved is read, and the clerk is told which cells hold formulas.
    import io

    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "SOVC"
    for row in TURNOUT_SHEET:
        book.active.append(row)
    book.active["B6"] = "=SUM(B5:C5)"
    contest = book.create_sheet("Mayor")
    for row in statement_sheet("Mayor (Vote for  1)", ["Ann", "Bo"], [("101", [5, 3])]):
        contest.append(row)
    out = io.BytesIO()
    book.save(out)
    returns = read_returns(out.getvalue())
    assert ("sheet 'SOVC': cell B6 (=SUM(B5:C5)) holds a formula: the value Excel last saved was read, not "
            "recomputed") in returns.notes
    assert dict(returns.contest("Mayor").totals) == {"Ann": 5, "Bo": 3}
