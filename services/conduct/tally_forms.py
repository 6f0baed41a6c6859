"""What the card and the tally forms show (5), read-only: the summary of the tally (progress, disagreements,
the entries standing), the recounts that are counting, and what the sheet and set-up forms offer."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.tally import FIRST, SECOND, CountMethod, TallySheet, accept_sheets
from services.conduct.tally import as_sheet, election_sheets, original_contest, returns_units, standing_sheets
from services.election_law import cites_of, law_of
from services.errors import NotFound, UserError
from services.services import Services
from storage.models import RecountCase, TallySheetRow

METHOD_LABEL = {CountMethod.PAPER.value: "paper ballots", CountMethod.ELECTRONIC.value: "electronic ballots",
                CountMethod.VOTING_MACHINE.value: "voting machines"}


@dataclass(frozen=True)
class EntryLine:
    """One entry standing (not withdrawn)."""

    row_id: int
    sheet_id: str
    unit: str
    entry: int
    entered_by: str
    counts: tuple[tuple[str, int | None], ...]  # in the contest's order of choices; None: the entry has none
    entered_at: dt.datetime


@dataclass(frozen=True)
class DisagreementLine:
    unit: str
    sheet_id: str
    first: EntryLine
    second: EntryLine
    differences: tuple[tuple[str, int, int], ...]  # (choice, entry 1, entry 2)
    blocking: bool  # the unit does not count because of it (double entry)


@dataclass(frozen=True)
class TallySummary:
    method: str
    method_label: str
    units: tuple[str, ...]
    double_entry: bool
    tallied: int
    expected: int
    awaiting_second_entry: tuple[str, ...]  # units
    disagreements: tuple[DisagreementLine, ...]
    problems: tuple[str, ...]
    entries: tuple[EntryLine, ...]
    choices: tuple[str, ...]
    reason: str  # the core's one line, cited
    citation: str
    election_sheet_ids: tuple[str, ...] = ()  # the sheets used at the election: no recount sheet may be one

    @property
    def complete(self) -> bool:
        return self.tallied == self.expected

    @property
    def awaiting_sheets(self) -> tuple[EntryLine, ...]:
        """First entries with no second entry yet, where double entry asks for one."""
        if not self.double_entry:
            return ()
        checked = {e.sheet_id for e in self.entries if e.entry == SECOND}
        return tuple(e for e in self.entries if e.entry == FIRST and e.sheet_id not in checked
                     and e.unit in self.awaiting_second_entry)


def fingerprint(units: list[str] | tuple[str, ...]) -> str:
    """A short digest of the units expected, so a form opened before the set-up changed is noticed."""
    return hashlib.sha256(json.dumps(list(units), ensure_ascii=False).encode()).hexdigest()[:12]


def tally_summary(session: Session, case: RecountCase) -> TallySummary | None:
    """Where the tally stands, for the card and the forms; None before the count is set up."""
    if not case.count_method or case.expected_units is None:
        return None
    contest = original_contest(session, case)
    rows = standing_sheets(session, case.id)
    state = accept_sheets([as_sheet(r) for r in rows], contest=contest, expected_units=tuple(case.expected_units),
                          double_entry=case.double_entry, election_sheet_ids=election_sheets(case),
                          law=law_of(case.contest.election))

    def line(row: TallySheetRow) -> EntryLine:
        return EntryLine(row.id, row.sheet_id, row.unit, row.entry, row.entered_by,
                         tuple((c, row.counts.get(c)) for c in contest.choices), row.entered_at)

    lines = [line(r) for r in rows]

    def find(sheet: TallySheet) -> EntryLine:
        return next(e for e in lines if (e.sheet_id, e.entry, e.entered_by, e.unit) ==
                    (sheet.sheet_id, sheet.entry, sheet.entered_by, sheet.unit))

    disagreements = tuple(
        DisagreementLine(d.unit, d.first.sheet_id, find(d.first), find(d.second),
                         tuple((c, a, b) for c, (a, b) in d.differences.items()), d.unit not in state.counted)
        for d in state.disagreements)
    tallied, expected = state.progress
    decision = state.decision()
    return TallySummary(
        method=case.count_method, method_label=METHOD_LABEL.get(case.count_method, case.count_method),
        units=tuple(case.expected_units), double_entry=case.double_entry, tallied=tallied, expected=expected,
        awaiting_second_entry=tuple(state.awaiting_second_entry), disagreements=disagreements,
        problems=tuple(str(p) + (f" ({p.citation})" if p.citation else "") for p in state.problems),
        entries=tuple(lines), choices=tuple(contest.choices), reason=decision.reason, citation=decision.citation,
        election_sheet_ids=election_sheets(case))


@dataclass(frozen=True)
class CountingCase:
    id: int
    contest: str
    set_up: bool


def counting_cases(services: Services, *, workspace_id: int) -> list[CountingCase]:
    """The office's recounts that are counting (started, not completed), oldest first."""
    with services.db.transaction() as session:
        found = session.scalars(select(RecountCase).where(
            RecountCase.workspace_id == workspace_id, RecountCase.counting_started_at.is_not(None),
            RecountCase.completed_at.is_(None)).order_by(RecountCase.id))
        return [CountingCase(c.id, c.contest.name, bool(c.count_method)) for c in found]


@dataclass(frozen=True)
class SheetForm:
    """What the tally-sheet form of one case shows."""

    case_id: int
    contest: str
    summary: TallySummary
    fingerprint: str
    tally: str = ""  # the election's law's provision on the tally (1306(5), 31-10-1207(5), 1-10.5-102(1), (2))


def sheet_form(services: Services, *, workspace_id: int, case_id: int) -> SheetForm:
    """The tally-sheet form of a counting case; refused, with why, when sheets cannot be entered."""
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound(f"There is no recount case #{case_id} in this office.", field="case")
        if case.completed_at is not None:
            raise UserError(f"The recount of {case.contest.name} (case #{case.id}) is complete; no more tally "
                            "sheets can be entered.", field="case")
        if case.counting_started_at is None:
            raise UserError(f"Counting has not started for {case.contest.name} (case #{case.id}); start it "
                            "from "
                            "the case card first.", field="case")
        summary = tally_summary(session, case)
        if summary is None:
            raise UserError(f"Set up the count of {case.contest.name} (case #{case.id}) first: how it is counted "
                            "and the units expected (the card's “Set up the count”).", field="case")
        return SheetForm(case.id, case.contest.name, summary, fingerprint(summary.units), cites_of(case).tally)


@dataclass(frozen=True)
class SetUpForm:
    case_id: int
    contest: str
    returns_units: tuple[str, ...]
    method: str | None
    units: tuple[str, ...] | None
    double_entry: bool
    sheets_entered: int
    election_sheet_ids: tuple[str, ...] = ()
    tally: str = ""  # the election's law's provision on the tally


def set_up_form(services: Services, *, workspace_id: int, case_id: int) -> SetUpForm:
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound("That recount case does not exist in this office.")
        if case.completed_at is not None:
            raise UserError("This recount is complete; its tally can no longer change.")
        return SetUpForm(case.id, case.contest.name, returns_units(session, case), case.count_method,
                         tuple(case.expected_units) if case.expected_units is not None else None, case.double_entry,
                         len(standing_sheets(session, case.id)), election_sheets(case),
                         cites_of(case).tally)
