"""NIST SP 1500-100 v2 JSON: the real files of usnistgov/cdf-test-method (see tests/fixtures/returns/README.md).

Expected figures are computed here from the raw VoteCounts by a few independent lines (`raw_totals`),
and the verdicts they give were worked by hand: (highest - next) * 200 <= highest.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules.contest import ContestKind
from rules.returns import ReturnsError, read_returns
from rules.row_kinds import is_write_in_bucket
from rules.verdicts import decide_returns

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
GEN_01 = FIXTURES / "nist_err_gen_01.json"
CAMBRIDGE = FIXTURES / "nist_cambridge_2022_primary_small.json"
PRIM_02 = FIXTURES / "nist_err_prim_02.json"
PRE_PRIM_02 = FIXTURES / "nist_pe_err_prim_02.json"
COUNTY = "ru-county-1"  # gen-01's "Test County": the scope of the election and every contest's district


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def raw_totals(contest: dict, keep) -> dict[str, int]:
    """Selection @id -> the sum of its VoteCounts over the GpUnits `keep` accepts (independent of the reader)."""
    return {s["@id"]: sum(vc["Count"] for vc in s.get("VoteCounts", []) if keep(vc["GpUnitId"]))
            for s in contest["ContestSelection"]}


def contest_named(document: dict, name: str) -> dict:
    return next(c for c in document["Election"][0]["Contest"] if c["Name"] == name)


def verdicts_by_name(returns):
    verdicts = decide_returns(returns)
    return {d.contest: d for d in verdicts.decisions}, {u.contest: u for u in verdicts.undecided}


# --- gen-01: a county total beside combined and split precincts, nothing linked -----------------

def test_gen_01_counts_each_vote_once_at_the_precinct_level() -> None:
    document = load(GEN_01)
    # The file says it is a general election (Election.Type); the pipeline cannot be told so by a reader yet.
    returns = read_returns(GEN_01.read_bytes(), election_kind="general")

    assert returns.undecided == ()
    assert len(returns.contests) == 18  # 19 contests less the straight-party contest
    for raw in document["Election"][0]["Contest"][1:]:
        contest = returns.contest(raw["Name"])
        below = raw_totals(raw, lambda unit: unit != COUNTY)
        county = raw_totals(raw, lambda unit: unit == COUNTY)
        assert below == county  # the county's total is the same votes again: set aside, never added
        assert sorted(contest.totals.values()) == sorted(below.values())
        assert COUNTY not in contest.votes_by_unit and "Test County" not in contest.votes_by_unit
    # Split precincts 2a and 2b with equal counts are two units, not a unit and its "subtotal".
    district_2 = returns.contest("Representative in Congress - District 2")
    assert district_2.votes_by_unit == {
        "Precinct 2a": {"Habib Smith": 3, "Bonnie Wyatt": 3, "Jim Hinkle": 2, "Write-in": 2},
        "Precinct 2b": {"Habib Smith": 3, "Bonnie Wyatt": 3, "Jim Hinkle": 2, "Write-in": 2},
    }
    county_counts = sum(1 for c in document["Election"][0]["Contest"][1:] for s in c["ContestSelection"]
                        for vc in s["VoteCounts"] if vc["GpUnitId"] == COUNTY)
    other_counts = sum(len(c.get("OtherCounts", [])) for c in document["Election"][0]["Contest"][1:])
    assert {s.kind: s.count for s in returns.set_aside} == {"subtotal": county_counts, "over or under votes": other_counts}
    assert (county_counts, other_counts) == (55, 54)
    assert "$.Election[0].Contest[0]: party contest 'Straight Party' skipped (it elects no candidate and asks no " \
           "question)" in returns.notes


def test_gen_01_verdicts() -> None:
    returns = read_returns(GEN_01.read_bytes(), election_kind="general")
    decided, undecided = verdicts_by_name(returns)
    # County Assessor elects two: Backus and Ensign 12 each, and 16 write-in votes; one write-in candidate with
    # them all would have won a seat, and the file does not say who received them.
    assert list(undecided) == ["County Assessor"]
    assert undecided["County Assessor"].reason.startswith("write-ins may have won: the write-in line 'Write-in' holds 16")
    # Every pair of leaders is tied in NIST's synthetic counts: 12-12, 6-6, 5-5, 3-3 are all recounts.
    assert sorted(name for name, d in decided.items() if d.automatic_recount) == [
        "Dog Catcher", "President and Vice President of the United States", "Proposal 1 - Road improvements",
        "Proposal 2 - Stadium", "Proposal 3 - Sales tax", "Representative in Congress - District 1",
        "Representative in Congress - District 2", "Supreme Court Justice - Seat A", "Supreme Court Justice - Seat B",
        "Supreme Court Justice - Seat C", "United State Senator"]
    president = decided["President and Vice President of the United States"]
    assert (president.highest.choice, president.highest.votes) == ("Harry Brown / Jim Doyle", 12)  # a ticket
    assert (president.next_highest.choice, president.next_highest.votes, president.margin) == (
        "George Bush / Dick Cheney", 12, 0)
    assert [n for n, d in decided.items() if d.outcome == "uncontested"] == [
        "State Assembly - District 1", "State Assembly - District 2", "State Assembly - District 3",
        "County Commissioner - District 1", "County Commissioner - District 2", "County Commissioner - District 3"]
    assert returns.contest("Proposal 1 - Road improvements").kind is ContestKind.QUESTION


def test_gen_01_seats_from_votes_allowed() -> None:
    document = load(GEN_01)
    raw = contest_named(document, "County Assessor")
    assert raw["VotesAllowed"] == 2 and "NumberElected" not in raw
    returns = read_returns(GEN_01.read_bytes(), election_kind="general")
    assessor = returns.contest("County Assessor")
    assert assessor.seats == 2
    assert "seats: 2, read from VotesAllowed (each voter may vote for 2); the file gives no NumberElected" \
        in assessor.readings
    # Two unnamed write-in selections: two buckets, never winners.
    assert [c for c in assessor.choices if is_write_in_bucket(c)] == ["Write-in", "Write-in (cs-county-assessor-db-wi2)"]
    # Backus 12 and Ensign 12 would win the two seats against a first loser of 8, but the write-in line holds 16:
    # one write-in candidate with them all would have won a seat. Undecided, with why.
    held = verdicts_by_name(returns)[1]["County Assessor"]
    assert "more than Dave Backus (12), the last named winner" in held.reason


def test_a_county_total_that_disagrees_leaves_only_its_contest_undecided() -> None:
    document = load(GEN_01)
    senator = contest_named(document, "United State Senator")
    county_count = senator["ContestSelection"][0]["VoteCounts"][0]
    assert county_count["GpUnitId"] == COUNTY
    county_count["Count"] += 1
    returns = read_returns(json.dumps(document), election_kind="general")
    assert [u.contest for u in returns.undecided] == ["United State Senator"]
    assert returns.undecided[0].rows == (
        "$.Election[0].Contest[2].ContestSelection[0].VoteCounts[0].Count: Test County reports 13 for 'Ed Johnson', "
        "but the 4 units counted in it add up to 12",)
    assert len(returns.contests) == 17


def test_a_damaged_count_leaves_only_its_contest_undecided() -> None:
    text = GEN_01.read_text(encoding="utf-8")
    dog = load(GEN_01)["Election"][0]["Contest"][18]["ContestSelection"][0]["VoteCounts"][1]
    assert dog == {"Count": 3, "@type": "ElectionResults.VoteCounts", "GpUnitId": "cp-1-4-5-6", "Type": "total"}
    damaged = json.loads(text)
    damaged["Election"][0]["Contest"][18]["ContestSelection"][0]["VoteCounts"][1]["Count"] = "3.5"
    text = json.dumps(damaged).replace('"Count": "3.5"', '"Count": 3.5')
    returns = read_returns(text, election_kind="general")
    assert [(u.contest, u.rows) for u in returns.undecided] == [("Dog Catcher", (
        "$.Election[0].Contest[18].ContestSelection[0].VoteCounts[1].Count: must be a whole number of votes (got 3.5)",))]
    decided, undecided = verdicts_by_name(returns)
    assert list(undecided) == ["Dog Catcher", "County Assessor"] and len(decided) == 16
    with pytest.raises(ReturnsError):  # a survey of returns to record must be whole
        from rules.returns import parse_returns
        parse_returns(text, election_kind="general")


def test_a_schema_error_inside_a_contest_leaves_only_it_undecided() -> None:
    document = load(GEN_01)
    del document["Election"][0]["Contest"][5]["VotesAllowed"]
    document["Election"][0]["Contest"][9]["ContestSelection"][1]["VoteCounts"][0]["Colour"] = "red"
    returns = read_returns(json.dumps(document), election_kind="general")
    assert [(u.contest, u.rows) for u in returns.undecided] == [
        ("State Assembly - District 1", ("$.Election[0].Contest[5].VotesAllowed: is required but missing",)),
        ("Proposal 2 - Stadium",
         ("$.Election[0].Contest[9].ContestSelection[1].VoteCounts[0].Colour: is not a field allowed here",)),
    ]
    assert len(returns.contests) == 16
    document["Issuer"] = 7  # outside every contest: the file is refused, every violation listed
    with pytest.raises(ReturnsError) as caught:
        read_returns(json.dumps(document))
    assert [p.location for p in caught.value.problems] == [
        "$.Election[0].Contest[5].VotesAllowed", "$.Election[0].Contest[9].ContestSelection[1].VoteCounts[0].Colour",
        "$.Issuer"]


def _with_state_above(document: dict) -> dict:
    """gen-01 as if Test County were one county of a state: the contest's district is the state (not counted),
    so nothing says the county's count is the whole contest; only its Type ("other", an area) tells it apart."""
    document = copy.deepcopy(document)
    document["GpUnit"].append({"Type": "state", "@type": "ElectionResults.ReportingUnit", "@id": "ru-state"})
    document["Election"][0]["ElectionScopeId"] = "ru-state"
    for contest in document["Election"][0]["Contest"]:
        contest["ElectionDistrictId"] = "ru-state"
    return document


