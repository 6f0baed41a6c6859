"""Dominion statements of votes (format "dominion-sov"): the flat export (Boulder County 2023-2025) and the wide
"Statement of Votes Cast" of Results Tally & Reporting (Fresno, Kern, San Francisco and Siskiyou counties, 2025).

Every expected number is either worked out by hand in a comment from the fixture's rows, or added up in the test
from the raw rows with the csv module, apart from the reader.
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

from rules.contest import ContestKind
from rules.returns import ReturnsError, parse_returns, read_returns
from rules.returns.build import ONE_SEAT_ASSUMED
from rules.returns.dominion_wide import HIDDEN_UNIT
from rules.row_kinds import RowKind
from rules.verdicts import decide_returns

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "returns"
BOULDER_2023 = FIXTURES / "dominion_sov_boulder_2023_small.csv"
BOULDER_2023_RECOUNT = FIXTURES / "dominion_sov_boulder_2023_recount_small.csv"
BOULDER_2023_RCV = FIXTURES / "dominion_sov_boulder_2023_rcv_small.csv"
SUMMARY_2025 = FIXTURES / "dominion_sov_boulder_2025_summary.csv"
SUMMARY_2025_XLSX = FIXTURES / "dominion_sov_boulder_2025_summary.xlsx"
FRESNO = FIXTURES / "dominion_sovc_fresno_2025_del_rey.csv"
KERN = FIXTURES / "dominion_sovc_kern_2025_measure_c.csv"
SAN_FRANCISCO = FIXTURES / "dominion_sovc_san_francisco_2025.csv"
SISKIYOU = FIXTURES / "dominion_sovc_siskiyou_2025.csv"
SISKIYOU_XLSX = FIXTURES / "dominion_sovc_siskiyou_2025.xlsx"

WARD_2 = "City of Louisville City Council Ward 2 (4-year term)"
ISSUE_2C = "City of Louisville Ballot Issue 2C"
ECO_PASS = "Nederland Eco Pass Public Improvement District Ballot Issue 6A"
COUNCIL = "City of Boulder Council Candidates"
BVSD_A = "Boulder Valley School District RE-2 Director District A (4 Years)"
THOMPSON_A = "Thompson R2-J School District Board of Education Director District A (4 Year Term)"
DEL_REY = "Del Rey Comm Serv, ST"


def rows_of(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def flat_totals(path: Path) -> dict[str, dict[str, int]]:
    """Total Votes per contest and choice, added up from the raw rows (the reader's answer must be this)."""
    rows = rows_of(path)
    header = [" ".join(c.split()) for c in rows[0]]
    contest, choice, votes = header.index("Contest Title"), header.index("Choice Name"), header.index("Total Votes")
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for cells in rows[1:]:
        if len(cells) > votes and cells[choice]:
            out[cells[contest]][cells[choice]] += int(cells[votes].replace(",", ""))
    return {k: dict(v) for k, v in out.items()}


def totals(returns) -> dict[str, dict[str, int]]:
    return {c.name: dict(c.totals) for c in returns.contests}


def set_aside(returns) -> dict[str, int]:
    return {s.kind: s.count for s in returns.set_aside}


def xlsx_of(path: Path) -> bytes:
    """A workbook holding the fixture's rows, numbers as Excel numbers (as the counties' exports have them)."""
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for cells in rows_of(path):
        sheet.append([int(c) if c.isdigit() and not c.startswith("0") else (c or None) for c in cells])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


# --- the flat statement: Boulder County 2023 -------------------------------------------------------

@pytest.fixture(scope="module")
def boulder():
    return read_returns(BOULDER_2023.read_bytes())


def test_flat_contests_totals_and_units(boulder) -> None:
    assert boulder.source_format == "dominion-sov"
    first_seen = list(dict.fromkeys(r[3] for r in rows_of(BOULDER_2023)[1:]))
    assert [c.name for c in boulder.contests] == first_seen == [BVSD_A, ISSUE_2C, WARD_2, COUNCIL, THOMPSON_A, ECO_PASS]
    assert totals(boulder) == flat_totals(BOULDER_2023)
    ward = boulder.contest(WARD_2)
    # Fahey 184 + 183 + 158 + 242 + 493 + 30 + 312; Colbert 234 + 234 + 140 + 236 + 341 + 52 + 204
    assert dict(ward.totals) == {"Deborah Fahey": 1_602, "George Colbert": 1_441}
    assert ward.units == ("201,202", "202,500", "203", "206", "207", "208", "212")  # Precinct Code as written
    assert ward.votes_by_unit["207"] == {"Deborah Fahey": 493, "George Colbert": 341}  # Total Votes, not Total Ballots
    assert boulder.contest(BVSD_A).votes_by_unit == {"100,700": {"Jason Unger": 358, "Neil Fishman": 164}}
    eco = boulder.contest(ECO_PASS)
    assert eco.votes_by_unit["Property Owner"] == {"Yes/For": 101, "No/Against": 43}  # "N/A" precinct number
    assert dict(eco.totals) == {"Yes/For": 1_249, "No/Against": 313}
    assert boulder.set_aside == () and boulder.undecided == ()
    assert ("columns Precinct Number, Active Voters, Total Ballots, Total Undervotes, Total Overvotes are not votes "
            "for a choice; only Total Votes is read") in boulder.notes


def test_flat_ballot_issue_is_a_question_and_council_seats_come_from_the_counts(boulder) -> None:
    issue = boulder.contest(ISSUE_2C)
    assert issue.kind is ContestKind.QUESTION and issue.choices == ("Yes/For", "No/Against")
    assert (f"{ISSUE_2C!r} read as a question: its choices are Yes/For and No/Against and no kind is given"
            in boulder.notes)
    # The title does not say; the counts do: precincts 503, 800 and 801 cast 742 ballots for the council, 4 of
    # them overvoted, and (2,378 votes + 574 undervotes) / (742 - 4) = 4 marks per ballot.
    council = boulder.contest(COUNCIL)
    assert council.seats == 4 and council.kind is ContestKind.CANDIDATE and council.seats_stated
    assert council.readings == ("seats: 4, from the file's counts: (votes 2,378 + Total Undervotes 574) / (Total "
                                "Ballots 742 - Total Overvotes 4) = 4 votes per ballot",)
    assert ONE_SEAT_ASSUMED.format(name=COUNCIL) not in council.readings
    four = read_returns(BOULDER_2023.read_bytes(), seats={COUNCIL: 4}).contest(COUNCIL)
    assert four.seats == 4
    with pytest.raises(ReturnsError) as caught:
        read_returns(BOULDER_2023.read_bytes(), seats={COUNCIL: 1})
    assert str(caught.value) == f"seats[{COUNCIL!r}]: says 1 seats, but the file says 4 (the file's counts)"


def test_flat_verdicts(boulder) -> None:
    verdicts = decide_returns(boulder)
    by_name = {d.contest: d for d in verdicts.decisions}
    ward = by_name[WARD_2]
    # (1,602 - 1,441) * 200 = 32,200 > 1,602: no recount; at most 1,602 // 200 = 8 would trigger
    assert (ward.automatic_recount, ward.highest.choice, ward.highest.votes, ward.next_highest.votes) == (
        False, "Deborah Fahey", 1_602, 1_441)
    assert (ward.margin, ward.max_margin_for_recount) == (161, 8)
    issue = by_name[ISSUE_2C]  # Yes/For 6,013 against No/Against 2,667
    assert (issue.automatic_recount, issue.highest.choice, issue.margin) == (False, "Yes/For", 3_346)
    # Boulder council in precincts 503, 800, 801, four seats: Winer 395, Adams 310, Schuchard 307, Robins 302 win;
    # Brncic 280 is the first loser: (302 - 280) * 200 = 4,400 > 302, no recount.
    council = by_name[COUNCIL]
    assert (council.highest.choice, council.highest.votes, council.next_highest.choice, council.next_highest.votes) == (
        "Jenny Robins", 302, "Terri Brncic", 280)
    assert [w.choice for w in council.winners] == ["Tara Winer", "Taishya Adams", "Ryan Schuchard", "Jenny Robins"]
    assert not any(d.automatic_recount for d in verdicts.decisions) and verdicts.undecided == ()


def test_flat_damaged_count_leaves_only_its_contest_undecided(boulder) -> None:
    text = BOULDER_2023.read_text(encoding="utf-8")
    line = f'"207",2181207207,"1,546","{WARD_2}","Deborah Fahey",968,493,133,1'
    assert text.count(line) == 1
    row = text[:text.index(line)].count("\n") + 1
    damaged = read_returns(text.replace(line, line.replace(",493,", ",4g3,")))
    assert [u.contest for u in damaged.undecided] == [WARD_2]
    assert damaged.undecided[0].rows == (f"row {row}, column Total Votes: is not a whole number of votes (got '4g3')",)
    assert [c.name for c in damaged.contests] == [c.name for c in boulder.contests if c.name != WARD_2]
    assert all(c == boulder.contest(c.name) for c in damaged.contests)
    assert [u.contest for u in decide_returns(damaged).undecided] == [WARD_2]
    with pytest.raises(ReturnsError):
        parse_returns(text.replace(line, line.replace(",493,", ",4g3,")))


def test_flat_vote_for_in_the_title_gives_the_seats() -> None:
    text = BOULDER_2023.read_text(encoding="utf-8").replace(f'"{COUNCIL}"', f'"{COUNCIL} (Vote For=4)"')
    council = read_returns(text).contest(COUNCIL)
    assert (council.seats, council.readings) == (4, ())
    with pytest.raises(ReturnsError) as caught:
        read_returns(text, seats={COUNCIL: 3})
    [problem] = caught.value.problems
    row = 1 + next(i for i, r in enumerate(rows_of(BOULDER_2023)) if r[3] == COUNCIL)
    assert str(problem) == f"seats[{COUNCIL!r}]: says 3 seats, but the file says 4 (row {row}, column Contest Title)"


def test_flat_total_row_is_checked_and_set_aside(boulder) -> None:
    text = BOULDER_2023.read_text(encoding="utf-8")
    rows = text.count("\n")
    good = text + f'"Total","","","{WARD_2}","Deborah Fahey",0,"1,602",0,0\n'
    returns = read_returns(good)
    assert returns.contest(WARD_2) == boulder.contest(WARD_2)
    assert [(s.kind, s.count, s.rows) for s in returns.set_aside] == [(RowKind.SUBTOTAL.value, 1, (f"row {rows + 1}",))]
    wrong = read_returns(text + f'"","","","{WARD_2}","George Colbert",0,"1,442",0,0\n')  # a blank precinct
    assert [u.contest for u in wrong.undecided] == [WARD_2]
    assert wrong.undecided[0].rows == (f"row {rows + 1}: the total row (no precinct) says 1,442 for 'George Colbert' "
                                       f"in {WARD_2!r}, but its precinct rows add up to 1,441",)


def test_flat_xlsx_of_the_same_rows_reads_the_same(boulder) -> None:
    from_xlsx = read_returns(xlsx_of(BOULDER_2023))
    assert from_xlsx.source_format == "dominion-sov"
    assert from_xlsx.contests == boulder.contests
    assert from_xlsx.set_aside == boulder.set_aside and from_xlsx.undecided == ()


def test_flat_header_broken_over_lines_recount_file() -> None:
    returns = read_returns(BOULDER_2023_RECOUNT.read_bytes())
    assert returns.source_format == "dominion-sov"
    assert [c.name for c in returns.contests] == [COUNCIL]
    assert totals(returns) == flat_totals(BOULDER_2023_RECOUNT)
    assert returns.contest(COUNCIL).units == ("800", "801")
    # the recount moved one vote in these two precincts: Adams 198 + 111 (the original statement says 112)
    assert returns.contest(COUNCIL).totals["Taishya Adams"] == 309


def test_ranked_choice_statement_is_left_undecided() -> None:
    returns = read_returns(BOULDER_2023_RCV.read_bytes())
    assert returns.contests == ()
    [undecided] = returns.undecided
    assert undecided.contest == "City of Boulder Mayoral Candidates"
    assert undecided.rows[0].startswith("row 2: 'City of Boulder Mayoral Candidates' is a ranked-choice tabulation "
                                        "(Round 1 Votes, Round 2 Votes, ...)")


# --- the flat Summary of Votes: Boulder County 2025, CSV and the county's own XLSX ----------------

def test_summary_of_votes_csv_and_real_xlsx() -> None:
    from_csv = read_returns(SUMMARY_2025.read_bytes())
    assert len(from_csv.contests) == 32 and totals(from_csv) == flat_totals(SUMMARY_2025)
    assert all(c.units == ("",) for c in from_csv.contests)  # no precinct column: the whole contest
    # the footnote below the rows ("* Active Voters are total voters in the precinct. ...") is set aside
    assert from_csv.set_aside == (from_csv.set_aside[0],) and set_aside(from_csv) == {RowKind.NOT_RESULTS.value: 1}
    assert from_csv.set_aside[0].rows == ("row 83",)
    from_xlsx = read_returns(SUMMARY_2025_XLSX.read_bytes())
    assert from_xlsx.contests == from_csv.contests and from_xlsx.set_aside == from_csv.set_aside
    assert [(w.name, w.role) for w in from_xlsx.sheets] == [("Official Summary", "long form")]


def test_summary_tie_is_a_recount() -> None:
    name = "Thompson School District R2-J Board of Education Director District E"
    rows = [r for r in rows_of(SUMMARY_2025) if r and r[0] == name]
    assert [(r[1], r[5]) for r in rows] == [("Alexandra Lessem", "30"), ("Mary Buchanan", "30")]
    verdicts = decide_returns(read_returns(SUMMARY_2025.read_bytes()))
    recounts = [d for d in verdicts.decisions if d.automatic_recount]
    assert [d.contest for d in recounts] == [name]  # 30 against 30: a margin of 0
    assert recounts[0].margin == 0


# --- the wide Statement of Votes Cast --------------------------------------------------------------

def test_wide_total_rows_counted_vote_types_set_aside_tie_found() -> None:
    returns = read_returns(FRESNO.read_bytes())
    [contest] = returns.contests
    assert (contest.name, contest.seats, contest.kind) == (DEL_REY, 1, ContestKind.CANDIDATE)  # "(Vote for  1)"
    assert contest.choices == ("ZACARIAS FLORES", "JENNIFER P. LOPEZ", "JOEY LOPEZ", "Write-in", "Unresolved Write-In")
    # precinct 0000230: its Total row (row 10); its Vote Center row is hidden ("****"), its Vote by Mail row partial
    assert contest.votes_by_unit["0000230"] == {"ZACARIAS FLORES": 58, "JENNIFER P. LOPEZ": 58, "JOEY LOPEZ": 49,
                                                "Write-in": 0, "Unresolved Write-In": 0}
    assert contest.units == ("0000230", "Cumulative") and contest.uncertain == {}
    aside = {s.kind: (s.count, s.rows) for s in returns.set_aside}
    # page row, the headings County and Electionwide, the first of the two Cumulative headings
    assert aside[RowKind.NOT_RESULTS.value] == (4, ("row 1", "row 5", "row 6", "row 12"))
    # vote-type rows 8, 9, 14, 15 and the subtotals Electionwide (11), Cumulative (17) and County (18)
    assert aside[RowKind.SUBTOTAL.value] == (7, ("row 8", "row 9", "row 11", "row 14", "row 15"))
    [decision] = decide_returns(returns).decisions
    assert (decision.automatic_recount, decision.margin, decision.highest.votes) == (True, 0, 58)


def test_wide_precincts_listed_under_every_district_grouping_are_counted_once() -> None:
    returns = read_returns(KERN.read_bytes())
    [measure] = returns.contests
    assert (measure.name, measure.kind, measure.seats) == ("Tax Measure C", ContestKind.QUESTION, 1)
    assert dict(measure.totals) == {"Yes": 796, "No": 704}  # "Countywide - Total" (row 24)
    rows = rows_of(KERN)
    seen: set[str] = set()
    subtotals = relisted = 0
    shown = {"Yes": 0, "No": 0}
    for cells in rows[5:]:
        label, numbers = cells[0], any(c for c in cells[1:] if c != cells[0])
        if label.endswith(" - Total"):
            subtotals += 1
        elif numbers and label in seen:
            relisted += 1
        elif numbers:
            seen.add(label)
            if cells[6] != "****":
                shown["Yes"] += int(cells[6])
                shown["No"] += int(cells[8])
    assert set_aside(returns)[RowKind.SUBTOTAL.value] == subtotals + relisted == 139
    # precinct 7012059 hides its counts; the rest comes from the total row
    assert measure.votes_by_unit[HIDDEN_UNIT] == {"Yes": 796 - shown["Yes"], "No": 704 - shown["No"]}
    assert measure.votes_by_unit[HIDDEN_UNIT] == {"Yes": 0, "No": 3}
    assert "7012059" not in measure.units and measure.uncertain == {}
    assert any(n.startswith("'Tax Measure C': 1 precinct hide counts for privacy") for n in returns.notes)
    assert "'Tax Measure C': 'Unresolved Write-In' holds only zeros beside the answers of a question; not read" in (
        returns.notes)


def test_wide_without_vote_for_or_times_cast() -> None:
    returns = read_returns(SAN_FRANCISCO.read_bytes())
    [prop] = returns.contests
    assert (prop.name, prop.kind, prop.seats, prop.readings) == ("Proposition 50", ContestKind.QUESTION, 1, ())
    assert dict(prop.totals) == {"Yes": 251_058, "No": 43_288}  # "Electionwide - Total", the last row
    assert prop.votes_by_unit["PCT 1101"] == {"Yes": 668, "No": 188}  # its Total row: 71 + 597, 8 + 180
    rows = rows_of(SAN_FRANCISCO)
    # a precinct is a heading (no numbers) followed by its Election Day row; the last is "Cumulative"
    precincts = [r[0] for r, after in zip(rows, rows[1:]) if not any(r[1:5]) and after and after[0] == "Election Day"]
    assert list(prop.units) == precincts and len(precincts) == 109 and precincts[-1] == "Cumulative"
    # 108 precincts and Cumulative, each with an Election Day and a Vote by Mail row, and 3 subtotals
    assert set_aside(returns)[RowKind.SUBTOTAL.value] == 2 * 109 + 3 == 221


def test_wide_workbook_pages_in_one_csv() -> None:
    returns = read_returns(SISKIYOU.read_bytes())
    assert [c.name for c in returns.contests] == [
        "PROPOSITION 50", "CITY OF DUNSMUIR MEASURE D", "GRENADA FIRE MEASURE C"]
    assert totals(returns) == {  # each table's "County - Total" row
        "PROPOSITION 50": {"YES": 6_218, "NO": 10_386},
        "CITY OF DUNSMUIR MEASURE D": {"YES": 290, "NO": 266},
        "GRENADA FIRE MEASURE C": {"YES": 204, "NO": 20},
    }
    assert all(c.seats == 1 and c.kind is ContestKind.QUESTION for c in returns.contests)
    # the first page is turnout only: 61 precincts, County, Electionwide, Cumulative (x2), its subtotals
    assert set_aside(returns) == {RowKind.NOT_RESULTS.value: 18, RowKind.TURNOUT.value: 67, RowKind.SUBTOTAL.value: 9}
    assert returns.contest("CITY OF DUNSMUIR MEASURE D").votes_by_unit == {
        "DUNSMUIR CONS - P2100": {"YES": 290, "NO": 266}, "Cumulative": {"YES": 0, "NO": 0}}


def test_wide_damaged_count_leaves_only_its_contest_undecided() -> None:
    text = SISKIYOU.read_text(encoding="utf-8")
    line = "DUNSMUIR CONS - P2100,563,950,,DUNSMUIR CONS - P2100,290,52.16%,266,47.84%,556,0,"
    assert text.count(line) == 1
    row = 1 + next(i for i, r in enumerate(rows_of(SISKIYOU)) if ",".join(r) == line)  # a record is a row
    damaged = read_returns(text.replace(line, line.replace(",290,", ",2g0,")))
    assert [u.contest for u in damaged.undecided] == ["CITY OF DUNSMUIR MEASURE D"]
    assert damaged.undecided[0].rows == (f"row {row}, column YES: is not a whole number of votes (got '2g0')",)
    assert [c.name for c in damaged.contests] == ["PROPOSITION 50", "GRENADA FIRE MEASURE C"]
    assert damaged.contests == read_returns(SISKIYOU.read_bytes()).contests[::2]


def test_wide_header_split_over_two_rows_reads_the_same() -> None:
    rows = rows_of(FRESNO)
    header = rows[3]
    top = [c.split("\n")[0].strip() for c in header]
    below = [(c.split("\n") + [""])[1].strip() if "\n" in c else "" for c in header]
    assert top[:3] == ["Precinct", "Times Cast", "Registered"] and below[2] == "Voters"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows[:3] + [top, below] + rows[4:])
    split = read_returns(out.getvalue())
    whole = read_returns(FRESNO.read_bytes())
    assert split.contests == whole.contests


