"""NIST SP 1500-100 v2 election results in JSON."""
from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from rules.contest import ContestKind, Returns
from rules.returns import ReturnsError, parse_returns, read_returns

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
BOARD = "$.Election[0].Contest[0]"
ISSUE = "$.Election[0].Contest[1]"


def fixture() -> dict[str, Any]:
    return json.loads((FIXTURES / "nist_small.json").read_text(encoding="utf-8"))


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, default=str)


def problems_of(document: dict[str, Any] | str, **kwargs) -> list[tuple[str, str]]:
    text = document if isinstance(document, str) else dumps(document)
    with pytest.raises(ReturnsError) as caught:
        parse_returns(text, format="nist", **kwargs)
    return [(p.location, p.message) for p in caught.value.problems]


def it(content: str, language: str = "en") -> dict[str, Any]:
    return {"@type": "ElectionResults.InternationalizedText",
            "Text": [{"@type": "ElectionResults.LanguageString", "Content": content, "Language": language}]}


def vc(unit: str, count: Any, kind: str = "total") -> dict[str, Any]:
    return {"@type": "ElectionResults.VoteCounts", "GpUnitId": unit, "Type": kind, "Count": count}


def no_floats(value: Any) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(no_floats(k) and no_floats(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(no_floats(v) for v in value)
    return True


def test_the_example_report() -> None:
    returns = parse_returns((FIXTURES / "nist_small.json").read_bytes())

    assert returns.source_format == "nist"
    assert [c.name for c in returns.contests] == ["Board of Directors", "Ballot Issue 6A"]
    board = returns.contest("Board of Directors")
    assert (board.kind, board.seats) == (ContestKind.CANDIDATE, 2)
    assert board.choices == ("Dana Ames", "Lee Baker", "Sam Cole", "Write-in")
    assert board.units == ("Precinct 1", "Precinct 2")
    # Precinct 2 has no "total": its election-day and absentee parts are added.
    assert board.votes_by_unit["Precinct 2"] == {"Dana Ames": 208, "Lee Baker": 198, "Sam Cole": 60, "Write-in": 1}
    assert dict(board.totals) == {"Dana Ames": 620, "Lee Baker": 596, "Sam Cole": 210, "Write-in": 4}
    assert board.choice_details == {"Sam Cole": {"party": "Nonpartisan"}}

    issue = returns.contest("Ballot Issue 6A")
    assert (issue.kind, issue.seats, issue.choices) == (ContestKind.QUESTION, 1, ("Yes", "No"))  # "en" over "es"
    # The district's own count is cross-checked against its precincts, not added to them.
    assert issue.units == ("Precinct 1", "Precinct 2")
    assert dict(issue.totals) == {"Yes": 745, "No": 700}
    assert returns.notes == ("2 counts without a 'total' were summed from their parts (election-day, early, absentee, ...)",)
    # The district's own counts (Yes and No) were cross-checked and set aside, never added.
    assert [(s.kind, s.count) for s in returns.set_aside] == [("subtotal", 2)]
    assert returns.set_aside[0].rows == (
        f"{ISSUE}.ContestSelection[0].VoteCounts[2]: Whole District in 'Ballot Issue 6A' (the whole contest, "
        "counted again in its parts)",)


def test_no_float_ever_exists() -> None:
    document = fixture()
    document["Election"][0]["Contest"][0]["ContestSelection"][0]["VoteCounts"][0]["Count"] = Decimal("412.0")
    returns = parse_returns(dumps(document).replace('"412.0"', "412.0"))
    assert returns.contest("Board of Directors").votes_by_unit["Precinct 1"]["Dana Ames"] == 412
    assert no_floats([(c.votes_by_unit, c.totals) for c in returns.contests])
    assert type(returns.contest("Board of Directors").totals["Dana Ames"]) is int
    assert returns.notes[0] == f"{BOARD}.ContestSelection[0].VoteCounts[0].Count: 412.0 read as 412"


def test_a_fractional_count_is_a_problem_at_its_json_path() -> None:
    text = dumps(fixture()).replace('"Count": 412', '"Count": 12.5').replace('"Count": 470', '"Count": 1e400')
    assert problems_of(text) == [
        (f"{BOARD}.ContestSelection[0].VoteCounts[0].Count", "must be a whole number of votes (got 12.5)"),
        (f"{ISSUE}.ContestSelection[1].VoteCounts[0].Count", "is too large to be a number of votes (got 1E+400)"),
    ]


def test_negative_and_not_a_number_counts() -> None:
    text = dumps(fixture()).replace('"Count": 412', '"Count": -1').replace('"Count": 470', '"Count": NaN')
    assert problems_of(text) == [
        (f"{BOARD}.ContestSelection[0].VoteCounts[0].Count", "must not be negative (got -1)"),
        (f"{ISSUE}.ContestSelection[1].VoteCounts[0].Count", "must be a whole number of votes (got NaN)"),
    ]


def test_every_schema_violation_is_listed_with_its_path() -> None:
    document = fixture()
    del document["Issuer"]
    document["Status"] = "final"
    document["SequenceStart"] = Decimal("1.0")  # draft-04: 1.0 is not an integer
    document["Election"][0]["Colour"] = "blue"
    del document["Election"][0]["Contest"][1]["Name"]
    document["Election"][0]["Contest"][0]["ContestSelection"][0]["VoteCounts"][0]["Count"] = "412"
    text = dumps(document).replace('"SequenceStart": "1.0"', '"SequenceStart": 1.0')
    assert problems_of(text) == [
        ("$.Election[0].Colour", "is not a field allowed here"),
        (f"{BOARD}.ContestSelection[0].VoteCounts[0].Count", "must be a number (got '412')"),
        (f"{ISSUE}.Name", "is required but missing"),
        ("$.Issuer", "is required but missing"),
        ("$.SequenceStart", "must be a whole number (got 1.0)"),
        ("$.Status", "must be one of certified, correction, pre-election, recount, unofficial-complete, "
                     "unofficial-partial (got 'final')"),
    ]


def test_a_contest_of_unknown_type_is_reported_at_its_type() -> None:
    document = fixture()
    document["Election"][0]["Contest"][0]["@type"] = "ElectionResults.RankedContest"
    assert problems_of(document) == [(
        f"{BOARD}.@type",
        "must be one of ElectionResults.PartyContest, ElectionResults.BallotMeasureContest, "
        "ElectionResults.CandidateContest, ElectionResults.RetentionContest (got 'ElectionResults.RankedContest')")]
    # A schema error inside one contest leaves only that contest undecided.
    returns = read_returns(dumps(document))
    assert [c.name for c in returns.contests] == ["Ballot Issue 6A"]
    assert [u.contest for u in returns.undecided] == ["Board of Directors"]
    assert returns.undecided[0].rows == (
        f"{BOARD}.@type: must be one of ElectionResults.PartyContest, ElectionResults.BallotMeasureContest, "
        "ElectionResults.CandidateContest, ElectionResults.RetentionContest (got 'ElectionResults.RankedContest')",)


def test_a_contest_that_is_not_an_object() -> None:
    document = fixture()
    document["Election"][0]["Contest"][1] = "Ballot Issue 6A"
    assert problems_of(document) == [(
        ISSUE,
        "must be an object: one of ElectionResults.PartyContest, ElectionResults.BallotMeasureContest, "
        "ElectionResults.CandidateContest, ElectionResults.RetentionContest (got 'Ballot Issue 6A')")]


def test_errors_inside_a_typed_contest_are_reported_precisely() -> None:
    document = fixture()
    del document["Election"][0]["Contest"][0]["VotesAllowed"]
    document["Election"][0]["Contest"][0]["NumberElected"] = "two"
    assert problems_of(document) == [
        (f"{BOARD}.NumberElected", "must be a whole number (got 'two')"),
        (f"{BOARD}.VotesAllowed", "is required but missing"),
    ]


def test_a_repeated_contest_name_in_the_same_district_is_told_apart_by_id() -> None:
    document = fixture()
    document["Election"][0]["Contest"][1]["Name"] = "Board of Directors"
    returns = parse_returns(dumps(document))
    assert [c.name for c in returns.contests] == ["Board of Directors (k-board)", "Board of Directors (k-6a)"]
    assert "2 contests are named 'Board of Directors' with the same district and party: told apart by their @id" \
        in returns.notes


def test_references_to_nothing_inside_a_contest_leave_only_it_undecided() -> None:
    document = fixture()
    board = document["Election"][0]["Contest"][0]
    board["ContestSelection"][1]["CandidateIds"] = ["c-nobody"]
    board["ContestSelection"][2]["VoteCounts"][1]["GpUnitId"] = "ru-p9"
    assert problems_of(document) == [
        (f"{BOARD}.ContestSelection[1].CandidateIds[0]", "no Candidate has @id 'c-nobody'"),
        (f"{BOARD}.ContestSelection[2].VoteCounts[1].GpUnitId", "no GpUnit has @id 'ru-p9'"),
    ]
    returns = read_returns(dumps(document))
    assert [c.name for c in returns.contests] == ["Ballot Issue 6A"]
    assert [(u.contest, u.rows) for u in returns.undecided] == [("Board of Directors", (
        f"{BOARD}.ContestSelection[1].CandidateIds[0]: no Candidate has @id 'c-nobody'",
        f"{BOARD}.ContestSelection[2].VoteCounts[1].GpUnitId: no GpUnit has @id 'ru-p9'"))]


def test_a_broken_gpunit_tree_refuses_the_file() -> None:
    document = fixture()
    document["GpUnit"][0]["ComposingGpUnitIds"].append("ru-p3")
    assert problems_of(document) == [("$.GpUnit[0].ComposingGpUnitIds[2]", "no GpUnit has @id 'ru-p3'")]
    document = fixture()
    document["GpUnit"][1]["ComposingGpUnitIds"] = ["ru-district"]  # Precinct 1 made of the district made of it
    assert problems_of(document) == [
        ("$.GpUnit[0].ComposingGpUnitIds", "'Whole District' is made, through its parts, of itself")]
    with pytest.raises(ReturnsError):
        read_returns(dumps(document))


def test_a_parent_unit_that_disagrees_with_its_parts_leaves_its_contest_undecided() -> None:
    document = fixture()
    document["Election"][0]["Contest"][1]["ContestSelection"][0]["VoteCounts"][2]["Count"] = 746
    assert problems_of(document) == [(
        f"{ISSUE}.ContestSelection[0].VoteCounts[2].Count",
        "Whole District reports 746 for 'Yes', but the units it is composed of add up to 745")]
    returns = read_returns(dumps(document))
    assert [c.name for c in returns.contests] == ["Board of Directors"]
    assert [u.contest for u in returns.undecided] == ["Ballot Issue 6A"]


def test_a_total_wins_over_its_parts() -> None:
    document = fixture()
    selection = document["Election"][0]["Contest"][0]["ContestSelection"][0]
    selection["VoteCounts"] = [vc("ru-p1", 400, "election-day"), vc("ru-p1", 412), vc("ru-p1", 12, "absentee")]
    board = parse_returns(dumps(document)).contest("Board of Directors")
    assert board.votes_by_unit["Precinct 1"]["Dana Ames"] == 412
    selection["VoteCounts"].append(vc("ru-p1", 412))
    assert problems_of(document) == [(
        f"{BOARD}.ContestSelection[0].VoteCounts[3]",
        f"a second 'total' count for GpUnit 'ru-p1' (first at {BOARD}.ContestSelection[0].VoteCounts[1])")]


def test_tickets_write_ins_and_units_without_names() -> None:
    document = fixture()
    election = document["Election"][0]
    election["Candidate"].append({"@type": "ElectionResults.Candidate", "@id": "c-dee", "BallotName": it("Pat Dee")})
    board = election["Contest"][0]
    board["ContestSelection"][0]["CandidateIds"] = ["c-ames", "c-dee"]
    board["ContestSelection"].append({"@type": "ElectionResults.CandidateSelection", "@id": "s-wi-2",
                                      "IsWriteIn": True, "VoteCounts": [vc("ru-p1", 2)]})
    del document["GpUnit"][1]["Name"]
    returns = parse_returns(dumps(document))
    contest = returns.contest("Board of Directors")
    assert contest.choices == ("Dana Ames / Pat Dee", "Lee Baker", "Sam Cole", "Write-in", "Write-in (s-wi-2)")
    assert contest.units == ("ru-p1", "Precinct 2")


def test_retention_is_a_question_and_party_contests_are_skipped() -> None:
    document = fixture()
    contests = document["Election"][0]["Contest"]
    retention = copy.deepcopy(contests[1])
    retention.update({"@type": "ElectionResults.RetentionContest", "@id": "k-ret", "CandidateId": "c-cole",
                      "Name": "Shall Judge Cole be retained?"})
    party = {"@type": "ElectionResults.PartyContest", "@id": "k-party", "Name": "Straight party",
             "ElectionDistrictId": "ru-district"}
    contests.extend([retention, party])
    returns = parse_returns(dumps(document))
    assert [c.name for c in returns.contests] == ["Board of Directors", "Ballot Issue 6A", "Shall Judge Cole be retained?"]
    assert returns.contest("Shall Judge Cole be retained?").kind is ContestKind.QUESTION
    assert "$.Election[0].Contest[3]: party contest 'Straight party' skipped (it elects no candidate and asks no question)" \
        in returns.notes


def test_seats_come_from_number_elected_else_votes_allowed() -> None:
    document = fixture()
    document["Election"][0]["Contest"][0]["NumberElected"] = 1  # VotesAllowed stays 2
    board = parse_returns(dumps(document)).contest("Board of Directors")
    assert (board.seats, board.readings) == (1, ())
    del document["Election"][0]["Contest"][0]["NumberElected"]
    board = parse_returns(dumps(document)).contest("Board of Directors")
    assert board.seats == 2
    assert board.readings == ("seats: 2, read from VotesAllowed (each voter may vote for 2); the file gives no "
                              "NumberElected",)
    assert problems_of(dumps(document), seats={"Board of Directors": 3}) == [
        ("seats['Board of Directors']", f"says 3 seats, but the file says 2 ({BOARD}.VotesAllowed)")]
    assert problems_of(fixture(), seats={"Board of Directors": 3, "Ballot Issue 6A": 2}) == [
        ("seats['Board of Directors']", f"says 3 seats, but the file says 2 ({BOARD}.NumberElected)"),
        ("seats['Ballot Issue 6A']", "'Ballot Issue 6A' is a question; it has no seats to fill"),
    ]
    document["Election"][0]["Contest"][0]["VotesAllowed"] = 0
    assert problems_of(dumps(document)) == [(f"{BOARD}.VotesAllowed", "must be at least 1 (got 0)")]


def test_not_json_and_not_a_report() -> None:
    assert problems_of('{"@type": "ElectionResults.ElectionReport",') == [
        ("file", "is not valid JSON: Expecting property name enclosed in double quotes (line 1, column 44)")]
    assert problems_of("[1, 2]") == [("$", 'must be a JSON object with "@type": "ElectionResults.ElectionReport"')]


def test_a_report_without_contests_is_a_problem() -> None:
    document = fixture()
    document["Election"][0]["Contest"] = []
    assert problems_of(document) == [("file", "contains no contests")]


def test_returns_compare_equal_whatever_the_source_text_layout() -> None:
    compact = parse_returns(json.dumps(fixture(), separators=(",", ":")))
    assert isinstance(compact, Returns)
    assert compact == parse_returns((FIXTURES / "nist_small.json").read_bytes())
