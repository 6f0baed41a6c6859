"""Subsection (4): "may require the production of any documentary evidence regarding the legality of any
vote cast or counted and may correct the survey of returns in accordance with the designated election
official's findings based on the evidence presented."

A correction is a new version with its reason and evidence, never an overwrite.
"""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.contest import Contest, ContestKind
from rules.corrections import (
    CorrectionRefused,
    SurveyHistory,
    SurveyVersion,
    VoteChange,
    correct_survey,
    diff_contests,
    initial_version,
)
from rules.serialize import to_jsonable

S4 = "C.R.S. 1-13.5-1306(4)"
BOARD = "Board of Directors"
EVIDENCE = ("poll book, Precinct 4, page 12", "affidavit of the judges of Precinct 4")


def board(p4_smith: int = 120, p4_jones: int = 100, p5_smith: int = 80, p5_jones: int = 90,
          **units: dict[str, int]) -> Contest:
    return Contest(BOARD, ("Smith", "Jones"), {
        "Precinct 4": {"Smith": p4_smith, "Jones": p4_jones},
        "Precinct 5": {"Smith": p5_smith, "Jones": p5_jones}, **units})


QUESTION = Contest.from_totals("Ballot Issue 5A", {"Yes": 500, "No": 480}, kind=ContestKind.QUESTION)


def test_version_1_is_the_survey_as_imported():
    v1 = initial_version([board(), QUESTION])
    assert (v1.number, v1.supersedes, v1.reason, v1.evidence) == (1, None, "survey of returns as imported", ())
    assert v1.contest(BOARD) == board()


def test_a_correction_is_a_new_version_that_names_what_it_supersedes():
    v1 = initial_version([board(), QUESTION])
    v2, decision = correct_survey(v1, board(p5_jones=91), reason="ballot found in the transfer case",
                                  evidence=["chain-of-custody log 7"])
    v3, decision3 = correct_survey(v2, board(p4_smith=118, p5_jones=91),
                                   reason="two ballots not legally cast (voter not registered)", evidence=EVIDENCE)

    assert (v2.number, v2.supersedes, v3.number, v3.supersedes) == (2, 1, 3, 2)
    assert decision.outcome == decision3.outcome == "corrected"
    assert decision.citation == decision3.citation == S4
    assert "version 2 supersedes version 1: Precinct 5 Jones 90 -> 91 (+1)" in decision.reason
    assert "version 3 supersedes version 2: Precinct 4 Smith 120 -> 118 (-2)" in decision3.reason
    assert "two ballots not legally cast" in decision3.reason
    assert decision3.numbers["changes"] == [VoteChange(BOARD, "Precinct 4", "Smith", 120, 118)]
    assert decision3.numbers["net_change"] == {"Smith": -2, "Jones": 0}
    assert v3.evidence == EVIDENCE and v3.reason.startswith("two ballots")
    # The other contests are carried forward unchanged.
    assert v3.contest("Ballot Issue 5A") is QUESTION
    # The previous versions are untouched.
    assert v1.contest(BOARD) == board() and v2.contest(BOARD) == board(p5_jones=91)


def test_corrections_keep_every_version():
    history = SurveyHistory.start([board(), QUESTION])
    history, _ = history.correct(board(p5_jones=91), reason="ballot found", evidence=["log 7"])
    history, _ = history.correct(board(p4_smith=118, p5_jones=91), reason="two illegal votes", evidence=EVIDENCE)
    history, _ = history.correct(dataclasses.replace(QUESTION, votes_by_unit={"": {"Yes": 499, "No": 480}}),
                                 reason="one ballot counted twice", evidence=["batch 3 report"])

    assert [v.number for v in history.versions] == [1, 2, 3, 4]
    assert [v.supersedes for v in history.versions] == [None, 1, 2, 3]
    assert [v.reason for v in history.versions] == [
        "survey of returns as imported", "ballot found", "two illegal votes", "one ballot counted twice"]
    assert [(n, c.totals["Smith"], c.totals["Jones"]) for n, c in history.contest_history(BOARD)] == [
        (1, 200, 190), (2, 200, 191), (3, 198, 191), (4, 198, 191)]
    assert history.current.contest("Ballot Issue 5A").totals["Yes"] == 499
    assert history.version(1).contest("Ballot Issue 5A").totals["Yes"] == 500


def test_a_version_cannot_be_changed_in_place():
    v1 = initial_version([board()])
    with pytest.raises(dataclasses.FrozenInstanceError):
        v1.reason = "edited"  # type: ignore[misc]
    with pytest.raises(ValueError):
        SurveyVersion(number=2, contests=(board(),), reason="no predecessor")