def test_wide_xlsx_of_the_same_rows_reads_the_same() -> None:
    whole = read_returns(FRESNO.read_bytes())
    from_xlsx = read_returns(xlsx_of(FRESNO))
    assert from_xlsx.source_format == "dominion-sov"
    assert from_xlsx.contests == whole.contests and from_xlsx.set_aside == whole.set_aside


def test_real_workbook_whose_first_worksheet_is_turnout() -> None:
    # Results Tally & Reporting puts turnout on the first worksheet and each contest on its own: every worksheet
    # is read as one survey of returns, the turnout one named as such.
    returns = read_returns(SISKIYOU_XLSX.read_bytes())
    assert [(w.name, w.role) for w in returns.sheets] == [
        ("Sheet1", "turnout"), ("Sheet2", "contests"), ("Sheet3", "contests"), ("Sheet4", "contests")]
    assert [(c.name, dict(c.totals)) for c in returns.contests] == [
        ("PROPOSITION 50", {"YES": 6218, "NO": 10386}), ("CITY OF DUNSMUIR MEASURE D", {"YES": 290, "NO": 266}),
        ("GRENADA FIRE MEASURE C", {"YES": 204, "NO": 20})]
    assert returns.undecided == ()
    from_csv = read_returns(SISKIYOU.read_bytes())  # the same worksheets saved as one CSV
    assert [(c.name, dict(c.totals)) for c in from_csv.contests] == [(c.name, dict(c.totals)) for c in returns.contests]


