"""Subsection (6): "After a recount ... has been completed, the designated election official shall notify the
governing body of the local government conducting the election of the results of the recount, shall make a
certificate of election for each candidate who received the highest number of votes for an office for which
a recount was conducted, and shall deliver the certificate to such candidate."

With (2)(d)'s two facts (reversed in favor of the requester; amended count within the (1) margin) and
1-13.5-1304's lot for a tie.
"""
from __future__ import annotations

import pytest

from rules.completion import complete_recount
from rules.contest import Contest, ContestKind
from rules.margin import MultiSeatRule
from rules.serialize import to_jsonable
from rules.tally import CountMethod, TallySheet, accept_sheets, amended_contest

S6 = "C.R.S. 1-13.5-1306(6)"
LOT = "C.R.S. 1-13.5-1304"
DISTRICT = "the governing body of Pleasant Valley Metropolitan District"
Q = ContestKind.QUESTION


def board(seats: int = 3, **totals: int) -> Contest:
    return Contest.from_totals("Board of Directors", totals, seats=seats)


def question(**totals: int) -> Contest:
    return Contest.from_totals("Ballot Issue 5A", totals, kind=Q)


CASES = [
    # (case, original, amended, requested in favor of,
    #  outcome, winners before, winners after, certificates, changed, reversed, within margin, tied)
    ("a 3-seat board: the recount swaps the last winner and the first loser",
     board(Ames=1500, Bell=1400, Cole=1002, Diaz=1000), board(Ames=1500, Bell=1400, Cole=998, Diaz=1003), "Diaz",
     "changed", ("Ames", "Bell", "Cole"), ("Ames", "Bell", "Diaz"), ("Ames", "Bell", "Diaz"), True, True, True, ()),
    ("a 3-seat board: the recount confirms the winners, outside the margin",
     board(Ames=1500, Bell=1400, Cole=1050, Diaz=1000), board(Ames=1500, Bell=1401, Cole=1049, Diaz=1001), "Diaz",
     "confirmed", ("Ames", "Bell", "Cole"), ("Ames", "Bell", "Cole"), ("Ames", "Bell", "Cole"),
     False, False, False, ()),
    ("a 3-seat board: confirmed, but the amended count is within the margin",
     board(Ames=1500, Bell=1400, Cole=1004, Diaz=1000), board(Ames=1500, Bell=1400, Cole=1003, Diaz=1000), "Diaz",
     "confirmed", ("Ames", "Bell", "Cole"), ("Ames", "Bell", "Cole"), ("Ames", "Bell", "Cole"),
     False, False, True, ()),
    ("a single seat: an automatic recount (no requester) confirms the winner",
     board(1, Ames=1000, Bell=996), board(1, Ames=1000, Bell=997), None,
     "confirmed", ("Ames",), ("Ames",), ("Ames",), False, None, True, ()),
    ("a single seat: reversed, but not in favor of the requester",
     board(1, Ames=1000, Bell=996, Cole=10), board(1, Ames=995, Bell=998, Cole=10), "Cole",
     "changed", ("Ames",), ("Bell",), ("Bell",), True, False, True, ()),
    ("a question reversed in favor of the requester",
     question(Yes=1000, No=998), question(Yes=999, No=1001), "No",
     "changed", ("Yes",), ("No",), (), True, True, True, ()),
    ("a question confirmed",
     question(Yes=1000, No=990), question(Yes=1000, No=989), "No",
     "confirmed", ("Yes",), ("Yes",), (), False, False, False, ()),
    ("a tie left after the recount: the single seat goes to the lot",
     board(1, Ames=1000, Bell=999), board(1, Ames=1000, Bell=1000), "Bell",
     "tie_by_lot", ("Ames",), (), (), True, False, True, ("Ames", "Bell")),
    ("a tie left after the recount for the last of three seats",
     board(Ames=1500, Bell=1400, Cole=1001, Diaz=1000), board(Ames=1500, Bell=1400, Cole=1000, Diaz=1000), "Diaz",
     "tie_by_lot", ("Ames", "Bell", "Cole"), ("Ames", "Bell"), ("Ames", "Bell"), True, False, True,
     ("Cole", "Diaz")),
    ("a tie broken by the recount",
     board(1, Ames=1000, Bell=1000), board(1, Ames=1000, Bell=1001), "Bell",
     "changed", (), ("Bell",), ("Bell",), True, True, True, ()),
]


@pytest.mark.parametrize(
    "case, original, amended, requester, outcome, before, after, certificates, changed, reversed_, within, tied",
    CASES, ids=[c[0] for c in CASES])
def test_after_the_recount(case, original, amended, requester, outcome, before, after, certificates, changed,
                          reversed_, within, tied):
    done = complete_recount(original, amended, requested_in_favor_of=requester, governing_body=DISTRICT)
    assert done.citation == S6
    assert done.outcome == outcome
    assert (done.winners_before, done.winners_after) == (before, after)
    assert done.certificates == certificates
    assert done.outcome_changed is changed
    assert done.reversed_in_favor_of_requester is reversed_
    assert done.amended_within_margin is within
    assert done.amended_margin.automatic_recount is within
    assert done.tie_for_last_seat is bool(tied) and done.tied_for_last_seat == tied
    assert done.notice_of_results_to == DISTRICT and f"notify {DISTRICT} of the results" in done.reason
    assert dict(done.changes) == {c: amended.totals[c] - original.totals[c] for c in original.choices}
    assert dict(done.original_totals) == dict(original.totals) and dict(done.amended_totals) == dict(amended.totals)
    # (2)(d)'s facts, for the settlement.
    assert done.numbers["refund_test_citation"] == "C.R.S. 1-13.5-1306(2)(d)"
    assert done.numbers["reversed_in_favor_of_requester"] is reversed_
    assert done.numbers["amended_within_margin"] is within
    assert done.numbers["result_changed"] is changed
    assert "\n" not in done.reason
    to_jsonable(done.as_dict())  # exact values only: no floats anywhere


