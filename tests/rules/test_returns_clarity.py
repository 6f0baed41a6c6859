"""Clarity ENR (Scytl) results: summary.csv (`clarity-summary`) and detail.xml (`clarity-detail`).

Fixtures (tests/fixtures/returns/README.md): the Colorado SoS's 2024 general election summary.csv and
detail.xml, cut to the same nine contests, and Atkinson County, Georgia's 2020 precinct-level detail.xml
cut to four contests. Expected figures are computed from the raw rows and elements by a few lines of
csv and ElementTree in this file, independently of the readers, and the key ones are written out.
The two Colorado files are separate publications of the same results, so they must agree.
"""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contest import ContestKind
from rules.returns import ReturnsError, parse_returns, read_returns
from rules.row_kinds import RowKind
from rules.verdicts import decide_returns

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "returns"
SUMMARY = FIXTURES / "clarity_co_2024_summary_small.csv"
DETAIL = FIXTURES / "clarity_co_2024_detail_small.xml"
ATKINSON = FIXTURES / "clarity_ga_atkinson_2020_detail_small.xml"
SHARED_SUMMARY = Path("/work/shared/data/real-returns/clarity-co-2024-general-summary.csv")

PRESIDENT = "Presidential Electors"
HD16, HD19, HD22 = (f"State Representative - District {n}" for n in (16, 19, 22))
ERIE = "Town of Erie Council Member - District 2"
MARQUEZ = "Colorado Supreme Court Justice - M\u00e1rquez"
AMENDMENT_G = "Amendment G (CONSTITUTIONAL)"
WELD_5D = "Weld County School District RE-10J Ballot Issue 5D"
RTD_A = "Regional Transportation District Director - District A"
GA_PRESIDENT = "President of the United States"
VOTE_FOR = re.compile(r" \(Vote For (\d+)\)$")


def summary_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("cp1252"), newline="")))


def summary_totals(data: bytes) -> dict[str, dict[str, int]]:
    """contest (without "(Vote For N)") -> choice -> total votes, straight from the rows."""
    out: dict[str, dict[str, int]] = {}
    for row in summary_rows(data)[1:]:
        out.setdefault(VOTE_FOR.sub("", row[1]), {})[row[2]] = int(row[4])
    return out


