"""Conducting a recount at the service seam, on each database: the count's set-up and tally sheets (5), the
assistants (3) and the evidence (4) — refusals on their field with nothing written, repeats stored once, every
change audited."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from rules.returns import parse_returns
from services.conduct import assistants, cases, evidence, tally, tally_forms, tally_setup, tally_sheets
from services.conduct.assistants import AssistantInput
from services.conduct.counting import start_counting
from services.errors import UserError
from services.office import access
from services.office.office_settings import OfficeSettings
from services.returns.checking import check
from services.returns.versions import import_returns
from services.services import Services
from storage.models import AssistantRow, AuditEntry, Election, EvidenceDemand, TallySheetRow

TEAM, DEO = "T0CONDUCT", "U0OFFICIAL"
A, B, C = "U0ALICE", "U0BOB", "U0CARA"
NOW = dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc)
CSV = b"""contest,choice,votes,kind,unit
Pine Ridge - Director,Dana Whitfield,800,candidate,Precinct 1
Pine Ridge - Director,Dana Whitfield,747,candidate,Precinct 2
Pine Ridge - Director,Sam Okafor,611,candidate,Precinct 1
Pine Ridge - Director,Sam Okafor,590,candidate,Precinct 2
Ballot Issue 6A,Yes,2208,question,Precinct 1
Ballot Issue 6A,Yes,2131,question,Precinct 2
Ballot Issue 6A,No,2190,question,Precinct 1
Ballot Issue 6A,No,2128,question,Precinct 2
"""


@pytest.fixture
def services(db):
    svc = Services(db, clock=lambda: NOW)
    import_returns(svc, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Pine Ridge", governing_body="Board",
                   actor="test")
    access.bootstrap_official(svc, TEAM, DEO, reason="test")
    svc.workspace_id = access.resolve_member(svc, TEAM, DEO).workspace_id
    outcome = check(svc, team_id=TEAM, actor=DEO, settings=OfficeSettings())
    svc.case_id = next(v.case_id for v in outcome.verdicts if v.decision.contest == "Ballot Issue 6A")
    return svc


def audits(services, action: str) -> int:
    with services.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == action))


def rows(services, model) -> list:
    with services.db.transaction() as s:
        return list(s.scalars(select(model).order_by(model.id)))


def set_up(services, method="voting_machine", units=("M-01", "M-02"), double=True):
    return tally_setup.configure_count(services, workspace_id=services.workspace_id, case_id=services.case_id,
                                       method=method, units=list(units) if units is not None else None,
                                       double_entry=double, actor=DEO)


def sheet(services, sid, unit, yes, no, who, entry=None):
    return tally_sheets.enter_sheet(services, workspace_id=services.workspace_id, case_id=services.case_id,
                                    sheet_id=sid, unit=unit, counts={"Yes": yes, "No": no}, actor=who, entry=entry)


@pytest.fixture
def machines(services):
    start_counting(services, workspace_id=services.workspace_id, case_id=services.case_id, actor=DEO)
    set_up(services)
    return services


# ================================================================ the count's set-up (5)
def test_voting_machines_must_be_listed_and_the_same_set_up_twice_changes_nothing(services) -> None:
    with pytest.raises(UserError) as refused:
        set_up(services, units=None)
    assert refused.value.field == "units" and "C.R.S. 1-13.5-1306(5)" in refused.value.message
    with pytest.raises(UserError, match="Listed twice: M-01") as refused:
        set_up(services, units=("M-01", " M-01 "))
    assert refused.value.field == "units"
    with pytest.raises(UserError) as refused:
        set_up(services, method="abacus")
    assert refused.value.field == "method"
    first = set_up(services, units=(" M-01", "M-02 ", ""))
    assert first.changed and first.units == ("M-01", "M-02")
    assert set_up(services).changed is False  # a double click
    assert audits(services, "tally.set_up") == 1
    # Paper ballots default to the survey's precincts.
    assert set_up(services, method="paper", units=None, double=False).units == ("Precinct 1", "Precinct 2")


def test_the_units_cannot_change_once_sheets_are_entered_but_double_entry_can(machines) -> None:
    sheet(machines, "T-1", "M-01", 2208, 2190, A)
    with pytest.raises(UserError, match="Tally sheets are already entered") as refused:
        set_up(machines, units=("M-01", "M-03"))
    assert refused.value.field == "units"
    assert set_up(machines, double=False).changed


# ================================================================ tally sheets (5)
def test_the_entry_number_is_decided_for_the_person(machines) -> None:
    first = sheet(machines, "T-1", "M-01", 2208, 2190, A)
    assert first.newly_entered and first.sheet.entry == 1
    again = sheet(machines, "T-1", "M-01", 2208, 2190, A)  # a double click
    assert not again.newly_entered and again.row_id == first.row_id
    with pytest.raises(UserError, match="You already entered sheet T-1") as refused:
        sheet(machines, "T-1", "M-01", 2208, 2191, A)  # nobody checks their own sheet
    assert refused.value.field == "sheet_id"
    second = sheet(machines, "T-1", "M-01", 2208, 2190, B)
    assert second.sheet.entry == 2 and second.state.progress == (1, 2)
    with pytest.raises(UserError, match="already has both its entries") as refused:
        sheet(machines, "T-1", "M-01", 2208, 2190, C)
    assert refused.value.field == "sheet_id"
    assert len(rows(machines, TallySheetRow)) == 2
    assert audits(machines, "tally.sheet_entered") == 2


def test_a_disagreement_then_the_first_entry_withdrawn_and_entered_again(machines) -> None:
    sheet(machines, "T-1", "M-01", 2208, 2190, A)
    disagreeing = sheet(machines, "T-1", "M-01", 2209, 2190, B)
    with machines.db.transaction() as s:
        from storage.models import RecountCase

        summary = tally_forms.tally_summary(s, s.get(RecountCase, machines.case_id))
    [d] = summary.disagreements
    assert (d.unit, d.sheet_id, d.differences, d.blocking) == ("M-01", "T-1", (("Yes", 2208, 2209),), True)
    assert (d.first.entered_by, d.second.row_id) == (A, disagreeing.row_id)
    assert summary.tallied == 0
    # This time the first entry was the mistyped one.
    withdrawn = tally_sheets.withdraw_entry(machines, workspace_id=machines.workspace_id, case_id=machines.case_id,
                                            row_id=d.first.row_id, reason="Yes is 2,209 on the sheet", actor=DEO)
    assert withdrawn.newly_withdrawn and (withdrawn.entry, withdrawn.entered_by) == (1, A)
    again = tally_sheets.withdraw_entry(machines, workspace_id=machines.workspace_id, case_id=machines.case_id,
                                        row_id=d.first.row_id, reason="twice", actor=DEO)
    assert not again.newly_withdrawn and again.reason == "Yes is 2,209 on the sheet"
    assert audits(machines, "tally.sheet_withdrawn") == 1
    with pytest.raises(UserError) as refused:
        tally_sheets.withdraw_entry(machines, workspace_id=machines.workspace_id, case_id=machines.case_id,
                                    row_id=disagreeing.row_id, reason=" ", actor=DEO)
    assert refused.value.field == "reason"
    # The sheet has no first entry standing: A's new entry is entry 1 again, and it agrees.
    with machines.db.transaction() as s:
        from storage.models import RecountCase

        assert tally.next_entry(s, s.get(RecountCase, machines.case_id), "T-1") == 1
    entered = sheet(machines, "T-1", "M-01", 2209, 2190, A)
    assert entered.sheet.entry == 1 and entered.state.progress == (1, 2) and not entered.state.disagreements


def test_sheets_with_problems_are_refused_on_their_field_and_nothing_is_stored(machines) -> None:
    def refused(*args, entry=None) -> UserError:
        with pytest.raises(UserError) as caught:
            sheet(machines, *args, entry=entry)
        return caught.value

    assert refused("T-9", "M-09", 1, 1, A).field == "unit"
    assert refused("T-1", "M-01", -1, 1, A).field == "counts.Yes"
    assert refused(" ", "M-01", 1, 1, A).field == "sheet_id"
    with pytest.raises(UserError) as caught:
        tally_sheets.enter_sheet(machines, workspace_id=machines.workspace_id, case_id=machines.case_id, sheet_id="T-1",
                                 unit="M-01", counts={"Yes": 1}, actor=A)
    assert caught.value.field == "counts.No" and "write 0" in caught.value.message
    sheet(machines, "T-1", "M-01", 2208, 2190, A)
    # A second sheet for machine M-01: separate tally sheets for each machine (5), one sheet per machine.
    second = refused("T-2", "M-01", 2208, 2190, B)
    assert second.field == "unit" and "both tally machine M-01" in second.message
    assert "C.R.S. 1-13.5-1306(5)" in second.message
    # Sheet T-1 for another machine: a sheet tallies one unit.
    assert refused("T-1", "M-02", 2131, 2128, B).field == "unit"
    # An explicit second entry by the first person is refused too (it checks nothing).
    assert refused("T-1", "M-01", 2208, 2191, A, entry=2).field in ("sheet_id", "entered_by")
    assert len(rows(machines, TallySheetRow)) == 1


def test_sheets_wait_for_counting_and_the_set_up(services) -> None:
    with pytest.raises(UserError, match="Counting has not started"):
        sheet(services, "T-1", "M-01", 1, 1, A)
    start_counting(services, workspace_id=services.workspace_id, case_id=services.case_id, actor=DEO)
    with pytest.raises(UserError, match="Set up the count first"):
        sheet(services, "T-1", "M-01", 1, 1, A)
    with pytest.raises(UserError, match="Set up the count") as caught:
        tally_forms.sheet_form(services, workspace_id=services.workspace_id, case_id=services.case_id)
    assert caught.value.field == "case"
    assert [c.set_up for c in tally_forms.counting_cases(services, workspace_id=services.workspace_id)] == [False]


def test_the_card_shows_the_tally(machines) -> None:
    sheet(machines, "T-1", "M-01", 2208, 2190, A)
    view = cases.case_view(machines, machines.case_id).conduct
    assert view.counting and not view.completed
    summary = view.tally
    assert (summary.tallied, summary.expected, summary.awaiting_second_entry) == (0, 2, ("M-01",))
    assert [(e.sheet_id, e.entered_by) for e in summary.awaiting_sheets] == [("T-1", A)]
    assert summary.method_label == "voting machines" and summary.choices == ("Yes", "No")
    assert summary.reason == "Tally: 0 of 2 units tallied; 1 awaiting a second entry."


# ================================================================ assistants (3)
def record(services, assistant=None, preparers=None):
    return assistants.record_assistants(services, workspace_id=services.workspace_id, case_id=services.case_id,
                                        actor=DEO, assistant=assistant, preparers=preparers)


def test_assistants_are_reviewed_against_the_statute(services) -> None:
    result = record(services, AssistantInput("Ann Lee", "prepared_abstract", 2, "20.00"),
                    preparers=["Ann Lee", " Bob  Ray ", "ann lee", ""])
    assert result.changed and result.assistant_change == "added" and result.preparers_changed
    assert result.summary.preparers == ("Ann Lee", "Bob Ray")
    with services.db.transaction() as s:
        assert s.scalars(select(Election.abstract_preparers)).one() == ["Ann Lee", "Bob Ray"]
    findings = {f.finding: f for f in result.summary.warnings}
    assert findings["underpaid"].citation == "C.R.S. 1-13.5-1301(4)"
    assert "the floor is $30.00" in findings["underpaid"].reason
    assert findings["preparer_absent"].person == "Bob Ray"

    result = record(services, AssistantInput("Cy Diaz", "additional_qualified", 1, Decimal("15"),
                                             qualified_as_judge=True, served_as_judge=True))
    assert "served_as_judge" in {f.finding for f in result.summary.warnings}
    assert next(f for f in result.summary.warnings if f.finding == "served_as_judge").citation == \
        "C.R.S. 1-13.5-1306(3)"
    # A member of the governing body has no pay floor.
    result = record(services, AssistantInput("Gil Board", "appointed_1301", 3, "0", on_governing_body=True,
                                             replaces="Bob Ray"))
    assert not [f for f in result.summary.warnings if f.person == "Gil Board"]
    assert "preparer_absent" not in {f.finding for f in result.summary.warnings}

    # The same name (folded) updates the person; the same details again change nothing.
    updated = record(services, AssistantInput("ann  LEE", "prepared_abstract", 2, "30.00"))
    assert updated.assistant_change == "updated" and updated.assistant.compensation == Decimal("30.00")
    assert record(services, AssistantInput("ann  LEE", "prepared_abstract", 2, "30.00")).changed is False
    assert "underpaid" not in {f.finding for f in updated.summary.warnings}
    assert len(rows(services, AssistantRow)) == 3
    assert audits(services, "assistant.recorded") == 3 and audits(services, "assistant.updated") == 1
    assert audits(services, "election.abstract_preparers_set") == 1
    # The preparers belong to the election; this election has no other recount whose review would change.
    changed = record(services, preparers=["Ann Lee"])
    assert changed.preparers_changed and changed.other_cases == () and changed.assistant is None


@pytest.mark.parametrize("data, field", [
    (AssistantInput(" ", "prepared_abstract", 1, "15"), "name"),
    (AssistantInput("Ann", "judge", 1, "15"), "capacity"),
    (AssistantInput("Ann", "prepared_abstract", -1, "15"), "days_served"),
    (AssistantInput("Ann", "prepared_abstract", 400, "15"), "days_served"),
    (AssistantInput("Ann", "prepared_abstract", 1, "15.001"), "compensation"),
    (AssistantInput("Ann", "prepared_abstract", 1, "-15"), "compensation"),
])
def test_bad_assistants_are_refused_on_their_field(services, data, field) -> None:
    with pytest.raises(UserError) as refused:
        record(services, data)
    assert refused.value.field == field
    assert rows(services, AssistantRow) == []
    with pytest.raises(UserError):
        record(services)  # nothing to record


# ================================================================ evidence (4)
def test_evidence_is_demanded_then_produced_once(services) -> None:
    demanded_at = NOW - dt.timedelta(hours=2)
    first = evidence.demand_evidence(services, workspace_id=services.workspace_id, case_id=services.case_id,
                                     description="Poll book pages, Precinct 2", demanded_of="Precinct 2 judges",
                                     demanded_at=demanded_at, actor=DEO)
    again = evidence.demand_evidence(services, workspace_id=services.workspace_id, case_id=services.case_id,
                                     description="Poll book pages, Precinct 2", demanded_of="Precinct 2 judges",
                                     demanded_at=demanded_at, actor=DEO)
    assert first.newly_recorded and not again.newly_recorded and again.demand.id == first.demand.id
    summary = first.summary
    assert len(summary.outstanding) == 1 and (summary.returns_version, summary.returns_versions) == (1, 1)
    with pytest.raises(UserError) as refused:
        evidence.record_production(services, workspace_id=services.workspace_id, demand_id=first.demand.id,
                                   produced="copies", produced_at=demanded_at - dt.timedelta(hours=1), actor=A)
    assert refused.value.field == "produced_at"
    produced = evidence.record_production(services, workspace_id=services.workspace_id, demand_id=first.demand.id,
                                          produced="Copies of 14 pages", produced_at=NOW, actor=A)
    assert produced.newly_recorded and produced.summary.outstanding == ()
    assert not evidence.record_production(services, workspace_id=services.workspace_id, demand_id=first.demand.id,
                                          produced="Copies of 14 pages", produced_at=NOW, actor=A).newly_recorded
    with pytest.raises(UserError, match="already recorded") as refused:
        evidence.record_production(services, workspace_id=services.workspace_id, demand_id=first.demand.id,
                                   produced="Something else", produced_at=NOW, actor=A)
    assert refused.value.field == "produced"
    assert audits(services, "evidence.demanded") == 1 and audits(services, "evidence.produced") == 1
    [row] = rows(services, EvidenceDemand)
    assert (row.produced, row.recorded_by) == ("Copies of 14 pages", A)


@pytest.mark.parametrize("kwargs, field", [
    ({"description": " "}, "description"),
    ({"demanded_of": ""}, "demanded_of"),
    ({"demanded_at": NOW + dt.timedelta(days=1)}, "demanded_at"),
    ({"demanded_at": dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc)}, "demanded_at"),
])
def test_bad_demands_are_refused_on_their_field(services, kwargs, field) -> None:
    data = {"description": "Poll books", "demanded_of": "Judges", "demanded_at": NOW, **kwargs}
    with pytest.raises(UserError) as refused:
        evidence.demand_evidence(services, workspace_id=services.workspace_id, case_id=services.case_id, actor=DEO,
                                 **data)
    assert refused.value.field == field
    assert rows(services, EvidenceDemand) == []
