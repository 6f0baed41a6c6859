"""Setting up the count of a recount (5): how it is counted, which units are expected, and whether each sheet
is entered twice. The sheets themselves are `bot.services.tally_sheets`."""
from __future__ import annotations

from dataclasses import dataclass

from bot.services.context import Services
from bot.services.errors import UserError
from bot.services.tally import case_for_update, standing_sheets, survey_units, tally_state
from bot.slack_text import echo
from rules.tally import CountMethod, TallyState
from storage import audit

MAX_UNITS = 2000
UNIT_LIMIT = 200  # TallySheetRow.unit


@dataclass(frozen=True)
class CountSetUp:
    changed: bool  # False when the same set-up was submitted again (a double click)
    state: TallyState
    method: str
    units: tuple[str, ...]
    double_entry: bool


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
        raise UserError(f"“{echo(method)}” is not a way of counting: paper, electronic or voting_machine.",
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
            raise UserError(f"Listed twice: {', '.join(echo(d) for d in dupes[:20])}.", field="units")
        if len(cleaned) > MAX_UNITS:
            raise UserError(f"At most {MAX_UNITS:,} units.", field="units")
        too_long = [u for u in cleaned if len(u) > UNIT_LIMIT]
        if too_long:
            raise UserError(f"A unit's name is at most {UNIT_LIMIT} characters: “{echo(too_long[0], 40)}”.",
                            field="units")
        if not cleaned:
            cleaned = [""]  # the survey has a single whole-contest unit
        if (case.count_method, case.expected_units, case.double_entry) == (count_method.value, cleaned,
                                                                           double_entry):
            return CountSetUp(False, tally_state(session, case), count_method.value, tuple(cleaned), double_entry)
        if standing_sheets(session, case.id) and (case.count_method, case.expected_units) != (count_method.value,
                                                                                              cleaned):
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
