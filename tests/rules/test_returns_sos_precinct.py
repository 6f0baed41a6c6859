"""The Colorado Secretary of State's precinct-level results (County, Precinct, Contest, Choice, Party, Total Votes).

The fixture holds rows copied unchanged from the SoS's 2024 general election file (see
tests/fixtures/returns/README.md): every row of six small counties, two RTD contests in one county each,
and the file's last row, "End of worksheet". Expected totals are computed from the raw rows by a few
lines of csv in `raw_totals`, independently of the reader, and the key figures are also written out.
"""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contest import ContestKind
from rules.returns import ReturnsError, parse_returns, read_returns
from rules.row_kinds import RowKind
from rules.verdicts import decide_returns

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "returns" / "sos_precinct_2024_small.csv"
SHARED_SAMPLE = Path("/work/shared/data/real-returns/sos-co-2024-general-precinct-sample.csv")

PRESIDENT = "Presidential Electors"
SCHUTZ = "Colorado Court of Appeals Judge - Schutz"
JONES = "Colorado Court of Appeals Judge - Jones"
MARQUEZ = "Colorado Supreme Court Justice - M\u00e1rquez"
ROMAN = "Colorado Court of Appeals Judge - Rom\u00e1n"
DE_LA_CRUZ = "Claudia De la Cruz / Karina Garc\u00eda"
RTD_A = "Regional Transportation District Director - District A"
RTD_D = "Regional Transportation District Director - District D"
END_ROW = 656  # the spreadsheet row of "End of worksheet" in the fixture


@pytest.fixture(scope="module")
def raw() -> bytes:
    return FIXTURE.read_bytes()


@pytest.fixture(scope="module")
def returns(raw):
    return read_returns(raw)


def raw_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("cp1252"), newline="")))


def raw_totals(data: bytes) -> dict[str, dict[str, int]]:
    """contest -> choice -> votes, summed straight from the rows that name a contest."""
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for _county, _precinct, contest, choice, _party, votes in raw_rows(data)[1:]:
        if contest:
            out[contest][choice] = out[contest].get(choice, 0) + int(votes)
    return out


def replace_cell(data: bytes, contest: str, choice: str, county: str, new_votes: str) -> tuple[bytes, int]:
    """The fixture with one Total Votes cell changed, and the spreadsheet row of that cell."""
    lines = data.split(b"\n")
    for i, line in enumerate(lines):
        cells = next(csv.reader([line.decode("cp1252")])) if line else []
        if cells[:1] == [county] and cells[2:4] == [contest, choice]:
            head = line.rsplit(b",", 1)[0]
            lines[i] = head + b"," + new_votes.encode()
            return b"\n".join(lines), i + 1
    raise AssertionError("no such row")


# --- the real rows ------------------------------------------------------------------------------

def test_every_contest_and_choice_adds_up_to_the_raw_rows(raw, returns) -> None:
    expected = raw_totals(raw)
    assert returns.source_format == "sos-precinct"
    assert len(returns.contests) == len(expected) == 54
    assert {c.name: dict(c.totals) for c in returns.contests} == expected
    assert returns.undecided == ()
    for contest in returns.contests:
        assert contest.choices == tuple(expected[contest.name])  # source order


def test_figures_checked_by_hand(returns) -> None:
    president = returns.contest(PRESIDENT)
    assert president.totals["Donald J. Trump / JD Vance"] == 5_230
    assert president.totals["Kamala D. Harris / Tim Walz"] == 2_636
    assert len(president.choices) == 14
    assert dict(returns.contest(SCHUTZ).totals) == {"Yes": 3_004, "No": 2_996}
    assert dict(returns.contest(JONES).totals) == {"Yes": 2_999, "No": 3_013}
    assert dict(returns.contest(RTD_D).totals) == {"Chris D Gutschenritter": 2_928, "Barbara McManus": 2_551}


def test_units_are_county_and_precinct(returns) -> None:
    president = returns.contest(PRESIDENT)
    assert president.units == (
        "CUSTER / 7046014001", "CUSTER / 7046014002", "CUSTER / 7046014003", "DOLORES / 3065817001",
        "HINSDALE / 3055827001", "JACKSON / 2081329001", "MINERAL / 3066240001", "SAN JUAN / 3065956001",
    )
    assert president.votes_by_unit["HINSDALE / 3055827001"]["Donald J. Trump / JD Vance"] == 332


