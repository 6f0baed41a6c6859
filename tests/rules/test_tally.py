"""Subsection (5): "In elections using paper or electronic ballots, the recounts are of the ballots cast and
the votes must be tallied on sheets other than those used at the election. In elections using voting
machines, the recount is of the votes tabulated on the voting machines, and separate tally sheets must be
used for each machine."
"""
from __future__ import annotations

import pytest

from rules.contest import Contest
from rules.corrections import VoteChange
from rules.serialize import to_jsonable
from rules.tally import (
    CountMethod,
    TallyIncomplete,
    TallySheet,
    accept_sheets,
    amended_contest,
    compare_with_original,
    validate_sheet,
)

S5 = "C.R.S. 1-13.5-1306(5)"
PAPER, MACHINE = CountMethod.PAPER, CountMethod.VOTING_MACHINE
BATCHES = ("Batch 1", "Batch 2")
MACHINES = ("M-101", "M-102")

SURVEY = Contest("Board of Directors", ("Smith", "Jones"), {
    "Batch 1": {"Smith": 120, "Jones": 100},
    "Batch 2": {"Smith": 80, "Jones": 90},
})


def sheet(sheet_id: str, unit: str, smith=120, jones=100, *, by="ann", entry=1, method=PAPER, **extra) -> TallySheet:
    return TallySheet(sheet_id, unit, method, {"Smith": smith, "Jones": jones, **extra}, by, entry)


# --- one sheet on its own ---------------------------------------------------------------------------------

SHEET_PROBLEMS = [
    # (case, sheet, field, words, cites (5))
    ("an unknown choice", sheet("T1", "Batch 1", Write_in=3), "counts.Write_in", "not a choice", False),
    ("a missing choice (a blank is not a zero)", TallySheet("T1", "Batch 1", PAPER, {"Smith": 5}, "ann"),
     "counts.Jones", "write 0 if Jones has no votes", False),
    ("a negative count", sheet("T1", "Batch 1", smith=-1), "counts.Smith", "whole number >= 0", False),
    ("a float count", sheet("T1", "Batch 1", smith=3.0), "counts.Smith", "whole number >= 0", False),
    ("a count typed as text", sheet("T1", "Batch 1", smith="3"), "counts.Smith", "whole number >= 0", False),
    ("a boolean count", sheet("T1", "Batch 1", smith=True), "counts.Smith", "whole number >= 0", False),
    ("a unit not expected", sheet("T1", "Batch 7"), "unit", "not one of the 2 units expected", False),
    ("a voting-machine sheet naming no machine", sheet("T1", "", method=MACHINE), "unit",
     "separate tally sheets are used for each machine", True),
    ("a sheet used at the election", sheet("E-1", "Batch 1"), "sheet_id",
     "tallied on sheets other than those used at the election", True),
    ("a third entry", sheet("T1", "Batch 1", entry=3), "entry", "entry must be 1", False),
    ("nobody entered it", sheet("T1", "Batch 1", by=" "), "entered_by", "who entered it", False),
    ("no sheet id", sheet("", "Batch 1"), "sheet_id", "no id", False),
    ("an unknown method", TallySheet("T1", "Batch 1", "abacus", {"Smith": 1, "Jones": 2}, "ann"), "method",
     "unknown count method", False),
]


@pytest.mark.parametrize("case, bad, field, words, cites", SHEET_PROBLEMS, ids=[p[0] for p in SHEET_PROBLEMS])
def test_validate_sheet_names_the_field_at_fault(case, bad, field, words, cites):
    problems = validate_sheet(bad, contest=SURVEY, expected_units=BATCHES, election_sheet_ids={"E-1"})
    assert [p.field for p in problems] == [field], problems
    assert words in problems[0].message
    assert (problems[0].citation == S5) if cites else problems[0].citation is None


@pytest.mark.parametrize("method", [PAPER, CountMethod.ELECTRONIC])
def test_a_good_ballot_sheet_has_no_problem(method):
    assert validate_sheet(sheet("T1", "Batch 1", method=method), contest=SURVEY, expected_units=BATCHES,
                          election_sheet_ids={"E-1"}) == []


@pytest.mark.parametrize("typed", ["E-1", "e-1", "  E-1 "])
def test_a_sheet_used_at_the_election_is_named_whatever_the_case_it_is_typed_in(typed):
    [problem] = validate_sheet(sheet(typed, "Batch 1"), contest=SURVEY, expected_units=BATCHES,
                               election_sheet_ids=["E-1", "E-2"])
    assert problem.field == "sheet_id" and problem.citation == S5
    assert problem.message.startswith(f"sheet {typed.strip()} is one of the tally sheets used at the election")


def test_without_the_election_sheet_ids_nothing_is_refused_for_them():
    assert validate_sheet(sheet("E-1", "Batch 1"), contest=SURVEY, expected_units=BATCHES) == []


