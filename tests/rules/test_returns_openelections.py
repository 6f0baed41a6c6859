"""OpenElections CSV, including the quirks of the real Colorado 2016 and 2018 county files."""
from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from rules.contest import WHOLE_CONTEST, ContestKind
from rules.margin import check_automatic_recount
from rules.returns import ReturnsError, parse_returns

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "returns"
SHARED = Path("/work/shared/data/openelections-co")
REAL_2016 = SHARED / "20161108__co__general__county.csv"
REAL_2018 = SHARED / "20181106__co__general__county.csv"


def problems_of(data: bytes | str, **kwargs) -> list[tuple[str, str]]:
    with pytest.raises(ReturnsError) as caught:
        parse_returns(data, format="openelections", **kwargs)
    return [(p.location, p.message) for p in caught.value.problems]


def parse_problems(data: bytes | str) -> list[tuple[str, str]]:
    with pytest.raises(ReturnsError) as caught:
        parse_returns(data)
    return [(p.location, p.message) for p in caught.value.problems]


# --- the small excerpt of the real 2018 file (always available) ---------------------------------

def test_excerpt_contests_names_and_totals() -> None:
    returns = parse_returns((FIXTURES / "openelections_small.csv").read_bytes())

    assert returns.source_format == "openelections"
    assert [c.name for c in returns.contests] == [
        "State Senate - District 2",
        "Regional Transportation District - District K",
        "County Court, Adams: Brian Nathaniel Bowen",
        "County Court, Adams: Michael A. Cox",
        "Amendment 73 (CONSTITUTIONAL): Funding for Public Schools",
    ]
    senate = returns.contest("State Senate - District 2")
    assert dict(senate.totals) == {'Beth "Hart" Harz': 22_583, "Dennis Hisey": 42_531}
    assert senate.units == ("CLEAR CREEK", "EL PASO", "FREMONT", "PARK", "TELLER")  # no TOTAL unit
    assert senate.choice_details['Beth "Hart" Harz'] == {"party": "Democratic Party"}
    assert senate.kind is ContestKind.CANDIDATE and senate.seats == 1

    rtd = returns.contest("Regional Transportation District - District K")
    assert rtd.votes_by_unit["WELD"] == {"Troy L. Whitmore": 0, "Paul D. Solano": 0, "Gerald Stephen Jaramillo": 0}
    assert rtd.choice_details == {}  # party cells are blank in this contest

    judge = returns.contest("County Court, Adams: Brian Nathaniel Bowen")
    assert judge.kind is ContestKind.QUESTION
    assert judge.choices == ("Yes", "No")
    assert judge.votes_by_unit == {"ADAMS": {"Yes": 93_967, "No": 42_316}}

    amendment = returns.contest("Amendment 73 (CONSTITUTIONAL): Funding for Public Schools")
    assert dict(amendment.totals) == {"Yes": 1_137_527, "No": 1_312_331}
    assert len(amendment.units) == 64


def test_excerpt_notes_name_the_footnoted_rows_and_the_skipped_totals() -> None:
    returns = parse_returns((FIXTURES / "openelections_small.csv").read_bytes())
    assert returns.notes == (
        "row 15: '0*' read as 0 (footnote marker stripped)",
        "row 18: '0*' read as 0 (footnote marker stripped)",
        "row 21: '0*' read as 0 (footnote marker stripped)",
    )
    # The county TOTAL rows were cross-checked against the county rows beneath them and set aside.
    assert [(s.kind, s.count) for s in returns.set_aside] == [("subtotal", 8)]


def test_cr_only_line_endings_read_the_same() -> None:
    crlf = parse_returns((FIXTURES / "openelections_small.csv").read_bytes())
    cr_bytes = (FIXTURES / "openelections_small_cr.csv").read_bytes()
    assert b"\n" not in cr_bytes  # the fixture really is old-Mac style
    assert parse_returns(cr_bytes) == crlf
    lf = (FIXTURES / "openelections_small.csv").read_bytes().replace(b"\r\n", b"\n")
    assert parse_returns(lf) == crlf