def test_end_of_worksheet_is_set_aside_never_a_problem(raw, returns) -> None:
    assert raw_rows(raw)[-1] == ["End of worksheet", "", "", "", "", ""]
    assert [(s.kind, s.count, s.rows) for s in returns.set_aside] == [
        (RowKind.NOT_RESULTS.value, 1, (f"row {END_ROW}",))]
    parse_returns(raw)  # the strict reading finds nothing wrong with it either


def test_windows_1252_names_are_read_right(raw, returns) -> None:
    assert b"Garc\xeda" in raw and b"M\xe1rquez" in raw  # the file really is cp1252
    assert DE_LA_CRUZ in returns.contest(PRESIDENT).choices
    names = [c.name for c in returns.contests]
    assert MARQUEZ in names and ROMAN in names
    assert any("read as Windows-1252" in note for note in returns.notes)
    assert not any("\ufffd" in name for name in names)


def test_kinds_seats_and_parties(returns) -> None:
    for name in (SCHUTZ, MARQUEZ, "Amendment G (CONSTITUTIONAL)", "Proposition 127 (STATUTORY)"):
        assert returns.contest(name).kind is ContestKind.QUESTION, name
    assert returns.contest("Amendment G (CONSTITUTIONAL)").choices == ("Yes/For", "No/Against")
    assert returns.contest(SCHUTZ).choice_details == {}  # "Y"/"N" beside the answers are not parties
    president = returns.contest(PRESIDENT)
    assert president.kind is ContestKind.CANDIDATE and president.seats == 1
    assert president.choice_details["Donald J. Trump / JD Vance"] == {"party": "REP"}
    assert president.choice_details[DE_LA_CRUZ] == {"party": "SLB"}
    assert any("one seat" in reading for reading in president.readings)  # the file never says


def test_rtd_numbers_in_the_party_column_are_not_parties(returns) -> None:
    assert returns.contest(RTD_A).choice_details == {}
    assert returns.contest(RTD_D).choice_details == {}
    assert (f"Party cells 1, 2, 3 in {RTD_A!r}, {RTD_D!r} are numbers, not parties; not kept as parties"
            in returns.notes)


def test_verdicts(returns) -> None:
    verdicts = decide_returns(returns)
    assert verdicts.undecided == ()
    by_name = {d.contest: d for d in verdicts.decisions}
    assert len(by_name) == 54
    assert sorted(n for n, d in by_name.items() if d.automatic_recount) == [JONES, SCHUTZ]
    schutz, jones = by_name[SCHUTZ], by_name[JONES]
    # (3,004 - 2,996) * 200 = 1,600 <= 3,004; (3,013 - 2,999) * 200 = 2,800 <= 3,013
    assert (schutz.highest.choice, schutz.margin, schutz.max_margin_for_recount) == ("Yes", 8, 15)
    assert (jones.highest.choice, jones.margin, jones.max_margin_for_recount) == ("No", 14, 15)
    president = by_name[PRESIDENT]
    assert (president.automatic_recount, president.margin) == (False, 5_230 - 2_636)
    # Proposition 129 (STATUTORY): 3,872 vs 3,702: (170) * 200 = 34,000 > 3,872
    prop = by_name["Proposition 129 (STATUTORY)"]
    assert (prop.automatic_recount, prop.highest.votes, prop.next_highest.votes) == (False, 3_872, 3_702)
    assert by_name["District Attorney - 7th Judicial District"].next_highest is None  # one candidate


def test_an_xlsx_of_the_same_rows_reads_the_same(raw, returns) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for cells in raw_rows(raw):
        # Excel keeps the precincts and votes as numbers; calamine gives them back without ".0".
        sheet.append([int(c) if c.isdigit() else (c or None) for c in cells])
    out = io.BytesIO()
    workbook.save(out)
    from_xlsx = read_returns(out.getvalue())
    assert from_xlsx.source_format == "sos-precinct"
    assert from_xlsx.contests == returns.contests
    assert from_xlsx.set_aside == returns.set_aside
    assert from_xlsx.undecided == ()