def test_the_election_sheet_rule_is_for_paper_and_electronic_ballots_as_the_text_says():
    machine_sheet = sheet("E-1", "M-101", method=MACHINE)
    assert validate_sheet(machine_sheet, contest=SURVEY, expected_units=MACHINES, election_sheet_ids={"E-1"}) == []


# --- which sheet counts -------------------------------------------------------------------------------------

def test_voting_machines_two_sheets_for_one_machine_is_a_problem_naming_both():
    state = accept_sheets([
        sheet("T1", "M-101", method=MACHINE), sheet("T2", "M-101", 121, 100, method=MACHINE),
        sheet("T3", "M-102", 80, 90, method=MACHINE),
    ], contest=SURVEY, expected_units=MACHINES, double_entry=False)
    (problem,) = state.problems
    assert problem.citation == S5
    assert "T1" in problem.message and "T2" in problem.message and "machine M-101" in problem.message
    assert "separate tally sheets must be used for each machine" in problem.message
    assert state.missing_units == ("M-101",) and state.progress == (1, 2)
    assert list(state.counted) == ["M-102"]


def test_paper_ballots_two_sheets_for_one_batch_is_a_problem_but_a_second_entry_is_not():
    two_sheets = accept_sheets([sheet("T1", "Batch 1"), sheet("T9", "Batch 1")],
                               contest=SURVEY, expected_units=BATCHES, double_entry=False)
    assert ["T1" in p.message and "T9" in p.message and p.citation == S5 for p in two_sheets.problems] == [True]
    assert "Batch 1" in two_sheets.missing_units

    second_entry = accept_sheets([sheet("T1", "Batch 1"), sheet("T1", "Batch 1", by="bo", entry=2)],
                                 contest=SURVEY, expected_units=BATCHES, double_entry=False)
    assert second_entry.problems == () and second_entry.counted["Batch 1"].sheet_id == "T1"


DOUBLE_ENTRY = [
    # (case, double_entry, sheets for Batch 1, counts?, awaiting?, disagreement?, problem words)
    ("double entry: two people agree", True,
     [sheet("T1", "Batch 1"), sheet("T1", "Batch 1", by="bo", entry=2)], True, False, None, None),
    ("double entry: only the first entry so far", True,
     [sheet("T1", "Batch 1")], False, True, None, None),
    ("double entry: the entries disagree", True,
     [sheet("T1", "Batch 1", 120, 100), sheet("T1", "Batch 1", 121, 100, by="bo", entry=2)],
     False, False, {"Smith": (120, 121)}, None),
    ("double entry: the same person entered both", True,
     [sheet("T1", "Batch 1"), sheet("T1", "Batch 1", by="ANN", entry=2)], False, True, None,
     "must be made by someone else"),
    ("single entry: the first entry counts", False,
     [sheet("T1", "Batch 1")], True, False, None, None),
    ("single entry: a disagreeing second entry is shown but does not block", False,
     [sheet("T1", "Batch 1", 120, 100), sheet("T1", "Batch 1", 120, 99, by="bo", entry=2)],
     True, False, {"Jones": (100, 99)}, None),
    ("a second entry with no first entry", True,
     [sheet("T1", "Batch 1", by="bo", entry=2)], False, False, None, "has no valid first entry"),
    ("a second entry of a different sheet", False,
     [sheet("T1", "Batch 1"), sheet("T2", "Batch 1", by="bo", entry=2)], True, False, None,
     "second entry of sheet T2 has no valid first entry"),
    ("the same entry submitted twice (a double click) is one entry", True,
     [sheet("T1", "Batch 1"), sheet("T1", "Batch 1"), sheet("T1", "Batch 1", by="bo", entry=2)],
     True, False, None, None),
    ("the first entry keyed twice with different figures", False,
     [sheet("T1", "Batch 1", 120), sheet("T1", "Batch 1", 119)], False, False, None, "withdraw all but one"),
    ("one sheet id entered for two units", False,
     [sheet("T1", "Batch 1"), sheet("T1", "Batch 2", by="bo", entry=2)], False, False, None,
     "a sheet tallies one unit"),
]


@pytest.mark.parametrize("case, double_entry, sheets, counts, awaiting, disagreement, problem", DOUBLE_ENTRY,
                         ids=[c[0] for c in DOUBLE_ENTRY])