def test_2016_style_blank_county_rows_are_totals() -> None:
    returns = parse_returns((FIXTURES / "openelections_2016_small.csv").read_bytes())
    house = returns.contest("U.S. House - District 1")
    assert dict(house.totals) == {"Diana DeGette": 257_254, 'Charles "Casper" Stockham': 105_030, "Darrell Dinges": 16_752}
    assert house.units == ("ARAPAHOE", "DENVER", "JEFFERSON")
    assert returns.notes == ()
    assert [(s.kind, s.count) for s in returns.set_aside] == [("subtotal", 3)]


RETENTION_NOTE_2016 = (
    "retention: no 'No' votes in the file for Supreme Court, Court of Appeals; each judge is read as its own "
    "question (e.g. 'Supreme Court: William Hood') with only its Yes votes: not checkable, so left undecided")


def test_2016_retention_without_no_votes_is_one_yes_only_question_per_judge() -> None:
    # Rows copied from the 2016 file: every county and the (blank-county) total of the Supreme Court
    # retention and of two Court of Appeals judges. The file publishes yes votes only.
    returns = parse_returns((FIXTURES / "openelections_2016_retention_small.csv").read_bytes())

    assert [c.name for c in returns.contests] == [
        "Supreme Court: William Hood", "Court of Appeals: Karen M. Ashby", "Court of Appeals: Gilbert M. Rom\ufffdn"]
    hood = returns.contest("Supreme Court: William Hood")
    assert (hood.kind, hood.choices, dict(hood.totals)) == (ContestKind.QUESTION, ("Yes",), {"Yes": 1_534_597})
    assert len(hood.units) == 64 and hood.votes_by_unit["ADAMS"] == {"Yes": 102_223}
    assert dict(returns.contest("Court of Appeals: Karen M. Ashby").totals) == {"Yes": 1_477_122}
    for contest in returns.contests:  # never two judges compared with each other
        decision = check_automatic_recount(contest)
        assert (decision.outcome, decision.automatic_recount, decision.next_highest) == ("uncontested", False, None)
    assert returns.notes == (
        RETENTION_NOTE_2016,
        "'Court of Appeals: Gilbert M. Rom\ufffdn' contains '\ufffd': a character was lost before this file "
        "was made; kept as written",
    )


def test_retention_offices_are_the_colorado_courts() -> None:
    text = (
        "county,office,district,party,candidate,votes\n"
        "ADAMS,\"District Court, 17th Judicial District\",,,Donald S. Quick,10\n"
        "ADAMS,\"District Court, 17th Judicial District\",,,Jaclyn Brown,12\n"
        "ADAMS,\"County Court, Adams\",,,Cindy Dang,9\n"
        "DENVER,Denver Probate Court,,,Elizabeth Leith,8\n"
        "ADAMS,District Attorney,17,Democratic Party,Dave Young,20\n"  # not a court: a candidate contest
        "ADAMS,County Commissioner,1,Democratic Party,Eva Henry,30\n"
        "ADAMS,County Commissioner,1,Republican Party,Jan Kulmann,28\n"
        "ADAMS,Court of Appeals Question,,,Yes,5\n"  # rows naming the answers: an ordinary yes/no contest
        "ADAMS,Court of Appeals Question,,,No,4\n"
    )
    returns = parse_returns(text)
    assert [(c.name, c.kind.value, c.choices) for c in returns.contests] == [
        ("District Court, 17th Judicial District: Donald S. Quick", "question", ("Yes",)),
        ("District Court, 17th Judicial District: Jaclyn Brown", "question", ("Yes",)),
        ("County Court, Adams: Cindy Dang", "question", ("Yes",)),
        ("Denver Probate Court: Elizabeth Leith", "question", ("Yes",)),
        ("District Attorney - District 17", "candidate", ("Dave Young",)),
        ("County Commissioner - District 1", "candidate", ("Eva Henry", "Jan Kulmann")),
        ("Court of Appeals Question", "question", ("Yes", "No")),  # read from its answers, with a note
    ]
    assert returns.notes == (
        "retention: no 'No' votes in the file for District Court, 17th Judicial District, County Court, Adams, "
        "Denver Probate Court; each judge is read as its own question (e.g. 'District Court, 17th Judicial "
        "District: Donald S. Quick') with only its Yes votes: not checkable, so left undecided",
        "'Court of Appeals Question' read as a question: its choices are Yes and No and no kind is given")


