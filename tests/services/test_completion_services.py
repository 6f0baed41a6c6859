"""Conduct and completion at the service seam, on each database: tally, amended version, settlement, certificates."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import select

from rules.cost import CostItem, CostItemKind
from rules.returns import parse_returns
from services.completion.complete import complete_case, record_results_notice
from services.conduct import money as case_money
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.conduct.tally_sheets import enter_sheet
from services.errors import UserError
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from services.returns.checking import check
from services.returns.versions import import_returns
from services.services import Services
from storage.models import Contest, LedgerRow, SurveyVersion
from tests.support.assistants import record_an_assistant
from tests.support.notices import give_all_notices

TEAM, DEO = "T0CLOSE", "U0OFFICIAL"
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
    svc = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    import_returns(svc, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Pine Ridge", governing_body="Board",
                   actor="test")
    access.bootstrap_official(svc, TEAM, DEO, reason="test")
    svc.workspace_id = access.resolve_member(svc, TEAM, DEO).workspace_id
    return svc


def _give_all_notices(services, case_id):
    give_all_notices(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO, given_by="Dana")
    record_an_assistant(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)  # (3)


def _requested_case(services, paid: str, cost: str = "400.00") -> int:
    with services.db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == "Pine Ridge - Director"))
    view = request_entry.submit_request(services, team_id=TEAM, actor=DEO, settings=OfficeSettings(),
                                        data=request_entry.RequestInput(
                                            contest_id=contest_id, requester_name="Sam Okafor",
                                            requester_contact="sam@example.org", party_kind="candidate",
                                            in_favor_of="Sam Okafor", received_on=dt.date(2026, 11, 9),
                                            received_reference="REQ-1"))
    # The only official entered the request and decides it: "one office, one person", with the reason recorded.
    case_id = request_decision.decide_request(services, team_id=TEAM, request_id=view.id, actor=DEO, approve=True,
                                              note="timely", settings=OfficeSettings(),
                                              own_entry_reason="the office's only official").case_id
    _give_all_notices(services, case_id)
    case_money.record_cost(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                           items=[CostItem(CostItemKind.OTHER, "recount", rate=Decimal(cost))])
    case_money.record_cost_notice(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                                  notified_at=services.now(), method="email", notified_by="Dana", details=None)
    case_money.record_payment(services, workspace_id=services.workspace_id, case_id=case_id, amount=Decimal(paid),
                              method="check", reference="1001", received_by="Dana", actor=DEO)
    assert start_counting(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    set_up_count(services, workspace_id=services.workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=DEO)
    return case_id


def _tally(services, case_id, p1: dict, p2: dict) -> None:
    enter_sheet(services, workspace_id=services.workspace_id, case_id=case_id, sheet_id="S-1", unit="Precinct 1",
                counts=p1, entry=1, actor=DEO)
    enter_sheet(services, workspace_id=services.workspace_id, case_id=case_id, sheet_id="S-2", unit="Precinct 2",
                counts=p2, entry=1, actor=DEO)


def _ledger(services, case_id):
    with services.db.transaction() as s:
        return [(r.kind, r.amount) for r in s.scalars(select(LedgerRow).where(LedgerRow.case_id == case_id)
                                                         .order_by(LedgerRow.id))]


def test_a_reversal_in_favor_of_the_requester_refunds_the_payment(services) -> None:
    case_id = _requested_case(services, paid="400.00")
    _tally(services, case_id, {"Dana Whitfield": 600, "Sam Okafor": 811}, {"Dana Whitfield": 747, "Sam Okafor": 590})
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                           actual_cost="350.00")
    assert result.completion["winners_after"] == ["Sam Okafor"]
    assert result.completion["reversed_in_favor_of_requester"] is True
    assert result.settlement["outcome"] == "refund" and result.settlement["citation"] == "C.R.S. 1-13.5-1306(2)(d)"
    assert _ledger(services, case_id)[-3:] == [("expense", Decimal("350.00")),
                                               ("governing_body_payment", Decimal("350.00")),
                                               ("refund", Decimal("400.00"))]
    assert [c[0] for c in result.certificates] == ["Sam Okafor"]
    assert result.amended_version == 2
    with services.db.transaction() as s:
        version = s.scalars(select(SurveyVersion).where(SurveyVersion.number == 2)).one()
        assert "amended by the recount" in version.reason
    again = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                          actual_cost="350.00")
    assert again.newly_completed is False and len(_ledger(services, case_id)) == len(_ledger(services, case_id))


def test_no_change_returns_the_unused_deposit(services) -> None:
    case_id = _requested_case(services, paid="400.00")
    _tally(services, case_id, {"Dana Whitfield": 800, "Sam Okafor": 611}, {"Dana Whitfield": 747, "Sam Okafor": 590})
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                           actual_cost="310.00")
    assert result.settlement["outcome"] == "return_unused_deposit"
    assert _ledger(services, case_id)[-2:] == [("expense", Decimal("310.00")), ("deposit_return", Decimal("90.00"))]


def test_a_cost_above_the_deposit_leaves_a_balance_due(services) -> None:
    case_id = _requested_case(services, paid="400.00")
    _tally(services, case_id, {"Dana Whitfield": 800, "Sam Okafor": 611}, {"Dana Whitfield": 747, "Sam Okafor": 590})
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                           actual_cost="455.50")
    assert result.settlement["outcome"] == "balance_due" and result.settlement["balance_due"] == "55.50"
    assert _ledger(services, case_id)[-1] == ("expense", Decimal("400.00"))


def test_an_incomplete_tally_cannot_complete(services) -> None:
    case_id = _requested_case(services, paid="400.00")
    enter_sheet(services, workspace_id=services.workspace_id, case_id=case_id, sheet_id="S-1", unit="Precinct 1",
                counts={"Dana Whitfield": 800, "Sam Okafor": 611}, entry=1, actor=DEO)
    with pytest.raises(UserError, match="Precinct 2"):
        complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO, actual_cost="1.00")


def test_an_automatic_recount_on_voting_machines_with_double_entry(services) -> None:
    outcome = check(services, team_id=TEAM, actor=DEO, settings=OfficeSettings())
    case_id = next(v.case_id for v in outcome.verdicts if v.decision.contest == "Ballot Issue 6A")
    start_counting(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    set_up_count(services, workspace_id=services.workspace_id, case_id=case_id, method="voting_machine",
                 units=["M-01", "M-02"], double_entry=True, actor=DEO)
    sheet = lambda sid, unit, yes, no, who, entry: enter_sheet(  # noqa: E731
        services, workspace_id=services.workspace_id, case_id=case_id, sheet_id=sid, unit=unit,
        counts={"Yes": yes, "No": no}, entry=entry, actor=who)
    with pytest.raises(UserError, match="not one of the 2 units"):
        sheet("T-9", "M-09", 1, 1, "U0A", 1)
    sheet("T-1", "M-01", 2208, 2190, "U0A", 1)
    state = sheet("T-1", "M-01", 2208, 2191, "U0B", 2).state  # disagrees
    assert state.disagreements and state.progress == (0, 2)
    # The physical sheet is checked; the mistyped second entry is withdrawn and re-entered by someone else.
    from services.conduct.tally_sheets import withdraw_sheet

    withdraw_sheet(services, workspace_id=services.workspace_id, case_id=case_id, sheet_id="T-1",
                   reason="No mistyped: 2,190 on the sheet", actor=DEO, entered_by="U0B")
    sheet("T-1", "M-01", 2208, 2190, "U0C", 2)  # a third person's entry agrees with the first
    sheet("T-2", "M-02", 2131, 2128, "U0A", 1)
    done = sheet("T-2", "M-02", 2131, 2128, "U0B", 2).state
    assert done.complete
    _give_all_notices(services, case_id)  # (1): notices before completion (tests/services/test_lot_services.py)
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO)
    assert result.settlement is None and result.certificates == ()  # a question: no certificate
    assert result.completion["amended_totals"] == {"Yes": 4339, "No": 4318}
    assert record_results_notice(services, workspace_id=services.workspace_id, case_id=case_id, given_at=services.now(),
                                 given_by="Dana", method="email", actor=DEO)
    assert not record_results_notice(services, workspace_id=services.workspace_id, case_id=case_id,
                                     given_at=services.now(), given_by="Dana", method="email", actor=DEO)
