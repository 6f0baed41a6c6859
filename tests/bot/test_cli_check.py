"""`recount-bot check` through the real command line, as a clerk runs it.

Every test starts the installed console script (or `python -m bot.cli` when the script is missing) in a
subprocess, writes its input files to tmp_path and looks only at what a person sees: stdout, stderr
and the exit status.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"
NIST_FIXTURE = ROOT / "tests" / "fixtures" / "returns" / "nist_small.json"
OPENELECTIONS_DIR = Path("/work/shared/data/openelections-co")
OPENELECTIONS_2016 = OPENELECTIONS_DIR / "20161108__co__general__county.csv"
OPENELECTIONS_2018 = OPENELECTIONS_DIR / "20181106__co__general__county.csv"

CHERRY = "Cherry Creek Valley Water and Sanitation District - Director"
BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"
PINE = "Pine Ridge Metropolitan District - Director"
ASPEN = "Aspen Grove Library District - Trustee"

CONTEST_KEYS = {
    "contest", "automatic_recount", "highest", "next_highest", "margin", "max_margin_for_recount", "rule",
    "readings", "citation", "reason", "outcome", "kind", "seats", "winners", "tie_for_last_seat", "tie_note",
    "write_in_note", "part_of_district",
}


def _command() -> list[str]:
    script = Path(sys.executable).with_name("recount-bot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bot.cli"]


def _clerk_env() -> dict[str, str]:
    """The environment of a clerk's shell: no PYTHONUNBUFFERED, which would hide buffering bugs."""
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    return env


def recount_bot(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_command(), *map(str, args)], capture_output=True, text=True, encoding="utf-8",
        env=_clerk_env(), cwd=cwd or ROOT, timeout=120,
    )


