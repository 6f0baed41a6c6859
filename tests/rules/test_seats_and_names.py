"""Seats never silently one; one contest per name; write-ins that may have won; nameless rows (rules.seats,
rules.verdicts, rules.returns.spellings)."""
from __future__ import annotations

import pytest

from rules.contest import Contest
from rules.returns import ReturnsError, parse_returns, read_returns
from rules.seats import NameSays, name_says, plausible_seats
from rules.verdicts import decide_contest, decide_returns


def verdicts(text: str, **options):
    v = decide_returns(read_returns(text, **options))
    return {d.contest: d for d in v.decisions}, {u.contest: u for u in v.undecided}


@pytest.mark.parametrize("name, says", [
    ("Presidential Electors", NameSays.ONE), ("Mayor At-Large", NameSays.ONE), ("County Sheriff", NameSays.ONE),
    ("Arapahoe County Commissioner - District 3", NameSays.ONE), ("Director District A", NameSays.ONE),
    ("Regent of the University of Colorado - Congressional District 6", NameSays.ONE),
    ("City Council", NameSays.SEVERAL), ("Councilmember", NameSays.SEVERAL), ("Board of Directors", NameSays.SEVERAL),
    ("Town of Lochbuie Trustee", NameSays.SEVERAL), ("County Commissioners at Large", NameSays.SEVERAL),
    ("Home Rule Charter Commission", NameSays.SEVERAL), ("Ballot Race 1", NameSays.NOTHING),
])
def test_what_an_office_name_says_about_its_seats(name: str, says: NameSays) -> None:
    assert name_says(name) is says


def test_a_council_whose_seats_matter_is_held_until_they_are_given() -> None:
    # The case: a 4-seat council with Seats left empty; 4th and 5th 47 apart, at most 72 triggers.
    text = ("contest,choice,votes\n" + "".join(f"City Council,{name},{votes}\n" for name, votes in (
        ("A", 16000), ("B", 15500), ("C", 15000), ("D", 14412), ("E", 14365), ("F", 900))))
    decided, held = verdicts(text)
    assert not decided and held["City Council"].seats_not_stated
    assert held["City Council"].reason == (
        "seats not stated: the file does not say how many seats 'City Council' fills, and the verdict depends on it: "
        "as one seat, no automatic recount; as 4 seats, automatic recount (D vs E) (the office's name speaks of a "
        "body of several members, and 5 candidates hold a real share of the votes). Say the seats: --seats "
        "\"City Council=N\"")
    assert verdicts(text, seats={"City Council": 4})[0]["City Council"].automatic_recount
    assert not verdicts(text, seats={"City Council": 1})[0]["City Council"].automatic_recount
    with pytest.raises(ReturnsError) as caught:  # never recorded on a guess either
        parse_returns(text)
    assert caught.value.problems[0].message.startswith("seats not stated")


def test_a_single_office_with_many_choices_is_not_held_by_two_write_ins_tied_at_three() -> None:
    # 22 tickets for one office, two qualified write-ins tied at 3 at the bottom: as 20 seats that tie would be a
    # recount, but no plausible number of seats puts the cut there.
    names = [f"Ticket {i}" for i in range(20)] + ["Write-in One", "Write-in Two"]
    votes = [6035, 3351, 496, 165, 70, 56, 22, 18, 15, 12, 11, 10, 9, 8, 7, 6, 6, 5, 5, 4, 3, 3]
    contest = Contest.from_totals("Ballot Race 1", dict(zip(names, votes, strict=True)))
    contest = Contest(**{**contest.__dict__, "seats_stated": False})
    assert plausible_seats(contest, names) == []  # two real contenders; the third holds 496 of 10,246 (under 1/12)
    decision = decide_contest(contest)
    assert decision.automatic_recount is False and decision.seats == 1
    assert decision.readings[-1] == ('one seat: the file does not say how many, and neither the office\'s name nor '
                                     'its votes make several seats plausible (--seats "Ballot Race 1=N" to say)')
    # A close race between two and a minor third is one seat; three close ones may be two.
    close = Contest(**{**Contest.from_totals("Director", {"A": 800, "B": 799, "C": 15}).__dict__, "seats_stated": False})
    assert plausible_seats(close, ["A", "B", "C"]) == [] and decide_contest(close).automatic_recount
    three = Contest(**{**Contest.from_totals("Director", {"A": 350, "B": 340, "C": 339}).__dict__, "seats_stated": False})
    assert plausible_seats(three, ["A", "B", "C"]) == [2] and decide_contest(three).seats_not_stated