def test_entries_decide_whether_a_unit_counts(case, double_entry, sheets, counts, awaiting, disagreement, problem):
    state = accept_sheets(sheets, contest=SURVEY, expected_units=BATCHES, double_entry=double_entry)
    assert ("Batch 1" in state.counted) is counts
    assert ("Batch 1" in state.awaiting_second_entry) is awaiting
    if disagreement is None:
        assert state.disagreements == ()
    else:
        (d,) = state.disagreements
        assert d.unit == "Batch 1" and dict(d.differences) == disagreement
        assert (d.first.entry, d.second.entry) == (1, 2)
    if problem is None:
        assert state.problems == ()
    else:
        assert [problem in p.message for p in state.problems] == [True], state.problems
    assert "Batch 2" in state.missing_units


def test_a_double_entry_disagreement_lists_only_the_choices_that_differ():
    contest = Contest("Board", ("A", "B", "C"), {"P1": {"A": 1, "B": 1, "C": 1}})
    first = TallySheet("T1", "P1", PAPER, {"A": 10, "B": 20, "C": 30}, "ann")
    second = TallySheet("T1", "P1", PAPER, {"A": 10, "B": 21, "C": 29}, "bo", entry=2)
    state = accept_sheets([first, second], contest=contest, expected_units=["P1"], double_entry=True)
    (d,) = state.disagreements
    assert dict(d.differences) == {"B": (20, 21), "C": (30, 29)}
    assert str(d) == "P1: sheet T1 entries disagree (ann / bo): B 20 vs 21, C 30 vs 29"
    assert state.missing_units == ("P1",) and state.progress == (0, 1)
    decision = state.decision()
    assert decision.citation == S5 and decision.outcome == "in_progress"
    assert "0 of 1 units tallied" in decision.reason and "1 blocking" in decision.reason


def test_a_sheet_with_a_problem_does_not_count():
    state = accept_sheets([sheet("T1", "Batch 1", smith=-3), sheet("T2", "Batch 2", 80, 90)],
                          contest=SURVEY, expected_units=BATCHES, double_entry=False)
    assert state.missing_units == ("Batch 1",) and [p.field for p in state.problems] == ["counts.Smith"]


# --- the amended contest ---------------------------------------------------------------------------------

def test_an_incomplete_tally_cannot_amend_the_contest():
    state = accept_sheets([sheet("T1", "Batch 1")], contest=SURVEY, expected_units=BATCHES, double_entry=True)
    with pytest.raises(TallyIncomplete) as incomplete:
        amended_contest(SURVEY, state)
    assert isinstance(incomplete.value, ValueError)
    assert incomplete.value.missing == ("Batch 1", "Batch 2")
    assert "Batch 1, Batch 2" in str(incomplete.value)


def test_a_complete_tally_gives_the_amended_contest_and_what_changed():
    state = accept_sheets([
        sheet("T1", "Batch 1", 118, 100), sheet("T1", "Batch 1", 118, 100, by="bo", entry=2),
        sheet("T2", "Batch 2", 80, 91), sheet("T2", "Batch 2", 80, 91, by="cy", entry=2),
    ], contest=SURVEY, expected_units=BATCHES, double_entry=True)
    assert state.complete and state.progress == (2, 2) and state.decision().outcome == "complete"
    amended = amended_contest(SURVEY, state)
    assert amended.votes_by_unit == {"Batch 1": {"Smith": 118, "Jones": 100}, "Batch 2": {"Smith": 80, "Jones": 91}}
    assert (amended.name, amended.choices, amended.seats) == (SURVEY.name, SURVEY.choices, SURVEY.seats)

    comparison = compare_with_original(SURVEY, amended)
    assert comparison.outcome == "changed" and comparison.citation == S5
    assert comparison.changes == (VoteChange(SURVEY.name, "Batch 1", "Smith", 120, 118),
                                  VoteChange(SURVEY.name, "Batch 2", "Jones", 90, 91))
    assert dict(comparison.total_changes) == {"Smith": -2, "Jones": 1}
    assert "Smith 200 -> 198 (-2); Jones 190 -> 191 (+1)" in comparison.reason
    assert to_jsonable(comparison.as_dict())["total_changes"] == {"Smith": -2, "Jones": 1}


@pytest.mark.parametrize("case, amended_votes, outcome, same_units", [
    ("the recount matches", {"Batch 1": {"Smith": 120, "Jones": 100}, "Batch 2": {"Smith": 80, "Jones": 90}},
     "unchanged", True),
    ("units moved, totals the same", {"Batch 1": {"Smith": 121, "Jones": 100}, "Batch 2": {"Smith": 79, "Jones": 90}},
     "units_changed", True),
    ("tallied by machine, surveyed by batch", {"M-101": {"Smith": 200, "Jones": 190}}, "units_changed", False),
])
def test_compare_with_original(case, amended_votes, outcome, same_units):
    comparison = compare_with_original(SURVEY, Contest(SURVEY.name, SURVEY.choices, amended_votes))
    assert comparison.outcome == outcome and comparison.same_units is same_units
    assert all(c.before != c.after for c in comparison.changes)
