"""No file can hurt the command: the hostile files of issue 21 through the real `recount-bot check`.

Each runs in a subprocess whose address space is capped (tests/support/measured_cli.py: an allocation past the
cap fails rather than take the machine), and the command must answer with a clear refusal, exit 2, nothing on
stdout, no traceback and no bytes of the file, holding at most PEAK_MIB of memory. How fast, and against which
baseline, is measured in benchmarks/workbook_reading.py, not here.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.workbooks import far_cell, huge_string, many_rows

ROOT = Path(__file__).resolve().parents[2]
CAP_MIB = 1024  # address space: the interpreter and its libraries take some 200 MiB of it
PEAK_MIB = 250  # resident at the peak: the interpreter (~40 MiB) and the 200 MB the issue allows, at most


def measured_check(*args: str | Path) -> tuple[subprocess.CompletedProcess[str], int]:
    result = subprocess.run([sys.executable, "-m", "tests.support.measured_cli", str(CAP_MIB), "check", *map(str, args)],
                            capture_output=True, text=True, encoding="utf-8", errors="replace", cwd=ROOT, timeout=120)
    *rest, last = result.stderr.rstrip("\n").split("\n")
    assert last.startswith("peak-rss-kib "), result.stderr
    result.stderr = "\n".join(rest)
    return result, int(last.split()[1]) // 1024


def assert_refused(result: subprocess.CompletedProcess[str], peak_mib: int, *fragments: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    assert result.stdout == "" and "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    assert all(ch.isprintable() or ch == "\n" for ch in result.stderr), "bytes of the file on the terminal"
    assert peak_mib < PEAK_MIB, f"peak resident memory {peak_mib} MiB"


def test_a_cell_at_xfd1048576_is_refused_before_a_grid_is_built(tmp_path: Path) -> None:
    path = tmp_path / "far.xlsx"
    path.write_bytes(far_cell())
    assert path.stat().st_size < 5_000
    result, peak = measured_check(path)
    assert_refused(result, peak, "has a worksheet ('Sheet1') spanning 1,048,576 rows by 16,384 columns",
                   "over the limit of 3,000,000 (ReadLimits.max_sheet_area)")


def test_a_two_gigabyte_string_is_refused_after_its_first_mebibyte(tmp_path: Path) -> None:
    path = tmp_path / "string.xlsx"
    path.write_bytes(huge_string())
    assert path.stat().st_size < 3_000_000
    result, peak = measured_check(path)
    assert_refused(result, peak, "has a cell (xl/sharedStrings.xml) whose text is longer than 1 MiB, over the limit")


def test_twenty_million_rows_are_refused_at_the_cell_limit(tmp_path: Path) -> None:
    path = tmp_path / "rows.xlsx"
    path.write_bytes(many_rows())
    result, peak = measured_check(path)
    assert_refused(result, peak, "has more than 5,000,000 cells (worksheet 'Sheet1'), over the limit")


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "statewide.csv"
    with path.open("wb") as handle:  # 500 MB, sparse: nothing but the header is written to the disk
        handle.write(b"contest,choice,votes\n")
        handle.truncate(500 * 1000 * 1000)
    result, peak = measured_check(path)
    assert_refused(result, peak, f"{path}: is larger than 128 MiB, the limit for a results file; nothing was read "
                                 "(--max-size MB to raise it)")
    small = tmp_path / "small.csv"
    small.write_text("contest,choice,votes\nMayor,Ann,3\nMayor,Bo,1\n")
    result, _ = measured_check(small, "--max-size", "1")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_corrupt_workbook_is_named_corrupt_never_shown_as_bytes(tmp_path: Path, damage: str) -> None:
    good = (ROOT / "tests" / "fixtures" / "returns" / "dominion_sovc_siskiyou_2025.xlsx").read_bytes()
    data = good[: len(good) // 2] if damage == "truncated" else good[:30] + bytes(range(256)) * 40
    path = tmp_path / "damaged.xlsx"
    path.write_bytes(data)
    result, peak = measured_check(path)
    assert_refused(result, peak, "file: is a corrupt Excel workbook")
    assert "unknown format" not in result.stderr and "expected a CSV" not in result.stderr


def test_names_cannot_repaint_the_terminal_or_hide_the_recount_row(tmp_path: Path) -> None:
    # A contest name that, printed raw, erases the line above (the RECOUNT row) and moves the cursor; a choice
    # name that reverses the text after it; a carriage return that overwrites the line from its start.
    hostile = "Water Board\x1b[1A\x1b[2K\r\u202eno recount"
    path = tmp_path / "names.csv"
    path.write_text(f"contest,choice,votes\n\"{hostile}\",Ann\u202e,500\n\"{hostile}\",Bo,498\n", encoding="utf-8")
    result, _ = measured_check(path)
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        assert all(ch.isprintable() for ch in line), repr(line)
    row = next(line for line in result.stdout.splitlines() if line.startswith("RECOUNT"))
    # (a carriage return inside a quoted cell is read as a line break, as every reader here reads it)
    assert "Water Board\\x1b[1A\\x1b[2K\\n\\u202eno recount" in row and "Ann\\u202e 500" in row
