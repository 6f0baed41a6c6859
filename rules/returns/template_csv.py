"""The project's own CSV template: contest,choice,votes[,seats][,kind][,unit].

Header names are case-insensitive and in any order; an unknown column is a problem (a typo such as
"vote" must not silently drop a column). Rows of one contest and choice in different units add up;
the same contest, choice and unit twice is refused, naming both rows, because summing or keeping
either one could silently change a result.
"""
from __future__ import annotations

from itertools import repeat
from typing import cast

from rules.contest import ContestKind
from rules.returns.csv_table import Table, open_table
from rules.returns.draft import Draft
from rules.returns.numbers import MAX_DIGITS, CountError, hidden_count, is_plain_count, parse_count
from rules.returns.problems import Report
from rules.returns.source import Source
from rules.row_kinds import choice_row_kind
from rules.unit_counts import MISSING, Column, UnitCounts, UnitNumbers, new_column, value_at

DESCRIPTION = "a CSV whose header has contest, choice and votes (the recount-bot template)"
REQUIRED = ("contest", "choice", "votes")
OPTIONAL = ("seats", "kind", "unit")
KINDS = {"candidate": ContestKind.CANDIDATE, "question": ContestKind.QUESTION}
COUNTS_KEPT = 1 << 16  # distinct count cells remembered by the reader (a few MiB at most)


def _slow_count(table: Table, row: int, cell: str, contest: str | None, report: Report) -> int | None:
    """A count that is not plain digits: "1,234", "12.0"; None (reported unless it hides a count) otherwise."""
    try:
        votes, note = parse_count(cell)
    except CountError as exc:
        if hidden_count(cell) is None:
            report.row_problem(table.location(row, "votes"), str(exc), contest)
        return None
    if note:
        report.note(f"row {row}: {note}", kind="counts normalised")
    return votes


def detect(head) -> bool:
    """The template: contest and choice, even if votes is missing (the reader then says to add it)."""
    return {"contest", "choice"} <= head.header