# --- what goes wrong leaves only its contest undecided -------------------------------------------

def test_a_damaged_count_leaves_only_its_contest_undecided(raw, returns) -> None:
    damaged, row = replace_cell(raw, SCHUTZ, "Yes", "HINSDALE", '"2O7"')  # letter O for a zero
    result = read_returns(damaged)
    assert [u.contest for u in result.undecided] == [SCHUTZ]
    assert result.undecided[0].rows == (f"row {row}, column Total Votes: is not a whole number of votes (got '2O7')",)
    assert [c.name for c in result.contests] == [c.name for c in returns.contests if c.name != SCHUTZ]
    assert all(c == returns.contest(c.name) for c in result.contests)
    verdicts = decide_returns(result)
    assert [u.contest for u in verdicts.undecided] == [SCHUTZ]
    assert len(verdicts.decisions) == 53 and [d.contest for d in verdicts.decisions if d.automatic_recount] == [JONES]
    with pytest.raises(ReturnsError):
        parse_returns(damaged)


def test_an_empty_count_is_a_range_not_a_problem(raw) -> None:
    damaged, row = replace_cell(raw, JONES, "Yes", "MINERAL", "")
    result = read_returns(damaged)
    jones = result.contest(JONES)
    assert result.undecided == ()
    assert jones.uncertain[("MINERAL / 3066240001", "Yes")].location == f"row {row}, column Total Votes"
    assert [u.contest for u in decide_returns(result).undecided] == [JONES]  # the empty cell could hold any number


def test_a_repeated_row_names_both_rows(raw) -> None:
    lines = raw.split(b"\n")
    first = lines.index(b'"JACKSON","2081329001","State Representative - District 13","Dave Williams","REP","608"')
    assert first + 1 == 616  # the spreadsheet row
    damaged = b"\n".join(lines[:first + 1] + [lines[first].replace(b'"608"', b'"610"')] + lines[first + 1:])
    result = read_returns(damaged)
    assert [u.contest for u in result.undecided] == ["State Representative - District 13"]
    assert result.undecided[0].rows == ("row 617: repeats row 616: contest 'State Representative - District 13', "
                                        "choice 'Dave Williams', JACKSON / 2081329001",)


def test_precinct_subtotals_are_cross_checked_and_set_aside(raw, returns) -> None:
    custer_trump = sum(int(r[5]) for r in raw_rows(raw)[1:] if r[0] == "CUSTER" and r[3] == "Donald J. Trump / JD Vance")
    assert custer_trump == 870 + 847 + 866 == 2_583
    for name in ("Total", "CUSTER", "Custer County"):
        row = f'"CUSTER","{name}","{PRESIDENT}","Donald J. Trump / JD Vance","REP","{custer_trump}"\n'.encode()
        result = read_returns(raw + row)
        assert result.contest(PRESIDENT) == returns.contest(PRESIDENT), name
        assert ("subtotal", 1) in [(s.kind, s.count) for s in result.set_aside], name
    wrong = f'"CUSTER","Total","{PRESIDENT}","Donald J. Trump / JD Vance","REP","2584"\n'.encode()
    result = read_returns(raw + wrong)
    assert [u.contest for u in result.undecided] == [PRESIDENT]
    assert "subtotal 2,584 for 'Donald J. Trump / JD Vance' in 'Presidential Electors' does not match the sum of " \
           "its CUSTER's precinct rows, 2,583" in result.undecided[0].reason


def test_a_unit_that_is_the_sum_of_its_county_is_found_by_its_numbers(raw, returns) -> None:
    """A precinct number no name gives away: the county grouping lets the shared step find it."""
    rows = [r for r in raw_rows(raw)[1:] if r[0] == "CUSTER" and r[2] == PRESIDENT]
    sums: dict[str, int] = defaultdict(int)
    for r in rows:
        sums[r[3]] += int(r[5])
    extra = "".join(f'"CUSTER","7046014999","{PRESIDENT}","{c}","","{v}"\n' for c, v in sums.items())
    result = read_returns(raw + extra.encode("cp1252"))
    assert dict(result.contest(PRESIDENT).totals) == dict(returns.contest(PRESIDENT).totals)
    assert "CUSTER / 7046014999" not in result.contest(PRESIDENT).units