REFUSALS = [
    # (case, corrected contest, reason, evidence, words in the refusal)
    ("no reason given", board(p4_smith=118), "  ", EVIDENCE, "must state its reason"),
    ("no evidence presented", board(p4_smith=118), "illegal votes", [], "evidence presented"),
    ("blank evidence", board(p4_smith=118), "illegal votes", ["  "], "evidence presented"),
    ("a contest not in the survey", Contest.from_totals("Mayor", {"Ann": 5, "Bo": 4}), "typo", EVIDENCE,
     "there is no contest named 'Mayor' in version 1"),
    ("a correction that changes nothing", board(), "recheck", EVIDENCE, "it changes no vote"),
    ("a choice added", Contest(BOARD, ("Smith", "Jones", "Write-in"), board().votes_by_unit), "write-ins", EVIDENCE,
     "adds Write-in; a correction changes votes only"),
    ("a choice removed", Contest(BOARD, ("Smith",), {"Precinct 4": {"Smith": 120}, "Precinct 5": {"Smith": 80}}),
     "withdrawn", EVIDENCE, "removes Jones"),
    ("choices reordered (order breaks ties in the ranking)", Contest(BOARD, ("Jones", "Smith"), board().votes_by_unit),
     "tidy", EVIDENCE, "reorders the choices"),
    ("seats changed", dataclasses.replace(board(p4_smith=118), seats=2), "two seats", EVIDENCE,
     "changes the seats or the kind"),
]


@pytest.mark.parametrize("case, corrected, reason, evidence, words", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_corrections_subsection_4_does_not_allow_are_refused_with_a_cited_decision(
        case, corrected, reason, evidence, words):
    v1 = initial_version([board()])
    with pytest.raises(CorrectionRefused) as refused:
        correct_survey(v1, corrected, reason=reason, evidence=evidence)
    assert isinstance(refused.value, ValueError)
    decision = refused.value.decision
    assert decision.outcome == "refused" and decision.citation == S4
    assert words in decision.reason and str(refused.value) == decision.reason
    assert v1.contest(BOARD) == board()


@pytest.mark.parametrize("case, old, new, expected", [
    ("unchanged", board(), board(), []),
    ("one vote moved", board(p4_smith=119), board(p4_smith=120),
     [VoteChange(BOARD, "Precinct 4", "Smith", 119, 120)]),
    ("a unit only in the new count counts as 0 in the old", board(),
     board(**{"Batch 9": {"Smith": 3, "Jones": 0}}),
     [VoteChange(BOARD, "Batch 9", "Smith", 0, 3)]),
    ("a unit only in the old count counts as 0 in the new", board(**{"Batch 9": {"Smith": 3, "Jones": 1}}), board(),
     [VoteChange(BOARD, "Batch 9", "Smith", 3, 0), VoteChange(BOARD, "Batch 9", "Jones", 1, 0)]),
    ("a choice missing in a unit counts as 0",
     Contest(BOARD, ("Smith", "Jones"), {"P1": {"Smith": 4}}),
     Contest(BOARD, ("Smith", "Jones"), {"P1": {"Smith": 4, "Jones": 2}}),
     [VoteChange(BOARD, "P1", "Jones", 0, 2)]),
])
def test_diff_contests_compares_every_unit_and_choice(case, old, new, expected):
    assert diff_contests(old, new) == expected


def test_a_vote_change_reads_aloud_with_its_sign():
    change = VoteChange(BOARD, "Precinct 4", "Smith", 120, 118)
    assert change.delta == -2 and str(change) == "Precinct 4 Smith 120 -> 118 (-2)"
    assert str(VoteChange("Q", "", "Yes", 1_000, 1_002)) == "whole contest Yes 1,000 -> 1,002 (+2)"


def test_a_batch_found_uncounted_is_a_correction_of_votes():
    v1 = initial_version([board()])
    v2, decision = correct_survey(v1, board(**{"Batch 9": {"Smith": 3, "Jones": 2}}),
                                  reason="batch 9 found uncounted", evidence=["ballot box seal log"])
    assert v2.contest(BOARD).totals == {"Smith": 203, "Jones": 192}
    assert "Batch 9 Smith 0 -> 3 (+3); Batch 9 Jones 0 -> 2 (+2)" in decision.reason


def test_the_decision_serialises_without_floats():
    v1 = initial_version([board()])
    _, decision = correct_survey(v1, board(p4_smith=118), reason="illegal votes", evidence=EVIDENCE)
    data = to_jsonable(decision.as_dict())
    assert data["citation"] == S4
    assert data["numbers"]["changes"][0] == {"contest": BOARD, "unit": "Precinct 4", "choice": "Smith",
                                             "before": 120, "after": 118}


# --- a property: the changes diff_contests lists are exactly what turns the old count into the new ---------

_units = st.dictionaries(st.sampled_from(["P1", "P2", "P3"]),
                         st.fixed_dictionaries({"Smith": st.integers(0, 500), "Jones": st.integers(0, 500)}),
                         max_size=3)


@given(_units, _units)
def test_applying_the_listed_changes_to_the_old_count_gives_the_new_one(old_votes, new_votes):
    old, new = Contest(BOARD, ("Smith", "Jones"), old_votes), Contest(BOARD, ("Smith", "Jones"), new_votes)
    changes = diff_contests(old, new)
    rebuilt = {(u, c): v for u, counts in old_votes.items() for c, v in counts.items()}
    for change in changes:
        assert rebuilt.get((change.unit, change.choice), 0) == change.before and change.delta != 0
        rebuilt[(change.unit, change.choice)] = change.after
    expected = {(u, c): v for u, counts in new_votes.items() for c, v in counts.items()}
    assert {k: v for k, v in rebuilt.items() if v} == {k: v for k, v in expected.items() if v}
    assert {c: old.totals[c] + sum(ch.delta for ch in changes if ch.choice == c) for c in old.choices} == new.totals
