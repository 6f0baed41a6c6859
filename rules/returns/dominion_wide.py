"""Dominion's statement of votes cast (SOVC), the wide report: one table per contest, a column per choice.

The report of Democracy Suite's Results Tally & Reporting, exported to Excel (one contest a worksheet,
a first worksheet of turnout only) or CSV. Each table, as in the real files (Contra Costa, Fresno, Kern,
San Francisco, Tuolumne... 2025; see tests/rules/test_returns_dominion.py):

    Page: 2 of 2,,,,,,,,2025-12-01T14:01:53
    PROPOSITION 50 (Vote for  1)   **** - Insufficient Turnout to Protect Voter Privacy
    Precinct,Times Cast,"Registered \\nVoters",,Precinct,"Yes\\n ",,"No\\n ",,Total Votes,"Unresolved\\nWrite-In"
    County                                       a group heading
    Contra Costa County                          a group heading
    ALHA101                                      a precinct heading ...
    In-Person,5,72,,In-Person,****,****,...      ... its vote-type rows ...
    Vote By Mail,41,72,,Vote By Mail,29,70.73%,12,29.27%,41
    Total,46,72,,Total,33,71.74%,13,28.26%,46    ... and its total, the row that is counted
    Contra Costa County - Total,...              a subtotal
    Cumulative / Cumulative / ... / Cumulative - Total     votes counted with no precinct: a unit
    County - Total,...                           the contest's total

How it is read, so that every vote is counted once:
- A precinct's Total row is counted and its vote-type rows are set aside (as subtotals), after checking
  that they add up to it. Where a table has no Total rows, a precinct with vote-type rows (named as
  Dominion's counting groups: Election Day, Mail, Vote Center, Provisional, ...) is their sum; a precinct
  row that carries numbers itself (Kern, Tuolumne) is counted as it is.
- Rows named "... - Total" (any group, the contest's) are set aside. The statement "for All Districts"
  lists every precinct again under each kind of district (Electionwide, then State Senator, County
  Supervisor, Cities...); a precinct listed again is checked against its first listing and set aside.
- The top group's total ("County - Total" for the group "County") is checked against the sum of the
  precincts. Where cells are hidden for privacy ("****"), the contest total is still exact: the hidden
  cells' votes are that total less the precincts shown, read as one unit (noted).
- Columns: "Precinct" (repeated where the printed page is split), Times Cast, Registered Voters,
  Undervotes, Overvotes, Blanks and Total Votes are not votes for a choice; a column with no name holds
  the percentage of the choice before it; every other named column is a choice. A header broken over
  two rows (the second with an empty first cell) is read as one.
- "(Vote for  N)" or "(Vote For=N)" in the title gives the seats; a title without it leaves them open.
  A table with no title is the next page of the contest before it.
- Page rows, report titles and footnotes are set aside as not results; a table with no choice columns
  (the turnout page) as turnout.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.contest import Bound
from rules.returns.dominion_common import (
    add,
    can_be,
    clean,
    contest_title,
    drop_empty_write_ins_of_questions,
    header_key,
    put,
    read_count,
    settle_seats,
    shown,
)
from rules.returns.draft import Draft
from rules.returns.numbers import MAX_DIGITS
from rules.returns.problems import Report
from rules.row_kinds import RowKind, choice_row_kind, normalise

HIDDEN_UNIT = "precincts with hidden counts"
_PAGE = re.compile(r"page:?\s*\d+\s*(?:of\s*\d+)?", re.I)
# What a column with no name may hold: the percentage of the choice before it, or its privacy mask.
_PERCENT = re.compile(r"-?\d+(?:\.\d+)?\s*%|n/?a|\*+", re.I)
# Dominion counting groups as counties name them; a table with Total rows needs none of these names.
VOTE_TYPES = frozenset({
    "election day", "vote by mail", "mail", "mail in", "mail ballot", "mail ballots", "by mail", "vbm", "absentee",
    "early voting", "early vote", "early", "in person", "in person voting", "polling", "polls", "poll",
    "polling place", "vote center", "vote centers", "provisional", "provisionals", "drop box", "uocava",
})
Figures = dict  # choice -> int | Bound


UNIT_HEADERS = ("precinct", "precinct portion")  # Larimer's statement counts precinct portions ("2155135538 - 03")


# Column names of a long table (a row per precinct, contest and choice), never of a table with a column per choice.
_LONG_FORM_WORDS = frozenset({"contest", "contest name", "contest title", "candidate", "candidate name", "choice",
                              "choice name", "office", "race"})


def is_header(cells: list[str]) -> bool:
    """A table's header: "Precinct" (or "Precinct Portion") first, then a column that is not votes (Times Cast,
    Registered Voters, Total Votes...), and no column of a long table (CONTEST, CANDIDATE: Arapahoe's export)."""
    return bool(cells) and cells[0][:1] in "Pp \n" and header_key(cells[0]) in UNIT_HEADERS and any(
        c.strip() and choice_row_kind(c) is not None for c in cells[1:]) and not any(
        header_key(c).replace("_", " ") in _LONG_FORM_WORDS for c in cells[1:])


def has_choices(records: list[tuple[int, list[str]]]) -> bool | None:
    """None: no table header at all; False: tables of turnout only (Registered Voters, Voters Cast); True: a
    table with a column per choice."""
    found = None
    for _, cells in records:
        if is_header(cells):
            found = bool(found) or "choice" in _roles(cells)[0]
    return found


# Adams County 2020: a precinct too small to publish, its votes already in another precinct's row ("REDACTED -
# INCLUDED IN PRECINCT 6253001226 RESULTS"), or in another county's returns ("... IN WELD COUNTY TOTALS").
_MOVED = re.compile(r"\s*redacted\s*-\s*included in (?P<where>.+?)(?:\s+results|\s+totals)?\s*\.?\s*", re.I)


def _is_page(cells: list[str]) -> bool:
    return bool(cells) and cells[0][:1] in "Pp " and _PAGE.fullmatch(cells[0].strip()) is not None


def _has_data(cells: list[str]) -> bool:
    return any(c.strip() for c in cells[1:])


def _is_subtotal(label: str) -> bool:
    return "otal" in label and _is_subtotal_key(header_key(label))  # "... - Total", "Total - ...", "Grand Total"


def _total_key(label: str) -> str:
    """A label's key where it may name a total ("Electionwide - Total", "Total"); "" for the rest (precincts)."""
    return header_key(label) if "otal" in label or "OTAL" in label else ""


def _is_subtotal_key(key: str) -> bool:
    return key.endswith(" - total") or key.startswith("total - ") or key in ("contest total", "grand total")


@dataclass
class _Table:
    """One table's columns: which hold choices, which must hold nothing but percentages."""

    name: str
    roles: list[str]  # per column: label, repeat, stat, spacer, choice
    names: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    refused: bool = False  # a row was refused (reported): its total cannot be checked, nor hidden counts read

    def __post_init__(self) -> None:
        self.choices = [i for i, role in enumerate(self.roles) if role == "choice"]
        self._named = [(i, self.names[i]) for i in self.choices]
        self.names_of_choices = [name for _, name in self._named]
        self.hidden = False  # a row hides a count ("****")
        self._spacers = [i for i, role in enumerate(self.roles) if role == "spacer"]
        self._repeats = [i for i, role in enumerate(self.roles) if role == "repeat"]
        self._checked = bool(self._spacers or self._repeats)
        self._data = [i for i, role in enumerate(self.roles) if role not in ("label", "repeat")]
        self._has_data: dict[int, bool] = {}  # id(row's cells) -> has_data (the rows live as long as the table)

    def has_data(self, cells: list[str]) -> bool:
        """True for a row with numbers; a heading has none (beyond its name, repeated where the page is split).
        Asked of each row several times: the answer is kept, by the row's identity."""
        known = self._has_data.get(id(cells))
        if known is None:
            known = self._has_data[id(cells)] = self._data_in(cells)
        return known

    def _data_in(self, cells: list[str]) -> bool:
        count = len(cells)
        for i in self._data:  # a precinct row answers at its first column (Times Cast)
            if i < count and cells[i] and not cells[i].isspace():
                return True
        return any(cell.strip() for cell in cells[len(self.roles):])


ONE_COUNTY = "one county's statement of votes cast"


def parse(records: list[tuple[int, list[str]]], report: Report) -> list[Draft]:
    report.one_county = report.one_county or ONE_COUNTY  # Results Tally & Reporting counts one county's ballots
    headers = [i for i, (_, cells) in enumerate(records) if is_header(cells)]
    drafts: dict[str, Draft] = {}
    start, previous, tables = 0, None, 0
    for k, h in enumerate(headers):
        next_header = headers[k + 1] if k + 1 < len(headers) else len(records)
        title = _title(records, start, h, report)
        header, body_start = _header(records, h)
        body_end = _body_end(records, body_start, next_header)
        table_rows = [(r, c) for r, c in records[body_start:body_end] if any(c) and any(x.strip() for x in c)]
        roles, names = _roles(header)
        if "choice" not in roles:  # the turnout page: its title row is a report title like the others
            if title is not None:
                report.set_aside(RowKind.NOT_RESULTS, f"row {title[0]}")
            for row, _ in table_rows:
                report.set_aside(RowKind.TURNOUT, f"row {row}")
            start = body_end
            continue
        tables += 1
        if title is not None:
            (name, seats), seats_row = contest_title(title[1]), title[0]
        elif previous is not None:
            name, seats, seats_row = previous, None, 0
        else:
            report.row_problem(f"row {records[h][0]}", "begins a table of choices, but no contest title is above "
                                                       "it", None)
            start = body_end
            continue
        draft = drafts.get(name) or drafts.setdefault(name, Draft(name=name))
        settle_seats(draft, seats, f"row {seats_row}", report)
        for choice in {n for n, r in zip(names, roles) if r == "choice" and names.count(n) > 1}:
            report.row_problem(f"row {records[h][0]}", f"names the choice {choice!r} twice", name)
        table = _Table(name=name, roles=roles, names=names, rows=table_rows)
        _read_table(table, draft, report)
        previous, start = name, body_end
    for row, cells in records[start:]:
        if any(c.strip() for c in cells):
            report.set_aside(RowKind.NOT_RESULTS, f"row {row}")
    if not tables and not report.problems and not report.has_row_problems():
        report.problem("file", "is a Dominion statement of votes with turnout only (Registered Voters, Voters "
                               "Cast) and no contest; the contests are on the other worksheets of the workbook: "
                               "save the worksheet of each contest as CSV and check it")
    for draft in drafts.values():
        drop_empty_write_ins_of_questions(draft, report)
    return list(drafts.values())


def _title(records, start: int, h: int, report: Report) -> tuple[int, str] | None:
    """The contest title (the last one-cell row above the header); every other row above is set aside."""
    title = None
    for row, cells in records[start:h]:
        filled = [c for c in cells if c.strip()]
        if not filled:
            continue
        if len(filled) == 1 and cells[0].strip() and not _is_page(cells):
            if title is not None:
                report.set_aside(RowKind.NOT_RESULTS, f"row {title[0]}")
            title = (row, cells[0])
        else:
            report.set_aside(RowKind.NOT_RESULTS, f"row {row}")
    return title


def _header(records, h: int) -> tuple[list[str], int]:
    """The header, with its second row merged in when it is broken over two (that row's first cell empty)."""
    header = list(records[h][1])
    if h + 1 < len(records):
        cells = records[h + 1][1]
        filled = [c.strip() for c in cells if c.strip()]
        if cells and not cells[0].strip() and filled and not any(_is_number(c) for c in filled):
            width = max(len(header), len(cells))
            header = [f"{a} {b}".strip() for a, b in zip(header + [""] * width, cells + [""] * width)][:width]
            return header, h + 2
    return header, h + 1


def _is_number(cell: str) -> bool:
    """True for a cell that is a number or a percentage, which a header never is."""
    text = cell.replace(",", "").strip()
    return text.isdigit() or _PERCENT.fullmatch(text) is not None or text.startswith("*")


def _body_end(records, lo: int, hi: int) -> int:
    """The end of a table's rows: after its last row with numbers (what follows is the next table's page row,
    report titles and contest title, or footnotes)."""
    for j in range(hi - 1, lo - 1, -1):
        cells = records[j][1]
        if _has_data(cells) and not _is_page(cells):
            return j + 1
    return lo


def _roles(header: list[str]) -> tuple[list[str], list[str]]:
    roles, names = [], []
    for i, cell in enumerate(header):
        name = clean(cell)
        names.append(name or f"{i + 1}")
        if i == 0:
            roles.append("label")
        elif not name:
            roles.append("spacer")
        elif header_key(name) in UNIT_HEADERS:
            roles.append("repeat")
        elif choice_row_kind(name) is not None:
            roles.append("stat")
        else:
            roles.append("choice")
    return roles, names


def _figures(table: _Table, row: int, cells: list[str], report: Report) -> Figures | None:
    """The choices' figures of one row; None when a cell is refused (reported). Runs once a precinct and
    contest: a plain count is read in place, anything else by `read_count`."""
    width = len(table.roles)
    if len(cells) < width:
        cells = cells + [""] * (width - len(cells))
    elif len(cells) > width and any(c.strip() for c in cells[width:]):
        report.row_problem(f"row {row}", f"has {len(cells)} cells but the header has {width} columns", table.name)
        return None
    ok = True
    figures: dict[str, int | Bound] = {}
    for i, name in table._named:
        cell = cells[i]
        if cell.isdigit() and len(cell) <= MAX_DIGITS and cell.isascii():
            figures[name] = int(cell)
            continue
        figure = read_count(cell.strip(), f"row {row}, column {name}", report, table.name)
        if figure is None:
            ok = False
        else:
            figures[name] = figure
            table.hidden = table.hidden or type(figure) is Bound
    if table._checked:
        ok = _other_columns(table, row, cells, report) and ok
    table.refused = table.refused or not ok
    return figures if ok else None


def _other_columns(table: _Table, row: int, cells: list[str], report: Report) -> bool:
    """The columns with no name hold only percentages; a repeated Precinct column names the row's precinct."""
    ok = True
    for i in table._spacers:
        cell = cells[i]
        if cell and cell[-1:] != "%":  # empty or a percentage ("65.00%"): the common cases, decided at once
            cell = cell.strip()
            if cell and not _PERCENT.fullmatch(cell):
                report.row_problem(f"row {row}, column {i + 1}", f"holds {cell!r}, but the column has no name in the "
                                   "header (only percentages are expected there)", table.name)
                ok = False
    for i in table._repeats:
        cell = cells[i]
        if cell and cell != cells[0] and cell.strip() != cells[0].strip():
            report.row_problem(f"row {row}, column {table.names[i]}", f"names {cell.strip()!r}, but the row is "
                               f"{cells[0].strip()!r}", table.name)
            ok = False
    return ok


def _read_table(table: _Table, draft: Draft, report: Report) -> None:
    """Walk one table's rows (see the module docstring); then check its total and store its units."""
    totals_layout = any(c[0][:6].strip().casefold() == "total" and table.has_data(c) for _, c in table.rows)
    units: dict[str, tuple[int, Figures]] = {}  # precinct -> (row, figures), first listing
    heading: tuple[int, str] | None = None
    parts: list[tuple[int, Figures | None]] = []
    grand: tuple[int, Figures] | None = None
    top_total = _top_total_key(table)
    after_subtotal = False
    moved_rows: list[tuple[int, str, str]] = []  # (row, precinct, where its votes are reported)

    def record(unit: str, row: int, figures: Figures | None) -> bool:
        """Keep a precinct's first listing; False when it was listed before (then checked and set aside)."""
        if figures is None:
            return True
        if unit in units:
            report.set_aside(RowKind.SUBTOTAL, f"row {row}")  # listed again under another district grouping
            first_row, first = units[unit]
            for choice, figure in figures.items():
                if isinstance(figure, int) and isinstance(first.get(choice), int) and figure != first[choice]:
                    report.row_problem(f"row {row}, column {choice}", f"precinct {unit!r} is listed again with "
                                       f"{figure:,} for {choice!r}, but row {first_row} says {first[choice]:,}",
                                       table.name)
            return False
        units[unit] = (row, figures)
        return True

    def close() -> None:
        nonlocal heading, parts
        if heading is not None and parts:
            total: Figures = {}
            for _, figures in parts:
                if figures is None:
                    heading, parts = None, []
                    return
                for choice, figure in figures.items():
                    total[choice] = add(total.get(choice, 0), figure)
            if record(heading[1], heading[0], total):
                report.note(f"{table.name!r}: precinct {heading[1]!r} has no Total row; its {len(parts)} "
                            "vote-type rows are added", kind="vote types added")
            else:
                for part_row, _ in parts:
                    report.set_aside(RowKind.SUBTOTAL, f"row {part_row}")
        elif heading is not None:
            report.set_aside(RowKind.NOT_RESULTS, f"row {heading[0]}")  # a group heading ("County", "Cities")
        heading, parts = None, []

    for row, cells in table.rows:
        label = clean(cells[0])
        if _is_page(cells):
            report.set_aside(RowKind.NOT_RESULTS, f"row {row}")
            continue
        if not table.has_data(cells):
            close()
            heading, after_subtotal = (row, label), False
            continue
        if not label:
            report.row_problem(f"row {row}", "has numbers but no precinct", table.name)
            continue
        key = _total_key(label)
        if key and _is_subtotal_key(key):
            close()
            report.set_aside(RowKind.SUBTOTAL, f"row {row}")
            if grand is None and key == top_total:
                figures = _figures(table, row, cells, report)  # only the top group's total is read
                grand = (row, figures) if figures else None
            after_subtotal = True
            continue
        moved = _moved_to(table, cells)
        if moved is not None:
            close()
            report.set_aside(RowKind.MOVED, f"row {row}")
            moved_rows.append((row, label, moved))
            continue
        if key == "total":
            if heading is None:
                report.set_aside(RowKind.SUBTOTAL, f"row {row}")
                continue
            figures = _figures(table, row, cells, report)
            _check_parts(table, heading[1], row, figures, parts, report)
            for part_row, _ in parts:
                report.set_aside(RowKind.SUBTOTAL, f"row {part_row}")
            record(heading[1], row, figures)
            heading, parts = None, []
            continue
        vote_type = not label[:1].isdigit() and normalise(label) in VOTE_TYPES
        if heading is not None and (totals_layout or vote_type):
            parts.append((row, _figures(table, row, cells, report)))
            continue
        if heading is None and after_subtotal and (vote_type or totals_layout):
            report.set_aside(RowKind.SUBTOTAL, f"row {row}")  # the vote types of the total above
            continue
        close()
        record(label, row, _figures(table, row, cells, report))
    close()
    _finish_table(table, draft, units, grand, moved_rows, report)


def _finish_table(table: _Table, draft: Draft, units: dict, grand, moved_rows: list, report: Report) -> None:
    if moved_rows and _all_elsewhere(table, draft, units, moved_rows, report):
        return
    _store(table, draft, units, grand, report)


def _top_total_key(table: _Table) -> str | None:
    """The label of the table's total: the top group's ("County - Total" under the heading "County"), or, in a
    table with no group headings (Jefferson, Adams 2020), its one "Electionwide - Total"."""
    for _, cells in table.rows:
        if not _is_page(cells) and not table.has_data(cells):
            return header_key(clean(cells[0])) + " - total"
    labels = {header_key(c[0]) for _, c in table.rows if ("otal" in c[0] or "OTAL" in c[0]) and _is_subtotal(c[0])
              and table.has_data(c)}
    return labels.pop() if len(labels) == 1 else None


def _moved_to(table: _Table, cells: list[str]) -> str | None:
    """Where a row's votes are reported when the row says so instead of giving them ("REDACTED - INCLUDED IN
    PRECINCT 6253001226 RESULTS" in its first choice cell, the rest empty); None for a row of counts."""
    first = cells[table.choices[0]] if table.choices and table.choices[0] < len(cells) else ""
    if not first[:1].isalpha():  # a count, a mask, a percentage: the common case, decided at once
        return None
    texts = [cells[i].strip() for i in table.choices if i < len(cells) and cells[i].strip()]
    if len(texts) != 1:
        return None
    match = _MOVED.fullmatch(texts[0])
    return clean(match["where"]) if match else None


def _all_elsewhere(table: _Table, draft: Draft, units: dict, moved_rows, report: Report) -> bool:
    """Say where the votes of redacted rows are; True when none of the table's votes are in this file (every
    row's are in another county's returns: Adams's Lochbuie contests, counted in Weld County)."""
    places = sorted({where for _, _, where in moved_rows})
    precincts = [p for p in places if p.casefold().startswith("precinct")]
    if precincts:
        report.note(f"{table.name!r}: {len(moved_rows)} row{'s' if len(moved_rows) != 1 else ''} give no counts: "
                    f"their votes are included in another precinct's row ({', '.join(precincts[:3])}"
                    f"{', ...' if len(precincts) > 3 else ''}), where they are counted once", kind="votes moved")
    others = [p for p in places if p not in precincts]
    if others and not units:
        report.row_problem(f"row {moved_rows[0][0]}", f"no votes of {table.name!r} are in this file: every precinct "
                           f"with votes says they are included in {' and '.join(others)} (as "
                           f"{moved_rows[0][1]!r} does); decide it from those returns", table.name)
        return True
    if others:
        report.note(f"{table.name!r}: some precincts' votes are included in {' and '.join(others)}, not in this "
                    "file: the verdict is on the votes this file holds", kind="votes moved")
    return False


def _check_parts(table: _Table, unit: str, row: int, total: Figures | None, parts, report: Report) -> None:
    """A precinct's Total row must be the sum of its vote-type rows."""
    if total is None or not parts or any(figures is None for _, figures in parts):
        return
    for choice, figure in total.items():
        if not isinstance(figure, int):
            continue
        summed: int | Bound = 0
        for _, figures in parts:
            summed = add(summed, figures.get(choice, 0))
        if not can_be(figure, summed):
            report.row_problem(f"row {row}, column {choice}", f"the Total of precinct {unit!r} is {figure:,} for "
                               f"{choice!r}, but its vote-type rows (rows {parts[0][0]}-{parts[-1][0]}) add up to "
                               f"{shown(summed)}", table.name)


def _store(table: _Table, draft: Draft, units: dict, grand, report: Report) -> None:
    """Check the table against its total, read hidden cells from it, and put its units into the draft."""
    # Copied only where hidden counts will be taken out of them (the rows' own figures are not needed after).
    counts: dict[str, Figures] = {unit: dict(figures) if table.hidden else figures
                                  for unit, (_, figures) in units.items()}
    masked: set[str] = set()
    if grand is not None and not table.refused:  # a refused row would only be reported again as a wrong total
        grand_row, totals = grand
        for choice, total in totals.items():
            if not isinstance(total, int):
                continue
            if table.hidden:  # some rows hide counts ("****"): tell them from the exact ones
                exact = sum(f[choice] for f in counts.values() if isinstance(f.get(choice), int))
                hidden = [u for u, f in counts.items() if isinstance(f.get(choice), Bound)]
            else:
                exact, hidden = sum(f.get(choice, 0) for f in counts.values()), []
            summed: int | Bound = exact
            for unit in hidden:
                summed = add(summed, counts[unit][choice])
            if not can_be(total, summed):
                report.row_problem(f"row {grand_row}, column {choice}", f"the total of {table.name!r} is {total:,} "
                                   f"for {choice!r}, but its precincts add up to {shown(summed)}", table.name)
                continue
            if hidden:
                masked.update(hidden)
                for unit in hidden:
                    del counts[unit][choice]
                counts.setdefault(HIDDEN_UNIT, {})[choice] = total - exact
        if masked:
            votes = ", ".join(f"{choice} {figure:,}" for choice, figure in counts[HIDDEN_UNIT].items())
            report.note(f"{table.name!r}: {len(masked)} precinct{'s' if len(masked) != 1 else ''} hide counts for "
                        f"privacy; their votes, the total (row {grand_row}) less the precincts shown, are read as the "
                        f"unit {HIDDEN_UNIT!r}: {votes}", kind="hidden counts")
    _put_units(table, draft, counts, report)


def _put_units(table: _Table, draft: Draft, counts: dict[str, Figures], report: Report) -> None:
    """The table's units into the draft; a precinct already there (another table of the contest) must agree."""
    for choice in table.names_of_choices:
        draft.choices.setdefault(choice, None)
    for unit, figures in counts.items():
        if not figures:  # every count hidden, and read from the total as the unit HIDDEN_UNIT
            continue
        if unit not in draft.votes_by_unit and not any(type(f) is Bound for f in figures.values()):
            draft.votes_by_unit[unit] = figures  # the common case: a precinct first seen, every count exact
            continue
        for choice, figure in figures.items():
            known = draft.votes_by_unit.get(unit, {})
            if choice in known:
                earlier = draft.uncertain.get((unit, choice), known[choice])
                if earlier != figure:
                    report.row_problem(f"contest {table.name!r}", f"precinct {unit!r} has {shown(figure)} for "
                                       f"{choice!r} in one table and {shown(earlier)} in another", table.name)
                continue
            put(draft, unit, choice, figure)
