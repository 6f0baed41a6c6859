"""Excel workbooks (.xlsx, .xls): one survey of returns, every worksheet classified and reported.

Counties publish their results as workbooks in two families (see tests/fixtures/returns/README.md):
- Dominion's "Statement of Votes Cast" (Adams, Clear Creek, Jefferson, Larimer, Park...): a table of
  contents or a turnout worksheet first, then one worksheet per contest (`dominion_wide`), each with its
  title ("(Vote for  N)"), a header over one or two rows, precincts (or Larimer's precinct portions),
  privacy masks and total rows;
- a long table on one worksheet (the county's own export, "PRECINCT, CONTEST, CANDIDATE, TOTAL VOTES" in
  Arapahoe's .xls; the Secretary of State's precinct-level results; Dominion's flat statement): read by
  the CSV reader whose header it has, from the worksheet's rows turned into CSV.
Every worksheet is classified: "contests" (a Dominion table with a column per choice), "long form" (a
table some reader knows), "table of contents", "turnout" (registered voters and ballots cast only),
"empty", or "skipped" with why. `Returns.sheets` lists them all; nothing is dropped silently. A problem of
one worksheet as a whole is a row naming no contest (listed as undecided), never a refusal of the others.
When more than one worksheet holds anything, every location names its worksheet ("sheet 'Sheet12', row 4").

python-calamine (Rust, wheels for every platform) reads both .xlsx and the legacy .xls; nothing is
evaluated: a formula cell gives the value Excel last saved, and `workbook_guard` names every such cell.
`workbook_guard` also checks the workbook's size before calamine materialises anything.
"""
from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass, field

from rules.contest import Bound, Worksheet
from rules.returns import dominion_wide
from rules.returns.draft import Draft
from rules.returns.limits import ReadLimits
from rules.returns.problems import Report
from rules.returns.registry import READERS, Head, module
from rules.returns.source import open_source
from rules.returns.workbook_guard import Inspection, inspect_workbook
from rules.returns.xlsx import cell_text

TOC = "table of contents"
NOT_CSV_FORMATS = ("nist", "clarity-detail")


@dataclass
class WorkbookRead:
    """What a workbook gave: the drafts of its contests, the format(s) read, and every worksheet's fate."""

    drafts: list[Draft] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    sheets: list[Worksheet] = field(default_factory=list)

    @property
    def source_format(self) -> str:
        return "+".join(dict.fromkeys(self.formats)) if self.formats else "workbook"


@dataclass
class _Sheet:
    name: str
    hidden: bool
    records: list[tuple[int, list[str]]]  # (row as the spreadsheet numbers it, cells as text)


def read_workbook(data: bytes, report: Report, limits: ReadLimits, format: str | None = None) -> WorkbookRead | None:
    """Every worksheet read or skipped (see the module docstring); None with a problem when the workbook
    cannot be opened at all (corrupt, encrypted, over a limit)."""
    inspection = inspect_workbook(data, limits, report)
    if inspection is None:
        return None
    sheets = _load(data, inspection, report)
    if sheets is None:
        return None
    result = WorkbookRead()
    with_content = [s for s in sheets if any(any(c.strip() for c in cells) for _, cells in s.records)]
    prefix = len(with_content) > 1
    for sheet in sheets:
        _read_sheet(sheet, result, report, prefix, format)
    for where in inspection.formulas_note():
        report.note(where, kind="formula cells")
    if not any(s.read for s in result.sheets) and not report.problems:
        skipped = "; ".join(f"{s.name!r}: {s.role}" + (f" ({s.detail})" if s.detail else "") for s in result.sheets[:8])
        report.problem("file", "is an Excel workbook, but no worksheet holds a table of returns this program reads "
                               f"({skipped}{'; ...' if len(result.sheets) > 8 else ''})")
    return result


