"""A database holding a requested recount run at the service seam: the returns, the request decided, the cost,
its notice, the payment and two tally sheets; everything sealed into the audit log as recount-bot writes it."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from rules.cost import CostItem, CostItemKind
from rules.returns import parse_returns
from services.conduct import money as case_money
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.conduct.tally_sheets import enter_sheet
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from services.returns.versions import import_returns
from services.services import Services
from storage.db import Database
from storage.models import Contest
from tests.support.assistants import record_an_assistant
from tests.support.notices import give_all_notices

TEAM, DEO = "T0ANCHOR1", "U0OFFICIAL"
CSV = b"""contest,choice,votes,kind,unit
Pine Ridge - Director,Dana Whitfield,800,candidate,Precinct 1
Pine Ridge - Director,Dana Whitfield,747,candidate,Precinct 2
Pine Ridge - Director,Sam Okafor,611,candidate,Precinct 1
Pine Ridge - Director,Sam Okafor,590,candidate,Precinct 2
"""


def recount_in_progress(db: Database) -> tuple[Services, int, int]:
    """(services, workspace id, case id) of a requested recount paid for, with two tally sheets entered."""
    services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
    import_returns(services, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Pine Ridge", governing_body="Board",
                   actor="test")
    access.bootstrap_official(services, TEAM, DEO, reason="test")
    workspace_id = access.resolve_member(services, TEAM, DEO).workspace_id
    with db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == "Pine Ridge - Director"))
    view = request_entry.submit_request(services, team_id=TEAM, actor=DEO, settings=OfficeSettings(),
                                        data=request_entry.RequestInput(
                                            contest_id=contest_id, requester_name="Sam Okafor",
                                            requester_contact="sam@example.org", party_kind="candidate",
                                            in_favor_of="Sam Okafor", received_on=dt.date(2026, 11, 9),
                                            received_reference="REQ-1"))
    # The office's only official entered the request: they decide it under "one office, one person".
    case_id = request_decision.decide_request(services, team_id=TEAM, request_id=view.id, actor=DEO, approve=True,
                                              note="timely", settings=OfficeSettings(),
                                              own_entry_reason="the office's only official").case_id
    give_all_notices(services, workspace_id=workspace_id, case_id=case_id, actor=DEO, given_by="Dana")
    record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=DEO)  # (3)
    case_money.record_cost(services, workspace_id=workspace_id, case_id=case_id, actor=DEO,
                           items=[CostItem(CostItemKind.OTHER, "recount", rate=Decimal("400.00"))])
    case_money.record_cost_notice(services, workspace_id=workspace_id, case_id=case_id, actor=DEO,
                                  notified_at=services.now(), method="email", notified_by="Dana", details=None)
    case_money.record_payment(services, workspace_id=workspace_id, case_id=case_id, amount=Decimal("400.00"),
                              method="check", reference="1001", received_by="Dana", actor=DEO)
    assert start_counting(services, workspace_id=workspace_id, case_id=case_id, actor=DEO)
    set_up_count(services, workspace_id=workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=DEO)
    for sheet, unit, counts in (("S-1", "Precinct 1", {"Dana Whitfield": 800, "Sam Okafor": 611}),
                                ("S-2", "Precinct 2", {"Dana Whitfield": 747, "Sam Okafor": 590})):
        enter_sheet(services, workspace_id=workspace_id, case_id=case_id, sheet_id=sheet, unit=unit, counts=counts,
                    entry=1, actor=DEO)
    return services, workspace_id, case_id
