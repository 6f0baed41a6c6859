"""Measuring a workbook before anything of it is materialised: no file can make the reader ask for more.

A spreadsheet library builds each worksheet as a dense grid from its first cell to its last, and holds every
string whole. A 5 kB .xlsx with one cell at A1 and one at XFD1048576 asks for 17 billion cells (python-calamine
aborts the process asking for 512 GiB); 2 MB of zip can hold a 2 GB string, or 20 million rows. So before
calamine sees the file, this module streams every part of an .xlsx through zlib, 1 MiB at a time, keeping
nothing, and measures (`ReadLimits` names each limit; the first one passed refuses the file, naming it):

- the parts: how many, each one's size and all together once decompressed (as decompressed, never as the
  zip's directory claims: a part that decompresses past its declared size is corrupt);
- each worksheet: its cells (`<c` elements) and its area, rows x columns from the first used to the last,
  from the cells' own references and their rows' (a cell without a reference widens the area by one);
- every string: no stretch of text of more than `max_cell_bytes` without markup, and no shared or inline
  string (`<si>`, `<is>`) spanning more than that, however it is split into runs (`_Strings`);
- formulas: every cell holding one (`<f>`) is named, with its text, since only the value Excel last saved
  is read (`Inspection.formulas_note`).

A legacy .xls (an OLE2 compound file) is measured the same way from its BIFF records (`xls_guard`): its
strings cannot outgrow the file, but its cells can claim any row and column up to 65,535 x 255.
Anything that cannot be measured (not a zip or OLE2 file, a damaged archive, an encrypted workbook) is
refused as corrupt, with calamine's or zipfile's reason on one line, never bytes of the file.
"""
from __future__ import annotations

import html
import io
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from functools import lru_cache

from rules.returns.limits import MIB, ReadLimits
from rules.returns.problems import Report
from rules.returns.xlsx import OLE_MAGIC, ZIP_MAGIC

CHUNK = MIB
_SHEET = re.compile(rb'<(?:\w+:)?sheet\b[^>]*>')
_ATTR = re.compile(rb'([\w:]+)="([^"]*)"')
_RELATIONSHIP = re.compile(rb'<(?:\w+:)?Relationship\b[^>]*>')
_ROW_REF = re.compile(rb'<(?:\w+:)?row\b[^>]*?\sr="(\d{1,10})"')
_CELL_REF = re.compile(rb'<(?:\w+:)?c\b[^>]*?\sr="([A-Z]{1,4})(\d{1,10})"')
_CELL = re.compile(rb'<(?:\w+:)?c[\s/>]')
_FORMULA_CELL = re.compile(rb'<(?:\w+:)?c\b[^>]*?\sr="([A-Z]{1,4}\d{1,10})"[^>]*>\s*<(?:\w+:)?f\b[^>]*>([^<]{0,60})')


class Refused(Exception):
    """The workbook passes a limit or cannot be measured; str(self) is the message for the clerk."""


@dataclass
class Inspection:
    """What measuring found that the reader says: formula cells, by worksheet."""

    formulas: dict[str, list[str]] = field(default_factory=dict)
    formula_counts: dict[str, int] = field(default_factory=dict)

    def add_formula(self, sheet: str, where: str) -> None:
        self.formula_counts[sheet] = self.formula_counts.get(sheet, 0) + 1
        shown = self.formulas.setdefault(sheet, [])
        if len(shown) < 3:
            shown.append(where)

    def formulas_note(self) -> list[str]:
        notes = []
        for sheet, shown in self.formulas.items():
            count = self.formula_counts[sheet]
            more = f" and {count - len(shown)} more" if count > len(shown) else ""
            notes.append(f"sheet {sheet!r}: {'; '.join(shown)}{more} hold{'s' if count == 1 else ''} a formula: the "
                         "value Excel last saved was read, not recomputed")
        return notes


