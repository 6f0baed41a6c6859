"""Excel workbooks (.xlsx, .xls): how a file is known to be one, and how a cell reads as text.

A workbook is read by `rules.returns.workbook` (every worksheet classified) after `workbook_guard` has
measured it. Cells are given to the readers as the text a CSV export of the same worksheet would hold,
so a workbook and its CSV read the same:
- text as written;
- whole numbers without ".0" (Excel stores every number as a float); a number with a fraction as written,
  so the reader refuses it as "not a whole number of votes";
- dates and times in ISO form; TRUE/FALSE.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

ZIP_MAGIC = b"PK\x03\x04"  # .xlsx (Office Open XML is a zip archive)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .xls (the older binary workbook, in an OLE2 compound file)


def is_workbook(data: bytes) -> bool:
    return data.startswith(ZIP_MAGIC) or data.startswith(OLE_MAGIC)


def cell_text(value: Any) -> str:
    if type(value) is float and value.is_integer() and abs(value) < 1e15:  # the common case first: a count
        return str(int(value))
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return str(value)
