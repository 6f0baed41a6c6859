"""Tallying the recount (5): how it is counted, which units are expected, and the sheets entered.

The statute core (`rules.tally.accept_sheets`) decides from every sheet entered so far which one counts
for each unit; this module only stores sheets (never changing one: a wrong sheet is withdrawn, with its
reason) and hands them to the core.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.services.context import Services
from bot.services.errors import NotFound, UserError
from bot.services.survey import rules_contests
from rules.contest import Contest
from rules.corrections import unit_label
from rules.tally import (
    FIRST, SECOND, CountMethod, SheetProblem, TallySheet, TallyState, accept_sheets, validate_sheet,
)
from storage import audit
from storage.models import RecountCase, SurveyVersion, TallySheetRow

MAX_UNITS = 2000
SHEET_ID_LIMIT = 100  # TallySheetRow.sheet_id
UNIT_LIMIT = 200  # TallySheetRow.unit
METHOD_LABEL = {CountMethod.PAPER.value: "paper ballots", CountMethod.ELECTRONIC.value: "electronic ballots",
                CountMethod.VOTING_MACHINE.value: "voting machines"}


class SheetRefused(UserError):
    """A sheet the core finds a problem with, alone or beside the sheets entered before; nothing was stored.
    `problems` has every one, each with the field it is about ("unit", "sheet_id", "counts.<choice>", ...)."""

    def __init__(self, message: str, *, field: str | None, problems: tuple[SheetProblem, ...]) -> None:
        super().__init__(message, field=field)
        self.problems = problems


@dataclass(frozen=True)
class CountSetUp:
    changed: bool  # False when the same set-up was submitted again (a double click)
    state: TallyState
    method: str
    units: tuple[str, ...]
    double_entry: bool


@dataclass(frozen=True)
class SheetEntered:
    row_id: int
    newly_entered: bool
    state: TallyState
    sheet: TallySheet


def case_for_update(session: Session, case_id: int, workspace_id: int) -> RecountCase:
    case = session.get(RecountCase, case_id, with_for_update=True)
    if case is None or case.workspace_id != workspace_id:
        raise NotFound("That recount case does not exist in this office.")
    return case


def original_contest(session: Session, case: RecountCase) -> Contest:
    """The contest as the survey of returns had it when the case opened: what the recount checks."""
    version = session.get(SurveyVersion, case.survey_version_id)
    found = rules_contests(session, version, [case.contest_id])
    if not found:
        raise NotFound("The survey of returns this case was opened on has no counts for its contest.")
    return found[0][1]


def survey_units(session: Session, case: RecountCase) -> tuple[str, ...]:
    return original_contest(session, case).units


def _sheets(session: Session, case_id: int) -> list[TallySheetRow]:
    return list(session.scalars(select(TallySheetRow).where(
        TallySheetRow.case_id == case_id, TallySheetRow.withdrawn_at.is_(None)).order_by(TallySheetRow.id)))


def _as_sheet(row: TallySheetRow) -> TallySheet:
    return TallySheet(sheet_id=row.sheet_id, unit=row.unit, method=row.method, counts=dict(row.counts),
                      entered_by=row.entered_by, entry=row.entry)


def tally_state(session: Session, case: RecountCase) -> TallyState | None:
    """Where the tally stands, or None before the count is set up."""
    if not case.count_method or case.expected_units is None:
        return None
    return accept_sheets([_as_sheet(r) for r in _sheets(session, case.id)], contest=original_contest(session, case),
                         expected_units=tuple(case.expected_units), double_entry=case.double_entry)


def _clean_units(units: list[str]) -> list[str]:
    return [u.strip() for u in units if u and u.strip()]


def configure_count(services: Services, *, workspace_id: int, case_id: int, method: str, units: list[str] | None,
                    double_entry: bool, actor: str) -> CountSetUp:
    """How the recount is tallied. `units` None means the units of the survey of returns (precincts or
    batches); with voting machines the office lists its machines, one tally sheet each (5). Submitting the
    same set-up again changes nothing and writes no audit row."""
    try:
        count_method = CountMethod(method)
    except ValueError:
        raise UserError(f"“{method}” is not a way of counting: paper, electronic or voting_machine.",
                        field="method") from None
    if count_method is CountMethod.VOTING_MACHINE and not _clean_units(units or []):
        raise UserError("List the voting machines, one per line: in elections using voting machines separate "
                        "tally sheets are used for each machine (C.R.S. 1-13.5-1306(5)).", field="units")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is not None:
            raise UserError("This recount is complete; its tally can no longer change.")
        cleaned = _clean_units(units) if units is not None else list(survey_units(session, case))
        if len(set(cleaned)) != len(cleaned):
            dupes = sorted({u for u in cleaned if cleaned.count(u) > 1})
            raise UserError(f"Listed twice: {', '.join(dupes)}.", field="units")
        if len(cleaned) > MAX_UNITS:
            raise UserError(f"At most {MAX_UNITS:,} units.", field="units")
        too_long = [u for u in cleaned if len(u) > UNIT_LIMIT]
        if too_long:
            raise UserError(f"A unit's name is at most {UNIT_LIMIT} characters: “{too_long[0][:40]}…”.",
                            field="units")
        if not cleaned:
            cleaned = [""]  # the survey has a single whole-contest unit
        if (case.count_method, case.expected_units, case.double_entry) == (count_method.value, cleaned,
                                                                           double_entry):
            return CountSetUp(False, tally_state(session, case), count_method.value, tuple(cleaned), double_entry)
        if _sheets(session, case.id) and (case.count_method, case.expected_units) != (count_method.value, cleaned):
            raise UserError("Tally sheets are already entered; withdraw them before changing how the count is set "
                            "up (the method or the units).", field="units")
        before = {"method": case.count_method, "units": case.expected_units, "double_entry": case.double_entry}
        case.count_method, case.expected_units, case.double_entry = count_method.value, cleaned, double_entry
        audit.append(session, actor=actor, action="tally.set_up", entity="recount_case", entity_id=case.id,
                     before=before, after={"method": count_method.value, "units": cleaned,
                                           "double_entry": double_entry, "citation": "C.R.S. 1-13.5-1306(5)"},
                     workspace_id=workspace_id, at=services.now())
        session.flush()
        return CountSetUp(True, tally_state(session, case), count_method.value, tuple(cleaned), double_entry)


def set_up_count(services: Services, *, workspace_id: int, case_id: int, method: str, units: list[str] | None,
                 double_entry: bool, actor: str) -> TallyState:
    """`configure_count`, returning where the tally stands."""
    return configure_count(services, workspace_id=workspace_id, case_id=case_id, method=method, units=units,
                           double_entry=double_entry, actor=actor).state


def _refused(problems: list[SheetProblem]) -> SheetRefused:
    first = problems[0]
    return SheetRefused("; ".join(f"{p.field}: {p.message}" for p in problems)
                        + (f" ({first.citation})" if first.citation else ""), field=first.field,
                        problems=tuple(problems))


def _decide_entry(rows: list[TallySheetRow], *, sheet_id: str, unit: str, counts: dict, actor: str
                  ) -> int | TallySheetRow:
    """The entry a person's sheet is: 1 for a sheet not entered yet, 2 for the check of someone else's first
    entry; their own identical entry again (a double click) is that row."""
    mine = [r for r in rows if r.entered_by == actor]
    for row in mine:
        if row.unit == unit and dict(row.counts) == dict(counts):
            return row
    if mine:
        row = mine[0]
        raise UserError(f"You already entered sheet {sheet_id} (entry {row.entry}, {unit_label(row.unit)}). The "
                        "second entry of a sheet is made by someone else; to correct yours, withdraw it, then "
                        "enter the sheet again.", field="sheet_id")
    taken = {r.entry for r in rows}
    if FIRST not in taken:
        return FIRST
    if SECOND not in taken:
        return SECOND
    raise UserError(f"Sheet {sheet_id} already has both its entries. If one of them is wrong, withdraw it, then "
                    "enter the sheet again.", field="sheet_id")


def enter_sheet(services: Services, *, workspace_id: int, case_id: int, sheet_id: str, unit: str,
                counts: dict[str, int], actor: str, entry: int | None = None) -> SheetEntered:
    """Store one entry of a tally sheet. The same entry submitted twice is stored once; a sheet with a
    problem — on its own, or beside the sheets entered before (a second sheet for a machine, one sheet for
    two units) — is refused (`SheetRefused`) with the problem on its field and nothing stored.

    `entry` None decides it for the person (`_decide_entry`): 1 for a new sheet, 2 for the check entry."""
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is not None:
            raise UserError("This recount is complete; no more tally sheets can be entered.")
        if case.counting_started_at is None:
            raise UserError("Counting has not started for this recount; start it from the case card first.")
        if not case.count_method:
            raise UserError("Set up the count first: how it is counted and the units expected.")
        sid = sheet_id.strip() if isinstance(sheet_id, str) else sheet_id
        if isinstance(sid, str) and len(sid) > SHEET_ID_LIMIT:
            raise UserError(f"A sheet id is at most {SHEET_ID_LIMIT} characters.", field="sheet_id")
        contest = original_contest(session, case)
        expected = tuple(case.expected_units)
        sheet = TallySheet(sheet_id=sid, unit=unit, method=case.count_method, counts=counts, entered_by=actor,
                           entry=FIRST if entry is None else entry)
        problems = validate_sheet(sheet, contest=contest, expected_units=expected)
        if problems:
            raise _refused(problems)
        rows = _sheets(session, case.id)
        if entry is None:
            decided = _decide_entry([r for r in rows if r.sheet_id == sid], sheet_id=sid, unit=unit, counts=counts,
                                    actor=actor)
            if isinstance(decided, TallySheetRow):
                return SheetEntered(decided.id, False, tally_state(session, case), _as_sheet(decided))
            entry = decided
            sheet = TallySheet(sheet_id=sid, unit=unit, method=case.count_method, counts=counts, entered_by=actor,
                               entry=entry)
        for row in rows:
            if _as_sheet(row).same_entry_as(sheet):
                return SheetEntered(row.id, False, tally_state(session, case), sheet)
        entered = [_as_sheet(r) for r in rows]
        before = accept_sheets(entered, contest=contest, expected_units=expected, double_entry=case.double_entry)
        after = accept_sheets([*entered, sheet], contest=contest, expected_units=expected,
                              double_entry=case.double_entry)
        added = [p for p in after.problems if p not in before.problems]
        if added:
            raise _refused(added)
        row = TallySheetRow(case_id=case.id, sheet_id=sheet.sheet_id, unit=unit, method=case.count_method,
                            counts=dict(counts), entry=entry, entered_by=actor, entered_at=services.now())
        session.add(row)
        session.flush()
        state = tally_state(session, case)
        audit.append(session, actor=actor, action="tally.sheet_entered", entity="tally_sheet", entity_id=row.id,
                     after={"case": case.id, "sheet": sheet.sheet_id, "unit": unit, "entry": entry,
                            "counts": dict(counts), "progress": list(state.progress),
                            "citation": "C.R.S. 1-13.5-1306(5)"}, workspace_id=workspace_id, at=services.now())
        return SheetEntered(row.id, True, state, sheet)


def withdraw_sheet(services: Services, *, workspace_id: int, case_id: int, sheet_id: str, reason: str,
                   actor: str, entered_by: str | None = None) -> int:
    """Withdraw a sheet's entries — all of them, or only those `entered_by` one person (a mistyped entry
    in a disagreement). They stay on the record, marked withdrawn with the reason."""
    if not reason.strip():
        raise UserError("Say why the sheet is withdrawn.", field="reason")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is not None:
            raise UserError("This recount is complete; its sheets can no longer be withdrawn.")
        rows = [r for r in _sheets(session, case.id) if r.sheet_id == sheet_id.strip()
                and (entered_by is None or r.entered_by == entered_by)]
        if not rows:
            raise NotFound(f"No sheet {sheet_id} is entered for this recount"
                           f"{' by that person' if entered_by else ''}.", field="sheet_id")
        now = services.now()
        for row in rows:
            row.withdrawn_at, row.withdrawn_by, row.withdrawn_reason = now, actor, reason.strip()
        audit.append(session, actor=actor, action="tally.sheet_withdrawn", entity="recount_case", entity_id=case.id,
                     after={"sheet": sheet_id, "entries": len(rows), "entered_by": entered_by,
                            "reason": reason.strip()},
                     workspace_id=workspace_id, at=now)
        return len(rows)


def next_entry(session: Session, case: RecountCase, sheet_id: str) -> int:
    """1 for a sheet with no first entry standing (not yet entered, or its first entry withdrawn); 2 once
    it has one (the second entry checks it)."""
    taken = {r.entry for r in _sheets(session, case.id) if r.sheet_id == sheet_id.strip()}
    return SECOND if FIRST in taken else FIRST


def describe_progress(state: TallyState | None) -> str:
    if state is None:
        return "count not set up"
    tallied, expected = state.progress
    return f"{tallied:,} of {expected:,} units tallied"


# ------------------------------------------------------------------ withdrawing one entry
@dataclass(frozen=True)
class EntryWithdrawn:
    newly_withdrawn: bool  # False: it had been withdrawn already (a double click); nothing changed
    case_id: int
    sheet_id: str
    unit: str
    entry: int
    entered_by: str
    withdrawn_by: str
    reason: str
    state: TallyState | None


def withdraw_entry(services: Services, *, workspace_id: int, case_id: int, row_id: int, reason: str,
                   actor: str) -> EntryWithdrawn:
    """Withdraw one entry of a sheet (a mistyped entry in a disagreement, a sheet entered by mistake). It stays
    on the record, marked withdrawn with the reason; withdrawing it again changes nothing."""
    if not (reason or "").strip():
        raise UserError("Say why the entry is withdrawn.", field="reason")
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        row = session.get(TallySheetRow, row_id)
        if row is None or row.case_id != case.id:
            raise NotFound("That tally entry is not part of this recount.", field="entry")
        if row.withdrawn_at is not None:
            return EntryWithdrawn(False, case.id, row.sheet_id, row.unit, row.entry, row.entered_by,
                                  row.withdrawn_by or "", row.withdrawn_reason or "", tally_state(session, case))
        if case.completed_at is not None:
            raise UserError("This recount is complete; its sheets can no longer be withdrawn.")
        now = services.now()
        row.withdrawn_at, row.withdrawn_by, row.withdrawn_reason = now, actor, reason.strip()
        session.flush()
        state = tally_state(session, case)
        audit.append(session, actor=actor, action="tally.sheet_withdrawn", entity="tally_sheet", entity_id=row.id,
                     after={"case": case.id, "sheet": row.sheet_id, "unit": row.unit, "entry": row.entry,
                            "entered_by": row.entered_by, "reason": reason.strip(),
                            "progress": list(state.progress) if state else None,
                            "citation": "C.R.S. 1-13.5-1306(5)"}, workspace_id=workspace_id, at=now)
        return EntryWithdrawn(True, case.id, row.sheet_id, row.unit, row.entry, row.entered_by, actor,
                              reason.strip(), state)


# ------------------------------------------------------------------ what the card and the forms show
@dataclass(frozen=True)
class EntryLine:
    """One entry standing (not withdrawn)."""

    row_id: int
    sheet_id: str
    unit: str
    entry: int
    entered_by: str
    counts: tuple[tuple[str, int], ...]  # in the contest's order of choices
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
    rows = _sheets(session, case.id)
    state = accept_sheets([_as_sheet(r) for r in rows], contest=contest, expected_units=tuple(case.expected_units),
                          double_entry=case.double_entry)

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
        entries=tuple(lines), choices=tuple(contest.choices), reason=decision.reason, citation=decision.citation)


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
            raise UserError(f"Counting has not started for {case.contest.name} (case #{case.id}); start it from "
                            "the case card first.", field="case")
        summary = tally_summary(session, case)
        if summary is None:
            raise UserError(f"Set up the count of {case.contest.name} (case #{case.id}) first: how it is counted "
                            "and the units expected (the card's *Set up the count*).", field="case")
        return SheetForm(case.id, case.contest.name, summary, fingerprint(summary.units))


@dataclass(frozen=True)
class SetUpForm:
    case_id: int
    contest: str
    survey_units: tuple[str, ...]
    method: str | None
    units: tuple[str, ...] | None
    double_entry: bool
    sheets_entered: int


def set_up_form(services: Services, *, workspace_id: int, case_id: int) -> SetUpForm:
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id)
        if case is None or case.workspace_id != workspace_id:
            raise NotFound("That recount case does not exist in this office.")
        if case.completed_at is not None:
            raise UserError("This recount is complete; its tally can no longer change.")
        return SetUpForm(case.id, case.contest.name, survey_units(session, case), case.count_method,
                         tuple(case.expected_units) if case.expected_units is not None else None, case.double_entry,
                         len(_sheets(session, case.id)))