def test_an_unlinked_larger_unit_is_a_level_checked_as_a_whole() -> None:
    document = _with_state_above(load(GEN_01))
    returns = read_returns(json.dumps(document), election_kind="general")
    assert returns.undecided == ()
    senator = returns.contest("United State Senator")
    assert dict(senator.totals) == {"Ed Johnson": 12, "John Rusco": 12, "Katie Bernstein": 8, "Write-in": 8}
    assert {s.kind: s.count for s in returns.set_aside}["subtotal"] == 55
    # The county's count disagrees: its votes may be other votes (nothing links it to the precincts).
    contest_named(document, "United State Senator")["ContestSelection"][1]["VoteCounts"][0]["Count"] = 11
    returns = read_returns(json.dumps(document), election_kind="general")
    assert [(u.contest, u.rows) for u in returns.undecided] == [("United State Senator", (
        "$.Election[0].Contest[2].ContestSelection[1].VoteCounts[0].Count: Test County (Type other) reports 11 for "
        "'John Rusco', but the 4 units counted at the lowest level add up to 12; the file does not say which units "
        "it is made of (ComposingGpUnitIds), so it may be other votes",))]


# --- Cambridge MA 2022 state primary: one Name per office, told apart by district and party ---------

def test_cambridge_names_say_district_and_party() -> None:
    returns = read_returns(CAMBRIDGE.read_bytes())
    assert [c.name for c in returns.contests] == [
        "SECRETARY OF STATE (DEMOCRAT)", "SECRETARY OF STATE (REPUBLICAN)",
        "REPRESENTATIVE IN CONGRESS (FIFTH DISTRICT, DEMOCRAT)", "REPRESENTATIVE IN CONGRESS (SEVENTH DISTRICT, REPUBLICAN)",
        "REPRESENTATIVE IN CONGRESS (SEVENTH DISTRICT, DEMOCRAT)", "REPRESENTATIVE IN CONGRESS (FIFTH DISTRICT, REPUBLICAN)",
    ]
    # PrimaryPartyIds make each a party primary: the file says so, whatever its name.
    assert returns.readings == ("party primary: the file marks its contests as party primaries; each party's "
                                "candidates are a contest of their own",)
    assert "party primary (DEMOCRAT): only its own candidates are compared" in returns.contests[0].readings