def detail_totals(data: bytes) -> dict[str, dict[str, dict[str, int]]]:
    """contest -> choice -> unit -> votes summed over the vote types, from the elements themselves."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for contest in ET.fromstring(data).iter("Contest"):
        for choice in contest.iter("Choice"):
            units = out.setdefault(contest.get("text"), {}).setdefault(choice.get("text"), {})
            for unit in choice.iter():
                if unit.tag in ("County", "Precinct"):
                    units[unit.get("name")] = units.get(unit.get("name"), 0) + int(unit.get("votes"))
    return out


@pytest.fixture(scope="module")
def summary() -> bytes:
    return SUMMARY.read_bytes()


@pytest.fixture(scope="module")
def detail() -> bytes:
    return DETAIL.read_bytes()


@pytest.fixture(scope="module")
def atkinson() -> bytes:
    return ATKINSON.read_bytes()


def by_name(returns) -> dict:
    return {d.contest: d for d in decide_returns(returns).decisions}


# --- summary.csv ----------------------------------------------------------------------------------

def test_summary_adds_up_to_its_rows(summary) -> None:
    returns = read_returns(summary)
    expected = summary_totals(summary)
    assert returns.source_format == "clarity-summary"
    assert len(returns.contests) == len(expected) == 9
    assert {c.name: dict(c.totals) for c in returns.contests} == expected
    assert returns.undecided == () and returns.set_aside == ()  # over/under votes are columns, not rows
    assert all(c.units == ("",) for c in returns.contests)
    assert returns.contest(PRESIDENT).totals["Kamala D. Harris / Tim Walz"] == 1_728_159
    assert returns.contest(HD22).choices == ("Ken deGraaf", "Michael M. Pierson", "Daniel Campa\u00f1a")  # cp1252


def test_summary_seats_kinds_and_parties(summary) -> None:
    returns = read_returns(summary)
    erie = returns.contest(ERIE)
    assert (erie.seats, erie.kind) == (2, ContestKind.CANDIDATE)
    assert erie.choice_details == {}  # party name "1".."4": numbers, not parties
    assert all(c.seats == 1 and not c.readings for c in returns.contests if c.name != ERIE)  # "(Vote For 1)"
    assert not any("(Vote For" in c.name for c in returns.contests)
    for name in (MARQUEZ, AMENDMENT_G, WELD_5D):
        assert returns.contest(name).kind is ContestKind.QUESTION, name
    assert returns.contest(MARQUEZ).choice_details == {}  # "Y"/"N" beside Yes/No
    assert returns.contest(AMENDMENT_G).choices == ("Yes/For", "No/Against")
    assert returns.contest(PRESIDENT).choice_details["Robert F. Kennedy Jr. / Nicole Shanahan"] == {"party": "UAF"}
    assert returns.contest(RTD_A).choice_details == {}
    assert 'seats read from "(Vote For N)" in 9 contest names, which are shown without it' in returns.notes
    assert any(n.startswith("columns line number, percent of votes, registered voters, ballots cast, num Area total, "
                            "num Area rptg, over votes, under votes ignored") for n in returns.notes)


def test_summary_verdicts_checked_by_hand(summary) -> None:
    decisions = by_name(read_returns(summary))
    assert sorted(n for n, d in decisions.items() if d.automatic_recount) == [HD16, HD19]
    # (20,641 - 20,638) * 200 = 600 <= 20,641; 20,641 // 200 = 103
    hd16 = decisions[HD16]
    assert (hd16.highest.choice, hd16.margin, hd16.max_margin_for_recount) == ("Rebecca Keltie", 3, 103)
    # (28,420 - 28,310) * 200 = 22,000 <= 28,420
    assert (decisions[HD19].margin, decisions[HD19].max_margin_for_recount) == (110, 142)
    # two seats: Hoback 3,208 and Bell 3,050 win; Bell vs Hemphill 2,842: 208 * 200 > 3,050
    erie = decisions[ERIE]
    assert [w.choice for w in erie.winners] == ["Dan Hoback", "Brandon M. Bell"]
    assert (erie.highest.votes, erie.next_highest.choice, erie.margin, erie.automatic_recount) == (
        3_050, "Ben Hemphill", 208, False)
    # a question decided by 3 votes, still no recount: 3 * 200 = 600 > 265
    weld = decisions[WELD_5D]
    assert (weld.kind, weld.highest.choice, weld.margin, weld.max_margin_for_recount, weld.automatic_recount) == (
        ContestKind.QUESTION, "No/Against", 3, 1, False)
    marquez = decisions[MARQUEZ]
    assert (marquez.highest.votes, marquez.next_highest.votes, marquez.automatic_recount) == (1_613_684, 905_209, False)


def test_summary_as_a_workbook_reads_the_same(summary) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    for cells in summary_rows(summary):
        workbook.active.append([int(c) if c.isdigit() else float(c) if re.fullmatch(r"\d+\.\d+", c) else c
                                for c in cells])
    out = io.BytesIO()
    workbook.save(out)
    from_xlsx = read_returns(out.getvalue())
    assert from_xlsx.source_format == "clarity-summary"
    assert from_xlsx.contests == read_returns(summary).contests
    assert from_xlsx.undecided == () and from_xlsx.set_aside == ()


def test_summary_damaged_count_leaves_only_its_contest_undecided(summary) -> None:
    damaged = summary.replace(b'"Steph Vigil","DEM",20638', b'"Steph Vigil","DEM",2O638')
    assert damaged != summary
    row = next(i for i, r in enumerate(summary_rows(damaged), 1) if r[2] == "Steph Vigil")
    result = read_returns(damaged)
    assert [u.contest for u in result.undecided] == [HD16]
    assert result.undecided[0].rows == (f"row {row}, column total votes: is not a whole number of votes (got '2O638')",)
    good = read_returns(summary)
    assert [c.name for c in result.contests] == [c.name for c in good.contests if c.name != HD16]
    assert all(c == good.contest(c.name) for c in result.contests)
    verdicts = decide_returns(result)
    assert [u.contest for u in verdicts.undecided] == [HD16]
    assert [d.contest for d in verdicts.decisions if d.automatic_recount] == [HD19]
    with pytest.raises(ReturnsError):
        parse_returns(damaged)


def test_summary_repeated_choice_names_both_rows(summary) -> None:
    line = next(x for x in summary.split(b"\n") if b'"Dan Woog"' in x)
    result = read_returns(summary + line + b"\n")
    first = next(i for i, r in enumerate(summary_rows(summary), 1) if r[2] == "Dan Woog")
    last = len(summary_rows(summary)) + 1
    assert [u.contest for u in result.undecided] == [HD19]
    assert result.undecided[0].rows == (f"row {last}: repeats row {first}: contest {HD19!r}, choice 'Dan Woog'",)


def test_summary_header_variants_and_a_missing_column() -> None:
    text = ('"LINE NUMBER","Contest Name","Choice Name","Party Name","Total Votes","num County total","over votes"\n'
            '1,"UNITED STATES SENATOR","Mark Udall","DEM",782549,64,"0"\n'
            '2,"UNITED STATES SENATOR","Cory Gardner","REP",880925,64,"0"\n'
            '3,"UNITED STATES SENATOR","Over Votes","",12,64,"0"\n')
    returns = read_returns(text)
    senator = returns.contest("UNITED STATES SENATOR")
    assert returns.source_format == "clarity-summary"
    assert dict(senator.totals) == {"Mark Udall": 782_549, "Cory Gardner": 880_925}
    assert [(s.kind, s.count, s.rows) for s in returns.set_aside] == [(RowKind.OVER_UNDER.value, 1, ("row 4",))]
    assert any("one seat" in r for r in senator.readings)  # no "(Vote For N)": one seat assumed, and said
    with pytest.raises(ReturnsError) as caught:
        read_returns('"contest name","choice name","party name"\n"Mayor (Vote For 1)","Ann",""\n')
    assert caught.value.problems[0].message.startswith("missing column 'total votes'")


@pytest.mark.skipif(not SHARED_SUMMARY.exists(), reason="the shared summary.csv is not on this machine")
def test_the_whole_summary_of_2024() -> None:
    data = SHARED_SUMMARY.read_bytes()
    expected = summary_totals(data)
    returns = read_returns(data)
    assert len(returns.contests) == len(expected) == 295 and returns.undecided == ()
    assert {c.name: dict(c.totals) for c in returns.contests} == expected
    close = sorted(n for n, t in expected.items()
                   if len(t) > 1 and (sorted(t.values())[-1] - sorted(t.values())[-2]) * 200 <= max(t.values()))
    assert close == [HD16, HD19]
    assert sorted(n for n, d in by_name(returns).items() if d.automatic_recount) == close


# --- detail.xml -----------------------------------------------------------------------------------

def test_detail_adds_up_and_agrees_with_the_summary(detail, summary) -> None:
    returns = read_returns(detail)
    raw = detail_totals(detail)
    assert returns.source_format == "clarity-detail"
    assert returns.undecided == ()
    assert {c.name: {ch: {u: c.votes_by_unit[u][ch] for u in c.units if ch in c.votes_by_unit[u]} for ch in c.choices}
            for c in returns.contests} == raw
    assert {c.name: dict(c.totals) for c in returns.contests} == summary_totals(summary)  # two publications agree
    president = returns.contest(PRESIDENT)
    assert len(president.units) == 64 and president.units[:2] == ("Adams", "Alamosa")
    assert president.votes_by_unit["Adams"]["Kamala D. Harris / Tim Walz"] == 124_056
    assert [(s.kind, s.count, s.rows) for s in returns.set_aside] == [
        (RowKind.TURNOUT.value, 65, ("/ElectionResult/ElectionVoterTurnout",))]  # the element and its 64 counties


def test_detail_seats_kinds_and_verdicts(detail, summary) -> None:
    returns = read_returns(detail)
    erie = returns.contest(ERIE)
    assert erie.seats == 2 and erie.choice_details == {}
    assert returns.contest(AMENDMENT_G).kind is ContestKind.QUESTION  # isQuestion="false", but Yes/For, No/Against
    assert returns.contest(PRESIDENT).choice_details["Donald J. Trump / JD Vance"] == {"party": "REP"}
    from_detail, from_summary = decide_returns(returns), decide_returns(read_returns(summary))
    assert [(d.contest, d.automatic_recount, d.margin) for d in from_detail.decisions] == [
        (d.contest, d.automatic_recount, d.margin) for d in from_summary.decisions]
    assert [d.contest for d in from_detail.decisions if d.automatic_recount] == [HD16, HD19]


def test_detail_is_question_true_is_the_files_word(detail) -> None:
    stated = detail.replace(b'text="Colorado Supreme Court Justice - M\xc3\xa1rquez" voteFor="1" isQuestion="false"',
                            b'text="Colorado Supreme Court Justice - M\xc3\xa1rquez" voteFor="1" isQuestion="true"')
    assert stated != detail
    returns = read_returns(stated)
    assert returns.contest(MARQUEZ).kind is ContestKind.QUESTION
    assert not any(MARQUEZ in note for note in returns.notes)  # not inferred: the file said so
    assert any(MARQUEZ in note for note in read_returns(detail).notes)


def test_precinct_units_sum_their_vote_types_once(atkinson) -> None:
    returns = read_returns(atkinson)
    president = returns.contest(GA_PRESIDENT)
    assert president.units == ("Pearson County", "Axson", "Willacoochee", "Pearson City")
    # Willacoochee, Trump: election day 224 + advance 299 + mail 43 + provisional 0
    assert president.votes_by_unit["Willacoochee"]["Donald J. Trump (I) (Rep)"] == 566
    assert dict(president.totals) == {"Donald J. Trump (I) (Rep)": 2_300, "Joseph R. Biden (Dem)": 825,
                                      "Jo Jorgensen (Lib)": 30}  # each Choice's totalVotes, not twice it
    raw = detail_totals(atkinson)
    assert {c.name: dict(c.totals) for c in returns.contests} == {
        n: {ch: sum(units.values()) for ch, units in choices.items()} for n, choices in raw.items()}
    assert [(s.kind, s.count) for s in returns.set_aside] == [
        (RowKind.TURNOUT.value, 5), (RowKind.OVER_UNDER.value, 34)]  # 4 contests' Undervotes and Overvotes
    assert returns.contest("Constitutional Amendment #1").kind is ContestKind.QUESTION
    decisions = by_name(returns)
    assert (decisions["County Commission District 1"].margin, decisions["County Commission District 1"]
            .automatic_recount) == (318 - 272, False)


def test_a_vote_type_that_does_not_add_up_leaves_its_contest_undecided(atkinson) -> None:
    """The edit elex-clarity made to this file for its own tests (Willacoochee's election day set to 0)."""
    edited = atkinson.replace(b'<Precinct name="Willacoochee" votes="224" />',
                              b'<Precinct name="Willacoochee" votes="0" />', 1)
    assert edited != atkinson
    result = read_returns(edited)
    assert [u.contest for u in result.undecided] == [GA_PRESIDENT]
    assert result.undecided[0].rows[0] == (
        '/ElectionResult/Contest[@text="President of the United States"]/Choice[@text="Donald J. Trump (I) (Rep)"]'
        '/VoteType[@name="Election Day Votes"]/@votes: is 716, but the Precinct elements under it add up to 492')
    assert len(result.contests) == 3
    total = atkinson.replace(b'totalVotes="2300"', b'totalVotes="2301"', 1)
    result = read_returns(total)
    assert [u.contest for u in result.undecided] == [GA_PRESIDENT]
    assert result.undecided[0].rows[0].endswith("/@totalVotes: is 2,301, but its vote types add up to 2,300")


def test_detail_damaged_count_leaves_only_its_contest_undecided(detail) -> None:
    damaged = detail.replace(b'<County name="Weld" votes="265" />', b'<County name="Weld" votes="26S" />')
    assert damaged.count(b'votes="26S"') == 1
    result = read_returns(damaged)
    assert [u.contest for u in result.undecided] == [WELD_5D]
    assert result.undecided[0].rows == (
        f'/ElectionResult/Contest[@text="{WELD_5D}"]/Choice[@text="No/Against"]/VoteType[@name="Total Votes"]'
        "/County[@name=\"Weld\"]/@votes: is not a whole number of votes (got '26S')",)
    assert [c.name for c in result.contests] == [c.name for c in read_returns(detail).contests if c.name != WELD_5D]
    verdicts = decide_returns(result)
    assert [u.contest for u in verdicts.undecided] == [WELD_5D] and len(verdicts.decisions) == 8
    with pytest.raises(ReturnsError):
        parse_returns(damaged)


def test_xml_that_is_not_clarity_is_refused_clearly(detail) -> None:
    other = b'<?xml version="1.0"?>\n<ElectionReport xmlns="http://itl.nist.gov/ns/voting/1500-100/v2"/>\n'
    with pytest.raises(ReturnsError) as caught:
        read_returns(other)
    assert "this is XML, but not Clarity's detail.xml (<ElectionResult>)" in str(caught.value)
    with pytest.raises(ReturnsError) as caught:
        read_returns(other, format="clarity-detail")
    assert str(caught.value) == ("file: is not Clarity's detail.xml: its root element is <ElectionReport>, "
                                 "not <ElectionResult>")
    with pytest.raises(ReturnsError) as caught:
        read_returns(detail[: len(detail) // 2])  # cut off mid-file
    assert "is not well-formed XML" in str(caught.value) and caught.value.problems[0].location.startswith("line ")


def test_a_dtd_is_refused_before_any_entity_expands() -> None:
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    bomb = (f'<?xml version="1.0"?>\n<!DOCTYPE ElectionResult [<!ENTITY l0 "lol">{laughs}]>\n'
            '<ElectionResult><Contest text="&l9;"/></ElectionResult>')
    start = time.perf_counter()
    with pytest.raises(ReturnsError) as caught:
        read_returns(bomb)
    assert time.perf_counter() - start < 1
    assert "declares a DTD" in str(caught.value)


# --- whatever the cells hold: returns, or a ReturnsError a clerk can read ------------------------

_CELL = st.sampled_from(["", " ", "0", "7", "12", "1,234", "12.0", "-3", "2.5", "(< 25)", "***", "x", "Yes", "No",
                         "Yes/For", "Total Votes", "Over Votes", "Ann", "Mayor (Vote For 2)", "Mayor (Vote For 0)",
                         "(Vote For 1)", "Registered Voters", "Y", "DEM", "1", "R\u00f3man", '"q"'])


def _valid(result) -> None:
    for contest in result.contests:
        assert all(type(v) is int and v >= 0 for counts in contest.votes_by_unit.values() for v in counts.values())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_CELL, min_size=0, max_size=6), max_size=12))