def parse(source: Source, report: Report) -> list[Draft]:
    table = open_table(source, report, required=REQUIRED, optional=OPTIONAL, ignore_unknown=False)
    if table is None:
        return []
    cols = table.columns
    i_contest, i_choice, i_votes = cols["contest"], cols["choice"], cols["votes"]
    i_unit, i_seats, i_kind = cols.get("unit"), cols.get("seats"), cols.get("kind")
    drafts: dict[str, Draft] = {}
    stated_seats: dict[str, tuple[int, int]] = {}  # contest -> (seats, first row saying so)
    stated_kind: dict[str, tuple[ContestKind, int]] = {}
    # A seats (kind) cell as written that agreed with what its contest states: the same cell on a later
    # row of that contest agrees too, so it is not read again. Files that repeat seats and kind on every
    # row would otherwise have them parsed, validated and compared on every row.
    agreed_seats: dict[str, str] = {}
    agreed_kind: dict[str, str] = {}
    # The last (contest, cell) found agreed: a file lists a contest's rows together, so most rows need no lookup.
    seats_contest = seats_cell = kind_contest = kind_cell = None
    # One str per distinct unit or choice name, shared by every contest's counts: a statewide file
    # otherwise keeps a copy of the name for every row (some 40 MiB for half a million rows).
    names: dict[str, str] = {}
    share = names.setdefault
    unit_numbers = UnitNumbers()  # the units numbered once for every contest's counts
    blank_unit_row: dict[str, int] = {}
    repeats: list[tuple[int, tuple[str, str, str]]] = []
    problem = report.row_problem
    # A choice name seen before, as first stored (shared), and known to be votes for a choice rather than a row
    # to set aside (choice_row_kind): one lookup a row instead of two calls.
    voting_choice: dict[str, str] = {}
    # The row of the last row's contest and unit: a file lists a unit's choices of a contest together, so most
    # rows add to the same row of the same contest's columns as the row before, found without two lookups.
    last_contest = last_unit = None
    last_row = 0
    last_columns: dict[str, Column] = {}
    last_draft: Draft | None = None
    # Plain counts as written -> their int, for the first COUNTS_KEPT distinct cells: a statewide file repeats the
    # same few thousand counts, so most rows take one lookup instead of four checks and an int(), and share one
    # int object (every count above 256 is otherwise an object of its own, a row's).
    counts_read: dict[str, int] = {}
    plain_count = counts_read.get

    # The hot loop: one pass, dict lookups only; the slow paths run only for unusual cells.
    trouble = table.trouble
    for row, cells in table.rows():
        contest = cells[i_contest].strip()
        choice = cells[i_choice].strip()
        if not (contest and choice):
            set_aside_kind = choice_row_kind(choice) if choice and not contest else None
            if set_aside_kind is not None:
                report.set_aside(set_aside_kind, f"row {row}")
                continue
            if not contest:
                problem(table.location(row, "contest"), "is empty; every row needs a contest", None)
                if not choice:
                    problem(table.location(row, "choice"), "is empty; every row needs a choice", None)
            else:  # a row naming no choice is never a vote for one: set aside and named
                report.nameless(table.location(row, "choice"), contest, cells[i_votes])
            named = False
        else:
            named = True
        if i_seats is not None:
            cell = cells[i_seats]
            if cell != seats_cell or contest != seats_contest:  # else as the row before, which agreed
                if cell == agreed_seats.get(contest):
                    seats_contest, seats_cell = contest, cell
                elif cell.strip() and _read_seats(table, row, contest, cell.strip(), stated_seats, report):
                    agreed_seats[contest] = seats_cell = cell
                    seats_contest = contest
        if i_kind is not None:
            cell = cells[i_kind]
            if cell != kind_cell or contest != kind_contest:
                if cell == agreed_kind.get(contest):
                    kind_contest, kind_cell = contest, cell
                elif cell.strip() and _read_kind(table, row, contest, cell.strip(), stated_kind, report):
                    agreed_kind[contest] = kind_cell = cell
                    kind_contest = contest
        if not named:
            continue
        if trouble and row in trouble:
            problem(*trouble[row], contest)
            continue
        unit = cells[i_unit].strip() if i_unit is not None else ""
        shared = voting_choice.get(choice)
        if shared is None:
            row_kind = choice_row_kind(choice)
            if row_kind is not None:  # a total, turnout or over/under row: its count is never used
                report.set_aside(row_kind, f"row {row}")
                continue
            shared = voting_choice[choice] = share(choice, choice)
        choice = shared
        cell = cells[i_votes]
        hidden = None
        votes: int | None = plain_count(cell)
        if votes is not None:
            pass
        elif len(cell) <= MAX_DIGITS and cell.isascii() and cell.isdigit():  # is_plain_count, inlined: hot path
            votes = int(cell)
            if len(counts_read) < COUNTS_KEPT:
                counts_read[cell] = votes
        else:
            votes = _slow_count(table, row, cell, contest, report)
            if votes is None:
                hidden = hidden_count(cell, table.location(row, "votes"))
                if hidden is None:
                    continue  # a problem of its contest, already reported
        if unit == last_unit and contest == last_contest and last_draft is not None:
            at, columns, draft = last_row, last_columns, last_draft
        else:
            known = drafts.get(contest)
            if known is None:
                known = drafts[contest] = Draft(name=contest, votes_by_unit=UnitCounts(numbers=unit_numbers))
            draft = known
            counts: UnitCounts = draft.votes_by_unit  # type: ignore[assignment]  # (not `cast`: a call a unit)
            at, columns = counts.row_of(share(unit, unit)), counts.columns
            last_contest, last_unit, last_row, last_columns, last_draft = contest, unit, at, columns, draft
        # UnitCounts.put, inlined (hot path): the choice's column, one slot per unit of the contest
        column = columns.get(choice)
        if column is None:
            column = columns[choice] = new_column()
        size = len(column)
        if size > at and value_at(column, at) is not None:
            repeats.append((row, (contest, unit, choice)))
            continue
        if hidden is not None:
            draft.add_uncertain(unit, choice, hidden)
        elif votes is not None:  # always, without a hidden count: a count that is neither was refused above
            try:
                if size == at:
                    column.append(votes)
                elif size > at:
                    column[at] = votes
                else:
                    column.extend(repeat(MISSING, at - size))
                    column.append(votes)
            except OverflowError:  # a count past its array's type code (4 bytes): the column widens to hold it
                cast(UnitCounts, draft.votes_by_unit).put(at, choice, votes)
            draft.choices[choice] = None
        if not unit and i_unit is not None and contest not in blank_unit_row:
            blank_unit_row[contest] = row

    if table.data_rows == 0 and not report.problems and not report.has_row_problems():
        report.problem("file", "has a header but no rows of returns")
    if repeats:
        _report_repeats(source, repeats, i_unit is not None, report)
    for draft in drafts.values():
        _settle(draft, table, stated_seats, stated_kind, blank_unit_row, report)
    return list(drafts.values())