def check_json(*args: str | Path) -> dict:
    result = recount_bot("check", *args, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def by_name(data: dict) -> dict[str, dict]:
    return {c["contest"]: c for c in data["contests"]}


def assert_bad_input(result: subprocess.CompletedProcess[str], *expected: str) -> str:
    """Exit 2, nothing on stdout, no traceback, and every expected fragment in stderr."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in expected:
        assert fragment in result.stderr, f"{fragment!r} not in stderr:\n{result.stderr}"
    return result.stderr


def assert_undecided(result: subprocess.CompletedProcess[str], *expected: str) -> str:
    """Exit 3: the file was read, a contest could not be decided; it is listed (stdout) with its rows."""
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and "could not be decided" in result.stderr
    assert "Undecided (" in result.stdout
    for fragment in expected:
        assert fragment in result.stdout, f"{fragment!r} not in stdout:\n{result.stdout}"
    return result.stdout


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ text output

@pytest.fixture(scope="module")
def example_text() -> str:
    result = recount_bot("check", EXAMPLE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def _table_row(text: str, contest: str) -> str:
    rows = [line for line in text.splitlines() if contest in line and not line.startswith("- ")]
    assert len(rows) == 1, rows
    return rows[0]


def test_text_summary_line(example_text):
    first = example_text.splitlines()[0]
    assert first.startswith("4 contests checked (template format), closest first; 2 need an automatic recount")
    assert "C.R.S. 1-13.5-1306(1)" in first


def test_text_closest_first(example_text):
    lines = example_text.splitlines()
    order = [next(i for i, line in enumerate(lines) if name in line) for name in (CHERRY, BEAR, PINE, ASPEN)]
    assert order == sorted(order)


def test_text_ballot_issue_6a_is_a_recount_at_the_boundary(example_text):
    row = _table_row(example_text, BEAR)
    assert row.split()[0] == "RECOUNT"
    assert "Yes 4,339" in row and "No 4,318" in row
    assert row.split()[-3:] == ["21", "21", "1"]  # margin, triggers at <=, seats
    assert (f"- {BEAR}: margin 21 between highest and next highest is within 1/2 of 1% of 4,339 (at most 21) "
            "— automatic recount. [C.R.S. 1-13.5-1306(1)]") in example_text


def test_text_cherry_creek_tie_for_the_second_seat(example_text):
    row = _table_row(example_text, CHERRY)
    assert row.split()[0] == "RECOUNT"
    assert "Thomas Reed 2,666" in row and "Priya Natarajan 2,666" in row
    assert row.split()[-3:] == ["0", "13", "2"]
    tie_lines = [line for line in example_text.splitlines() if line.strip().startswith("TIE:")]
    assert len(tie_lines) == 1
    assert "Thomas Reed, Priya Natarajan at 2,666 votes" in tie_lines[0]
    assert "decided by lot by the canvass board (C.R.S. 1-13.5-1304)" in tie_lines[0]
    assert "Multi-seat contests use the reading 'last-winner-first-loser'" in example_text


def test_text_pine_ridge_no_recount_and_aspen_grove_uncontested(example_text):
    pine = _table_row(example_text, PINE)
    assert pine.startswith("no recount ")
    assert pine.split()[-3:] == ["346", "7", "1"]
    aspen = _table_row(example_text, ASPEN)
    assert aspen.startswith("uncontested ")
    assert "Helen Marsh 1,804" in aspen
    assert f"- {ASPEN}: uncontested (only one choice)" in example_text


def test_text_states_the_test_and_cites_every_verdict(example_text):
    assert "Test: (highest - next highest) x 200 <= highest" in example_text
    verdicts = [line for line in example_text.splitlines() if line.startswith("- ")]
    assert len(verdicts) == 4
    assert all(line.endswith("[C.R.S. 1-13.5-1306(1)]") for line in verdicts)


# ------------------------------------------------------------------------------------ JSON output

def test_json_shape_and_types():
    data = check_json(EXAMPLE)
    assert set(data) == {"contests", "undecided", "set_aside", "source_format", "multi_seat_rule", "readings",
                         "notes", "law", "sheets"}
    assert (data["law"]["key"], data["law"]["given"]) == ("1-13.5-1306", False)
    assert data["law"]["note"] == "no --law given: C.R.S. 1-13.5-1306 applied by default"
    assert data["undecided"] == [] and data["set_aside"] == [] and data["sheets"] == []  # a CSV has no worksheets
    assert data["source_format"] == "template"
    assert data["multi_seat_rule"] == "last-winner-first-loser"
    assert isinstance(data["notes"], list)
    assert [c["contest"] for c in data["contests"]] == [CHERRY, BEAR, PINE, ASPEN]
    for c in data["contests"]:
        assert set(c) == CONTEST_KEYS, c["contest"]
        assert type(c["automatic_recount"]) is bool and type(c["tie_for_last_seat"]) is bool
        assert type(c["seats"]) is int
        assert set(c["highest"]) == {"choice", "votes"} and type(c["highest"]["votes"]) is int
        assert c["citation"] == "C.R.S. 1-13.5-1306(1)"
        assert isinstance(c["rule"], str) and c["rule"]
        assert isinstance(c["reason"], str) and c["contest"] in c["reason"]
        for w in c["winners"]:
            assert set(w) == {"choice", "votes"} and type(w["votes"]) is int
        if c["next_highest"] is None:
            assert c["margin"] is None and c["max_margin_for_recount"] is None
        else:
            assert set(c["next_highest"]) == {"choice", "votes"} and type(c["next_highest"]["votes"]) is int
            assert type(c["margin"]) is int and type(c["max_margin_for_recount"]) is int


def test_json_values():
    contests = by_name(check_json(EXAMPLE))
    bear = contests[BEAR]
    assert bear["automatic_recount"] is True
    assert bear["highest"] == {"choice": "Yes", "votes": 4339}
    assert bear["next_highest"] == {"choice": "No", "votes": 4318}
    assert (bear["margin"], bear["max_margin_for_recount"]) == (21, 21)
    assert (bear["outcome"], bear["kind"], bear["seats"]) == ("automatic_recount", "question", 1)
    assert bear["winners"] == [{"choice": "Yes", "votes": 4339}]
    assert bear["tie_for_last_seat"] is False and bear["tie_note"] is None
    assert bear["rule"].startswith("single seat")

    cherry = contests[CHERRY]
    assert cherry["automatic_recount"] is True
    assert cherry["highest"] == {"choice": "Thomas Reed", "votes": 2666}
    assert cherry["next_highest"] == {"choice": "Priya Natarajan", "votes": 2666}
    assert (cherry["margin"], cherry["max_margin_for_recount"], cherry["seats"]) == (0, 13, 2)
    # The last seat is tied: winners names only the choice above the tie, never one of the tied two.
    assert cherry["winners"] == [{"choice": "Maria Alvarez", "votes": 2710}]
    assert cherry["tie_for_last_seat"] is True
    assert "C.R.S. 1-13.5-1304" in cherry["tie_note"]
    assert "last winner vs first loser" in cherry["rule"]

    pine = contests[PINE]
    assert pine["automatic_recount"] is False and pine["outcome"] == "no_recount"
    assert (pine["margin"], pine["max_margin_for_recount"]) == (346, 7)

    aspen = contests[ASPEN]
    assert aspen["automatic_recount"] is False and aspen["outcome"] == "uncontested"
    assert aspen["highest"] == {"choice": "Helen Marsh", "votes": 1804}
    assert aspen["next_highest"] is None and aspen["margin"] is None and aspen["max_margin_for_recount"] is None


def test_json_top_two_changes_the_cherry_creek_pair_and_rule():
    data = check_json(EXAMPLE, "--multi-seat-rule", "top-two")
    assert data["multi_seat_rule"] == "top-two"
    cherry = by_name(data)[CHERRY]
    assert cherry["highest"] == {"choice": "Maria Alvarez", "votes": 2710}
    assert cherry["next_highest"] == {"choice": "Thomas Reed", "votes": 2666}
    assert (cherry["margin"], cherry["max_margin_for_recount"]) == (44, 13)
    assert cherry["automatic_recount"] is False
    assert "two highest totals" in cherry["rule"]
    assert cherry["tie_for_last_seat"] is True  # the tie for the last seat is flagged whatever the reading
    # single-seat contests read the same under both readings
    default = by_name(check_json(EXAMPLE))
    for name in (BEAR, PINE, ASPEN):
        assert by_name(data)[name] == default[name]


def test_json_is_plain_ascii_with_escapes():
    result = recount_bot("check", EXAMPLE, "--format", "json")
    assert result.stdout.isascii()  # the em dash of the reasons is escaped: safe on any console


def test_contest_filter():
    data = check_json(EXAMPLE, "--contest", BEAR, "--contest", ASPEN)
    assert [c["contest"] for c in data["contests"]] == [BEAR, ASPEN]


# ------------------------------------------------------------------------------------ the boundary

@pytest.mark.parametrize(("highest", "next_highest", "triggers"), [
    (500, 498, True),    # 2 * 200 = 400 <= 500
    (500, 497, False),   # 3 * 200 = 600 > 500
    (1000, 995, True),   # 5 * 200 = 1000 <= 1000: exactly one-half of one percent triggers
    (1000, 994, False),
    (7, 7, True),        # a tie always triggers
])
def test_boundary_through_the_cli(tmp_path, highest, next_highest, triggers):
    path = write(tmp_path, "boundary.csv",
                 f"contest,choice,votes\nMayor,Alice,{highest}\nMayor,Bob,{next_highest}\n")
    (contest,) = check_json(path)["contests"]
    assert contest["automatic_recount"] is triggers
    assert contest["margin"] == highest - next_highest
    assert contest["max_margin_for_recount"] == highest // 200
    text = recount_bot("check", path)
    assert text.returncode == 0
    assert _table_row(text.stdout, "Mayor").split()[0] == ("RECOUNT" if triggers else "no")


def test_units_are_summed(tmp_path):
    path = write(tmp_path, "units.csv", "contest,choice,votes,unit\n"
                 "Mayor,Alice,250,P1\nMayor,Alice,250,P2\nMayor,Bob,249,P1\nMayor,Bob,249,P2\n")
    (contest,) = check_json(path)["contests"]
    assert contest["highest"]["votes"] == 500 and contest["next_highest"]["votes"] == 498
    assert contest["automatic_recount"] is True


# ------------------------------------------------------------------------------------ bad input

def test_missing_column_with_the_template_format(tmp_path):
    path = write(tmp_path, "missing.csv", "contest,choice,unit\nMayor,Alice,P1\n")
    assert_bad_input(recount_bot("check", path, "--input-format", "template"),
                     "nothing was checked", "row 1: missing column 'votes'")


def test_missing_column_detected_format_names_the_column(tmp_path):
    # contest and choice are enough to recognise the template: the clerk is told which column to add.
    path = write(tmp_path, "missing.csv", "contest,choice,unit\nMayor,Alice,P1\n")
    stderr = assert_bad_input(recount_bot("check", path), "nothing was checked", "row 1: missing column 'votes'")
    assert "unknown format" not in stderr


def test_negative_votes(tmp_path):
    path = write(tmp_path, "neg.csv", "contest,choice,votes\nMayor,Alice,-5\nMayor,Bob,3\nBoard,Cy,4\nBoard,Di,1\n")
    out = assert_undecided(recount_bot("check", path), "- Mayor: a row of this contest cannot be read",
                           "row 2, column votes: must not be negative (got '-5')")
    assert out.startswith("1 contest checked (template format)")  # Board is still decided
    data = json.loads(recount_bot("check", path, "--format", "json").stdout)
    assert [c["contest"] for c in data["contests"]] == ["Board"]
    assert data["undecided"] == [{"contest": "Mayor", "reason": "a row of this contest cannot be read: row 2, column "
                                  "votes: must not be negative (got '-5')",
                                  "rows": ["row 2, column votes: must not be negative (got '-5')"],
                                  "seats_not_stated": False}]


def test_fractional_votes(tmp_path):
    path = write(tmp_path, "frac.csv", "contest,choice,votes\nMayor,Alice,12.5\nMayor,Bob,3\n")
    assert_undecided(recount_bot("check", path), "row 2, column votes: must be a whole number of votes (got '12.5')")


def test_empty_file(tmp_path):
    path = write(tmp_path, "empty.csv", "")
    assert_bad_input(recount_bot("check", path), "empty.csv", "is empty")


def test_header_only(tmp_path):
    path = write(tmp_path, "header.csv", "contest,choice,votes\n")
    assert_bad_input(recount_bot("check", path), "has a header but no rows of returns")


def test_duplicate_contest_choice_unit_names_both_rows(tmp_path):
    path = write(tmp_path, "dup.csv", "contest,choice,votes,unit\nMayor,Alice,5,P1\nMayor,Bob,3,P1\nMayor,Alice,6,P1\n")
    assert_undecided(recount_bot("check", path), "row 4: repeats row 2: contest 'Mayor', choice 'Alice', unit 'P1'")


def test_unknown_content_format(tmp_path):
    path = write(tmp_path, "unknown.csv", "foo,bar\n1,2\n")
    assert_bad_input(recount_bot("check", path), "unknown format", "the first row has: foo, bar")


def test_unknown_format_option():
    assert_bad_input(recount_bot("check", EXAMPLE, "--input-format", "xml"),
                     "--input-format", "invalid choice: 'xml'")


def test_json_that_is_not_nist(tmp_path):
    path = write(tmp_path, "other.json", '{"hello": 1}')
    assert_bad_input(recount_bot("check", path), "unknown format", "JSON without that @type")


def test_nonexistent_file(tmp_path):
    assert_bad_input(recount_bot("check", tmp_path / "nope.csv"), "nope.csv: no such file")


def test_directory_instead_of_file(tmp_path):
    assert_bad_input(recount_bot("check", tmp_path), "is a directory")


@pytest.mark.parametrize("value", ["bad", "Mayor=0", "Mayor=two", "=2"])
def test_bad_seats_option(value):
    assert_bad_input(recount_bot("check", EXAMPLE, "--seats", value), f"--seats {value!r}", "CONTEST=N")


def test_seats_option_naming_no_contest(tmp_path):
    path = write(tmp_path, "ok.csv", "contest,choice,votes\nMayor,Alice,5\nMayor,Bob,3\n")
    assert_bad_input(recount_bot("check", path, "--seats", "Dogcatcher=2"), "Dogcatcher")


def test_contest_naming_no_contest():
    stderr = assert_bad_input(recount_bot("check", EXAMPLE, "--contest", "Dogcatcher"),
                              "--contest 'Dogcatcher': no such contest")
    assert BEAR in stderr  # the contests there are are listed, to pick from


def test_several_problems_all_listed(tmp_path):
    path = write(tmp_path, "many.csv", "contest,choice,votes,seats,kind,unit\n"
                 "A,x,-5,1,candidate,P1\n"      # row 2: negative
                 "A,y,12.5,1,candidate,P1\n"    # row 3: fractional
                 ",z,4,1,candidate,P1\n"        # row 4: no contest
                 "B,x,5,two,candidate,P1\n"     # row 5: seats
                 "B,y,3,1,animal,P1\n"          # row 6: kind
                 "B,x,6,1,candidate,P1\n"       # row 7: repeats row 5
                 "C,p,abc,1,candidate,P1\n")    # row 8: not a number
    stdout = assert_undecided(
        recount_bot("check", path), "0 contests checked", "4 could not be decided",
        "row 2, column votes: must not be negative",
        "row 3, column votes: must be a whole number of votes (got '12.5')",
        "row 4, column contest: is empty",
        "row 5, column seats:",
        "row 6, column kind: must be candidate or question (got 'animal')",
        "row 7: repeats row 5",
        "row 8, column votes:",
    )
    assert len([line for line in stdout.splitlines() if line.startswith("    row ")]) == 7
    # Recording such a file is refused whole, listing all seven.
    result = recount_bot("import", path, "--election-date", "2026-11-03", "--name", "E")
    assert result.returncode == 2 and "7 problems in the returns; nothing was imported" in result.stderr


def _nist_with(tmp_path: Path, counts: dict[tuple[int, int], object]) -> Path:
    document = json.loads(NIST_FIXTURE.read_text(encoding="utf-8"))
    for (selection, vote_count), value in counts.items():
        document["Election"][0]["Contest"][0]["ContestSelection"][selection]["VoteCounts"][vote_count]["Count"] = value
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_nist_fixture_checks():
    data = check_json(NIST_FIXTURE)
    assert data["source_format"] == "nist"
    assert data["contests"]


def test_nist_fractional_count_shows_its_json_path(tmp_path):
    path = _nist_with(tmp_path, {(0, 0): 412.5})
    assert_undecided(recount_bot("check", path),
                     "$.Election[0].Contest[0].ContestSelection[0].VoteCounts[0].Count: "
                     "must be a whole number of votes (got 412.5)")


def test_nist_several_problems_all_listed(tmp_path):
    path = _nist_with(tmp_path, {(0, 0): 412.5, (1, 0): -3})
    assert_undecided(recount_bot("check", path),
                     "$.Election[0].Contest[0].ContestSelection[0].VoteCounts[0].Count: must be a whole number",
                     "$.Election[0].Contest[0].ContestSelection[1].VoteCounts[0].Count: must not be negative")
    # Recording it is refused whole, both problems listed.
    result = recount_bot("import", path, "--election-date", "2026-11-03", "--name", "E")
    assert result.returncode == 2 and "2 problems in the returns; nothing was imported" in result.stderr


def test_usage_errors_show_usage_and_exit_2():
    assert_bad_input(recount_bot("check"), "usage:", "file")
    assert_bad_input(recount_bot("check", EXAMPLE, "--format", "xml"), "--format")
    assert_bad_input(recount_bot(), "usage:")


# ------------------------------------------------------------------------------------ real files

@pytest.mark.skipif(not OPENELECTIONS_2016.exists(), reason=f"{OPENELECTIONS_2016} is not on this machine")
def test_openelections_2016_real_file():
    result = recount_bot("check", OPENELECTIONS_2016, "--format", "json")
    assert result.returncode == 3, result.stderr
    data = json.loads(result.stdout)
    assert data["source_format"] == "openelections"
    # 128 offices decided, and each of the 11 judges standing for retention as its own Yes-only question: the
    # file has no "No" votes, so they are undecided (not checkable) rather than compared with each other.
    assert len(data["contests"]) == 128
    assert [(s["kind"], s["count"]) for s in data["set_aside"]] == [("subtotal", 300)]
    assert any(note.startswith("retention: no 'No' votes in the file for Supreme Court, Court of Appeals")
               for note in data["notes"])
    judges = [u for u in data["undecided"] if u["contest"].startswith(("Supreme Court", "Court of Appeals"))]
    assert len(judges) == len(data["undecided"]) == 11
    assert all("with only 'Yes' votes in the file (a retention published with its Yes votes only)" in u["reason"]
               for u in judges)
    text = recount_bot("check", OPENELECTIONS_2016)
    assert text.returncode == 3 and "Traceback" not in text.stderr
    assert text.stdout.startswith("128 contests checked (openelections format)")


@pytest.mark.skipif(not OPENELECTIONS_2018.exists(), reason=f"{OPENELECTIONS_2018} is not on this machine")
def test_openelections_2018_real_file():
    data = check_json(OPENELECTIONS_2018)
    assert data["source_format"] == "openelections"
    assert data["contests"]


@pytest.mark.skipif(not OPENELECTIONS_2016.exists(), reason=f"{OPENELECTIONS_2016} is not on this machine")
def test_legacy_console_encoding_does_not_fail(tmp_path):
    """A Windows clerk redirecting to a file writes cp1252; the 2016 file's U+FFFD cannot be encoded."""
    env = _clerk_env() | {"PYTHONIOENCODING": "cp1252"}
    result = subprocess.run([*_command(), "check", str(OPENELECTIONS_2016)], capture_output=True, env=env,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 3, result.stderr.decode("utf-8", "replace")  # the Yes-only retentions
    assert result.stdout.startswith(b"128 contests checked")


# ------------------------------------------------------------------------------------ pipes
# `recount-bot run` now starts the Slack app or the offline sandbox: see test_cli_run.py and test_cli_serve.py.

@pytest.mark.parametrize("args", [
    ("check", str(EXAMPLE)),
    ("check", str(EXAMPLE), "--format", "json"),
    ("deadlines", "--election-date", "2026-11-03"),
])
def test_reader_gone_exits_quietly(args):
    """`recount-bot ... | head`: the reader leaves before the output is written; no traceback, exit 0."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([*_command(), *args], stdout=write_end, stderr=subprocess.PIPE, text=True,
                                env=_clerk_env(), cwd=ROOT, timeout=120)
    finally:
        os.close(write_end)
    assert result.returncode == 0
    assert result.stderr == ""