def test_retention_with_a_no_votes_column_left_blank_for_a_judge() -> None:
    # A no_votes column blank on every row of a judge: yes votes only, as in the 2016 file.
    text = (
        "county,office,district,party,candidate,votes,no_votes\n"
        "ADAMS,Supreme Court,,,William Hood,10,\n"
        "BACA,Supreme Court,,,William Hood,3,\n"
        "ADAMS,Court of Appeals,,,David Furman,7,2\n"
    )
    returns = parse_returns(text)
    assert dict(returns.contest("Supreme Court: William Hood").totals) == {"Yes": 13}
    assert dict(returns.contest("Court of Appeals: David Furman").totals) == {"Yes": 7, "No": 2}
    assert returns.notes[0].startswith("retention: no 'No' votes in the file for Supreme Court; ")
    # Blank on some rows only: refused, naming the row that has them, whichever comes first.
    mixed = text.replace("ADAMS,Supreme Court,,,William Hood,10,", "ADAMS,Supreme Court,,,William Hood,10,4")
    assert problems_of(mixed) == [(
        "row 3, column no_votes",
        "is empty, but 'William Hood' in 'Supreme Court' has no votes on row 2; a yes/no question needs them on every row")]
    mixed = text.replace("BACA,Supreme Court,,,William Hood,3,", "BACA,Supreme Court,,,William Hood,3,1")
    assert problems_of(mixed + "TOTAL,Supreme Court,,,William Hood,13,1\n") == [(
        "row 2, column no_votes",
        "is empty, but 'William Hood' in 'Supreme Court' has no votes on row 3; a yes/no question needs them on every row")]


def test_a_total_that_disagrees_with_its_counties_names_the_row_and_both_numbers() -> None:
    text = (FIXTURES / "openelections_small.csv").read_text(encoding="utf-8")
    text = text.replace('TOTAL,State Senate,2,Democratic Party,"Beth ""Hart"" Harz",22583,',
                        'TOTAL,State Senate,2,Democratic Party,"Beth ""Hart"" Harz",22584,')
    text = text.replace('TOTAL,"County Court, Adams",,,Michael A. Cox,94400,"42,095"',
                        'TOTAL,"County Court, Adams",,,Michael A. Cox,94400,"42,096"')
    assert problems_of(text) == [
        ("row 7, column votes", "total 22,584 for 'Beth \"Hart\" Harz' in 'State Senate - District 2' "
                                "does not match the sum of its county rows, 22,583"),
        ("row 26, column no_votes", "total 42,096 for 'No' in 'County Court, Adams: Michael A. Cox' "
                                    "does not match the sum of its county rows, 42,095"),
    ]


def test_only_total_rows_are_used_as_the_whole_contest() -> None:
    text = "county,office,district,party,candidate,votes\nTotals,Mayor,,,Ann,10\ntotal,Mayor,,,Bo,7\n"
    returns = parse_returns(text)
    mayor = returns.contest("Mayor")
    assert mayor.votes_by_unit == {WHOLE_CONTEST: {"Ann": 10, "Bo": 7}}
    assert returns.notes == ("2 total rows used as the only figures for their candidate (no county rows)",)


def test_contest_names_come_from_office_and_district() -> None:
    text = (
        "county,office,district,party,candidate,votes,no_votes\n"
        "ADAMS,U.S. House,1,Democratic Party,Ann,5,\n"
        "ADAMS,Governor,,Democratic Party,Bo,6,\n"
        "ADAMS,Supreme Court,,,Richard L. Gabriel,7,3\n"
    )
    returns = parse_returns(text)
    assert [c.name for c in returns.contests] == ["U.S. House - District 1", "Governor", "Supreme Court: Richard L. Gabriel"]
    assert dict(returns.contest("Supreme Court: Richard L. Gabriel").totals) == {"Yes": 7, "No": 3}


