"""Excel workbooks (.xlsx, .xls): the rows of a worksheet, as CSV, for the CSV readers.

The Secretary of State publishes its precinct-level results as XLSX as well as CSV, and Dominion's
statements of votes are exported to Excel; each has the same rows in either form. So a workbook is
turned into the CSV text of one worksheet (the first that has any cells) and read by the same reader
as the CSV, with the same row numbers a spreadsheet shows. python-calamine (a Rust reader with
wheels for every platform) reads the workbook; nothing of it is evaluated (formulas give their
cached values).

Cell values: text as written; whole numbers without ".0" (Excel stores every number as a float);
a number with a fraction as written, so the reader refuses it as "not a whole number of votes";
dates and times in ISO form.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

from rules.returns.problems import Report

ZIP_MAGIC = b"PK\x03\x04"  # .xlsx (Office Open XML is a zip archive)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .xls (the older binary workbook)


def is_workbook(data: bytes) -> bool:
    return data.startswith(ZIP_MAGIC) or data.startswith(OLE_MAGIC)


def workbook_to_csv(data: bytes, report: Report) -> bytes | None:
    """The first non-empty worksheet as UTF-8 CSV; None (a problem reported) when it cannot be read."""
    try:
        from python_calamine import CalamineWorkbook
    except ImportError:  # pragma: no cover - a dependency of the package
        report.problem("file", "is an Excel workbook, but the reader for workbooks (python-calamine) is not installed")
        return None
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(workbook.sheet_names)
        for name in names:
            rows = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False)
            if any(any(_text(v).strip() for v in row) for row in rows):
                break
        else:
            report.problem("file", "is an Excel workbook with no cells in any worksheet")
            return None
    except Exception as exc:  # calamine raises its own error types for a damaged or encrypted workbook
        report.problem("file", f"is not a readable Excel workbook ({type(exc).__name__}: {str(exc)[:200]})")
        return None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([_text(v) for v in row])
    others = [n for n in names if n != name]
    report.note(f"read from the worksheet {name!r} of an Excel workbook"
                + (f" (its other worksheets, {', '.join(map(repr, others[:5]))}, were not read)" if others else ""))
    return out.getvalue().encode("utf-8")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return str(value)