def test_random_summary_rows(rows: list[list[str]]) -> None:
    text = "\n".join(['"line number","contest name","choice name","party name","total votes","over votes"',
                      *(",".join(f'"{c}"' if "," in c else c for c in r) for r in rows)])
    try:
        result = read_returns(text)
    except ReturnsError as error:
        assert not any("internal error" in p.message for p in error.problems), str(error)
        return
    assert result.source_format == "clarity-summary"
    _valid(result)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CELL, min_size=9, max_size=9))
def test_random_detail_attributes(cells: list[str]) -> None:
    a = [quoteattr(c) for c in cells]
    text = (f'<ElectionResult><Contest key="1" text={a[0]} voteFor={a[1]} isQuestion={a[2]}>'
            f'<VoteType name={a[3]} votes={a[4]}><Precinct name="P1" votes={a[4]}/></VoteType>'
            f'<Choice key="1" text={a[5]} party={a[6]} totalVotes={a[7]}><VoteType name="Election" votes={a[7]}>'
            f'<Precinct name={a[8]} votes={a[4]}/><Precinct name="P2" votes={a[7]}/></VoteType></Choice>'
            '</Contest></ElectionResult>')
    try:
        result = read_returns(text)
    except ReturnsError as error:
        assert not any("internal error" in p.message for p in error.problems), str(error)
        return
    assert result.source_format == "clarity-detail"
    _valid(result)


