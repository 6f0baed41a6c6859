"""Measuring a workbook before it is read (rules/returns/workbook_guard.py): the ways a file can claim more than it
holds, each refused with the limit it passed, and real workbooks let through with their formulas named."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.returns import ReturnsError, read_returns
from rules.returns.limits import DEFAULT_LIMITS, ReadLimits
from rules.returns.problems import Report
from rules.returns.workbook_guard import _greater_than, _letters_after, inspect_workbook
from tests.support.workbooks import SHEET_END, SHEET_START, raw_xlsx

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "returns"


def refusal(data: bytes, limits: ReadLimits = DEFAULT_LIMITS) -> str:
    report = Report()
    assert inspect_workbook(data, limits, report) is None
    [problem] = report.problems
    return problem.message


def rows(*cells: bytes) -> bytes:
    return SHEET_START + b"".join(cells) + SHEET_END


@pytest.mark.parametrize("sheet", [
    # the far cell after a near one in the same row, its row element saying row 1
    rows(b'<row r="1"><c r="A1048576"><v>1</v></c><c r="XFD1"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>'),
    # the reference not the cell's first attribute
    rows(b'<row r="1"><c s="0" r="XFD1048576"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>'),
    # rows out of order: the far one first
    rows(b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row><row r="1"><c r="A1"><v>1</v></c></row>'),
    # a namespace prefix on every element
    b'<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1">'
    b'<x:c r="A1"><x:v>1</x:v></x:c><x:c r="XFD1048576"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>',
    # a <dimension> claiming little, the cells far
    rows(b'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>').replace(
        b"<sheetData>", b'<dimension ref="A1:B2"/><sheetData>'),
])
def test_a_far_cell_is_found_however_it_is_written(sheet: bytes) -> None:
    assert "spanning 1,048,576 rows by 16,384 columns" in refusal(raw_xlsx(sheet))


def test_a_dimension_claiming_too_much_is_counted_cell_by_cell() -> None:
    # Excel's <dimension> is only a guess: a worksheet claiming XFD1048576 but holding two cells is read.
    sheet = rows(b'<row r="1"><c r="A1"><v>7</v></c><c r="B1"><v>5</v></c></row>').replace(
        b"<sheetData>", b'<dimension ref="A1:XFD1048576"/><sheetData>')
    report = Report()
    assert inspect_workbook(raw_xlsx(sheet), ReadLimits(), report) is not None and report.problems == []


@pytest.mark.parametrize("part", ["sheet", "strings"])
def test_a_string_split_into_runs_is_measured_whole(part: str) -> None:
    runs = [b"<r><t>" + b"x" * 1000 + b"</t></r>"] * 3000  # 3 MB in 3,000 runs of 1 kB
    if part == "sheet":
        data = raw_xlsx(iter([SHEET_START + b'<row r="1"><c r="A1" t="inlineStr"><is>', *runs, b"</is></c></row>"
                              + SHEET_END]))
    else:
        data = raw_xlsx(rows(b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>'),
                        iter([b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si>', *runs,
                              b"</si></sst>"]))
    assert "whose text is longer than 1 MiB, over the limit (ReadLimits.max_cell_bytes" in refusal(data)


def test_the_limits_are_named_and_can_be_set() -> None:
    data = raw_xlsx(rows(*(b'<row r="%d"><c r="A%d"><v>1</v></c><c r="B%d"><v>2</v></c></row>' % (i, i, i)
                           for i in range(1, 201))))
    assert refusal(data, ReadLimits(max_cells=100)) == ("has more than 100 cells (worksheet 'Sheet1'), over the limit "
                                                        "(ReadLimits.max_cells)")
    assert "over the limit of 300 (ReadLimits.max_sheet_area)" in refusal(data, ReadLimits(max_sheet_area=300))
    assert refusal(data, ReadLimits(max_part_bytes=1000)).startswith("has a part (xl/worksheets/sheet1.xml) of more "
                                                                     "than 1,000 bytes once decompressed")
    with pytest.raises(ReturnsError) as caught:
        read_returns(data, limits=ReadLimits(max_file_bytes=100))
    assert str(caught.value).startswith("file: is 0.0 MiB, over the limit of 0 MiB for a results file")


def test_real_workbooks_pass_and_their_formulas_are_named() -> None:
    for name in ("dominion_sovc_siskiyou_2025.xlsx", "dominion_sov_boulder_2025_summary.xlsx"):
        report = Report()
        inspection = inspect_workbook((FIXTURES / name).read_bytes(), ReadLimits(), report)
        assert inspection is not None and report.problems == [] and inspection.formulas_note() == []


def test_the_patterns_of_numbers_and_columns_after() -> None:
    import re

    for number in (0, 7, 313, 999, 200_000):
        pattern = re.compile(rb"(?:%s)" % _greater_than(number))
        assert [n for n in range(250_000) if bool(pattern.fullmatch(str(n).encode())) != (n > number)] == []
    letters = [chr(a) for a in range(65, 91)] + [chr(a) + chr(b) for a in range(65, 91) for b in range(65, 91)]
    for column in (0, 1, 26, 27, 65, 702):
        pattern = re.compile(rb"(?:%s)" % _letters_after(column))
        assert [c for n, c in enumerate(letters, 1) if bool(pattern.fullmatch(c.encode())) != (n > column)] == []
