"""Requested recounts at the service seam, on each database: request, decision race, money, checklist."""
from __future__ import annotations

import datetime as dt
import threading
from decimal import Decimal

import pytest
from sqlalchemy import select

from rules.cost import CostItem, CostItemKind
from rules.returns import parse_returns
from services.conduct import money as case_money
from services.conduct.counting import CountingBlocked, start_counting
from services.errors import UserError
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from services.requests import views as requests
from services.returns.canvass import set_canvass_date
from services.returns.versions import import_returns
from services.services import Services
from storage.models import Contest

TEAM = "T0SERVICE"
CSV = b"""contest,choice,votes,kind
Pine Ridge Metropolitan District - Director,Dana Whitfield,1547,candidate
Pine Ridge Metropolitan District - Director,Sam Okafor,1201,candidate
Bear Creek Ballot Issue 6A,Yes,4339,question
Bear Creek Ballot Issue 6A,No,4318,question
"""


@pytest.fixture
def services(db):
    clock = {"now": dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc)}
    svc = Services(db, clock=lambda: clock["now"])
    import_returns(svc, team_id=TEAM, returns=parse_returns(CSV), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Pine Ridge", governing_body="Board",
                   actor="test")
    access.bootstrap_official(svc, TEAM, "U0OFFICIAL", reason="test")
    access.set_role(svc, team_id=TEAM, actor="U0OFFICIAL", actor_role=access.Role.OFFICIAL, user_id="U0OTHEROFF",
                    role=access.Role.OFFICIAL)
    return svc


def _contest_id(services, name):
    with services.db.transaction() as s:
        return s.scalar(select(Contest.id).where(Contest.name == name))


def _request(services, **changes):
    data = dict(contest_id=_contest_id(services, "Pine Ridge Metropolitan District - Director"),
                requester_name="Sam Okafor", requester_contact="sam@example.org", party_kind="candidate",
                in_favor_of="Sam Okafor", received_on=dt.date(2026, 11, 9), received_reference="REQ-2026-01")
    data.update(changes)
    return request_entry.submit_request(services, team_id=TEAM, actor="U0STAFF", settings=OfficeSettings(),
                                        data=request_entry.RequestInput(**data))


def test_an_accepted_request_waits_for_a_decision(services) -> None:
    view = _request(services)
    assert view.status == "pending" and view.evaluation["outcome"] == "accepted"


def test_a_late_request_is_refused_on_the_received_field_and_not_stored(services) -> None:
    services.clock = lambda: dt.datetime(2026, 11, 25, 17, 0, tzinfo=dt.timezone.utc)
    with pytest.raises(request_entry.RequestRefused) as refused:
        _request(services, received_on=dt.date(2026, 11, 21))  # the window closed Fri 2026-11-20
    assert refused.value.field == "received_on"
    assert "Fri 2026-11-20" in refused.value.message and refused.value.decision["outcome"] == "refused_late"
    assert requests.pending_requests(services, team_id=TEAM) == []


def test_a_request_on_a_contest_inside_the_margin_is_refused_as_automatic(services) -> None:
    with pytest.raises(request_entry.RequestRefused) as refused:
        _request(services, contest_id=_contest_id(services, "Bear Creek Ballot Issue 6A"), party_kind="eligible_elector",
                 in_favor_of="No")
    assert refused.value.field == "contest"
    assert "automatic" in refused.value.message and refused.value.decision["citation"] == "C.R.S. 1-13.5-1306(1), (2)(a)"


def test_two_officials_deciding_at_once_record_exactly_one_decision(services) -> None:
    view = _request(services)
    results, barrier = [], threading.Barrier(2)

    def decide(user, approve):
        barrier.wait()
        try:
            results.append(("won", request_decision.decide_request(services, team_id=TEAM, request_id=view.id,
                                                                   actor=user, approve=approve, note="reviewed",
                                                                   settings=OfficeSettings())))
        except request_decision.AlreadyDecided as exc:
            results.append(("lost", exc.message))

    threads = [threading.Thread(target=decide, args=("U0OFFICIAL", True)),
               threading.Thread(target=decide, args=("U0OTHEROFF", False))]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(r[0] for r in results) == ["lost", "won"]
    assert "already" in next(r[1] for r in results if r[0] == "lost")


def test_counting_waits_for_the_checklist_and_a_short_payment_blocks_it(services) -> None:
    view = _request(services)
    decided = request_decision.decide_request(services, team_id=TEAM, request_id=view.id, actor="U0OFFICIAL",
                                              approve=True, note="timely, candidate", settings=OfficeSettings())
    case_id, workspace_id = decided.case_id, access.resolve_member(services, TEAM, "U0OFFICIAL").workspace_id
    with pytest.raises(CountingBlocked) as blocked:
        start_counting(services, workspace_id=workspace_id, case_id=case_id, actor="U0OFFICIAL")
    assert "(2)(b)(I)" in blocked.value.message and "(2)(b)(II)" in blocked.value.message

    case_money.record_cost(services, workspace_id=workspace_id, case_id=case_id, actor="U0OFFICIAL", items=[
        CostItem(CostItemKind.STAFF_HOURS, "clerks", rate=Decimal("30.00"), quantity=Decimal("10")),
        CostItem(CostItemKind.ASSISTANTS, "", rate=Decimal("15.00"), quantity=1, persons=2)])
    case_money.record_cost_notice(services, workspace_id=workspace_id, case_id=case_id, actor="U0OFFICIAL",
                                  notified_at=services.now(), method="email", notified_by="Dana", details=None)
    view_after = case_money.record_payment(services, workspace_id=workspace_id, case_id=case_id,
                                           amount=Decimal("300.00"), method="check", reference="1001",
                                           received_by="Dana", actor="U0OFFICIAL")
    assert (view_after.cost_determined, view_after.paid, view_after.due) == (
        Decimal("330.00"), Decimal("300.00"), Decimal("30.00"))
    with pytest.raises(UserError, match="already recorded"):
        case_money.record_payment(services, workspace_id=workspace_id, case_id=case_id, amount=Decimal("30.00"),
                                  method="check", reference="1001", received_by="Dana", actor="U0OFFICIAL")
    with pytest.raises(CountingBlocked) as blocked:
        start_counting(services, workspace_id=workspace_id, case_id=case_id, actor="U0OFFICIAL")
    assert "collected $300.00 of $330.00" in blocked.value.message


def test_the_canvass_date_fixes_the_requested_deadline(services) -> None:
    view = _request(services)
    request_decision.decide_request(services, team_id=TEAM, request_id=view.id, actor="U0OFFICIAL", approve=True,
                                    note="ok", settings=OfficeSettings())
    result = set_canvass_date(services, team_id=TEAM, canvass_date=dt.date(2026, 11, 9), actor="U0OFFICIAL",
                              settings=OfficeSettings())
    [(case_id, before, after)] = result.moved
    # Before the canvass: the earliest possible deadline, a canvass Wed 11-04 + 28 = Wed 12-02; after: Mon 12-07.
    assert (before, after) == (dt.date(2026, 12, 2), dt.date(2026, 12, 7))
    with pytest.raises(UserError, match="future"):
        set_canvass_date(services, team_id=TEAM, canvass_date=dt.date(2026, 11, 12), actor="U0OFFICIAL",
                         settings=OfficeSettings())