def test_precinct_rows_are_units_and_county_rows_are_subtotals() -> None:
    text = (
        "county,precinct,office,district,party,candidate,votes\n"
        "ADAMS,101,Mayor,,,Ann,3\n"
        "ADAMS,102,Mayor,,,Ann,4\n"
        "ADAMS,,Mayor,,,Ann,7\n"  # Adams' subtotal: cross-checked
        "BACA,Total,Mayor,,,Ann,2\n"  # Baca gave no precincts: its county row is the unit
        "TOTAL,,Mayor,,,Ann,9\n"
    )
    returns = parse_returns(text)
    mayor = returns.contest("Mayor")
    assert mayor.votes_by_unit == {"ADAMS / 101": {"Ann": 3}, "ADAMS / 102": {"Ann": 4}, "BACA": {"Ann": 2}}
    assert returns.notes == ("1 total row used as the only figures for their candidate (no county rows)",)
    assert [(s.kind, s.count, s.rows) for s in returns.set_aside] == [("subtotal", 2, ("row 4", "row 6"))]
    bad = text.replace("ADAMS,,Mayor,,,Ann,7", "ADAMS,,Mayor,,,Ann,8")
    assert problems_of(bad) == [
        ("row 4, column votes", "total 8 for 'Ann' in 'Mayor' does not match the sum of its precinct rows, 7")]


def test_breakdown_columns_are_ignored_with_a_note() -> None:
    text = "county,office,district,party,candidate,votes,election_day,absentee\nADAMS,Mayor,,,Ann,10,4,6\n"
    returns = parse_returns(text)
    assert dict(returns.contest("Mayor").totals) == {"Ann": 10}
    assert returns.notes == ("columns election_day, absentee ignored: the votes column holds each row's total",)


def test_bad_cells_are_all_listed() -> None:
    text = (
        "county,office,district,party,candidate,votes,no_votes\n"
        "ADAMS,Mayor,,,Ann,,\n"
        "ADAMS,,,,Bo,5,\n"
        "ADAMS,Issue 1,,,Parks,5,-2\n"
        "ADAMS,Mayor,,,Cy,1.5,\n"
    )
    assert problems_of(text) == [
        ("row 2, column votes", "is empty; expected a whole number of votes"),
        ("row 3, column office", "is empty; every row needs an office"),
        ("row 4, column no_votes", "must not be negative (got '-2')"),
        ("row 5, column votes", "must be a whole number of votes (got '1.5')"),
    ]


def test_a_refused_cell_is_not_reported_again_as_a_total_mismatch() -> None:
    text = (
        "county,office,district,party,candidate,votes,no_votes\n"
        "ADAMS,Mayor,,,Ann,7x,\n"
        "BACA,Mayor,,,Ann,3,\n"
        "TOTAL,Mayor,,,Ann,10,\n"
        "ADAMS,Issue 1,,,Parks,5,\n"
        "ADAMS,Issue 1,,,Parks,5,2.5\n"
        "TOTAL,Issue 1,,,Parks,5,2\n"
    )
    assert problems_of(text) == [
        ("row 2, column votes", "is not a whole number of votes (got '7x')"),
        ("row 5, column no_votes", "is empty, but 'Parks' in 'Issue 1' has no votes on row 7; "
                                   "a yes/no question needs them on every row"),
        ("row 6, column no_votes", "must be a whole number of votes (got '2.5')"),
    ]


def test_repeated_rows_name_both_rows() -> None:
    text = (
        "county,office,district,party,candidate,votes\n"
        "ADAMS,Mayor,,,Ann,1\n"
        "ADAMS,Mayor,,,Ann,1\n"
        "TOTAL,Mayor,,,Ann,1\n"
        "TOTAL,Mayor,,,Ann,1\n"
    )
    assert problems_of(text) == [
        ("row 3", "repeats row 2: 'Mayor', 'Ann', county 'ADAMS'"),
        ("row 5", "repeats row 4: 'Mayor', 'Ann', the total"),
    ]
    text = "county,precinct,office,candidate,votes\nADAMS,1,Mayor,Ann,1\nADAMS,1,Mayor,Ann,1\nADAMS,,Mayor,Ann,2\nADAMS,,Mayor,Ann,2\n"
    assert problems_of(text) == [
        ("row 3", "repeats row 2: 'Mayor', 'Ann', county 'ADAMS', precinct '1'"),
        ("row 5", "repeats row 4: 'Mayor', 'Ann', county 'ADAMS', its subtotal"),
    ]


