"""OpenElections Colorado files as they really are (2012-2018), held to verdicts computed from their raw rows.

Each fixture in tests/fixtures/returns/openelections-co/ is rows copied unchanged from
openelections/openelections-data-co (see the README there). The expected figures are computed here
from the raw rows by a few lines that know only what the test says (which rows are not votes), or
were added up by hand from the rows quoted in the comments; the reader is never its own reference.
"""
from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from rules.contest import ContestKind
from rules.returns import ReturnsError, parse_returns, read_returns
from rules.verdicts import decide_returns

CO = Path(__file__).resolve().parent.parent / "fixtures" / "returns" / "openelections-co"


def read(name: str, **kwargs):
    return read_returns((CO / name).read_bytes(), file_name=name, **kwargs)


def verdicts(returns):
    result = decide_returns(returns)
    return {d.contest: d for d in result.decisions}, {u.contest: u for u in result.undecided}


def raw_totals(name: str, office: str, *, skip_candidates=(), skip_precincts=(), party: str | None = None,
               district: str | None = None) -> Counter:
    """Votes per candidate of one office straight from the rows, skipping only what the caller names."""
    totals: Counter = Counter()
    with (CO / name).open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["office"] != office or row["candidate"] in skip_candidates:
                continue
            if row.get("precinct", "") in skip_precincts or (party is not None and row["party"] != party):
                continue
            if district is not None and row["district"] != district:
                continue
            totals[row["candidate"]] += int(row["votes"])
    return totals


# --- 2016 primary, county file: one contest per office, district and party ------------------------------

PRIMARY_2016 = "20160628__co__primary__county.csv"


def test_the_file_name_says_primary_so_parties_are_never_compared() -> None:
    returns = read(PRIMARY_2016)
    assert returns.readings[0].startswith("party primary: the file's name says so")
    decided, undecided = verdicts(returns)
    assert not undecided
    # State Senate 25: Priola (Republican) 4,743 and May (Democratic) 4,738 were each unopposed in their own
    # primary. Compared with each other they would be an "automatic recount" between people who never ran
    # against each other.
    priola, may = decided["State Senate - District 25 (Republican)"], decided["State Senate - District 25 (Democratic)"]
    assert (priola.outcome, priola.highest.choice, priola.highest.votes) == ("uncontested", "Kevin Priola", 4_743)
    assert (may.outcome, may.highest.choice, may.highest.votes) == ("uncontested", "Jenise May", 4_738)
    assert "party primary (Republican): only its own candidates are compared" in priola.readings
    assert "State Senate - District 25" not in decided
    # U.S. Senate, Republican: Glenn against Graham; Bennet alone in the Democratic primary.
    senate = decided["U.S. Senate (Republican)"]
    expected = raw_totals(PRIMARY_2016, "U.S. Senate", party="Republican")
    assert (senate.highest.choice, senate.highest.votes) == expected.most_common(1)[0] == ("Darryl Glenn", 131_125)
    assert (senate.next_highest.choice, senate.next_highest.votes) == ("Jack Graham", 85_400)
    assert decided["U.S. Senate (Democratic)"].outcome == "uncontested"
    assert sum(d.automatic_recount for d in decided.values()) == 0


def test_without_the_name_a_primary_that_could_change_a_verdict_is_left_undecided() -> None:
    data = (CO / PRIMARY_2016).read_bytes()
    returns = read_returns(data, file_name="returns.csv")
    decided, undecided = verdicts(returns)
    assert "election kind unknown" in returns.readings[0]
    assert "'Republican' has 5 candidates" in returns.readings[0]
    # Read as a general election Priola vs May is a 5-vote margin (1/2 of 1% of 4,743 is 23): the readings
    # disagree, so nothing is said about it.
    reason = undecided["State Senate - District 25"].reason
    assert "as a general election, automatic recount (Kevin Priola vs Jenise May)" in reason
    assert "as a party primary, no automatic recount" in reason and "--election-kind" in reason
    # Where both readings agree there is still a verdict, naming the reading.
    assert decided["U.S. Senate"].automatic_recount is False
    assert "no automatic recount whether it is a general election or a party primary" in decided["U.S. Senate"].readings[-1]
    # The clerk who says which it is gets every verdict.
    assert not verdicts(read_returns(data, election_kind="primary"))[1]
    general = verdicts(read_returns(data, election_kind="general"))[0]["State Senate - District 25"]
    assert general.automatic_recount and general.margin == 5
    with pytest.raises(ReturnsError) as refused:  # a survey of returns is not recorded on a guess
        parse_returns(data, file_name="returns.csv")
    assert any("--election-kind" in p.message for p in refused.value.problems)


# --- 2014 general, statewide by county: a blank-candidate total row after every county's candidates ------

GENERAL_2014 = "20141104__co__general__excerpt.csv"