def _read_seats(table: Table, row: int, contest: str, text: str, stated: dict, report: Report) -> bool:
    """Read a seats cell; True if it agrees with what the contest states (it then states it, if first)."""
    if not is_plain_count(text) or int(text) < 1:
        report.row_problem(table.location(row, "seats"), f"must be a whole number of seats, at least 1 (got {text!r})",
                           contest or None)
        return False
    seats = int(text)
    if not contest:
        return False
    first = stated.get(contest)
    if first is None:
        stated[contest] = (seats, row)
    elif first[0] != seats:
        report.row_problem(table.location(row, "seats"),
                           f"says {seats} seats for {contest!r}, but row {first[1]} says {first[0]}", contest)
        return False
    return True


def _read_kind(table: Table, row: int, contest: str, text: str, stated: dict, report: Report) -> bool:
    """Read a kind cell; True if it agrees with what the contest states (it then states it, if first)."""
    kind = KINDS.get(text.casefold())
    if kind is None:
        report.row_problem(table.location(row, "kind"), f"must be candidate or question (got {text!r})", contest or None)
        return False
    if not contest:
        return False
    first = stated.get(contest)
    if first is None:
        stated[contest] = (kind, row)
    elif first[0] is not kind:
        report.row_problem(table.location(row, "kind"),
                           f"says {kind.value} for {contest!r}, but row {first[1]} says {first[0].value}", contest)
        return False
    return True


def _settle(draft: Draft, table: Table, stated_seats: dict, stated_kind: dict, blank_unit_row: dict, report: Report) -> None:
    """Give a finished contest its kind and seats, and refuse a unit-less row among units."""
    name = draft.name
    if name in stated_kind:
        draft.kind, draft.kind_stated = stated_kind[name][0], True
    if name in stated_seats:
        seats, row = stated_seats[name]
        if draft.kind is ContestKind.QUESTION and seats != 1:
            report.row_problem(table.location(row, "seats"), f"{name!r} is a question; it has no seats to fill (got {seats})",
                               name)
        else:
            draft.seats, draft.seats_location = seats, table.location(row, "seats")
    if name in blank_unit_row and len(draft.votes_by_unit) > 1:
        report.row_problem(
            table.location(blank_unit_row[name], "unit"),
            f"is empty, but other rows of {name!r} name units; a row without a unit would be added on top of "
            "them (give every row a unit, or remove a total row)", name)


def _report_repeats(source: Source, repeats: list, has_unit: bool, report: Report) -> None:
    """Name both rows of each repeat. The first rows are found by a second read, only when needed,
    so the hot loop does not have to remember a row number for every cell."""
    wanted = {key for _, key in repeats}
    first_row: dict[tuple[str, str, str], int] = {}
    table = open_table(source, Report(), required=REQUIRED, optional=OPTIONAL, ignore_unknown=False)
    assert table is not None  # the same text opened fine a moment ago
    c = table.columns
    for row, cells in table.rows():
        key = (cells[c["contest"]].strip(), cells[c["unit"]].strip() if has_unit else "", cells[c["choice"]].strip())
        if key in wanted and key not in first_row and (_readable(cells[c["votes"]]) or hidden_count(cells[c["votes"]])):
            first_row[key] = row  # the row that was kept: an earlier row with a refused count was not
    for row, (contest, unit, choice) in repeats:
        what = f"contest {contest!r}, choice {choice!r}" + (f", unit {unit!r}" if has_unit else "")
        report.row_problem(f"row {row}", f"repeats row {first_row[(contest, unit, choice)]}: {what}", contest)


def _readable(cell: str) -> bool:
    try:
        parse_count(cell)
    except CountError:
        return False
    return True
