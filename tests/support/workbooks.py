"""Workbooks for tests: Dominion statements of votes laid out as the counties' are, and raw .xlsx packages.

`workbook(sheets)` writes worksheets of rows with openpyxl (numbers as Excel numbers, as the counties' exports
have them). `statement_sheet(...)` lays out one contest the way Dominion's Results Tally & Reporting does in
Colorado (see tests/fixtures/returns/README.md): a page row, the title "(Vote for  N)" (two spaces), a blank
row, a header whose choices sit in merged pairs (an empty cell after each), precinct rows and the total row.
`raw_xlsx(sheet_xml, shared_strings)` writes the package by hand, for files no spreadsheet program would write
(a cell at XFD1048576, a string of gigabytes once decompressed).
"""
from __future__ import annotations

import io
import zipfile
from typing import Iterable


def workbook(sheets: list[tuple[str, list[list]]], hidden: tuple[str, ...] = ()) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets:
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
        if name in hidden:
            sheet.sheet_state = "hidden"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def statement_sheet(title: str, choices: list[str], precincts: list[tuple[str, list]], *, page: int = 2,
                    total_label: str = "Electionwide - Total", totals: list | None = None,
                    unit_header: str = "Precinct") -> list[list]:
    """One contest's worksheet. precincts: (label, a count (or "****") per choice). totals: the total row's
    counts (default: the sum of the numbers shown)."""
    header: list = [unit_header, "Times Cast", "Registered \nVoters", None, "Precinct"]
    for choice in choices:
        header += [f"{choice}\n ", None]
    header += ["Total Votes"]
    rows: list[list] = [[f"Page: {page} of 9"], [title], [], header]
    for label, counts in precincts:
        row: list = [label, 100, 120, None, label]
        for count in counts:
            row += [count, count if count == "****" else None]
        row.append(sum(c for c in counts if isinstance(c, int)))
        rows.append(row)
    if totals is None:
        totals = [sum(c[i] for _, c in precincts if isinstance(c[i], int)) for i in range(len(choices))]
    row = [total_label, 100 * len(precincts), 120 * len(precincts), None, total_label]
    for count in totals:
        row += [count, None]
    row.append(sum(totals))
    rows.append(row)
    return rows


TURNOUT_SHEET = [["Page: 1 of 9"], [None, None, "Statement of Votes Cast"], [],
                 ["Precinct", "Registered\nVoters", None, "Voters Cast", None, "% Turnout"],
                 ["2021310001", 500, None, 253, None, "50.60%"], ["Electionwide - Total", 500, None, 253, None, "50.60%"]]


_CT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/'
       'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.'
       'xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
       'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
       'worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.'
         'org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
         '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WB = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/'
       'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
       '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
_WB_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.'
            'org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
            'Target="sharedStrings.xml"/></Relationships>')
SHEET_START = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
SHEET_END = b"</sheetData></worksheet>"
NO_STRINGS = b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"></sst>'


def raw_xlsx(sheet_xml: bytes | Iterable[bytes], shared_strings: bytes | Iterable[bytes] = NO_STRINGS) -> bytes:
    """An .xlsx whose worksheet and shared strings are the given XML, written as given (an iterable is streamed
    into the zip piece by piece, so a part of gigabytes once decompressed is written without being held)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as package:
        package.writestr("[Content_Types].xml", _CT)
        package.writestr("_rels/.rels", _RELS)
        package.writestr("xl/workbook.xml", _WB)
        package.writestr("xl/_rels/workbook.xml.rels", _WB_RELS)
        for name, content in (("xl/worksheets/sheet1.xml", sheet_xml), ("xl/sharedStrings.xml", shared_strings)):
            with package.open(name, "w", force_zip64=True) as part:
                for piece in ([content] if isinstance(content, bytes) else content):
                    part.write(piece)
    return out.getvalue()
