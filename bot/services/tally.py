"""Tallying the recount (5): how it is counted, which units are expected, and the sheets entered.

The statute core (`rules.tally.accept_sheets`) decides from every sheet entered so far which one counts
for each unit; this module only stores sheets (never changing one: a wrong sheet is withdrawn, with its
reason) and hands them to the core.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.services.context import Services
from bot.services.errors import NotFound, UserError
from bot.services.survey import rules_contests
from rules.contest import Contest
from rules.tally import CountMethod, TallySheet, TallyState, accept_sheets, validate_sheet
from storage import audit
from storage.models import RecountCase, SurveyVersion, TallySheetRow

MAX_UNITS = 2000


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


def set_up_count(services: Services, *, workspace_id: int, case_id: int, method: str, units: list[str] | None,
                 double_entry: bool, actor: str) -> TallyState:
    """How the recount is tallied. `units` None means the units of the survey of returns (precincts or
    batches); with voting machines the office lists its machines, one tally sheet each (5)."""
    try:
        count_method = CountMethod(method)
    except ValueError:
        raise UserError(f"“{method}” is not a way of counting: paper, electronic or voting_machine.",
                        field="method") from None
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is not None:
            raise UserError("This recount is complete; its tally can no longer change.")
        if _sheets(session, case.id) and (case.count_method, case.expected_units) != (
                count_method.value, units if units is not None else list(survey_units(session, case))):
            raise UserError("Tally sheets are already entered; withdraw them before changing how the count is set up.")
        if units is None:
            units = list(survey_units(session, case))
        cleaned = [u.strip() for u in units if u and u.strip()]
        if count_method is CountMethod.VOTING_MACHINE and not cleaned:
            raise UserError("List the voting machines: separate tally sheets are used for each machine "
                            "(C.R.S. 1-13.5-1306(5)).", field="units")
        if len(set(cleaned)) != len(cleaned):
            dupes = sorted({u for u in cleaned if cleaned.count(u) > 1})
            raise UserError(f"Listed twice: {', '.join(dupes)}.", field="units")
        if len(cleaned) > MAX_UNITS:
            raise UserError(f"At most {MAX_UNITS:,} units.", field="units")
        if not cleaned:
            cleaned = [""]  # the survey has a single whole-contest unit
        before = {"method": case.count_method, "units": case.expected_units, "double_entry": case.double_entry}
        case.count_method, case.expected_units, case.double_entry = count_method.value, cleaned, double_entry
        audit.append(session, actor=actor, action="tally.set_up", entity="recount_case", entity_id=case.id,
                     before=before, after={"method": count_method.value, "units": cleaned,
                                           "double_entry": double_entry, "citation": "C.R.S. 1-13.5-1306(5)"},
                     workspace_id=workspace_id, at=services.now())
        session.flush()
        return tally_state(session, case)


def enter_sheet(services: Services, *, workspace_id: int, case_id: int, sheet_id: str, unit: str,
                counts: dict[str, int], entry: int, actor: str) -> SheetEntered:
    """Store one entry of a tally sheet. The same entry submitted twice is stored once; a sheet with a
    problem is refused with the problem on its field and nothing stored."""
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        if case.completed_at is not None:
            raise UserError("This recount is complete; no more tally sheets can be entered.")
        if case.counting_started_at is None:
            raise UserError("Counting has not started for this recount; start it from the case card first.")
        if not case.count_method:
            raise UserError("Set up the count first: how it is counted and the units expected.")
        sheet = TallySheet(sheet_id=sheet_id.strip(), unit=unit, method=case.count_method, counts=counts,
                           entered_by=actor, entry=entry)
        contest = original_contest(session, case)
        problems = validate_sheet(sheet, contest=contest, expected_units=tuple(case.expected_units))
        if problems:
            first = problems[0]
            raise UserError("; ".join(f"{p.field}: {p.message}" for p in problems)
                            + (f" ({first.citation})" if first.citation else ""), field=first.field)
        for row in _sheets(session, case.id):
            if _as_sheet(row).same_entry_as(sheet):
                return SheetEntered(row.id, False, tally_state(session, case), sheet)
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
    """1 for a sheet not yet entered; 2 once it has a first entry (the second entry checks it)."""
    return 2 if any(r.sheet_id == sheet_id.strip() for r in _sheets(session, case.id)) else 1


def describe_progress(state: TallyState | None) -> str:
    if state is None:
        return "count not set up"
    tallied, expected = state.progress
    return f"{tallied:,} of {expected:,} units tallied"