def test_blank_candidate_rows_are_contest_totals_set_aside() -> None:
    returns = read(GENERAL_2014)
    assert not returns.undecided
    assert [(s.kind, s.count) for s in returns.set_aside] == [("contest total", 128)]  # 64 counties x 2 offices
    decided, _ = verdicts(returns)
    senate = decided["U.S. Senate"]
    expected = raw_totals(GENERAL_2014, "U.S. Senate", skip_candidates=("",))
    assert dict(returns.contest("U.S. Senate").totals) == dict(expected)
    assert (senate.highest.choice, senate.highest.votes, senate.next_highest.choice, senate.next_highest.votes) == (
        "Cory Gardner", 983_891, "Mark Udall", 944_203)
    assert senate.automatic_recount is False
    # Adams: 62296 + 58614 + 3979 + 2168 + 532 + 3023 + 0 + 1 = 130,613, the blank row's figure.
    assert returns.contest("U.S. Senate").votes_by_unit["Adams"]["Mark Udall"] == 62_296


def test_a_blank_candidate_row_that_is_no_total_is_set_aside_and_named() -> None:
    """A row naming no candidate is never a vote for one: set aside and named, never a reason to withhold the
    verdict the named candidates decide (the 2002 statewide file's U.S. House District 7, Beauprez by 121)."""
    data = (CO / GENERAL_2014).read_bytes().replace(b"Adams,U.S. Senate,,,,130613", b"Adams,U.S. Senate,,,,130000")
    returns = read_returns(data)
    decided, undecided = verdicts(returns)
    assert "Attorney General" in decided and "U.S. Senate" in decided and not undecided
    assert decided["U.S. Senate"].highest.votes == verdicts(read_returns((CO / GENERAL_2014).read_bytes()))[0][
        "U.S. Senate"].highest.votes
    assert {s.kind: s.rows for s in returns.set_aside}["no choice named"] == ("row 10, column candidate",)
    assert "row 10, column candidate of 'U.S. Senate' names no choice (votes '130,000'); not the total at county " \
           "'Adams' (130,613) nor of one party's candidates there: set aside, never counted for a choice" in returns.notes


# --- El Paso 2012 precincts: county subtotal rows named "EL PASO CO", turnout rows "Voters / Cast" ------

EL_PASO = "20121106__co__general__el_paso__precinct__excerpt.csv"


def test_county_subtotal_rows_are_not_added_to_the_precincts() -> None:
    returns = read(EL_PASO)
    kinds = dict((s.kind, s.count) for s in returns.set_aside)
    assert kinds["turnout or registration"] == 200  # "El Paso,101,Voters,,,Cast,1877" and 199 more
    senate = returns.contest("Senate 10 - District SD10")
    precincts = raw_totals(EL_PASO, "Senate 10", skip_precincts=("EL PASO CO", "CO"))
    # "El Paso,EL PASO CO,Senate 10,SD10,R,Owen Hill,44200" is the sum of his precinct rows: counted once.
    assert precincts["Owen Hill"] == 44_200 == senate.totals["Owen Hill"]
    assert dict(senate.totals) == dict(precincts)
    decided, _ = verdicts(returns)
    assert decided["Senate 10 - District SD10"].highest.votes == 44_200


# --- Douglas 2018 precincts: "Total" candidate rows and "(< 25)" hidden counts ---------------------------

DOUGLAS = "20181106__co__general__douglas__precinct__excerpt.csv"


def test_a_total_row_is_never_a_candidate() -> None:
    returns = read(DOUGLAS)
    assert all("Total" not in c.choices for c in returns.contests)
    assert dict((s.kind, s.count) for s in returns.set_aside)["contest total"] == 82


def test_hidden_counts_are_decided_where_every_value_gives_the_same_verdict() -> None:
    returns = read(DOUGLAS)
    decided, undecided = verdicts(returns)
    parker = decided["Town of Parker Councilmember (Vote for 3)"]
    assert parker.seats == 3  # "(Vote for 3)" in the office's name
    assert parker.automatic_recount is False
    assert any(r.startswith("hidden counts: 11 cells") for r in parker.readings)
    # Castle Rock Mayor: Gray 22,122; Reed 21,989 plus one "(< 25)" in Precinct 333, whose Total row (63)
    # less Gray's 28 leaves 35 for Reed and Fletcher together: Reed has 11 to 24 there. Reed at 24 is 109
    # behind (a recount: 1/2 of 1% of 22,122 is 110); at 11, 122 behind (none). Undecided.
    mayor = undecided["Town of Castle Rock Mayor"]
    assert "the verdict depends on 2 hidden counts" in mayor.reason
    assert "row 361, column votes: '(< 25)' (11 to 24)" in mayor.rows


# --- Arapahoe 2016 primary precincts: "***" hides a whole precinct -------------------------------------

