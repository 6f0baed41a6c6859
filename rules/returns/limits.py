"""How much of a file a reader may take: every input is hostile until measured.

One `ReadLimits` travels with a read (`rules.returns.read_returns(..., limits=)`), so the command line, an
import and an upload can each set their own and name the one a file went over. The defaults hold a real
statewide file with room to spare (the Secretary of State's 2024 precinct-level results are about 1.4
million cells; a county's statement of votes a few hundred thousand) and keep a hostile one under about
200 MB and a few seconds: a workbook is measured before anything of it is materialised
(`workbook_guard`), so a 5 kB file claiming a cell at XFD1048576 is refused before a byte is allocated
for it.
"""
from __future__ import annotations

from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class ReadLimits:
    """max_file_bytes        the file itself (the command line's --max-bytes; an upload's own limit)
    max_part_bytes        one part of an .xlsx once decompressed (a worksheet's XML, the shared strings)
    max_unpacked_bytes    every part of an .xlsx together, decompressed
    max_parts             parts (files) inside an .xlsx
    max_sheets            worksheets in a workbook
    max_cells             cells with content, over the whole workbook
    max_sheet_area        rows x columns of one worksheet, from its first cell to its last (what a reader
                          materialises: a grid of that size)
    max_cell_bytes        the text of one cell, in bytes of its markup (Excel's own limit is 32,767
                          characters: at most about 200 kB however written); measured as the stretch from a
                          string's start to its end, so a string split into runs counts whole
    """

    max_file_bytes: int = 128 * MIB
    max_part_bytes: int = 256 * MIB
    max_unpacked_bytes: int = 512 * MIB
    max_parts: int = 10_000
    max_sheets: int = 1_000
    max_cells: int = 5_000_000
    max_sheet_area: int = 3_000_000
    max_cell_bytes: int = MIB


DEFAULT_LIMITS = ReadLimits()
