"""Setting up the count of a recount (5): how it is counted, which units are expected, and whether each sheet
is entered twice. The sheets themselves are `services.conduct.tally_sheets`."""
from __future__ import annotations

from dataclasses import dataclass

from rules.corrections import unit_label
from rules.tally import CountMethod, TallyState, sheet_key
from services.conduct.tally import (
    case_for_update,
    election_sheets,
    returns_units,
    set_up_tally_state,
    standing_sheets,
)
from services.conduct.tally_sheets import SHEET_ID_LIMIT
from services.election_law import cites_of
from services.errors import UserError
from services.services import Services
from services.wording import echoed
from storage import audit

MAX_UNITS = 2000
UNIT_LIMIT = 200  # TallySheetRow.unit
MAX_ELECTION_SHEETS = 5000


@dataclass(frozen=True)
class CountSetUp:
    changed: bool  # False when the same set-up was submitted again (a double click)
    state: TallyState
    method: str
    units: tuple[str, ...]
    double_entry: bool
    election_sheet_ids: tuple[str, ...] = ()


def split_sheet_ids(text: str) -> list[str]:
    """The identifiers typed in the form: one per line, or separated by commas."""
    return [part for line in (text or "").splitlines() for part in line.split(",") if part.strip()]


def _clean_election_sheets(ids: list[str]) -> list[str]:
    """Each identifier trimmed, once (the first spelling kept), each within a sheet id's length."""
    cleaned: dict[str, str] = {}
    for raw in ids:
        sid = " ".join(raw.split())
        if not sid:
            continue
        if len(sid) > SHEET_ID_LIMIT:
            raise UserError(f"A sheet id is at most {SHEET_ID_LIMIT} characters: “{echoed(sid, 40)}”.",
                            field="election_sheets")
        cleaned.setdefault(sheet_key(sid), sid)
    if len(cleaned) > MAX_ELECTION_SHEETS:
        raise UserError(f"At most {MAX_ELECTION_SHEETS:,} sheets used at the election.", field="election_sheets")
    return list(cleaned.values())


def _clean_units(units: list[str]) -> list[str]:
    return [u.strip() for u in units if u and u.strip()]


def configure_count(services: Services, *, workspace_id: int, case_id: int, method: str, units: list[str] | None,
                    double_entry: bool, actor: str, election_sheet_ids: list[str] | None = None) -> CountSetUp:
    """How the recount is tallied. `units` None means the units of the survey of returns (precincts or
    batches); with voting machines the office lists its machines, one tally sheet each (5). Submitting the
    same set-up again changes nothing and writes no audit row.

    `election_sheet_ids`: the identifiers of the tally sheets used at the election (None: keep those stored;
    an empty list: none). A recount sheet with one of them is then refused, since (5) has paper and electronic
    ballots "tallied on sheets other than those used at the election"; a sheet already entered with one of them
    refuses the set-up, naming it."""
    try:
        count_method = CountMethod(method)
    except ValueError:
        raise UserError(f"“{echoed(method)}” is not a way of counting: paper, electronic or voting_machine.",
                        field="method") from None
    used = _clean_election_sheets(election_sheet_ids) if election_sheet_ids is not None else None
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        tally = cites_of(case).tally
        if count_method is CountMethod.VOTING_MACHINE and not _clean_units(units or []):
            raise UserError("List the voting machines, one per line: in elections using voting machines separate "
                            f"tally sheets are used for each machine ({tally}).", field="units")
        if case.completed_at is not None:
            raise UserError("This recount is complete; its tally can no longer change.")
        if used is None:
            used = list(election_sheets(case))
        cleaned = _clean_units(units) if units is not None else list(returns_units(session, case))
        if len(set(cleaned)) != len(cleaned):
            dupes = sorted({u for u in cleaned if cleaned.count(u) > 1})
            raise UserError(f"Listed twice: {', '.join(echoed(d) for d in dupes[:20])}.", field="units")
        if len(cleaned) > MAX_UNITS:
            raise UserError(f"At most {MAX_UNITS:,} units.", field="units")
        too_long = [u for u in cleaned if len(u) > UNIT_LIMIT]
        if too_long:
            raise UserError(f"A unit's name is at most {UNIT_LIMIT} characters: “{echoed(too_long[0], 40)}”.",
                            field="units")
        if not cleaned:
            cleaned = [""]  # the survey has a single whole-contest unit
        if (case.count_method, case.expected_units, case.double_entry, list(election_sheets(case))) == (
                count_method.value, cleaned, double_entry, used):
            return CountSetUp(False, set_up_tally_state(session, case), count_method.value, tuple(cleaned), double_entry,
                              tuple(used))
        keys = {sheet_key(u) for u in used}
        clashing = [r for r in standing_sheets(session, case.id) if sheet_key(r.sheet_id) in keys]
        if clashing and count_method is not CountMethod.VOTING_MACHINE:
            named = ", ".join(f"{echoed(r.sheet_id)} ({echoed(unit_label(r.unit))})"
                              for r in list({r.sheet_id: r for r in clashing}.values())[:10])
            raise UserError(f"Already entered as recount tally sheets: {named}. A sheet used at the election cannot "
                            f"be a recount sheet ({tally}): withdraw those entries first, or correct the list.",
                            field="election_sheets")
        if standing_sheets(session, case.id) and (case.count_method, case.expected_units) != (count_method.value,
                                                                                              cleaned):
            raise UserError("Tally sheets are already entered; withdraw them before changing how the count is set "
                            "up (the method or the units).", field="units")
        before = {"method": case.count_method, "units": case.expected_units, "double_entry": case.double_entry,
                  "election_sheet_ids": case.election_sheet_ids}
        case.count_method, case.expected_units, case.double_entry = count_method.value, cleaned, double_entry
        case.election_sheet_ids = used or None
        audit.append(session, actor=actor, action="tally.set_up", entity="recount_case", entity_id=case.id,
                     before=before, after={"method": count_method.value, "units": cleaned,
                                           "double_entry": double_entry, "election_sheet_ids": used or None,
                                           "citation": tally},
                     workspace_id=workspace_id, at=services.now())
        session.flush()
        return CountSetUp(True, set_up_tally_state(session, case), count_method.value, tuple(cleaned), double_entry,
                          tuple(used))


def set_up_count(services: Services, *, workspace_id: int, case_id: int, method: str, units: list[str] | None,
                 double_entry: bool, actor: str, election_sheet_ids: list[str] | None = None) -> TallyState:
    """`configure_count`, returning where the tally stands."""
    return configure_count(services, workspace_id=workspace_id, case_id=case_id, method=method, units=units,
                           double_entry=double_entry, actor=actor, election_sheet_ids=election_sheet_ids).state