def inspect_workbook(data: bytes, limits: ReadLimits, report: Report) -> Inspection | None:
    """The workbook's measure, or None with a problem naming the limit passed or why it is corrupt."""
    try:
        if data.startswith(ZIP_MAGIC):
            return _inspect_xlsx(data, limits)
        if data.startswith(OLE_MAGIC):
            from rules.returns.xls_guard import inspect_xls

            return inspect_xls(data, limits)
        raise Refused("is not an Excel workbook")
    except Refused as refused:
        report.problem("file", str(refused))
        return None


def _inspect_xlsx(data: bytes, limits: ReadLimits) -> Inspection:
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
        parts = package.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise Refused(f"is a corrupt Excel workbook (not a readable zip archive: {_one_line(exc)})") from None
    if len(parts) > limits.max_parts:
        raise Refused(f"is a zip archive of {len(parts):,} parts, over the limit of {limits.max_parts:,} "
                      "(ReadLimits.max_parts)")
    names = {p.filename for p in parts}
    if "xl/workbook.xml" not in names:
        kind = "an Excel binary workbook (.xlsb): save it as .xlsx" if "xl/workbook.bin" in names else (
            "a zip archive, but not an Excel workbook (it has no xl/workbook.xml)")
        raise Refused(f"is {kind}")
    sheets = _worksheet_parts(package, limits)
    if len(sheets) > limits.max_sheets:
        raise Refused(f"has {len(sheets):,} worksheets, over the limit of {limits.max_sheets:,} (ReadLimits.max_sheets)")
    inspection = Inspection()
    meter = _Meter(limits)
    for info in parts:
        sheet = sheets.get(info.filename)
        if sheet is not None:
            _measure_sheet(package, info, sheet, meter, inspection)
        else:
            meter.measure(package, info)
    return inspection


def _worksheet_parts(package: zipfile.ZipFile, limits: ReadLimits) -> dict[str, str]:
    """Worksheet part -> its name as the workbook shows it (from xl/workbook.xml and its relationships)."""
    workbook = _read_small(package, "xl/workbook.xml", limits)
    rels = _read_small(package, "xl/_rels/workbook.xml.rels", limits) if "xl/_rels/workbook.xml.rels" in \
        package.namelist() else b""
    targets = {}
    for tag in _RELATIONSHIP.findall(rels):
        attrs = dict(_ATTR.findall(tag))
        target = attrs.get(b"Target", b"").decode("utf-8", "replace").lstrip("/")
        targets[attrs.get(b"Id", b"")] = target if target.startswith("xl/") else f"xl/{target}"
    out = {}
    for i, tag in enumerate(_SHEET.findall(workbook)):
        attrs = dict(_ATTR.findall(tag))
        rid = next((v for k, v in attrs.items() if k.endswith(b":id")), b"")
        name = html.unescape(attrs.get(b"name", b"").decode("utf-8", "replace")) or f"sheet {i + 1}"
        out[targets.get(rid, f"xl/worksheets/sheet{i + 1}.xml")] = name
    return out


def _read_small(package: zipfile.ZipFile, name: str, limits: ReadLimits) -> bytes:
    try:
        with package.open(name) as part:
            data = part.read(min(limits.max_part_bytes, 16 * MIB) + 1)
    except (zipfile.BadZipFile, KeyError, OSError, EOFError, zlib.error, NotImplementedError) as exc:
        raise Refused(f"is a corrupt Excel workbook ({name}: {_one_line(exc)})") from None
    if len(data) > 16 * MIB:
        raise Refused(f"has a {name} of more than 16 MiB once decompressed; a workbook's list of worksheets is a few kB")
    return data