def test_the_3_seat_swap_reads_aloud():
    done = complete_recount(board(Ames=1500, Bell=1400, Cole=1002, Diaz=1000),
                            board(Ames=1500, Bell=1400, Cole=998, Diaz=1003),
                            requested_in_favor_of="Diaz", governing_body=DISTRICT)
    assert done.reason.startswith("Board of Directors: the recount changes the result (before: Ames, Bell and Cole)")
    assert "elected: Ames, Bell and Diaz" in done.reason
    assert "Cole 1,002 -> 998, Diaz 1,000 -> 1,003" in done.reason
    assert "certificates of election to Ames, Bell and Diaz" in done.reason
    assert "(2)(d): reversed in favor of Diaz and amended count within the (1) margin" in done.reason
    assert done.amended_margin.margin == 5 and done.numbers["amended_margin"] == 5
    assert "last winner vs first loser" in done.reading


def test_a_tie_left_after_the_recount_withholds_the_certificate_until_the_lot_is_drawn():
    done = complete_recount(board(Ames=1500, Bell=1400, Cole=1001, Diaz=1000),
                            board(Ames=1500, Bell=1400, Cole=1000, Diaz=1000), governing_body=DISTRICT)
    assert done.tie_citation == LOT and LOT in done.reason and LOT in done.reading
    assert "Cole and Diaz are tied for the last seat at 1,000 votes, to be decided by lot" in done.reason
    assert "the certificate for the tied seat is withheld until the lot is drawn" in done.reason
    assert done.seats_by_lot == 1 and done.certificates == ("Ames", "Bell")
    assert done.citation == S6

    single = complete_recount(board(1, Ames=10, Bell=9), board(1, Ames=10, Bell=10))
    assert single.certificates == ()
    assert "the certificate of election is withheld until the lot is drawn" in single.reason


def test_a_question_elects_no_one_so_no_certificate():
    done = complete_recount(question(Yes=1000, No=998), question(Yes=999, No=1001), requested_in_favor_of="No")
    assert done.certificates == () and "no certificate of election: a ballot question elects no one" in done.reason
    assert "No has the most votes, 1,001 to 999" in done.reason
    assert done.citation == S6 and done.kind is Q


def test_a_tied_question_is_not_decided_by_lot():
    done = complete_recount(question(Yes=1000, No=998), question(Yes=999, No=999), requested_in_favor_of="No")
    assert done.tie_for_last_seat is False and done.tie_citation is None
    assert done.winners_after == () and done.outcome_changed is True
    assert done.reversed_in_favor_of_requester is False and done.amended_within_margin is True
    assert "no choice has the most votes" in done.reason and "left to the clerk" in done.reading


def test_the_multi_seat_reading_is_passed_to_the_margin_check():
    original = board(Ames=1000, Bell=999, Cole=900, Diaz=800)
    last_vs_first = complete_recount(original, original)
    top_two = complete_recount(original, original, multi_seat_rule=MultiSeatRule.TOP_TWO)
    assert last_vs_first.amended_within_margin is False  # Cole 900 vs Diaz 800: 100 * 200 > 900
    assert top_two.amended_within_margin is True  # Ames 1,000 vs Bell 999: 1 * 200 <= 1,000
    assert "two highest totals" in top_two.reading


@pytest.mark.parametrize("case, amended, requester", [
    ("another contest", Contest.from_totals("Mayor", {"Ames": 1, "Bell": 2}), None),
    ("other choices", Contest.from_totals("Board of Directors", {"Ames": 1, "Zed": 2}, seats=3), None),
    ("other seats", board(2, Ames=1500, Bell=1400, Cole=1002, Diaz=1000), None),
    ("a requester's choice not in the contest", board(Ames=1500, Bell=1400, Cole=1002, Diaz=1000), "Zed"),
])
def test_the_amended_count_must_be_of_the_same_contest(case, amended, requester):
    with pytest.raises(ValueError):
        complete_recount(board(Ames=1500, Bell=1400, Cole=1002, Diaz=1000), amended, requested_in_favor_of=requester)


def test_from_tally_sheets_to_certificates():
    survey = Contest("Board of Directors", ("Ames", "Bell"), {"M-1": {"Ames": 500, "Bell": 498},
                                                                "M-2": {"Ames": 300, "Bell": 301}})
    sheets = [
        TallySheet("T1", "M-1", CountMethod.VOTING_MACHINE, {"Ames": 497, "Bell": 498}, "ann"),
        TallySheet("T1", "M-1", CountMethod.VOTING_MACHINE, {"Ames": 497, "Bell": 498}, "bo", entry=2),
        TallySheet("T2", "M-2", CountMethod.VOTING_MACHINE, {"Ames": 300, "Bell": 301}, "ann"),
        TallySheet("T2", "M-2", CountMethod.VOTING_MACHINE, {"Ames": 300, "Bell": 301}, "bo", entry=2),
    ]
    state = accept_sheets(sheets, contest=survey, expected_units=["M-1", "M-2"], double_entry=True)
    done = complete_recount(survey, amended_contest(survey, state), requested_in_favor_of="Bell")
    assert (done.winners_before, done.winners_after) == (("Ames",), ("Bell",))
    assert done.certificates == ("Bell",) and done.reversed_in_favor_of_requester is True
    assert done.notice_of_results_to == "the governing body"