def test_a_question_row_with_its_no_votes_left_blank_is_refused() -> None:
    text = (
        "county,office,district,party,candidate,votes,no_votes\n"
        "ADAMS,Supreme Court,,,Richard L. Gabriel,10,4\n"
        "BACA,Supreme Court,,,Richard L. Gabriel,3,\n"
    )
    assert problems_of(text) == [(
        "row 3, column no_votes",
        "is empty, but 'Richard L. Gabriel' in 'Supreme Court' has no votes on row 2; "
        "a yes/no question needs them on every row")]


def test_seats_come_from_the_caller() -> None:
    text = "county,office,district,party,candidate,votes\nADAMS,Regent - At-large,,,Ann,5\nADAMS,Regent - At-large,,,Bo,4\n"
    assert parse_returns(text, seats={"Regent - At-large": 2}).contest("Regent - At-large").seats == 2
    assert parse_returns(text).contest("Regent - At-large").seats == 1
    assert problems_of(text, seats={"Regent": 2}) == [("seats['Regent']", "names no contest in the file")]


def test_missing_columns() -> None:
    assert problems_of("county,office,party,candidate\nADAMS,Mayor,,Ann\n") == [
        ("row 1", "missing column 'votes'; expected office, candidate, votes and optionally "
                  "county, precinct, district, party, no_votes")]
    # Detected as OpenElections from county, office and candidate, so the clerk hears the same.
    assert parse_problems("county,office,party,candidate\nADAMS,Mayor,,Ann\n") == problems_of(
        "county,office,party,candidate\nADAMS,Mayor,,Ann\n")


# --- the real files, read from the shared data directory -------------------------------------------

# The courts whose judges stand for retention, as the two files name them (checked by eye against both).
RETENTION_OFFICES = ("Supreme Court", "Court of Appeals", "District Court, ", "County Court, ")


def _published_totals(path: Path) -> dict[str, dict[str, int]]:
    """The files' own total rows, read here independently of the parser."""
    expected: dict[str, dict[str, int]] = defaultdict(dict)
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["county"].strip().upper() not in ("", "TOTAL", "TOTALS"):
                continue
            office = row["office"] + (f" - District {row['district']}" if row["district"] else "")
            if row.get("no_votes"):
                contest = expected[f"{office}: {row['candidate']}"]
                contest["Yes"] = int(row["votes"].replace(",", ""))
                contest["No"] = int(row["no_votes"].replace(",", ""))
            elif row["office"].startswith(RETENTION_OFFICES):  # 2016: a judge's yes votes only
                expected[f"{office}: {row['candidate']}"]["Yes"] = int(row["votes"].replace(",", ""))
            else:
                expected[office][row["candidate"]] = int(row["votes"].replace(",", ""))
    return expected


needs_shared = pytest.mark.skipif(
    not REAL_2016.exists() or not REAL_2018.exists(),
    reason=f"the real OpenElections files are not in {SHARED} (the fixture tests above still run)",
)


@needs_shared
# 2016: 128 offices other than the courts, plus one question per judge: 1 Supreme Court justice and 10
# Court of Appeals judges (until the retention reading, "Supreme Court" and "Court of Appeals" were 2).
@pytest.mark.parametrize("path, contests", [(REAL_2016, 139), (REAL_2018, 247)], ids=["2016", "2018"])
def test_real_files_parse_to_their_published_totals(path: Path, contests: int) -> None:
    returns = parse_returns(path.read_bytes())

    assert returns.source_format == "openelections"
    assert len(returns.contests) == contests
    published = _published_totals(path)
    assert {c.name: dict(c.totals) for c in returns.contests} == published
    for contest in returns.contests:
        assert WHOLE_CONTEST not in contest.votes_by_unit  # every total row had counties beneath it
        assert all(type(v) is int for counts in contest.votes_by_unit.values() for v in counts.values())


