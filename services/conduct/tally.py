"""Tallying the recount (5): where the tally stands, read from the sheets stored.

The statute core (`rules.tally.accept_sheets`) decides from every sheet entered so far which one counts
for each unit; the services only store sheets (never changing one: a wrong sheet is withdrawn, with its
reason) and hand them to the core. This module is what they share: the case locked for a change, the
contest as the survey had it, the entries standing and where the tally stands. Setting up the count is
`services.conduct.tally_setup`, entering and withdrawing sheets `services.conduct.tally_sheets`, and what the card
and the forms show `services.conduct.tally_forms`.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.contest import Contest
from rules.tally import FIRST, SECOND, TallySheet, TallyState, accept_sheets
from services.election_law import law_of
from services.errors import NotFound, UserError
from services.returns.versions import rules_contests
from storage.models import RecountCase, SurveyVersion, TallySheetRow


def case_for_update(session: Session, case_id: int, workspace_id: int) -> RecountCase:
    case = session.get(RecountCase, case_id, with_for_update=True)
    if case is None or case.workspace_id != workspace_id:
        raise NotFound("That recount case does not exist in this office.")
    return case


def original_contest(session: Session, case: RecountCase) -> Contest:
    """The contest as the survey of returns had it when the case opened: what the recount checks."""
    version = session.get_one(SurveyVersion, case.survey_version_id)
    found = rules_contests(session, version, [case.contest_id])
    if not found:
        raise NotFound("The survey of returns this case was opened on has no counts for its contest.")
    return found[0][1]


def returns_units(session: Session, case: RecountCase) -> tuple[str, ...]:
    return original_contest(session, case).units


def standing_sheets(session: Session, case_id: int) -> list[TallySheetRow]:
    """The case's entries standing (not withdrawn), in the order they were entered."""
    return list(session.scalars(select(TallySheetRow).where(
        TallySheetRow.case_id == case_id, TallySheetRow.withdrawn_at.is_(None)).order_by(TallySheetRow.id)))


def as_sheet(row: TallySheetRow) -> TallySheet:
    return TallySheet(sheet_id=row.sheet_id, unit=row.unit, method=row.method, counts=dict(row.counts),
                      entered_by=row.entered_by, entry=row.entry)


def set_up_tally_state(session: Session, case: RecountCase) -> TallyState:
    """Where the tally stands, for a case whose count is set up (UserError when it is not)."""
    state = tally_state(session, case)
    if state is None:
        raise UserError("Set up the count first: how it is counted and the units expected.")
    return state


def tally_state(session: Session, case: RecountCase) -> TallyState | None:
    """Where the tally stands, or None before the count is set up."""
    if not case.count_method or case.expected_units is None:
        return None
    return accept_sheets([as_sheet(r) for r in standing_sheets(session, case.id)],
                         contest=original_contest(session, case), expected_units=tuple(case.expected_units),
                         double_entry=case.double_entry, election_sheet_ids=election_sheets(case),
                         law=law_of(case.contest.election))


def election_sheets(case: RecountCase) -> tuple[str, ...]:
    """The identifiers of the tally sheets used at the election, as entered at set-up (none: nothing to check)."""
    return tuple(case.election_sheet_ids or ())


def next_entry(session: Session, case: RecountCase, sheet_id: str) -> int:
    """1 for a sheet with no first entry standing (not yet entered, or its first entry withdrawn); 2 once
    it has one (the second entry checks it)."""
    taken = {r.entry for r in standing_sheets(session, case.id) if r.sheet_id == sheet_id.strip()}
    return SECOND if FIRST in taken else FIRST