def test_a_write_in_line_above_the_only_named_candidate_leaves_the_contest_undecided() -> None:
    # Synthetic (no real file has it): 47 write-in votes against the only named candidate's 28.
    decided, held = verdicts("contest,choice,votes\nWater Board,Dana Ruiz,28\nWater Board,Write-ins,47\n",
                             seats={"Water Board": 1})
    assert not decided
    assert held["Water Board"].reason == (
        "write-ins may have won: the write-in line 'Write-ins' holds 47 votes, more than Dana Ruiz (28), the highest "
        "named winner; if one write-in candidate received them, that candidate won. Tally the write-ins by name")
    # Below the winner but within 1/2 of 1% of it, it is a note on the verdict, as before.
    decided, _ = verdicts("contest,choice,votes\nWater Board,Dana Ruiz,4800\nWater Board,Write-ins,4790\n",
                          seats={"Water Board": 1})
    assert decided["Water Board"].outcome == "uncontested"
    assert "tally the write-ins by name" in decided["Water Board"].write_in_note


def test_titles_that_differ_only_by_spacing_punctuation_or_case_are_one_contest() -> None:
    # OpenElections' Dolores County 2008: "U. S. House" in precincts 1-2, "U.S. House" in the others.
    text = ("county,precinct,office,district,candidate,party,votes\n"
            "Dolores,1,U. S. House,3,John T. Salazar,DEM,140\nDolores,1,U. S. House,3,Wayne Wolf,REP,70\n"
            "Dolores,3,U.S. House,3,John T. Salazar,DEM,200\nDolores,3,U.S. House,3,Wayne Wolf,REP,199\n"
            "Dolores,4,U.S. House,3,John T Salazar,DEM,10\nDolores,4,U.S. House,3,Wayne Wolf,REP,12\n"
            "Dolores,5,U.S. HOUSE,3,John T. Salazar,DEM,1\nDolores,5,U.S. HOUSE,3,Wayne Wolf,REP,2\n")
    returns = read_returns(text, election_kind="general")
    [house] = returns.contests
    assert house.name == "U.S. House - District 3"  # the spelling of the most precincts
    assert set(house.units) == {"Dolores / 1", "Dolores / 3", "Dolores / 4", "Dolores / 5"}
    assert dict(house.totals) == {"John T. Salazar": 351, "Wayne Wolf": 283}
    assert ("one contest under 3 spellings, 'U. S. House - District 3' (1 unit), 'U.S. House - District 3' (2 units), "
            "'U.S. HOUSE - District 3' (1 unit): read as one, 'U.S. House - District 3' (the names differ only in "
            "spacing, punctuation or case)") in returns.notes
    assert "'U.S. House - District 3': the choice 'John T. Salazar' is also written 'John T Salazar'; read as one " \
           "(the names differ only in spacing, punctuation or case)" in returns.notes
    # The file is one county's: U.S. House District 3 may extend beyond it, and its verdict says so.
    assert house.part_of_district.startswith("this file is one county's returns (Dolores), and this contest's "
                                             "district may extend beyond the county")


def test_one_unit_counted_under_two_spellings_is_a_problem_not_a_sum() -> None:
    text = ("contest,choice,votes,unit\nU. S. House,Ann,5,101\nU.S. House,Ann,5,101\nU.S. House,Bo,3,101\n")
    [undecided] = read_returns(text).undecided
    assert undecided.contest == "U. S. House"
    assert "unit '101' has a count for 'Ann' under 'U. S. House' and again under 'U.S. House'" in undecided.reason


def test_retention_yes_votes_under_one_office_are_one_question_per_judge_and_undecided() -> None:
    # Boulder 2008: each judge's Yes votes under the one office "County judge", no No votes anywhere.
    text = ("county,precinct,office,district,party,candidate,votes\n"
            "Boulder,101,County judge,,,John F. Stavely,84603\nBoulder,101,County judge,,,Thomas J.b. Reed,84144\n")
    returns = read_returns(text, election_kind="general")
    assert [c.name for c in returns.contests] == ["County judge: John F. Stavely", "County judge: Thomas J.b. Reed"]
    decided, held = verdicts(text, election_kind="general")
    assert not decided  # never Stavely against Reed
    assert held["County judge: John F. Stavely"].reason == (
        "a question with only 'Yes' votes in the file (a retention published with its Yes votes only): both answers' "
        "votes are needed to compare them")