# --- through the real command -------------------------------------------------------------------

@pytest.mark.parametrize(("fixture", "name", "source_format"), [
    (SUMMARY, "summary.csv", "clarity-summary"), (DETAIL, "detail.xml", "clarity-detail")])
def test_check_through_the_command_line(tmp_path, fixture, name, source_format) -> None:
    path = tmp_path / name
    path.write_bytes(fixture.read_bytes())
    result = subprocess.run([sys.executable, "-m", "bot.cli", "check", str(path), "--format", "json"],
                            capture_output=True, text=True, encoding="utf-8", cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert data["source_format"] == source_format and data["undecided"] == []
    contests = {c["contest"]: c for c in data["contests"]}
    assert len(contests) == 9
    assert [c["contest"] for c in data["contests"] if c["automatic_recount"]] == [HD16, HD19]  # closest first
    assert (contests[HD16]["margin"], contests[HD16]["max_margin_for_recount"]) == (3, 103)
    assert (contests[ERIE]["seats"], contests[ERIE]["margin"]) == (2, 208)
    assert contests[MARQUEZ]["kind"] == "question"


def test_the_files_own_election_name_says_whether_it_is_a_primary() -> None:
    from rules.returns import read_returns

    data = (FIXTURES / "clarity_co_2024_detail_small.xml").read_bytes()
    general = read_returns(data)
    assert general.readings[0].startswith("general election: the file's ElectionName says so (2024 General)")
    primary = read_returns(data.replace(b"<ElectionName>2024 General<", b"<ElectionName>2024 State Primary<"))
    assert primary.readings[0].startswith("party primary: the file's ElectionName says so (2024 State Primary)")
    assert any(c.name.endswith("(DEM)") for c in primary.contests)
    # The clerk's word still comes first.
    said = read_returns(data.replace(b"<ElectionName>2024 General<", b"<ElectionName>2024 State Primary<"),
                        election_kind="general")
    assert said.readings[0].startswith("general election: as you said")
