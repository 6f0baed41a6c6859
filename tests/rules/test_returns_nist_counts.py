"""NIST JSON: vote count types, device classes, rounds, suppressed counts, levels linked by Type only.

Built on tests/fixtures/returns/nist_small.json (Board of Directors: two seats, Precinct 1 and 2;
Ballot Issue 6A: Yes 745, No 700 in the two precincts and in the district they compose).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.contest import Bound, ContestKind
from rules.returns import read_returns
from rules.verdicts import decide_returns

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
BOARD = "$.Election[0].Contest[0]"
ISSUE = "$.Election[0].Contest[1]"


def fixture() -> dict[str, Any]:
    return json.loads((FIXTURES / "nist_small.json").read_text(encoding="utf-8"))


def vc(unit: str, count: Any, kind: str = "total", **extra: Any) -> dict[str, Any]:
    return {"@type": "ElectionResults.VoteCounts", "GpUnitId": unit, "Type": kind, "Count": count, **extra}


def read(document: dict[str, Any]):
    return read_returns(json.dumps(document))


def ames(document: dict[str, Any]) -> dict[str, Any]:
    return document["Election"][0]["Contest"][0]["ContestSelection"][0]


def undecided_rows(returns) -> dict[str, tuple[str, ...]]:
    return {u.contest: u.rows for u in returns.undecided}


def test_a_total_is_used_and_its_parts_beside_it_set_aside() -> None:
    document = fixture()
    ames(document)["VoteCounts"] = [vc("ru-p1", 400, "election-day"), vc("ru-p1", 412), vc("ru-p1", 12, "absentee"),
                                    vc("ru-p2", 208)]
    returns = read(document)
    assert returns.contest("Board of Directors").totals["Dana Ames"] == 412 + 208
    subtotal = next(s for s in returns.set_aside if s.kind == "subtotal")
    assert subtotal.count == 2 + 2  # the two parts beside the total, and the district's two counts of 6A
    assert subtotal.rows[:2] == (f"{BOARD}.ContestSelection[0].VoteCounts[0] (a part of the 'total' beside it)",
                                 f"{BOARD}.ContestSelection[0].VoteCounts[2] (a part of the 'total' beside it)")


def test_absentee_beside_its_kinds_is_used_when_it_is_their_sum() -> None:
    document = fixture()
    ames(document)["VoteCounts"] = [vc("ru-p1", 412), vc("ru-p2", 120, "election-day"), vc("ru-p2", 88, "absentee"),
                                    vc("ru-p2", 80, "absentee-mail"), vc("ru-p2", 8, "absentee-in-person")]
    assert read(document).contest("Board of Directors").votes_by_unit["Precinct 2"]["Dana Ames"] == 208
    ames(document)["VoteCounts"][4]["Count"] = 9
    returns = read(document)
    assert undecided_rows(returns) == {"Board of Directors": (
        f"{BOARD}.ContestSelection[0].VoteCounts[2]: 'absentee' (88) is not the sum of the absentee-mail, "
        "absentee-in-person counts beside it (89): they may overlap or add up; give a 'total'",)}


def test_two_counts_of_one_type_for_one_unit() -> None:
    document = fixture()
    ames(document)["VoteCounts"].append(vc("ru-p2", 5, "election-day"))
    assert undecided_rows(read(document)) == {"Board of Directors": (
        f"{BOARD}.ContestSelection[0].VoteCounts[3]: a second 'election-day' count for GpUnit 'ru-p2' "
        f"(first at {BOARD}.ContestSelection[0].VoteCounts[1])",)}


def test_device_classes_are_parts_unless_a_count_for_all_devices_is_given() -> None:
    document = fixture()
    scanner = {"@type": "ElectionResults.DeviceClass", "Type": "opscan-precinct"}
    dre = {"@type": "ElectionResults.DeviceClass", "Type": "dre"}
    ames(document)["VoteCounts"] = [vc("ru-p1", 400, DeviceClass=scanner), vc("ru-p1", 12, DeviceClass=dre),
                                    vc("ru-p2", 208)]
    assert read(document).contest("Board of Directors").votes_by_unit["Precinct 1"]["Dana Ames"] == 412
    ames(document)["VoteCounts"].append(vc("ru-p1", 412))
    returns = read(document)
    assert returns.contest("Board of Directors").votes_by_unit["Precinct 1"]["Dana Ames"] == 412
    subtotal = next(s for s in returns.set_aside if s.kind == "subtotal")
    assert subtotal.rows[0] == (f"{BOARD}.ContestSelection[0].VoteCounts[0] (a count of one device class; the count "
                                "for all devices is used)")


def test_counts_of_several_rounds_are_not_added() -> None:
    document = fixture()
    for selection in document["Election"][0]["Contest"][0]["ContestSelection"]:
        for count in selection["VoteCounts"]:
            count["Round"] = 1
    assert read(document).undecided == ()
    ames(document)["VoteCounts"].append(vc("ru-p1", 500, Round=2))
    assert undecided_rows(read(document)) == {"Board of Directors": (
        f"{BOARD}: has counts of ranked-choice rounds 1, 2; which round decides is not read here (give the final "
        "round's counts alone)",)}


def test_a_count_suppressed_for_privacy_is_a_range() -> None:
    document = fixture()
    document["Election"][0]["Contest"][0]["ContestSelection"][2]["VoteCounts"][1].update(IsSuppressedForPrivacy=True)
    returns = read(document)
    board = returns.contest("Board of Directors")
    where = f"{BOARD}.ContestSelection[2].VoteCounts[1].Count"
    assert board.uncertain == {("Precinct 2", "Sam Cole"): Bound(0, None, "suppressed for privacy (Count 60)", where)}
    # Cole could have any number there: the verdict between the second seat and Cole cannot be given.
    undecided = {u.contest for u in decide_returns(returns).undecided}
    assert undecided == {"Board of Directors"}


def test_seats_counts_are_not_votes() -> None:
    document = fixture()
    ames(document)["VoteCounts"].append(vc("ru-p1", 1, "seats"))
    returns = read(document)
    assert returns.contest("Board of Directors").totals["Dana Ames"] == 620
    assert [s.rows for s in returns.set_aside if s.kind == "not a row of results"] == [
        (f"{BOARD}.ContestSelection[0].VoteCounts[3] (seats won, not votes)",)]


def test_a_named_write_in_is_a_candidate_and_retention_is_a_question() -> None:
    document = fixture()
    election = document["Election"][0]
    election["Candidate"].append({"@type": "ElectionResults.Candidate", "@id": "c-dee",
                                  "BallotName": {"@type": "ElectionResults.InternationalizedText", "Text": [
                                      {"@type": "ElectionResults.LanguageString", "Content": "Pat Dee", "Language": "en"}]}})
    election["Contest"][0]["ContestSelection"].append({"@type": "ElectionResults.CandidateSelection", "@id": "s-dee",
                                                        "CandidateIds": ["c-dee"], "IsWriteIn": True,
                                                        "VoteCounts": [vc("ru-p1", 2)]})
    election["Contest"][1].update({"@type": "ElectionResults.RetentionContest", "CandidateId": "c-cole"})
    returns = read(document)
    board = returns.contest("Board of Directors")
    assert board.buckets == ("Write-in",) and "Pat Dee" in board.choices
    issue = returns.contest("Ballot Issue 6A")
    assert issue.kind is ContestKind.QUESTION


def _counties(document: dict[str, Any], north: int, south: int) -> dict[str, Any]:
    """Ballot Issue 6A counted in its precincts and in two county units nothing links to them."""
    document["GpUnit"] += [{"@type": "ElectionResults.ReportingUnit", "@id": f"ru-{n}", "Type": "county",
                            "Name": {"@type": "ElectionResults.InternationalizedText", "Text": [
                                {"@type": "ElectionResults.LanguageString", "Content": n.title(), "Language": "en"}]}}
                           for n in ("north", "south")]
    yes = document["Election"][0]["Contest"][1]["ContestSelection"][0]
    yes["VoteCounts"] = yes["VoteCounts"][:2] + [vc("ru-north", north), vc("ru-south", south)]
    no = document["Election"][0]["Contest"][1]["ContestSelection"][1]
    no["VoteCounts"] = no["VoteCounts"][:2] + [vc("ru-north", 400), vc("ru-south", 300)]
    return document


def test_units_of_one_type_above_the_precincts_are_checked_together() -> None:
    returns = read(_counties(fixture(), 500, 245))
    issue = returns.contest("Ballot Issue 6A")
    assert issue.units == ("Precinct 1", "Precinct 2") and dict(issue.totals) == {"Yes": 745, "No": 700}
    assert next(s for s in returns.set_aside if s.kind == "subtotal").count == 4  # 2 units x Yes, No
    returns = read(_counties(fixture(), 500, 246))
    assert undecided_rows(returns) == {"Ballot Issue 6A": (
        f"{ISSUE}.ContestSelection[0].VoteCounts[2].Count: the 2 counts of Type county (North, South) add up to 746 "
        "for 'Yes', but the 2 units counted at the lowest level add up to 745; the file does not say which units "
        "they are made of (ComposingGpUnitIds), so they may be other votes",)}