# --- the header and the shared sample ------------------------------------------------------------

def test_header_in_any_case_and_a_missing_votes_column() -> None:
    text = "county,PRECINCT,Contest,choice,party,TOTAL VOTES\nADAMS,1,Mayor,Ann,,5\nADAMS,1,Mayor,Bo,,3\n"
    assert dict(read_returns(text).contest("Mayor").totals) == {"Ann": 5, "Bo": 3}
    with pytest.raises(ReturnsError) as caught:
        read_returns("County,Precinct,Contest,Choice,Party\nADAMS,1,Mayor,Ann,,5\n")
    assert [p.message for p in caught.value.problems][0].startswith("missing column 'total votes'")


@pytest.mark.skipif(not SHARED_SAMPLE.exists(), reason="the shared sample is not on this machine")
def test_the_shared_sample_of_2000_rows() -> None:
    data = SHARED_SAMPLE.read_bytes()
    rows = raw_rows(data)
    harris = sum(int(r[5]) for r in rows[1:-1])
    result = read_returns(data)
    assert [c.name for c in result.contests] == [PRESIDENT]
    president = result.contest(PRESIDENT)
    assert president.choices == ("Kamala D. Harris / Tim Walz",)
    assert dict(president.totals) == {"Kamala D. Harris / Tim Walz": harris}
    assert len(president.units) == len(rows) - 2 == 2_000
    assert [(s.kind, s.rows) for s in result.set_aside] == [(RowKind.NOT_RESULTS.value, (f"row {len(rows)}",))]
    [decision] = decide_returns(result).decisions
    assert decision.next_highest is None and not decision.automatic_recount


_CELL = st.sampled_from(["", " ", "ADAMS", "A / B", "B", "Total", "CO", "End of worksheet", "Mayor", "Ann", "Yes",
                         "No", "Total Votes", "Over Votes", "Registered Voters", "DEM", "1", "Y", "0", "7", "12",
                         "1,234", "12.0", "-3", "2.5", "(< 25)", "***", "x", "R\u00f3man"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_CELL, min_size=0, max_size=7), max_size=14))
def test_random_rows_under_the_header_give_returns_or_returns_error(rows: list[list[str]]) -> None:
    text = "\n".join(["County,Precinct,Contest,Choice,Party,Total Votes", *(",".join(r) for r in rows)])
    try:
        result = read_returns(text)
    except ReturnsError as error:
        assert not any("internal error" in p.message for p in error.problems), str(error)
        return
    assert result.source_format == "sos-precinct"
    for contest in result.contests:
        assert all(type(v) is int and v >= 0 for counts in contest.votes_by_unit.values() for v in counts.values())


# --- through the real command -------------------------------------------------------------------

def test_check_through_the_command_line(tmp_path) -> None:
    path = tmp_path / "2024GeneralPrecinctLevelResults.csv"
    path.write_bytes(FIXTURE.read_bytes())
    result = subprocess.run([sys.executable, "-m", "bot.cli", "check", str(path), "--format", "json"],
                            capture_output=True, text=True, encoding="utf-8", cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert data["source_format"] == "sos-precinct"
    assert data["undecided"] == []
    assert data["set_aside"] == [{"kind": "not a row of results", "count": 1, "rows": [f"row {END_ROW}"]}]
    contests = {c["contest"]: c for c in data["contests"]}
    assert len(contests) == 54
    assert [c["contest"] for c in data["contests"] if c["automatic_recount"]] == [SCHUTZ, JONES]  # closest first
    assert (contests[SCHUTZ]["margin"], contests[SCHUTZ]["max_margin_for_recount"]) == (8, 15)
    assert contests[MARQUEZ]["highest"] == {"choice": "No", "votes": 3_243}


def test_a_row_wider_than_the_header_is_said_in_words_not_as_a_python_tuple() -> None:
    text = "County,Precinct,Contest,Choice,Party,Total Votes\nADAMS,1,Mayor,Ann,,5,oops\nADAMS,1,Mayor,Bo,,3\n"
    [mayor] = read_returns(text).undecided
    assert mayor.rows == ("row 2: has 7 cells but the header has 6 columns",)
