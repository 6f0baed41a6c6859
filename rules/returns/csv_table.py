"""Reading a CSV as a spreadsheet user sees it: a header row, then numbered rows.

Row numbers are those a spreadsheet shows: the header is row 1 (or the first non-blank row), and
every CSV record counts as one row, blank ones included, so "row 7" is the seventh line a clerk
sees in Excel even when a quoted cell spans several file lines.

The csv module reads `Source.lines()`: decoded chunk by chunk from the file's bytes, every line break
("\\r\\n", a lone "\\r" of old Mac files, "\\n") already "\\n". So no copy of the whole text is made,
the csv module sees one kind of line break, and a quoted cell that spans lines reads the same
(with "\\n" inside) whatever the file's style.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Sequence

from rules.returns.problems import Report
from rules.returns.source import Source


@dataclass
class Table:
    header_row: int
    header: list[str]  # names as written, outer spaces removed
    columns: dict[str, int]  # canonical (casefolded) name -> index, for the columns the format knows
    ignored: list[str] = field(default_factory=list)  # names of columns the format ignores
    data_rows: int = 0  # non-blank rows seen so far, to tell "header only" from a real file
    # Rows yielded although something is wrong with their shape (row -> what): the reader, which knows
    # the row's contest, reports it there, so only that contest is left undecided.
    trouble: dict[int, tuple[str, str]] = field(default_factory=dict)  # row -> (location, message)
    _reader: Iterator[list[str]] | None = None
    _report: Report | None = None

    def location(self, row: int, column: str) -> str:
        """Where a cell is, e.g. "row 7, column votes", naming the column as the header writes it."""
        return f"row {row}, column {self.header[self.columns[column]]}"

    def rows(self) -> Iterator[tuple[int, list[str]]]:
        """Yield (row number, cells) for each non-blank row; cells are padded to the header's width.

        This runs once per row of files with hundreds of thousands of rows, so the common case (a row
        of the header's width whose first cell is not blank) costs one len() and one truth test.
        """
        assert self._reader is not None and self._report is not None
        report, width, row, blank = self._report, len(self.header), self.header_row, 0
        start = row
        unnamed = [i for i, name in enumerate(self.header) if not name]
        try:
            for cells in self._reader:
                row += 1
                if len(cells) != width:
                    if not cells:
                        blank += 1
                        continue
                    cells = self._fit(cells, width, row)
                if unnamed:
                    for i in unnamed:
                        if cells[i].strip():
                            self.trouble[row] = (f"row {row}, column {i + 1}",
                                                 "has a value but its column has no name in the header")
                first = cells[0]
                if (not first or first.isspace()) and not any(c.strip() for c in cells):
                    blank += 1
                    continue
                yield row, cells
        except csv.Error as exc:  # e.g. a cell over the csv module's size limit: the rest cannot be trusted
            report.problem(f"row {row + 1}", f"cannot be read as CSV ({exc})")
        finally:
            # Rows yielded: every row read less the blank ones (counted, being few, instead of the many yielded).
            self.data_rows += row - start - blank

    def _fit(self, cells: list[str], width: int, row: int) -> list[str]:
        """Pad a short row with blanks; cut a long one, marking values past the header's last column."""
        n = len(cells)
        if n < width:
            return cells + [""] * (width - n)
        if any(c.strip() for c in cells[width:]):
            self.trouble[row] = (f"row {row}", f"has {n} cells but the header has {width} columns")
        return cells[:width]


def open_table(
    source: Source, report: Report, *, required: Sequence[str], optional: Sequence[str], ignore_unknown: bool,
    aliases: Mapping[str, str] | None = None,
) -> Table | None:
    """Read the header and map its columns. Returns None (with problems reported) if it is unusable.

    `aliases` maps another name a column goes by (casefolded) to its canonical name; it is used only
    when the canonical name itself is not in the header (OpenElections "total_votes" for "votes").
    """
    reader = csv.reader(source.lines())
    row = 0
    try:
        for cells in reader:
            row += 1
            if any(c.strip() for c in cells):
                break
        else:
            report.problem("file", "is empty")
            return None
    except csv.Error as exc:
        report.problem(f"row {row + 1}", f"cannot be read as CSV ({exc})")
        return None
    header = [c.strip() for c in cells]
    known = {*required, *optional}
    present = {c.casefold() for c in header}
    alias_of = {alias: name for alias, name in (aliases or {}).items() if name not in present}
    columns: dict[str, int] = {}
    ignored: list[str] = []
    ok = True
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        key = name.casefold()
        if not name:
            continue
        if key in seen:
            report.problem(f"row {row}, column {name}", f"appears twice in the header (columns {seen[key] + 1} and {i + 1})")
            ok = False
            continue
        seen[key] = i
        if key in alias_of and alias_of[key] not in columns:
            columns[alias_of[key]] = i
        elif key in known:
            columns[key] = i
        elif ignore_unknown:
            ignored.append(name)
        else:
            report.problem(f"row {row}, column {name}", f"is not a column of this format; expected {_describe(required, optional)}")
            ok = False
    for name in required:
        if name not in columns:
            report.problem(f"row {row}", f"missing column {name!r}; expected {_describe(required, optional)}")
            ok = False
    if not ok:
        return None
    return Table(header_row=row, header=header, columns=columns, ignored=ignored, _reader=reader, _report=report)


def _describe(required: Sequence[str], optional: Sequence[str]) -> str:
    text = ", ".join(required)
    return f"{text} and optionally {', '.join(optional)}" if optional else text