def test_a_suppressed_precinct_decides_only_what_it_cannot_change() -> None:
    returns = read("20160628__co__primary__arapahoe__precinct__excerpt.csv")
    decided, undecided = verdicts(returns)
    # "Arapahoe,361,State Senate,29,Democrat,Rhonda Fields,***": any number could be there.
    assert "State Senate - District 29 (Democrat)" in undecided
    # Chunn was alone in the Republican primary: uncontested whatever precinct 361 holds.
    chunn = decided["State Senate - District 29 (Republican)"]
    assert chunn.outcome == "uncontested" and chunn.highest.choice == "Sebastian Chunn"
    with pytest.raises(ReturnsError) as refused:
        parse_returns((CO / "20160628__co__primary__arapahoe__precinct__excerpt.csv").read_bytes())
    assert any("'***', not an exact number of votes" in p.message for p in refused.value.problems)


# --- Lake and Grand: over and under votes; Rio Blanco: answers in the party column ------------------------

def test_over_and_under_votes_are_never_candidates() -> None:
    lake = read("20160628__co__primary__lake__precinct.csv")
    assert [(s.kind, s.count) for s in lake.set_aside] == [("over or under votes", 36)]
    assert all(not c.startswith(("Under", "Over")) for contest in lake.contests for c in contest.choices)
    grand = read("20121106__co__general__grand__precinct.csv")  # its votes column is named total_votes
    kinds = dict((s.kind, s.count) for s in grand.set_aside)
    assert kinds == {"over or under votes": 104, "turnout or registration": 52}
    president = verdicts(grand)[0]["President"]
    assert (president.highest.choice, president.highest.votes) == ("Mitt Romney", 8_433)
    assert (president.next_highest.choice, president.next_highest.votes) == ("Barack Obama", 7_287)


def test_answers_in_the_party_column_make_a_question() -> None:
    returns = read("20121106__co__general__rio_blanco__precinct.csv")
    question = returns.contest("64: Legalize Marijuana")
    # "Rio Blanco,Total,64,,YES,Legalize Marijuana,1338" / "...,NO,Legalize Marijuana,1937": the county's
    # Total row, cross-checked against the precincts and set aside.
    assert question.kind is ContestKind.QUESTION
    assert dict(question.totals) == {"YES": 1_338, "NO": 1_937}
    assert "Total" not in {u.split(" / ")[-1] for u in question.units}


# --- the two wrong verdicts the issue names, as a clerk's template would carry them ---------------------

def test_a_total_choice_cannot_hide_a_required_recount() -> None:
    text = "contest,choice,votes\nMayor,Ann,1000\nMayor,Bob,995\nMayor,Total,1995\n"
    returns = read_returns(text)
    decided, _ = verdicts(returns)
    assert decided["Mayor"].automatic_recount  # 5 <= 1000 / 200; "Total" 1,995 would have "won"
    assert [(s.kind, s.count, s.rows) for s in returns.set_aside] == [("contest total", 1, ("row 4",))]


def test_a_write_in_line_never_wins_but_is_named_when_it_could_matter() -> None:
    close = read_returns("contest,choice,votes\nMayor,Ann,1000\nMayor,Write-ins,996\nMayor,Bob,900\n")
    mayor = verdicts(close)[0]["Mayor"]
    assert (mayor.highest.choice, mayor.next_highest.choice, mayor.automatic_recount) == ("Ann", "Bob", False)
    assert "the write-in line 'Write-ins' (996 votes) is within 1/2 of 1% of Ann (1,000)" in mayor.write_in_note
    far = verdicts(read_returns("contest,choice,votes\nMayor,Ann,1000\nMayor,Write-ins,12\nMayor,Bob,900\n"))[0]
    assert far["Mayor"].write_in_note is None


def test_turnout_over_under_and_subtotal_rows_change_nothing_about_a_file_that_had_none() -> None:
    plain = "county,precinct,office,district,party,candidate,votes\n" + "".join(
        f"Adams,{p},Mayor,,,{c},{v}\n" for p, c, v in [(1, "Ann", 600), (1, "Bob", 590), (2, "Ann", 400), (2, "Bob", 405)])
    noisy = plain + ("Adams,1,Voters,,,Cast,1300\n" "Adams,1,Mayor,,,Over Votes,3\n" "Adams,1,Mayor,,,Under Votes,40\n"
                     "Adams,ADAMS CO,Mayor,,,Ann,1000\n" "Adams,ADAMS CO,Mayor,,,Bob,995\n" "Adams,2,Mayor,,,Total,805\n")
    a, b = read_returns(plain), read_returns(noisy)
    assert dict(a.contest("Mayor").totals) == dict(b.contest("Mayor").totals) == {"Ann": 1000, "Bob": 995}
    assert verdicts(a)[0]["Mayor"].automatic_recount and verdicts(b)[0]["Mayor"].automatic_recount
    assert {s.kind: s.count for s in b.set_aside} == {
        "turnout or registration": 1, "over or under votes": 2, "subtotal": 2, "contest total": 1}