def test_cambridge_secretary_of_state_is_an_automatic_recount() -> None:
    document = load(CAMBRIDGE)
    raw = contest_named(document, "SECRETARY OF STATE")  # the first: the Democratic primary
    assert raw["PrimaryPartyIds"] == ["par-dem"]
    by_selection = raw_totals(raw, lambda unit: True)
    returns = read_returns(CAMBRIDGE.read_bytes())
    contest = returns.contest("SECRETARY OF STATE (DEMOCRAT)")
    assert sorted(contest.totals.values()) == sorted(by_selection.values())
    assert len(contest.units) == 42  # every precinct of the city, once
    decision = verdicts_by_name(returns)[0]["SECRETARY OF STATE (DEMOCRAT)"]
    # Sullivan 7,684, Galvin 7,666: (7,684 - 7,666) * 200 = 3,600 <= 7,684.
    assert (decision.highest.choice, decision.highest.votes) == ("TANISHA M. SULLIVAN", 7684)
    assert (decision.next_highest.choice, decision.next_highest.votes) == ("WILLIAM FRANCIS GALVIN", 7666)
    assert (decision.margin, decision.automatic_recount) == (18, True)


def test_cambridge_write_ins_outside_the_district_are_set_aside() -> None:
    document = load(CAMBRIDGE)
    parts = {u["@id"]: set(u.get("ComposingGpUnitIds", [])) for u in document["GpUnit"]}
    returns = read_returns(CAMBRIDGE.read_bytes())
    outside = 0
    for raw in document["Election"][0]["Contest"]:
        inside = parts[raw["ElectionDistrictId"]]
        outside += sum(1 for s in raw["ContestSelection"] for vc in s["VoteCounts"] if vc["GpUnitId"] not in inside)
        if raw["ElectionDistrictId"] == "loc-cambridge":
            continue
        party = {"par-dem": "DEMOCRAT", "par-rep": "REPUBLICAN"}[raw["PrimaryPartyIds"][0]]
        district = {"ed-6": "FIFTH DISTRICT", "ed-8": "SEVENTH DISTRICT"}[raw["ElectionDistrictId"]]
        contest = returns.contest(f"{raw['Name']} ({district}, {party})")
        in_district = raw_totals(raw, lambda unit, inside=inside: unit in inside)
        assert sorted(contest.totals.values()) == sorted(in_district.values())
        assert set(contest.units) <= {u.strip() for u in _unit_names(document, inside)}
    assert outside == 84  # the city-wide write-in line copied into each district's contest
    assert {s.kind: s.count for s in returns.set_aside}["not a row of results"] == outside
    clark = returns.contest("REPRESENTATIVE IN CONGRESS (FIFTH DISTRICT, DEMOCRAT)")
    assert dict(clark.totals) == {"KATHERINE M. CLARK": 7112, "Write-in": 27}