@needs_shared
def test_real_2016_spot_values() -> None:
    returns = parse_returns(REAL_2016.read_bytes())
    president = returns.contest("President")
    assert president.totals["Hillary Clinton / Tim Kaine"] == 1_338_870
    assert president.totals["Donald J. Trump / Michael R. Pence"] == 1_202_484
    assert president.ranked()[0] == ("Hillary Clinton / Tim Kaine", 1_338_870)
    assert len(president.units) == 64  # Colorado's counties
    assert "Supreme Court" not in {c.name for c in returns.contests}
    assert "Court of Appeals" not in {c.name for c in returns.contests}
    hood = returns.contest("Supreme Court: William Hood")
    assert (hood.kind, hood.choices, dict(hood.totals)) == (ContestKind.QUESTION, ("Yes",), {"Yes": 1_534_597})
    judges = [c for c in returns.contests if c.name.startswith(("Supreme Court: ", "Court of Appeals: "))]
    assert len(judges) == 11
    assert all(check_automatic_recount(c).outcome == "uncontested" for c in judges)
    assert returns.notes == (
        RETENTION_NOTE_2016,
        # The source file itself carries U+FFFD where accented letters were lost.
        "'Dan Pab\ufffdn' contains '\ufffd': a character was lost before this file was made; kept as written",
        "'V\ufffdronique Marie Bellamy' contains '\ufffd': a character was lost before this file was made; kept as written",
        "'Court of Appeals: Gilbert M. Rom\ufffdn' contains '\ufffd': a character was lost before this file was made; "
        "kept as written",
    )
    # The blank-county rows are the state totals: cross-checked against the 64 counties and set aside.
    assert [(s.kind, s.count) for s in returns.set_aside] == [("subtotal", 300)]
    assert "general election" in returns.readings[0] and "unaffiliated" in returns.readings[0]


@needs_shared
def test_real_2018_spot_values() -> None:
    returns = parse_returns(REAL_2018.read_bytes())
    governor = returns.contest("Governor/Lieutenant Governor")
    assert governor.totals["Jared Polis / Dianne Primavera"] == 1_348_888
    assert governor.totals["Walker Stapleton / Lang Sias"] == 1_080_801
    amendment = returns.contest("Amendment 73 (CONSTITUTIONAL): Funding for Public Schools")
    assert (amendment.kind, dict(amendment.totals)) == (ContestKind.QUESTION, {"Yes": 1_137_527, "No": 1_312_331})
    retention = returns.contest("Supreme Court: Richard L. Gabriel")
    assert retention.kind is ContestKind.QUESTION and retention.choices == ("Yes", "No")
    assert returns.contest("County Court, Adams: Cindy Dang").votes_by_unit == {"ADAMS": {"Yes": 83_416, "No": 53_350}}
    assert returns.notes == (
        "row 2347: '0*' read as 0 (footnote marker stripped)",
        "row 2350: '0*' read as 0 (footnote marker stripped)",
        "row 2353: '0*' read as 0 (footnote marker stripped)",
    )
    assert [(s.kind, s.count) for s in returns.set_aside] == [("subtotal", 404)]


@needs_shared
def test_real_file_with_cr_only_line_endings_reads_the_same() -> None:
    data = REAL_2018.read_bytes()
    assert parse_returns(data.replace(b"\r\n", b"\r")) == parse_returns(data)


def test_the_excerpt_matches_the_real_file_where_both_exist() -> None:
    if not REAL_2018.exists():
        pytest.skip(f"{REAL_2018} is not available")
    real = parse_returns(REAL_2018.read_bytes())
    small = parse_returns((FIXTURES / "openelections_small.csv").read_bytes())
    for contest in small.contests:
        assert real.contest(contest.name) == contest


@pytest.mark.parametrize("real, excerpt", [
    (REAL_2018, "openelections_small.csv"),
    (REAL_2016, "openelections_2016_small.csv"),
    (REAL_2016, "openelections_2016_retention_small.csv"),
])
def test_excerpt_rows_are_real_rows(real: Path, excerpt: str) -> None:
    # Guard against the fixture drifting from its source: every excerpt row is a row of the real file.
    if not real.exists():
        pytest.skip(f"{real} is not available")
    real_rows = set(real.read_bytes().split(b"\r\n"))
    small_rows = (FIXTURES / excerpt).read_bytes().split(b"\r\n")
    assert small_rows[-1] == b""  # the excerpt ends with a line break
    assert set(small_rows[:-1]) <= real_rows
