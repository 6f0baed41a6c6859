"""Colorado counties' own files (tests/fixtures/returns/README.md), with the verdicts computed by hand from their
raw cells (the sums of the precinct rows, or the file's own total row where masks hide precincts).

The recount test by hand: recount when (highest - next) * 200 <= highest; "triggers at" is highest // 200.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.contest import ContestKind
from rules.returns import ReturnsError, read_returns
from rules.verdicts import decide_returns

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "returns"


def read(name: str, **options):
    returns = read_returns((FIXTURES / name).read_bytes(), file_name=name, **options)
    verdicts = decide_returns(returns)
    return returns, {d.contest: d for d in verdicts.decisions}, {u.contest: u for u in verdicts.undecided}


def figures(decision) -> tuple:
    """(highest, next highest, margin, triggers at, recount?) as a clerk reads them."""
    return (decision.highest.choice, decision.highest.votes, decision.next_highest.choice, decision.next_highest.votes,
            decision.margin, decision.max_margin_for_recount, decision.automatic_recount)


def test_clear_creek_2018_primary_one_worksheet_per_contest() -> None:
    returns, decided, undecided = read("colorado_clear_creek_2018_primary_sovc.xlsx")
    assert [(w.name, w.role) for w in returns.sheets[:2]] == [("Sheet1", "turnout"), ("Sheet2", "contests")]
    assert len(returns.sheets) == 28 and len(decided) == 27 and not undecided
    # Sheet6, "Attorney General - DEM (Vote for  1) \nDEM ": Weiser 716, Salazar 690 (row 20, County - Total)
    assert figures(decided["Attorney General - DEM"]) == (
        "Phil Weiser (DEM)", 716, "Joe Salazar (DEM)", 690, 26, 3, False)
    # Sheet19: column order F, H, J is Everett, Lawrence, Watson; ranked Everett 354, Watson 288, Lawrence 238
    assert figures(decided["State Treasurer - REP"]) == (
        "Justin Everett (REP)", 354, "Brian Watson (REP)", 288, 66, 1, False)
    neguse = decided["Representative to the 116th United States Congress - District 2 - DEM"]
    assert figures(neguse) == ("Joe Neguse (DEM)", 965, "Mark Williams (DEM)", 412, 553, 4, False)
    assert neguse.part_of_district  # CD2 extends beyond Clear Creek: the verdict is on its share
    assert decided["Attorney General - REP"].outcome == "uncontested"  # Brauchler 790 alone
    assert any(r.startswith("party primary: the file's name says so") for r in returns.readings)


def test_park_2016_general_twenty_two_tickets_and_retentions() -> None:
    returns, decided, undecided = read("colorado_park_2016_general_sovc.xlsx")
    assert len(decided) == 33 and not undecided
    president = decided["Presidential Electors"]
    assert figures(president) == ("Donald J. Trump / Michael R. Pence (REP)", 6_035, "Hillary Clinton / Tim Kaine (DEM)",
                                  3_351, 2_684, 30, False)
    assert len(returns.contest("Presidential Electors").choices) == 29  # 22 tickets, 6 qualified write-ins, 1 line
    assert figures(decided["Commissioner District 1"]) == (
        "Mike Brazell (REP)", 6_384, "Jessica Leroux (DEM)", 3_360, 3_024, 31, False)
    assert figures(decided["Proposition 108 (STATUTORY)"]) == ("YES", 4_965, "NO", 4_850, 115, 24, False)
    assert figures(decided["Lake George Fire Protection District Ballot Issue 5A"]) == ("YES", 379, "NO", 255, 124, 1,
                                                                                         False)


def test_jefferson_2020_masked_precincts_and_the_101_101_tie() -> None:
    returns, decided, undecided = read("colorado_jefferson_2020_general_sovc_cut.xlsx")
    assert [(w.name, w.role) for w in returns.sheets[:3]] == [
        ("Table of Contents", "table of contents"), ("Sheet1", "turnout"), ("Sheet12", "contests")]
    assert not undecided
    tie = decided["State Representative - District 1"]  # one precinct, 1160130001: 101 each
    assert figures(tie) == ("Susan Lontine (DEM)", 101, "Samantha Koch (REP)", 101, 0, 0, True)
    assert "tie" in tie.reason and tie.part_of_district  # HD1 is mostly in Denver: a recount of this county's share
    assert figures(decided["Jefferson County Commissioner - District 1"]) == (
        "Tracy Kraft-Tharp (DEM)", 185_307, "Libby Szabo (REP)", 155_443, 29_864, 926, False)
    assert not decided["Jefferson County Commissioner - District 1"].part_of_district  # a county office
    # Every vote cell of 6C is "****"; the total row still says 139 and 131.
    assert figures(decided["Forest Hills Metropolitan District Ballot Issue 6C"]) == (
        "Yes/For", 139, "No/Against", 131, 8, 0, False)
    # Three masked precincts of 6E hold 8 and 4: the total row, 47,809 and 13,873.
    assert figures(decided["Foothills Park & Recreation District Ballot Issue 6E"]) == (
        "Yes/For", 47_809, "No/Against", 13_873, 33_936, 239, False)
    assert figures(decided["Blue Mountain Water District Ballot Issue 6A"]) == (
        "Yes/For", 219, "No/Against", 23, 196, 1, False)
    assert (decided["Forest Hills Metropolitan District Ballot Issue 6D"].margin, decided[
        "Lookout Mounatin Water District Ballot Issue 6B"].margin) == (67, 281)


def test_adams_2020_margin_117_redactions_and_the_formula() -> None:
    returns, decided, undecided = read("colorado_adams_2020_general_sovc_cut.xlsx")
    regent = decided["Regent of the University of Colorado - Congressional District 6"]
    assert figures(regent) == ("Ilana Spiegel", 28_650, "Richard Murray", 28_533, 117, 143, True)
    assert regent.part_of_district  # CD6 also covers Arapahoe and Douglas
    assert figures(decided["State Senator - District 25"]) == (
        "Kevin Priola", 37_195, "Paula Dickerson", 35_968, 1_227, 185, False)
    # 7B: three REDACTED rows, their votes in other precincts' rows; PROPERTY OWNER 60/75 is counted
    assert figures(decided["Greater Brighton Fire Protection District BALLOT ISSUE 7B"]) == (
        "Yes/For", 12_677, "No/Against", 12_383, 294, 63, False)
    flaum = decided["Adams County Court - Flaum"]
    assert flaum.kind is ContestKind.QUESTION and figures(flaum) == ("Yes", 137_561, "No", 54_242, 83_319, 687, False)
    assert set(undecided) == {"Town of Lochbuie Mayor", "Town of Lochbuie Trustee"}
    assert "are included in WELD COUNTY" in undecided["Town of Lochbuie Trustee"].reason
    assert ("sheet 'SOVC': cell B269 (=SUM(B9:C268)) holds a formula: the value Excel last saved was read, not "
            "recomputed") in returns.notes


def test_larimer_2020_precinct_portions_the_18_18_tie_and_a_file_that_disagrees_with_itself() -> None:
    returns, decided, undecided = read("colorado_larimer_2020_general_sovc_cut.xlsx")
    tie = decided["Larimer County Glenn Ridge Estates Public Improvement District No. 72 Ballot Issue 6D"]
    assert figures(tie) == ("Yes/For", 18, "No/Against", 18, 0, 0, True)  # precinct portion 2154935426 - 11
    # 23 in its precinct portion and 1 in the short-label row "806"
    assert figures(decided["Larimer County Meadows at Rolling Hills Public Improvement District No. 73 Ballot Issue "
                           "6H"])[:5] == ("Yes/For", 24, "No/Against", 0, 24)
    hd51 = decided["State Representative - District 51"]  # the qualified write-in to the right of Total Votes
    assert figures(hd51) == ("Hugh McKean (REP)", 37_654, "Vern Richardson Qualified Write In", 2_390, 35_264, 188,
                             False)
    assert figures(decided["County Commissioner - District 2"]) == (
        "Kristin Stephens (DEM)", 113_409, "Bob McCluskey (REP)", 99_793, 13_616, 567, False)
    assert figures(decided["Amendment C (CONSTITUTIONAL)"]) == (
        "Yes/For", 104_512, "No/Against", 103_642, 870, 522, False)
    # The county's own file: Tow's total row says 128,608 Yes, its precinct portions add up to 128,508; and a "."
    # stands in a count of Amendment B. Neither is guessed at.
    assert set(undecided) == {"Colorado Court of Appeals Judge - Tow", "Amendment B (CONSTITUTIONAL)"}
    assert "is 128,608 for 'Yes/For', but its precincts add up to 128,508" in undecided[
        "Colorado Court of Appeals Judge - Tow"].reason
    assert "(got '.')" in undecided["Amendment B (CONSTITUTIONAL)"].reason


def test_arapahoe_2020_export_the_167_vote_commissioner_race() -> None:
    returns, decided, undecided = read("colorado_arapahoe_2020_general_precinct_export_cut.csv")
    assert returns.source_format == "county-export" and not undecided
    # Summing the numeric cells: "***" cells were moved into other precincts' rows, the file's note says.
    assert figures(decided["Arapahoe County Commissioner - District 3"]) == (
        "Jeff Baker", 40_896, "Idris Keith", 40_729, 167, 204, True)
    da = decided["District Attorney - 18th Judicial District"]
    assert figures(da) == ("Amy L. Padden", 194_078, "John Kellner", 141_004, 53_074, 970, False)
    assert da.part_of_district.startswith("this file is one county's precinct export, and this contest's district "
                                          "may extend beyond the county")  # across four counties Kellner won
    assert returns.readings[0] == ("columns by their header words: contest = 'CONTEST', choice = 'CANDIDATE', "
                                   "votes = 'TOTAL VOTES', unit = 'PRECINCT'")


def test_arapahoe_2016_export_legacy_xls() -> None:
    returns, decided, undecided = read("colorado_arapahoe_2016_primary_precinct_export.xls")
    assert [(w.name, w.role) for w in returns.sheets] == [("FINAL_State ENR", "long form")] and not undecided
    senate = returns.contest("United States Senator - REP")  # candidates match the certified county totals
    assert dict(senate.totals) == {"Darryl Glenn": 11_221, "Ryan L. Frazier": 4_912, "Robert Blaha": 5_938,
                                   "Jack Graham": 8_645, "Jon Keyser": 4_708, "Write-in": 14, "Jerry Eller": 1}
    assert figures(decided["United States Senator - REP"])[4:] == (2_576, 56, False)
    assert figures(decided["State Senator - District 31 - DEM"]) == ("Lois Court", 157, "Steve Sherick", 151, 6, 0,
                                                                      False)
    assert figures(decided["Regent of the University of Colorado - Congressional District 1 - DEM"])[4:] == (
        287, 8, False)
    assert "County Commissioner District 1 - DEM" not in decided  # "There are no candidates for this office."


def test_a_legacy_xls_claiming_a_far_cell_is_refused_before_it_is_read() -> None:
    data = bytearray((FIXTURES / "colorado_arapahoe_2016_primary_precinct_export.xls").read_bytes())
    record = data.find(b"\xfd\x00\x0a\x00")  # the first LABELSST cell record of the worksheet
    data[record + 4: record + 8] = b"\xff\xff\xff\x00"  # now naming row 65,536, column 256
    with pytest.raises(ReturnsError) as caught:
        read_returns(bytes(data))
    assert str(caught.value) == ("file: has a worksheet ('FINAL_State ENR') spanning 65,536 rows by 256 columns, "
                                 "16,777,216 cells from A1 to its last, over the limit of 3,000,000 "
                                 "(ReadLimits.max_sheet_area)")


def test_dolores_2008_one_house_race_under_two_spellings() -> None:
    returns, decided, _ = read("openelections_dolores_2008_general_precinct.csv")
    house = decided["U.S. House - District 3.0"]  # precincts 1-2 "U. S. House" 263/144, the rest 387/371
    assert figures(house) == ("John T. Salazar", 650, "Wayne Wolf", 515, 135, 3, False)
    assert "U. S. House - District 3.0" not in decided
    assert figures(decided["County Commissioner - District 2.0"]) == (
        "Ernest (Ernie) R. Williams", 767, "Ricardo Archuleta", 384, 383, 3, False)


def test_boulder_2008_judges_yes_votes_under_one_office_are_never_ranked() -> None:
    _, decided, undecided = read("openelections_boulder_2008_general_precinct_cut.csv")
    judges = {name for name in undecided if name.startswith(("County judge: ", "District Judge"))}
    assert judges == {"County judge: John F. Stavely", "County judge: Thomas J.b. Reed",
                      "District Judge - District 20.0: Roxanne Bailin", "District Judge - District 20.0: Maria E. "
                      "Berkenkotter", "District Judge - District 20.0: M. Gwyneth Whalen",
                      "District Judge - District 20.0: James C. Klein"}
    assert "County judge" not in decided  # never Stavely 84,603 against Reed 84,144
    assert figures(decided["U.S. House - District 2.0"])[:5] == ("Jared Polis", 88_981, "Scott Starin", 27_366, 61_615)


def test_the_2002_statewide_file_decides_colorado_7() -> None:
    returns, decided, undecided = read("openelections_2002_general_us_house_7_cut.csv")
    assert figures(decided["U.S. House - District 7"]) == ("Bob Beauprez", 81_789, "Mike Feeley", 81_668, 121, 408,
                                                           True)
    assert not undecided
    aside = {s.kind: s for s in returns.set_aside}["no choice named"]
    assert aside.count == 3  # Adams 25,117, Jefferson 112,648 and the total 172,878: no candidate's total


def test_boulder_2023_council_four_seats_from_the_counts_and_47_votes() -> None:
    returns, decided, _ = read("dominion_sov_boulder_2023_council.csv")
    council = decided["City of Boulder Council Candidates"]
    assert council.seats == 4 and figures(council) == ("Ryan Schuchard", 14_412, "Terri Brncic", 14_365, 47, 72, True)
    assert returns.contest("City of Boulder Council Candidates").readings[0].startswith(
        "seats: 4, from the file's counts: (votes 113,379 + Total Undervotes 23,345) / (Total Ballots 34,249 - Total "
        "Overvotes 68) = 4 votes per ballot")


def test_synthetic_write_ins_above_the_only_named_candidate() -> None:
    _, decided, undecided = read("synthetic_dominion_sovc_write_ins_above_named.csv")
    assert not decided
    assert undecided["Mountain Springs Water District Director"].reason.startswith(
        "write-ins may have won: the write-in line 'Unresolved Write-In' holds 47 votes, more than Dana Ruiz (28)")


def test_synthetic_council_whose_seats_the_file_does_not_state() -> None:
    name = "City of Example Council Candidates"
    _, decided, undecided = read("synthetic_dominion_sovc_council_seats_not_stated.csv")
    assert not decided and undecided[name].seats_not_stated
    _, given, _ = read("synthetic_dominion_sovc_council_seats_not_stated.csv", seats={name: 4})
    assert figures(given[name]) == ("Devon Pike", 14_412, "Emery Quinn", 14_365, 47, 72, True)
