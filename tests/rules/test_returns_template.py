"""The project's CSV template: contest,choice,votes[,seats][,kind][,unit]."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.contest import WHOLE_CONTEST, ContestKind
from rules.returns import Problem, ReturnsError, parse_returns

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"


def problems_of(data: bytes | str, **kwargs) -> list[tuple[str, str]]:
    with pytest.raises(ReturnsError) as caught:
        parse_returns(data, format="template", **kwargs)
    return [(p.location, p.message) for p in caught.value.problems]


def test_the_example_file_reads_as_a_clerk_expects() -> None:
    returns = parse_returns((FIXTURES / "template_small.csv").read_bytes())

    assert returns.source_format == "template"
    assert [c.name for c in returns.contests] == ["Mayor", "Town Council", "Ballot Issue 2A"]
    mayor = returns.contest("Mayor")
    assert mayor.choices == ("Ann Alvarez", "Bo Brown")
    assert dict(mayor.totals) == {"Ann Alvarez": 1_514, "Bo Brown": 1_382}  # "1,204" + 310; 980 + 402
    assert mayor.units == ("Precinct 1", "Precinct 2")
    assert mayor.votes_by_unit["Precinct 1"] == {"Ann Alvarez": 1_204, "Bo Brown": 980}
    assert (mayor.seats, mayor.kind) == (1, ContestKind.CANDIDATE)
    council = returns.contest("Town Council")
    assert council.seats == 2  # stated on its first row only; blank seats cells do not disagree
    assert council.choices == ("Cy Chen", "Di Diaz", "Ed Evans")
    issue = returns.contest("Ballot Issue 2A")
    assert (issue.kind, dict(issue.totals)) == (ContestKind.QUESTION, {"Yes": 1_500, "No": 700})
    assert returns.notes == ()


def test_without_a_unit_column_every_row_is_the_whole_contest() -> None:
    returns = parse_returns("contest,choice,votes\nMayor,Ann,10\nMayor,Bo,7\n")

    mayor = returns.contest("Mayor")
    assert mayor.units == (WHOLE_CONTEST,)
    assert dict(mayor.totals) == {"Ann": 10, "Bo": 7}
    assert (mayor.seats, mayor.kind) == (1, ContestKind.CANDIDATE)


def test_header_names_ignore_case_spaces_and_order() -> None:
    returns = parse_returns(" VOTES ,Choice,  contest\n5,Ann,Mayor\n")
    assert dict(returns.contest("Mayor").totals) == {"Ann": 5}


def test_rows_in_different_units_add_up_and_choices_keep_first_seen_order() -> None:
    text = "contest,choice,votes,unit\nMayor,Bo,1,P1\nMayor,Ann,2,P1\nMayor,Cy,4,P2\nMayor,Ann,8,P2\nMayor,Bo,16,P3\n"
    mayor = parse_returns(text).contest("Mayor")
    assert mayor.choices == ("Bo", "Ann", "Cy")
    assert dict(mayor.totals) == {"Bo": 17, "Ann": 10, "Cy": 4}
    assert mayor.units == ("P1", "P2", "P3")


def test_votes_are_always_int() -> None:
    returns = parse_returns('contest,choice,votes\nMayor,Ann,"1,234,567"\nMayor,Bo,0012\nMayor,Cy,7.0\nMayor,Di, 8.00 \n')
    mayor = returns.contest("Mayor")
    assert dict(mayor.totals) == {"Ann": 1_234_567, "Bo": 12, "Cy": 7, "Di": 8}
    assert all(type(v) is int for counts in mayor.votes_by_unit.values() for v in counts.values())
    assert returns.notes == ("row 4: '7.0' read as 7", "row 5: '8.00' read as 8")


def test_every_bad_cell_is_listed_with_its_row_and_column() -> None:
    text = (
        "contest,choice,votes\n"
        "Mayor,Ann,-3\n"
        "Mayor,Bo,12.5\n"
        "Mayor,Cy,many\n"
        "Mayor,Di,\n"
        ",Ed,4\n"
        "Mayor,,4\n"
        'Mayor,Flo,"1,23"\n'
        "Mayor,Gus,99999999999999999999\n"
        "Mayor,Hal,1.000\n"  # one thousand in much of the world: refused rather than read as 1
        "Mayor,Ida,0*\n"  # footnote markers belong to OpenElections files, not to our own template
    )
    assert problems_of(text) == [
        ("row 2, column votes", "must not be negative (got '-3')"),
        ("row 3, column votes", "must be a whole number of votes (got '12.5')"),
        ("row 4, column votes", "is not a whole number of votes (got 'many')"),
        ("row 5, column votes", "is empty; expected a whole number of votes"),
        ("row 6, column contest", "is empty; every row needs a contest"),
        ("row 7, column choice", "has votes (4) but names no choice of 'Mayor'; name the choice or remove the row"),
        ("row 8, column votes", "is not a whole number of votes (got '1,23')"),
        ("row 9, column votes", "is too large to be a number of votes (got '99999999999999999999')"),
        ("row 10, column votes", "must be a whole number of votes (got '1.000')"),
        ("row 11, column votes", "is not a whole number of votes (got '0*')"),
    ]


def test_row_numbers_are_the_rows_a_spreadsheet_shows() -> None:
    # A blank line is a row in a spreadsheet; a quoted cell with a line break is one row, not two.
    text = 'contest,choice,votes\n\n"Mayor\nat large",Ann,5\nMayor,Bo,x\n'
    assert problems_of(text) == [("row 4, column votes", "is not a whole number of votes (got 'x')")]
    returns = parse_returns(text.replace(",x", ",1"))
    assert [c.name for c in returns.contests] == ["Mayor\nat large", "Mayor"]


def test_row_numbers_after_multi_line_cells_whatever_the_line_endings() -> None:
    lf = 'contest,choice,votes\n"Mayor\n\nat large",Ann,5\n\n"Council\nseat 2",Bo,x\nMayor,Cy,-1\n'
    for newline in ("\n", "\r\n", "\r"):
        assert problems_of(lf.replace("\n", newline)) == [
            ("row 4, column votes", "is not a whole number of votes (got 'x')"),
            ("row 5, column votes", "must not be negative (got '-1')"),
        ], repr(newline)


def test_only_cr_and_lf_break_a_line() -> None:
    # Characters str.splitlines() would also break at are ordinary characters of a cell, quoted or not.
    odd = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
    rows = "".join(f'"Mayor{c}x",Ann{c}y,1\n' for c in odd)
    for data in ("contest,choice,votes\n" + rows, ("contest,choice,votes\r\n" + rows).encode("utf-8")):
        returns = parse_returns(data)
        assert [c.name for c in returns.contests] == [f"Mayor{c}x" for c in odd]
        assert [c.choices for c in returns.contests] == [(f"Ann{c}y",) for c in odd]


def test_problem_locations_name_the_column_as_the_header_writes_it() -> None:
    assert problems_of("Contest,Choice,Votes\nMayor,Ann,x\n") == [
        ("row 2, column Votes", "is not a whole number of votes (got 'x')")]


def test_the_same_contest_choice_and_unit_twice_names_both_rows() -> None:
    text = "contest,choice,votes,unit\nMayor,Ann,1,P1\nMayor,Bo,2,P1\nMayor,Ann,3,P2\nMayor,Ann,4,P1\n"
    assert problems_of(text) == [("row 5", "repeats row 2: contest 'Mayor', choice 'Ann', unit 'P1'")]
    assert problems_of("contest,choice,votes\nMayor,Ann,1\nMayor,Ann,1\n") == [
        ("row 3", "repeats row 2: contest 'Mayor', choice 'Ann'")]


def test_seats_and_kind_must_agree_across_a_contests_rows() -> None:
    text = (
        "contest,choice,votes,seats,kind\n"
        "Council,Ann,1,2,candidate\n"
        "Council,Bo,1,3,\n"
        "Council,Cy,1,,question\n"
        "Council,Di,1,0,poll\n"
    )
    assert problems_of(text) == [
        ("row 3, column seats", "says 3 seats for 'Council', but row 2 says 2"),
        ("row 4, column kind", "says question for 'Council', but row 2 says candidate"),
        ("row 5, column seats", "must be a whole number of seats, at least 1 (got '0')"),
        ("row 5, column kind", "must be candidate or question (got 'poll')"),
    ]


def test_seats_and_kind_repeated_on_every_row_are_each_checked() -> None:
    # Rows repeating the cell that already agreed are not read again; any other cell is.
    text = (
        "contest,choice,votes,seats,kind\n"
        "Council,Ann,1,2,candidate\n"
        "Council,Bo,1,2,candidate\n"
        "Council,Cy,1, 2 ,Candidate\n"  # the same seats and kind, written differently: still agree
        "Council,Di,1,two,candidate\n"
        "Council,Ed,1,two,candidate\n"  # a refused cell is refused on every row
        "Council,Flo,1,3,candidate\n"
        "Council,Gus,1,2,question\n"
        ",Hal,1,x,poll\n"
        "Board,Ida,1,1,question\n"
        "Board,Jo,1,1,question\n"
    )
    assert problems_of(text) == [
        ("row 5, column seats", "must be a whole number of seats, at least 1 (got 'two')"),
        ("row 6, column seats", "must be a whole number of seats, at least 1 (got 'two')"),
        ("row 7, column seats", "says 3 seats for 'Council', but row 2 says 2"),
        ("row 8, column kind", "says question for 'Council', but row 2 says candidate"),
        ("row 9, column contest", "is empty; every row needs a contest"),
        ("row 9, column seats", "must be a whole number of seats, at least 1 (got 'x')"),
        ("row 9, column kind", "must be candidate or question (got 'poll')"),
    ]
    agreeing = "".join(line + "\n" for line in text.splitlines()[:4])
    returns = parse_returns(agreeing)
    assert (returns.contest("Council").seats, returns.contest("Council").kind) == (2, ContestKind.CANDIDATE)


def test_a_question_may_have_any_choices() -> None:
    returns = parse_returns("contest,choice,votes,kind\nName the park,Oak Park,5,Question\nName the park,Elm Park,3,\n")
    park = returns.contest("Name the park")
    assert (park.kind, park.choices) == (ContestKind.QUESTION, ("Oak Park", "Elm Park"))


def test_yes_no_choices_without_a_kind_read_as_a_question_with_a_note() -> None:
    returns = parse_returns("contest,choice,votes\nIssue 5A,Yes,10\nIssue 5A,No,4\nMayor,Ann,3\n")
    assert returns.contest("Issue 5A").kind is ContestKind.QUESTION
    assert returns.contest("Mayor").kind is ContestKind.CANDIDATE
    assert returns.notes == ("'Issue 5A' read as a question: its choices are Yes and No and no kind is given",)


def test_a_question_has_no_seats() -> None:
    assert problems_of("contest,choice,votes,kind,seats\nIssue 5A,Yes,10,question,2\nIssue 5A,No,4,,\n") == [
        ("row 2, column seats", "'Issue 5A' is a question; it has no seats to fill (got 2)")]


def test_unknown_and_missing_columns_are_problems() -> None:
    assert problems_of("contest,choice,vote,precinct\nMayor,Ann,1,P1\n") == [
        ("row 1, column vote", "is not a column of this format; expected contest, choice, votes and optionally seats, kind, unit"),
        ("row 1, column precinct", "is not a column of this format; expected contest, choice, votes and optionally seats, kind, unit"),
        ("row 1", "missing column 'votes'; expected contest, choice, votes and optionally seats, kind, unit"),
    ]
    assert problems_of("contest,choice,votes,Votes\nMayor,Ann,1,1\n") == [
        ("row 1, column Votes", "appears twice in the header (columns 3 and 4)")]


def test_cells_beyond_the_header_must_be_blank() -> None:
    assert problems_of("contest,choice,votes\nMayor,Ann,1,,\nMayor,Bo,2,oops\n") == [
        ("row 3", "has 4 cells but the header has 3 columns")]
    assert problems_of("contest,choice,votes,\nMayor,Ann,1,\nMayor,Bo,2,oops\n") == [
        ("row 3, column 4", "has a value but its column has no name in the header")]


def test_a_row_without_a_unit_among_rows_with_units_is_refused() -> None:
    # It is most likely a total row; adding it to the units would double the votes.
    text = "contest,choice,votes,unit\nMayor,Ann,1,P1\nMayor,Ann,2,P2\nMayor,Ann,3,\n"
    assert problems_of(text) == [(
        "row 4, column unit",
        "is empty, but other rows of 'Mayor' name units; a row without a unit would be added on top of them "
        "(give every row a unit, or remove a total row)")]


def test_empty_and_header_only_files() -> None:
    assert problems_of(b"") == [("file", "is empty")]
    assert problems_of("\n\n  \n") == [("file", "is empty")]
    assert problems_of("contest,choice,votes\r\n\r\n") == [("file", "has a header but no rows of returns")]


def test_line_endings_do_not_matter() -> None:
    lf = "contest,choice,votes,unit\nMayor,Ann,1,P1\nMayor,Ann,2,P2\n"
    expected = parse_returns(lf).contests
    assert parse_returns(lf.replace("\n", "\r\n")).contests == expected
    assert parse_returns(lf.replace("\n", "\r")).contests == expected


def test_a_quoted_cell_spanning_lines_reads_the_same_whatever_the_line_endings() -> None:
    lf = 'contest,choice,votes\n"Mayor\nat large",Ann,1\n'
    for newline in ("\r\n", "\r"):
        returns = parse_returns(lf.replace("\n", newline))
        assert [c.name for c in returns.contests] == ["Mayor\nat large"]


def test_bom_is_stripped_and_cp1252_is_read_with_a_note() -> None:
    assert parse_returns(b"\xef\xbb\xbfcontest,choice,votes\nMayor,Ann,1\n").contest("Mayor").choices == ("Ann",)
    returns = parse_returns(b"contest,choice,votes\nMayor,Jos\xe9,1\n")
    assert returns.contest("Mayor").choices == ("José",)
    assert returns.notes == ("the file is not valid UTF-8 (byte 31 is not); read as Windows-1252 (cp1252)",)


def test_seats_from_the_caller() -> None:
    text = "contest,choice,votes,seats\nCouncil,Ann,5,\nCouncil,Bo,4,\nBoard,Cy,3,2\n"
    returns = parse_returns(text, seats={"council": 2, "Board": 2})
    assert (returns.contest("Council").seats, returns.contest("Board").seats) == (2, 2)
    assert problems_of(text, seats={"Board": 3, "Library": 1, "Council": 0}) == [
        ("seats['Board']", "says 3 seats, but the file says 2 (row 4, column seats)"),
        ("seats['Library']", "names no contest in the file"),
        ("seats['Council']", "must be a whole number of seats, at least 1 (got 0)"),
    ]


def test_str_of_the_error_lists_every_problem_one_per_line() -> None:
    with pytest.raises(ReturnsError) as caught:
        parse_returns("contest,choice,votes\nMayor,Ann,-1\nMayor,Bo,x\n")
    assert str(caught.value) == (
        "row 2, column votes: must not be negative (got '-1')\n"
        "row 3, column votes: is not a whole number of votes (got 'x')")
    assert caught.value.problems[0] == Problem("row 2, column votes", "must not be negative (got '-1')")
