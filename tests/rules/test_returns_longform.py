"""A county's own long-form export, whatever it names its columns (rules/returns/longform.py).

The layouts are those of real Colorado exports (tests/fixtures/returns/README.md); the real files themselves are
read in test_returns_colorado_real.py.
"""
from __future__ import annotations

import pytest

from rules.returns import ReturnsError, parse_returns, read_returns
from rules.verdicts import decide_returns
from tests.support.workbooks import workbook

NOTE = "NOTE: *** denotes vote totals moved to another precinct to protect voter privacy"


@pytest.mark.parametrize("header", [
    "PRECINCT,CONTEST,CANDIDATE,TOTAL VOTES",  # Arapahoe 2014-2020
    "PRECINCT_NAME,CONTEST_FULL_NAME,CANDIDATE_NAME,TOTAL_VOTES",  # Arapahoe 2010
    "Precinct_name,Reg_voters,Contest_title,candidate_name,cand_seq_nbr,total_votes,total_under_votes",  # Delta 2010
])
def test_columns_are_found_by_their_header_words(header: str) -> None:
    names = header.split(",")
    def row(precinct: str, contest: str, candidate: str, votes: str) -> str:
        cells = dict.fromkeys(names, "7")
        for name in names:
            key = name.casefold()
            if "precinct" in key:
                cells[name] = precinct
            elif "contest" in key:
                cells[name] = contest
            elif "candidate_name" in key or key == "candidate":
                cells[name] = candidate
            elif key in ("total votes", "total_votes"):
                cells[name] = votes
        return ",".join(cells[n] for n in names)
    text = "\n".join([header, row("101", "Sheriff (Vote for One)", "Ann", "40"), row("101", "Sheriff (Vote for One)",
                      "Bo", "35"), row("102", "Sheriff (Vote for One)", "Ann", "10"),
                      row("102", "Sheriff (Vote for One)", "Bo", "14")]) + "\n"
    returns = read_returns(text)
    assert returns.source_format == "county-export"
    sheriff = returns.contest("Sheriff (Vote for One)")
    assert (sheriff.seats, dict(sheriff.totals)) == (1, {"Ann": 50, "Bo": 49})  # "(Vote for One)": one seat, stated
    assert sheriff.votes_by_unit["102"] == {"Ann": 10, "Bo": 14}
    [mapping] = [r for r in returns.readings if r.startswith("columns by their header words")]
    assert f"votes = {names[[n.casefold() for n in names].index('total votes' if ' ' in header else 'total_votes')]!r}" \
        in mapping


def test_stars_the_file_says_were_moved_are_counted_in_the_other_precinct() -> None:
    # Arapahoe 2020: the note in an unnamed column beside the first row of data; "***" where a precinct's votes
    # were moved into another precinct's row. Summing the numbers gives the true totals (certified: 167 apart).
    text = (f"PRECINCT,CONTEST,CANDIDATE,TOTAL VOTES,,\n"
            f"4283603350,Commissioner - District 3,Jeff Baker,***,,{NOTE}\n"
            "4283603350,Commissioner - District 3,Idris Keith,***,,\n"
            "4283603351,Commissioner - District 3,Jeff Baker,40896,,\n"
            "4283603351,Commissioner - District 3,Idris Keith,40729,,\n")
    returns = read_returns(text)
    contest = returns.contest("Commissioner - District 3")
    assert dict(contest.totals) == {"Jeff Baker": 40_896, "Idris Keith": 40_729} and not contest.uncertain
    assert any(r.startswith("'***' cells (2, the first at row 2): the file's note (row 2, column 6) says their votes "
                            "were moved to another precinct") for r in returns.readings)
    [verdict] = decide_returns(returns).decisions
    assert (verdict.automatic_recount, verdict.margin, verdict.max_margin_for_recount) == (True, 167, 204)
    # Without the note, "***" hides a count: the verdict waits for it.
    hidden = read_returns(text.replace(NOTE, ""))
    assert hidden.contest("Commissioner - District 3").uncertain
    assert [u.contest for u in decide_returns(hidden).undecided] == ["Commissioner - District 3"]


def test_the_note_on_a_row_of_its_own_and_placeholders() -> None:
    # Arapahoe 2016: the note on row 2 under the header; "There are no candidates for this office." is no choice.
    data = workbook([("FINAL_State ENR", [
        ["PRECINCT", "CONTEST", "CANDIDATE", "TOTAL VOTES"], [NOTE],
        [101, "County Commissioner District 1 - DEM", "There are no candidates for this office.", 0],
        [101, "United States Senator - REP", "Darryl Glenn", 11221], [101, "United States Senator - REP", "Jack Graham", 8645],
        [361, "United States Senator - REP", "Darryl Glenn", "***"], [361, "United States Senator - REP", "Write-in", 14]])])
    returns = read_returns(data, election_kind="primary")
    assert [c.name for c in returns.contests] == ["United States Senator - REP"]
    senate = returns.contest("United States Senator - REP")
    assert dict(senate.totals) == {"Darryl Glenn": 11_221, "Jack Graham": 8_645, "Write-in": 14}
    kinds = {s.kind: s.rows for s in returns.set_aside}
    assert kinds["not a row of results"] == ("row 2", "row 3")
    assert kinds["votes reported in another unit"] == ("row 6",)


def test_a_precinct_whose_rows_start_over_is_two_parts_of_it() -> None:
    # Arapahoe 2020, precinct 1260303113: its rows run through every contest, then start over with other counts.
    text = ("PRECINCT,CONTEST,CANDIDATE,TOTAL VOTES\n"
            "1260303113,Presidential Electors,Biden,75\n1260303113,Presidential Electors,Trump,30\n"
            "1260303113,Ballot Issue 2B,YES,9\n1260303113,Ballot Issue 2B,NO,8\n"
            "1260303113,Presidential Electors,Biden,322\n1260303113,Presidential Electors,Trump,206\n"
            "1260303114,Presidential Electors,Biden,305\n1260303114,Presidential Electors,Trump,290\n")
    returns = read_returns(text)
    electors = returns.contest("Presidential Electors")
    assert electors.votes_by_unit["1260303113, part 2"] == {"Biden": 322, "Trump": 206}
    assert dict(electors.totals) == {"Biden": 702, "Trump": 526} and returns.undecided == ()
    assert any(r.startswith("1 precinct (e.g. '1260303113') have rows that start over") for r in returns.readings)
    # A row repeated in the middle of a precinct's rows is not a part: it is a problem of its contest.
    repeated = read_returns(text.replace("1260303113,Ballot Issue 2B,NO,8\n",
                                         "1260303113,Ballot Issue 2B,NO,8\n1260303113,Presidential Electors,Trump,30\n"))
    assert [u.contest for u in repeated.undecided] == ["Presidential Electors"]


def test_a_row_naming_no_choice_is_set_aside_and_named_but_not_recorded() -> None:
    text = "PRECINCT,CONTEST,CANDIDATE,TOTAL VOTES\n101,Mayor,Ann,40\n101,Mayor,Bo,30\n101,Mayor,,12\n"
    returns = read_returns(text)
    assert dict(returns.contest("Mayor").totals) == {"Ann": 40, "Bo": 30} and returns.undecided == ()
    assert {s.kind: s.rows for s in returns.set_aside}["no choice named"] == ("row 4, column CANDIDATE",)
    with pytest.raises(ReturnsError) as caught:  # a survey of returns to record names every choice
        parse_returns(text)
    assert str(caught.value) == ("row 4, column CANDIDATE: has votes (12) but names no choice of 'Mayor'; name the "
                                 "choice or remove the row")