def test_total_row_that_is_not_the_sum_of_its_vote_types_is_a_problem() -> None:
    text = FRESNO.read_text(encoding="utf-8")
    line = "Total,183,496,,17,1,Total,58,35.15%,58,,35.15%,49,29.70%,0,,0.00%,165,0"
    damaged = read_returns(text.replace(line, line.replace(",49,", ",40,")))
    [undecided] = damaged.undecided
    assert undecided.contest == DEL_REY
    # Vote by Mail has 44 for JOEY LOPEZ and Vote Center hides its count: 40 cannot be their sum
    assert "the Total of precinct '0000230' is 40 for 'JOEY LOPEZ'" in undecided.rows[0]


# --- the command line ------------------------------------------------------------------------------

def test_cli_check_reads_a_dominion_statement() -> None:
    python = ROOT / ".venv" / "bin" / "python"
    result = subprocess.run([str(python if python.exists() else sys.executable), "-m", "bot.cli", "check",
                             str(BOULDER_2023), "--format", "json"],
                            capture_output=True, text=True, encoding="utf-8", cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["source_format"] == "dominion-sov"
    ward = {c["contest"]: c for c in data["contests"]}[WARD_2]
    assert (ward["automatic_recount"], ward["highest"], ward["next_highest"], ward["margin"]) == (
        False, {"choice": "Deborah Fahey", "votes": 1_602}, {"choice": "George Colbert", "votes": 1_441}, 161)
    assert data["undecided"] == [] and len(data["contests"]) == 6