class _Meter:
    """Bytes decompressed so far, and the stream of one part 1 MiB at a time, with its strings measured."""

    def __init__(self, limits: ReadLimits) -> None:
        self.limits = limits
        self.total = 0

    def chunks(self, package: zipfile.ZipFile, info: zipfile.ZipInfo):
        """The part's bytes, 1 MiB at a time; Refused as soon as a limit is passed or the stream is damaged."""
        size = 0
        text = _Strings(self.limits, info.filename)
        try:
            with package.open(info) as part:
                while chunk := part.read(CHUNK):
                    size += len(chunk)
                    self.total += len(chunk)
                    self._check_sizes(info.filename, size)
                    text.measure(chunk, size - len(chunk))
                    yield chunk
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError, RuntimeError) as exc:
            what = "encrypted" if "encrypt" in str(exc).casefold() or "password" in str(exc).casefold() else "corrupt"
            raise Refused(f"is a {what} Excel workbook ({info.filename}: {_one_line(exc)})") from None

    def _check_sizes(self, name: str, size: int) -> None:
        limits = self.limits
        if size > limits.max_part_bytes:
            raise Refused(f"has a part ({name}) of more than {_mib(limits.max_part_bytes)} once decompressed, over "
                          "the limit (ReadLimits.max_part_bytes)")
        if self.total > limits.max_unpacked_bytes:
            raise Refused(f"decompresses to more than {_mib(limits.max_unpacked_bytes)}, over the limit "
                          "(ReadLimits.max_unpacked_bytes)")

    def measure(self, package: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        for _ in self.chunks(package, info):
            pass


class _Strings:
    """The longest text of one part, 1 MiB at a time with a few find()s each (never a Python step per cell):
    a stretch without markup (a cell's value), and a shared or inline string from <si>/<is> to its end, however
    many runs it is split into. Either longer than max_cell_bytes (at least the chunk's size) is refused; one
    inside a chunk cannot be, so only what crosses chunks is followed."""

    def __init__(self, limits: ReadLimits, name: str) -> None:
        self.limit, self.name = max(limits.max_cell_bytes, CHUNK), name
        self.run = 0  # bytes since the last "<"
        self.open_at = -1  # offset of a <si>/<is> not yet closed
        self.tags: tuple[bytes, bytes] | None = None

    def measure(self, chunk: bytes, offset: int) -> None:
        first = chunk.find(b"<")
        if first < 0:
            self.run += len(chunk)
        else:
            if self.run + first > self.limit:
                raise _too_long(self.name, self.limit)
            self.run = len(chunk) - chunk.rfind(b"<") - 1
        if self.run > self.limit:
            raise _too_long(self.name, self.limit)
        if self.tags is None:  # shared strings hold <si>, a worksheet its inline <is>
            prefix = re.search(rb"<(\w+:)?(sst|worksheet)\b", chunk)
            p = (prefix.group(1) or b"") if prefix else b""
            tag = b"si" if prefix is None or prefix.group(2) == b"sst" else b"is"
            self.tags = (b"<" + p + tag + b">", b"</" + p + tag + b">")
        start_tag, end_tag = self.tags
        last_start = chunk.rfind(start_tag)
        if last_start < 0 and self.open_at < 0:
            return  # no string starts here, none is open: nothing to follow
        if self.open_at >= 0:
            end = chunk.find(end_tag)
            if end >= 0 and offset + end - self.open_at > self.limit:
                raise _too_long(self.name, self.limit)
            if end >= 0:
                self.open_at = -1
        if last_start > chunk.rfind(end_tag):
            self.open_at = offset + last_start
        if self.open_at >= 0 and offset + len(chunk) - self.open_at > self.limit:
            raise _too_long(self.name, self.limit)


def _too_long(name: str, limit: int) -> Refused:
    return Refused(f"has a cell ({name}) whose text is longer than {_mib(limit)}, over the limit "
                   "(ReadLimits.max_cell_bytes; Excel itself holds at most 32,767 characters in a cell)")


def _measure_sheet(package: zipfile.ZipFile, info: zipfile.ZipInfo, sheet: str, meter: _Meter,
                   inspection: Inspection) -> None:
    extent = _measure_pass(package, info, sheet, meter, inspection, _Extent())
    limit = meter.limits.max_sheet_area
    if extent.area > limit and extent.claimed:  # the worksheet's <dimension> may overstate: count cell by cell
        meter.total -= info.file_size
        extent = _measure_pass(package, info, sheet, meter, Inspection(), _Extent(claims=False))
    if extent.area > limit:
        raise Refused(f"has a worksheet ({sheet!r}) spanning {extent.max_row:,} rows by {extent.width:,} columns, "
                      f"{extent.area:,} cells from A1 to its last, over the limit of {limit:,} "
                      "(ReadLimits.max_sheet_area)")


def _measure_pass(package, info, sheet: str, meter: _Meter, inspection: Inspection, extent: "_Extent") -> "_Extent":
    carry = b""
    for chunk in meter.chunks(package, info):
        segment = carry + chunk
        cut = segment.rfind(b">") + 1  # a tag never spans the cut: it holds no ">" before its end
        segment, carry = segment[:cut], segment[cut:]
        formulas = extent.add(segment)
        if extent.cells > meter.limits.max_cells:
            raise Refused(f"has more than {meter.limits.max_cells:,} cells (worksheet {sheet!r}), over the limit "
                          "(ReadLimits.max_cells)")
        if formulas:
            for ref, text in _FORMULA_CELL.findall(segment):
                formula = html.unescape(text.decode("utf-8", "replace")).strip()
                inspection.add_formula(sheet, f"cell {ref.decode()}" + (f" (={formula})" if formula else ""))
    return extent


class _Extent:
    """A worksheet's cells and the last row and column they name, a segment at a time with C-speed counts and
    searches. The first guess is the worksheet's own <dimension> (or its first row's cells); the last row is
    also taken from the <row> elements; then one search per segment looks for any cell beyond the guess (a
    cell naming a row past its <row>, a row wider than claimed), and only a segment that has one is read cell
    by cell. Cells written another way (attributes in another order, a namespace prefix) are read cell by
    cell. A <dimension> claiming more than the limit is checked by counting cell by cell (`claims=False`).
    The area is taken from A1: never less than what a reader builds from the first cell used."""

    def __init__(self, claims: bool = True) -> None:
        self.cells = self.max_row = self.max_col = self.unreferenced = self.implicit_rows = 0
        self.claims, self.claimed, self.started, self.prefixed = claims, False, False, False

    @property
    def width(self) -> int:
        return self.max_col + self.unreferenced

    @property
    def height(self) -> int:
        return self.max_row + self.implicit_rows  # a <row> without r="" is the row after the one before it

    @property
    def area(self) -> int:
        return self.height * self.width

    def add(self, segment: bytes) -> bool:
        """Three passes a segment, all in C: the cells (an upper bound: "<c" also starts <col> and <cfRule>), any
        cell whose reference is not its first attribute, or a formula (a cell without: this segment is read cell
        by cell; <row>s matter only to cells without one), and one search for a cell beyond the last row and
        column known. True when the segment holds a formula."""
        if not self.started:
            self.started = True
            self._guess(segment)
            self.prefixed = re.search(rb"<\w+:worksheet\b", segment[:4096]) is not None
        if self.prefixed:
            self._cell_by_cell(segment, len(_CELL.findall(segment)))
            return b":f" in segment or b"<f" in segment
        cells = segment.count(b"<c")
        formulas = unreferenced = False
        for odd in _ODD.finditer(segment):  # formulas are few; a cell without r="" first ends the search
            if odd[0].startswith(b"<f"):
                formulas = True
            else:
                unreferenced = True
                break
        if unreferenced:  # a cell without r="" first: its place is the one after the last
            if b' r="' in segment:
                self._cell_by_cell(segment, len(_CELL.findall(segment)))
            else:  # no reference at all: every cell and row is the one after the one before it
                self.cells += cells
                self.unreferenced += cells
                self.implicit_rows += segment.count(b"<row>")
            return formulas or b"<f" in segment
        self.cells += cells
        last = segment.rfind(b'<c r="')  # cells come in order: the last names the highest row (else the search
        if last >= 0:                    # below finds one beyond it, and the segment is read cell by cell)
            ref = _LAST_REF.match(segment, last)
            if ref:
                self.max_row = max(self.max_row, int(ref[1]))
        if self.max_col == 0 and cells:  # no <dimension>: the first rows, the header among them
            self._cell_by_cell(segment[:65536], 0)
        if cells and _beyond(self.max_col, self.max_row).search(segment):
            self._cell_by_cell(segment, 0)
        return formulas

    def _guess(self, segment: bytes) -> None:
        match = _DIMENSION.search(segment[:65536]) if self.claims else None
        if match:
            self.max_col, self.max_row, self.claimed = _column(match[1]), int(match[2]), True

    def _cell_by_cell(self, segment: bytes, cells: int) -> None:
        """Every reference of the segment (deduplicated before any Python step: a few dozen columns, a row each).
        A cell without one widens the worksheet by one column (an upper bound); a <row> without one is the
        row after the one before it."""
        self.cells += cells
        if cells:
            self.unreferenced += max(cells - len(_CELL_REF.findall(segment)), 0)
            self.implicit_rows += segment.count(b"<row>")
        columns = set(_ANY_COLUMN.findall(segment))
        rows = set(_ANY_CELL_ROW.findall(segment)) | set(_ROW_REF.findall(segment))
        if rows:
            self.max_row = max(self.max_row, max(map(int, rows)))
        if columns:
            self.max_col = max(self.max_col, max(map(_column, columns)))


_ANY_COLUMN = re.compile(rb'<(?:\w+:)?c\b[^>]*?\sr="([A-Z]{1,4})\d')
_ANY_CELL_ROW = re.compile(rb'<(?:\w+:)?c\b[^>]*?\sr="[A-Z]{1,4}(\d{1,10})"')
_DIMENSION = re.compile(rb'<dimension ref="(?:[A-Z]{1,4}\d{1,10}:)?([A-Z]{1,4})(\d{1,10})"')
_LAST_REF = re.compile(rb'<c r="[A-Z]{1,4}(\d{1,10})"')
_ODD = re.compile(rb'<c(?:>|/>|\s(?!r="[A-Z]))|<f[\s>/]')


@lru_cache(maxsize=256)
def _beyond(max_col: int, max_row: int) -> re.Pattern[bytes]:
    """A search for a cell whose reference names a column after `max_col` or a row after `max_row`."""
    return re.compile(rb'<c r="(?:(?:%s)\d|[A-Z]{1,4}(?:%s)")' % (_letters_after(max_col), _greater_than(max_row)))


def _greater_than(number: int) -> bytes:
    """A regular expression matching the decimal numbers greater than `number` (no leading zeros)."""
    digits = str(number)
    options = [rb"[1-9]\d{%d,}" % len(digits)]
    for i, digit in enumerate(digits):
        if digit != "9":
            options.append(digits[:i].encode() + b"[" + str(int(digit) + 1).encode() + b"-9]"
                           + (rb"\d{%d}" % (len(digits) - i - 1) if i < len(digits) - 1 else b""))
    return b"|".join(options)


def _letters_after(column: int) -> bytes:
    """A regular expression matching the column letters after column number `column` (A is 1)."""
    letters = _letters(column) if column else ""
    options = [rb"[A-Z]{%d,}" % (len(letters) + 1)]
    for i, letter in enumerate(letters):
        if letter != "Z":
            options.append(letters[:i].encode() + b"[" + chr(ord(letter) + 1).encode() + b"-Z]"
                           + (rb"[A-Z]{%d}" % (len(letters) - i - 1) if i < len(letters) - 1 else b""))
    return b"|".join(options)


def _letters(column: int) -> str:
    out = ""
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(65 + rest) + out
    return out


def _column(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number


def _mib(size: int) -> str:
    return f"{size / MIB:,.0f} MiB" if size >= MIB else f"{size:,} bytes"


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line, printable and short: never bytes of the file."""
    text = " ".join(str(exc).split())
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text[:160] or type(exc).__name__