def _load(data: bytes, inspection: Inspection, report: Report) -> list[_Sheet] | None:
    from python_calamine import CalamineWorkbook, SheetVisibleEnum

    memo: dict = {}  # a number's text, once: vote counts repeat (0, 1, 2, ... a few thousand distinct values)
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        out = []
        for meta in workbook.sheets_metadata:
            sheet = workbook.get_sheet_by_name(meta.name)
            first_row = sheet.start[0] if sheet.start else 0
            records = [(first_row + i + 1, [c if type(c) is str else (memo.get(c) or _text(c, memo)) if type(c) is float
                                            else cell_text(c) for c in row])
                       for i, row in enumerate(sheet.to_python(skip_empty_area=True))]
            out.append(_Sheet(meta.name, meta.visible != SheetVisibleEnum.Visible, records))
        return out
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # calamine's own errors, and a Rust panic (pyo3's PanicException), for a damaged file
        report.problem("file", f"is a corrupt Excel workbook: {_reason(exc)}")
        return None


def _text(value: float, memo: dict) -> str:
    text = cell_text(value)
    if len(memo) < 100_000:  # floats only: True == 1.0, so a bool must never be looked up here
        memo[value] = text
    return text


def _reason(exc: BaseException) -> str:
    """calamine's message, on one line and short: never bytes of the file."""
    text = " ".join(str(exc).split())
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


def _read_sheet(sheet: _Sheet, result: WorkbookRead, report: Report, prefix: bool, format: str | None) -> None:
    where = f"sheet {sheet.name!r}"
    first_row = next((cells for _, cells in sheet.records if any(cells) and any(c.strip() for c in cells)), None)

    def skip(role: str, detail: str = "") -> None:
        result.sheets.append(Worksheet(sheet.name, role, detail, sheet.hidden))

    def filled() -> int:
        return sum(1 for _, cells in sheet.records if any(cells) and any(c.strip() for c in cells))

    if first_row is None:
        return skip("empty")
    first = next(c.strip() for c in first_row if c.strip())
    if " ".join(first.split()).casefold() == TOC:
        return skip("table of contents", f"lists the worksheets ({filled() - 1} rows); not results")
    wide = dominion_wide.has_choices(sheet.records) if format in (None, "dominion-sov") else None
    if wide is False:
        return skip("turnout", f"{filled()} rows of registered voters and ballots cast; no votes for a choice")
    local = Report()
    if wide:
        drafts = dominion_wide.parse(sheet.records, local)
        name = "dominion-sov"
        detail = ", ".join(repr(d.name) for d in drafts[:3]) + (", ..." if len(drafts) > 3 else "")
        role = "contests"
    else:
        csv_bytes = _as_csv(sheet.records)
        source = open_source(csv_bytes, local)
        detected = format or _detect(source)
        if detected is None:
            return skip("skipped", "no table of returns recognised; its first row: " + _first_row(first_row))
        name = detected
        drafts = module(name).parse(source, local)
        detail = f"{module(name).DESCRIPTION.split(':')[0]} ({name})"
        role = "long form"
    result.formats.append(name)
    if prefix:
        drafts = [_located(d, where) for d in drafts]
        report.absorb(local, where)
    else:
        report.absorb(local, "")
    result.drafts.extend(drafts)
    result.sheets.append(Worksheet(sheet.name, role, detail, sheet.hidden))


def _detect(source) -> str | None:
    head = Head(source)
    for name in READERS:
        if name not in NOT_CSV_FORMATS and module(name).detect(head):
            return name
    return None


def _first_row(cells: list[str]) -> str:
    shown = ", ".join(" ".join(c.split()) for c in cells if c.strip())
    return shown if len(shown) <= 100 else shown[:97] + "..."


def _as_csv(records: list[tuple[int, list[str]]]) -> bytes:
    """The rows as CSV, blank rows where the spreadsheet has them, so "row N" is the spreadsheet's row N."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    expected = 1
    for row, cells in records:
        while expected < row:
            out.write("\n")
            expected += 1
        writer.writerow(cells)
        expected += 1
    return out.getvalue().encode("utf-8")


def _located(draft: Draft, where: str) -> Draft:
    """The draft with each hidden count's location naming its worksheet."""
    if draft.uncertain:
        draft.uncertain = {key: dataclasses.replace(bound, location=f"{where}, {bound.location}")
                           if isinstance(bound, Bound) and bound.location else bound
                           for key, bound in draft.uncertain.items()}
    return draft
