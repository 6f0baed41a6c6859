"""Tally sheets (5): entering one, and withdrawing what was entered wrong.

A sheet is never changed once stored: a wrong one is withdrawn, with its reason, and stays on the record.
Which entry of a sheet counts for its unit is the core's decision (`rules.tally.accept_sheets`), from every
entry standing; a sheet the core finds a problem with is refused and nothing is stored.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.corrections import unit_label
from rules.tally import FIRST, SECOND, SheetProblem, TallySheet, TallyState, accept_sheets, validate_sheet
from services.conduct.tally import (
    as_sheet,
    case_for_update,
    election_sheets,
    original_contest,
    set_up_tally_state,
    standing_sheets,
    tally_state,
)
from services.election_law import cites_of, law_of
from services.errors import NotFound, UserError
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import TallySheetRow

SHEET_ID_LIMIT = 100  # TallySheetRow.sheet_id


class SheetRefused(UserError):
    """A sheet the core finds a problem with, alone or beside the sheets entered before; nothing was stored.
    `problems` has every one, each with the field it is about ("unit", "sheet_id", "counts.<choice>", ...)."""

    def __init__(self, message: str, *, field: str | None, problems: tuple[SheetProblem, ...]) -> None:
        super().__init__(message, field=field)
        self.problems = problems


@dataclass(frozen=True)
class SheetEntered:
    row_id: int
    newly_entered: bool
    state: TallyState
    sheet: TallySheet


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
        raise UserError(f"You already entered sheet {sheet_id} (entry {row.entry}, {unit_label(row.unit)}). "
                        "The "
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
        if not case.count_method or case.expected_units is None:
            raise UserError("Set up the count first: how it is counted and the units expected.")
        sid = sheet_id.strip() if isinstance(sheet_id, str) else sheet_id
        if isinstance(sid, str) and len(sid) > SHEET_ID_LIMIT:
            raise UserError(f"A sheet id is at most {SHEET_ID_LIMIT} characters.", field="sheet_id")
        contest = original_contest(session, case)
        expected = tuple(case.expected_units)
        sheet = TallySheet(sheet_id=sid, unit=unit, method=case.count_method, counts=counts, entered_by=actor,
                           entry=FIRST if entry is None else entry)
        used_at_election = election_sheets(case)
        problems = validate_sheet(sheet, contest=contest, expected_units=expected, election_sheet_ids=used_at_election)
        if problems:
            raise _refused(problems)
        rows = standing_sheets(session, case.id)
        if entry is None:
            decided = _decide_entry([r for r in rows if r.sheet_id == sid], sheet_id=sid, unit=unit, counts=counts,
                                    actor=actor)
            if isinstance(decided, TallySheetRow):
                return SheetEntered(decided.id, False, set_up_tally_state(session, case), as_sheet(decided))
            entry = decided
            sheet = TallySheet(sheet_id=sid, unit=unit, method=case.count_method, counts=counts, entered_by=actor,
                               entry=entry)
        for row in rows:
            if as_sheet(row).same_entry_as(sheet):
                return SheetEntered(row.id, False, set_up_tally_state(session, case), sheet)
        entered = [as_sheet(r) for r in rows]
        law = law_of(case.contest.election)
        before = accept_sheets(entered, contest=contest, expected_units=expected, double_entry=case.double_entry,
                               election_sheet_ids=used_at_election, law=law)
        after = accept_sheets([*entered, sheet], contest=contest, expected_units=expected,
                              double_entry=case.double_entry, election_sheet_ids=used_at_election, law=law)
        added = [p for p in after.problems if p not in before.problems]
        if added:
            raise _refused(added)
        row = TallySheetRow(case_id=case.id, sheet_id=sheet.sheet_id, unit=unit, method=case.count_method,
                            counts=dict(counts), entry=entry, entered_by=actor, entered_at=services.now())
        session.add(row)
        session.flush()
        state = set_up_tally_state(session, case)
        audit.append(session, actor=actor, action="tally.sheet_entered", entity="tally_sheet", entity_id=row.id,
                     after={"case": case.id, "sheet": sheet.sheet_id, "unit": unit, "entry": entry,
                            "counts": dict(counts), "progress": list(state.progress),
                            "citation": cites_of(case).tally}, workspace_id=workspace_id, at=services.now())
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
        rows = [r for r in standing_sheets(session, case.id) if r.sheet_id == sheet_id.strip()
                and (entered_by is None or r.entered_by == entered_by)]
        if not rows:
            raise NotFound(f"No sheet {echoed(sheet_id)} is entered for this recount"
                           f"{' by that person' if entered_by else ''}.", field="sheet_id")
        now = services.now()
        for row in rows:
            row.withdrawn_at, row.withdrawn_by, row.withdrawn_reason = now, actor, reason.strip()
        audit.append(session, actor=actor, action="tally.sheet_withdrawn", entity="recount_case", entity_id=case.id,
                     after={"sheet": sheet_id, "entries": len(rows), "entered_by": entered_by,
                            "reason": reason.strip()},
                     workspace_id=workspace_id, at=now)
        return len(rows)


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
                            "citation": cites_of(case).tally}, workspace_id=workspace_id, at=now)
        return EntryWithdrawn(True, case.id, row.sheet_id, row.unit, row.entry, row.entered_by, actor,
                              reason.strip(), state)
