"""Measuring a legacy .xls (BIFF8 in an OLE2 compound file) before calamine materialises it.

An .xls stores no compressed parts, so nothing in it can outgrow the file; but its cell records may claim any
row and column (up to 65,535 x 255: 16.7 million cells, half a gigabyte as a dense grid) whatever the file's
size. So the Workbook stream's records are walked (olefile reads the compound file; a record is a 2-byte
type, a 2-byte length and its data), and for every worksheet its cells are counted and its area measured
from the rows and columns they name, and every FORMULA record is named, before anything is read. An .xls
that olefile cannot open, or with no Workbook stream (a BIFF5 "Book", an encrypted file), is refused.
"""
from __future__ import annotations

import io
import struct

from rules.returns.limits import ReadLimits
from rules.returns.workbook_guard import Inspection, Refused, _one_line

BOF, EOF, BOUNDSHEET, FILEPASS = 0x0809, 0x000A, 0x0085, 0x002F
FORMULA = 0x0006
# Records of one cell: row and column in their first four bytes.
CELLS = frozenset({0x0203, 0x00FD, 0x027E, 0x0201, 0x0205, 0x0204, 0x00D6, FORMULA})
MULTIPLE = frozenset({0x00BD, 0x00BE})  # MULRK, MULBLANK: row, first column, ..., last column (last 2 bytes)
_HEADER = struct.Struct("<HH")
_CELL = struct.Struct("<HH")


def inspect_xls(data: bytes, limits: ReadLimits) -> Inspection:
    stream = _workbook_stream(data)
    walk = _Walk(stream, _sheet_names(stream), limits)
    unpack = _HEADER.unpack_from
    pos, end = 0, len(stream)
    while pos + 4 <= end:
        kind, length = unpack(stream, pos)
        body = pos + 4
        pos = body + length
        if kind in CELLS or kind in MULTIPLE:
            if walk.sheet is not None and length >= 4:
                walk.cell(kind, body, length)
        elif kind == BOF:
            walk.begin()
        elif kind == EOF:
            walk.end()
        elif kind == FILEPASS:
            raise Refused("is an encrypted Excel workbook: save it without a password")
    return walk.inspection


class _Walk:
    """The worksheet being walked: its name, the last row and column its cells name, the cells so far."""

    def __init__(self, stream: bytes, names: list[str], limits: ReadLimits) -> None:
        self.stream, self.names, self.limits = stream, names, limits
        self.inspection = Inspection()
        self.sheet: str | None = None
        self.depth, self.index, self.cells = 0, -1, 0
        self.bottom = self.right = -1  # 0-based

    def begin(self) -> None:
        self.depth += 1
        if self.depth == 1:
            self.index += 1
            self.sheet = self.names[self.index - 1] if 0 < self.index <= len(self.names) else None
            self.bottom = self.right = -1

    def end(self) -> None:
        self.depth -= 1
        if self.depth == 0 and self.sheet is not None:
            _check_area(self.sheet, self.bottom + 1, self.right + 1, self.limits)

    def cell(self, kind: int, body: int, length: int) -> None:
        row, col = _CELL.unpack_from(self.stream, body)
        if kind in MULTIPLE and length >= 6:
            last = struct.unpack_from("<H", self.stream, body + length - 2)[0]
            self.cells += max(last - col + 1, 1)
            col = max(col, last)
        else:
            self.cells += 1
        if self.cells > self.limits.max_cells:
            raise Refused(f"has more than {self.limits.max_cells:,} cells (by worksheet {self.sheet!r}), over the "
                          "limit (ReadLimits.max_cells)")
        self.bottom, self.right = max(self.bottom, row), max(self.right, col)
        if kind == FORMULA:
            self.inspection.add_formula(str(self.sheet), f"cell {_reference(row, col)}")


def _check_area(sheet: str, height: int, width: int, limits: ReadLimits) -> None:
    """The area from A1 to the last row and column named: what a reader builds for the worksheet."""
    if height * width > limits.max_sheet_area:
        raise Refused(f"has a worksheet ({sheet!r}) spanning {height:,} rows by {width:,} columns, "
                      f"{height * width:,} cells from A1 to its last, over the limit of "
                      f"{limits.max_sheet_area:,} (ReadLimits.max_sheet_area)")


def _workbook_stream(data: bytes) -> bytes:
    import olefile

    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            for name in ("Workbook", "Book"):
                if ole.exists(name):
                    if name == "Book":
                        raise Refused("is an Excel 5.0/95 workbook (BIFF5): save it as .xlsx")
                    return ole.openstream(name).read()
            if ole.exists("EncryptionInfo"):
                raise Refused("is an encrypted Excel workbook: save it without a password")
    except Refused:
        raise
    except Exception as exc:  # olefile raises OSError and its own errors for a damaged compound file
        raise Refused(f"is a corrupt Excel workbook (not a readable OLE2 compound file: {_one_line(exc)})") from None
    raise Refused("is an OLE2 compound file, but not an Excel workbook (it has no Workbook stream)")


def _sheet_names(stream: bytes) -> list[str]:
    """The worksheets' names from the BOUNDSHEET records, in order (BIFF8: a short Unicode string)."""
    names, pos = [], 0
    while pos + 4 <= len(stream):
        kind, length = _HEADER.unpack_from(stream, pos)
        body = pos + 4
        if kind == BOUNDSHEET and length >= 8:
            count, flags = stream[body + 6], stream[body + 7]
            raw = stream[body + 8: body + 8 + count * (2 if flags & 1 else 1)]
            names.append(raw.decode("utf-16-le" if flags & 1 else "latin-1", "replace"))
        elif kind == BOF and names:
            break  # the globals end; the worksheets' streams follow
        pos = body + length
    return names


def _reference(row: int, col: int) -> str:
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row + 1}"
