"""Workbooks for tests: Dominion statements of votes laid out as the counties' are, and raw .xlsx packages.

`workbook(sheets)` writes worksheets of rows with openpyxl (numbers as Excel numbers, as the counties' exports
have them). `statement_sheet(...)` lays out one contest the way Dominion's Results Tally & Reporting does in
Colorado (see tests/fixtures/returns/README.md): a page row, the title "(Vote for  N)" (two spaces), a blank
row, a header whose choices sit in merged pairs (an empty cell after each), precinct rows and the total row.
`raw_xlsx(sheet_xml, shared_strings)` writes the package by hand, for files no spreadsheet program would write
(a cell at XFD1048576). The hostile files of issue 21 (`far_cell`, `huge_string`, `many_rows`) are written at
their full size in seconds and a few MiB: a part that repeats one block is deflated once and the block's
compressed bytes repeated (`Repeated`), as a compressor flushed at each block would write them.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass
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


# ----------------------------------------------------------------------------- hostile files (issue 21)

@dataclass(frozen=True)
class Repeated:
    """A part made of `head`, `block` repeated `count` times, and `tail`."""

    head: bytes
    block: bytes
    count: int
    tail: bytes

    def deflated(self) -> tuple[bytes, int, int]:
        """(raw deflate stream, CRC-32, size) without ever holding the part: each piece is compressed from a
        fresh state and ends in a full flush, so the block's compressed bytes are the same at every repeat."""
        def piece(data: bytes) -> bytes:
            compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
            return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)

        block = piece(self.block)
        stream = piece(self.head) + block * self.count + piece(self.tail) + zlib.compressobj(
            9, zlib.DEFLATED, -15).flush()
        crc = zlib.crc32(self.head)
        for _ in range(self.count):
            crc = zlib.crc32(self.block, crc)
        crc = zlib.crc32(self.tail, crc)
        return stream, crc, len(self.head) + len(self.block) * self.count + len(self.tail)


def package(parts: dict[str, bytes | Repeated]) -> bytes:
    """A zip (deflated parts, sizes under 4 GiB) written by hand, so a part may be gigabytes once decompressed."""
    out, central = io.BytesIO(), []
    for name, content in parts.items():
        if isinstance(content, Repeated):
            data, crc, size = content.deflated()
        else:
            compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
            data, crc, size = compressor.compress(content) + compressor.flush(), zlib.crc32(content), len(content)
        encoded = name.encode()
        offset = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(data), size, len(encoded), 0))
        out.write(encoded + data)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(data), size,
                                   len(encoded), 0, 0, 0, 0, 0, offset) + encoded)
    start = out.tell()
    for entry in central:
        out.write(entry)
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), out.tell() - start, start, 0))
    return out.getvalue()


def _book(sheet: bytes | Repeated, strings: bytes | Repeated = NO_STRINGS) -> bytes:
    return package({"[Content_Types].xml": _CT.encode(), "_rels/.rels": _RELS.encode(), "xl/workbook.xml": _WB.encode(),
                    "xl/_rels/workbook.xml.rels": _WB_RELS.encode(), "xl/worksheets/sheet1.xml": sheet,
                    "xl/sharedStrings.xml": strings})


def far_cell() -> bytes:
    """A few kB: one cell at A1 and one at XFD1048576 (a reader building the grid between asks for 512 GiB)."""
    return _book(SHEET_START + b'<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>1</v>'
                 b"</c></row>" + SHEET_END)


def huge_string(size: int = 2 << 30) -> bytes:
    """About 2 MB: one cell whose shared string is `size` bytes (2 GiB) once decompressed."""
    block = b"A" * (1 << 20)
    strings = Repeated(b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" '
                       b'uniqueCount="1"><si><t>', block, size // len(block), b"</t></si></sst>")
    return _book(SHEET_START + b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + SHEET_END, strings)


def many_rows(rows: int = 20_000_000) -> bytes:
    """Under 1 MB: `rows` rows of one cell each (20 million by default), each row after the one before it (rows
    and cells written without references, as the format allows)."""
    step = 100_000
    return _book(Repeated(SHEET_START, b"<row><c><v>1</v></c></row>" * step, rows // step, SHEET_END))