def _unit_names(document: dict, ids: set[str]) -> list[str]:
    return [u["Name"]["Text"][0]["Content"] for u in document["GpUnit"] if u["@id"] in ids]


def test_cambridge_a_named_choice_outside_the_district_leaves_the_contest_undecided() -> None:
    document = load(CAMBRIDGE)
    clark = document["Election"][0]["Contest"][2]["ContestSelection"][0]
    assert clark["CandidateIds"] == ["can-k-m-clark"]
    clark["VoteCounts"].append({"Count": 5, "@type": "ElectionResults.VoteCounts", "GpUnitId": "prec-1-1",
                                "Type": "total"})
    returns = read_returns(json.dumps(document))
    assert [(u.contest, u.rows) for u in returns.undecided] == [(
        "REPRESENTATIVE IN CONGRESS (FIFTH DISTRICT, DEMOCRAT)",
        (f"$.Election[0].Contest[2].ContestSelection[0].VoteCounts[{len(clark['VoteCounts']) - 1}].GpUnitId: "
         "Precinct 1-1 is not one of the units FIFTH DISTRICT (the contest's district) is made of, yet it reports 5 "
         "for 'KATHERINE M. CLARK'",))]
    assert len(returns.contests) == 5


# --- prim-02: an open primary without PrimaryPartyIds; pe-prim-02: the same before the count -------

def test_prim_02_contests_are_told_apart_by_their_ballot_header() -> None:
    returns = read_returns(PRIM_02.read_bytes())
    names = [c.name for c in returns.contests]
    # The Libertarian "Senate" lists a Democrat (a cross-party candidate): the header, not the candidate, says
    # whose contest it is. "Democractic" is the file's own spelling.
    assert [n for n in names if n.startswith("Senate")] == [
        "Senate (Democractic Party)", "Senate (Libertarian Party)", "Senate (Republican Party)"]
    assert returns.contest("Senate (Libertarian Party)").choices == ("Cynthia Mckinney", "Write-in")
    assert "Delegates to the Democratic National Convention" in names  # a Name used once keeps it
    decided, undecided = verdicts_by_name(returns)
    assert undecided == {}
    raw = load(PRIM_02)["Election"][0]["Contest"][4]
    assert raw["@id"] == "cc-lib-president"
    lib = raw_totals(raw, lambda unit: unit != "ru-county")
    assert sorted(lib.values(), reverse=True)[:2] == [4, 4]
    assert decided["President of the United States (Libertarian Party)"].automatic_recount  # Barr 4, Kennedy 4


def test_a_pre_election_file_leaves_every_contest_undecided_with_its_choices() -> None:
    document = load(PRE_PRIM_02)
    assert document["Status"] == "pre-election"
    assert not any(s.get("VoteCounts") for c in document["Election"][0]["Contest"] for s in c["ContestSelection"])
    returns = read_returns(PRE_PRIM_02.read_bytes())
    assert len(returns.contests) == 13
    for contest in returns.contests:
        assert contest.choices and contest.votes_by_unit == {} and contest.total_votes == 0
    assert returns.contest("Senate (Libertarian)").choices == ("Cynthia Mckinney", "Write-in")
    verdicts = decide_returns(returns)
    assert verdicts.decisions == ()  # never "an automatic recount at 0-0"
    assert len(verdicts.undecided) == 13
    assert {u.reason.split(":")[0] for u in verdicts.undecided} == {"no votes counted"}
    assert "the report's Status is pre-election: it holds the contests and choices, no counts" in returns.notes


def test_every_real_file_is_read_without_a_problem_of_the_whole_file() -> None:
    for path in (GEN_01, CAMBRIDGE, PRIM_02, PRE_PRIM_02, FIXTURES / "nist_small.json"):
        returns = read_returns(path.read_bytes())
        assert returns.source_format == "nist"
        kinds = Counter(c.kind for c in returns.contests)
        assert kinds[ContestKind.CANDIDATE] > 0
