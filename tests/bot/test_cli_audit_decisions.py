"""`recount-bot audit verify` catches SQL edits of who may act and what was decided (issue 23, item 11), through the
real CLI on each database.

An office runs a requested recount at the service seam, and along the way grants a staff role, delegates the
deciding of requests, records a candidate, takes a role away and a candidacy back (both rows deleted by
recount-bot: sealed as deletions), and rejects a second request. That database verifies. Then each edit, on a
database of its own, made with SQL as a person with write access would: a role raised, a delegation granted, a
rejected request turned approved, its note rewritten, a case's status moved to completed, an official added, a
removed role put back, a candidacy deleted, a deadline moved. `audit verify` names the row (exit 1). Where a
case's card is in Slack is left out of the seals (storage/seals.py, UNSEALED): editing it is not reported.
"""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import delete, insert, select, update

from rules.returns import parse_returns
from services.office import access, conflicts
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from services.returns.versions import import_returns
from storage import seals
from storage.models import (
    AuditEntry,
    CandidateUser,
    CaseDeadline,
    Contest,
    Membership,
    RecountCase,
    RecountRequestRow,
    Role,
)
from tests.bot.test_cli_db import recount_bot
from tests.support.recount_office import DEO, TEAM, recount_in_progress

STAFF, CLERK, CANDIDATE, GONE = "U0STAFF001", "U0CLERK001", "U0CANDIDAT", "U0FORMER01"


OTHER = b"""contest,choice,votes,kind,unit
Aspen Ridge - Director,Ada Lind,900,candidate,Precinct 1
Aspen Ridge - Director,Ben Marsh,500,candidate,Precinct 1
"""


def _office(db) -> dict:
    """The recount, and everything that decides who may act; the ids the edits aim at."""
    services, workspace_id, case_id = recount_in_progress(db)
    for user, role in ((STAFF, Role.STAFF), (CLERK, Role.STAFF), (GONE, Role.STAFF)):
        access.set_role(services, team_id=TEAM, actor=DEO, actor_role=Role.OFFICIAL, user_id=user, role=role)
    access.set_approver(services, team_id=TEAM, actor=DEO, actor_role=Role.OFFICIAL, user_id=CLERK, on=True)
    access.set_role(services, team_id=TEAM, actor=DEO, actor_role=Role.OFFICIAL, user_id=GONE, role=None)
    conflicts.record_candidate(services, team_id=TEAM, actor=DEO, actor_role=Role.OFFICIAL, user_id=CANDIDATE,
                               choice="Sam Okafor")
    conflicts.record_candidate(services, team_id=TEAM, actor=DEO, actor_role=Role.OFFICIAL, user_id=GONE,
                               choice="Dana Whitfield")
    conflicts.remove_candidate(services, team_id=TEAM, actor=DEO, actor_role=Role.OFFICIAL, user_id=GONE)
    rejected = _rejected_request(services)
    with db.transaction() as s:
        staff = s.scalar(select(Membership.id).where(Membership.slack_user_id == STAFF))
        clerk = s.scalar(select(Membership.id).where(Membership.slack_user_id == CLERK))
        candidacy = s.scalar(select(CandidateUser.id).where(CandidateUser.slack_user_id == CANDIDATE))
        deadline = s.scalar(select(CaseDeadline.id).where(CaseDeadline.case_id == case_id))
    return {"workspace": workspace_id, "case": case_id, "staff": staff, "clerk": clerk, "candidacy": candidacy,
            "rejected": rejected, "deadline": deadline}


def _rejected_request(services) -> int:
    """A request of another district's contest, entered by the official and rejected by the delegated approver."""
    import_returns(services, team_id=TEAM, returns=parse_returns(OTHER), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Aspen Ridge", governing_body="Board",
                   actor="test")
    with services.db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == "Aspen Ridge - Director"))
    view = request_entry.submit_request(services, team_id=TEAM, actor=DEO, settings=OfficeSettings(),
                                        data=request_entry.RequestInput(
                                            contest_id=contest_id, requester_name="Ben Marsh",
                                            requester_contact="ben@example.org", party_kind="candidate",
                                            in_favor_of="Ben Marsh", received_on=dt.date(2026, 11, 9),
                                            received_reference="REQ-2"))
    request_decision.decide_request(services, team_id=TEAM, request_id=view.id, actor=CLERK, approve=False,
                                    note="The requester withdrew it in writing.", settings=OfficeSettings())
    return view.id


def _verify(db):
    return recount_bot("audit", "verify", database_url=db.url)


def _sql(db, statement) -> None:
    with db.engine.begin() as connection:  # Core, as a person with write access: recount-bot's hooks never see it
        connection.execute(statement)


@pytest.fixture
def office(db):
    return db, _office(db)


def test_the_office_as_recount_bot_left_it_verifies(office) -> None:
    db, _ = office
    result = _verify(db)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("audit log intact: ")


M, R, C = Membership.__table__, RecountRequestRow.__table__, RecountCase.__table__
EDITS = [
    ("a staff member made an official", lambda ids: update(M).where(M.c.id == ids["staff"]).values(role="official"),
     "membership (role) {staff} (memberships): it differs from what audit row"),
    ("a staff member made an approver", lambda ids: update(M).where(M.c.id == ids["staff"]).values(can_approve=True),
     "membership (role) {staff} (memberships): it differs from what audit row"),
    ("a delegation withdrawn", lambda ids: update(M).where(M.c.id == ids["clerk"]).values(can_approve=False),
     "membership (role) {clerk} (memberships): it differs from what audit row"),
    ("an official added", lambda ids: insert(M).values(
        id=900, workspace_id=ids["workspace"], slack_user_id="U0INTRUDER", role="official", can_approve=False,
        granted_by=DEO, granted_at=dt.datetime(2026, 11, 10, tzinfo=dt.timezone.utc)),
     "membership (role) 900 (memberships): it is not in the audit log: it was written outside recount-bot"),
    ("a rejected request approved", lambda ids: update(R).where(R.c.id == ids["rejected"]).values(status="approved"),
     "recount request {rejected} (recount_requests): it differs from what audit row"),
    ("a decision's note rewritten", lambda ids: update(R).where(R.c.id == ids["rejected"]).values(
        decision_note="Timely and verified."), "recount request {rejected} (recount_requests): it differs"),
    ("who decided rewritten", lambda ids: update(R).where(R.c.id == ids["rejected"]).values(decided_by=DEO),
     "recount request {rejected} (recount_requests): it differs"),
    ("a case marked completed", lambda ids: update(C).where(C.c.id == ids["case"]).values(status="completed"),
     "recount case {case} (recount_cases): it differs from what audit row"),
    ("a candidacy deleted", lambda ids: delete(CandidateUser.__table__).where(
        CandidateUser.__table__.c.id == ids["candidacy"]),
     "candidacy {candidacy} (candidate_users): it is missing: audit row"),
    ("a deadline moved", lambda ids: update(CaseDeadline.__table__).where(
        CaseDeadline.__table__.c.id == ids["deadline"]).values(due_date=dt.date(2027, 1, 1)),
     "case deadline {deadline} (case_deadlines): it differs from what audit row"),
]


@pytest.mark.parametrize("name, edit, expected", EDITS, ids=[e[0] for e in EDITS])
def test_an_sql_edit_of_who_may_act_or_what_was_decided_is_named(office, name, edit, expected) -> None:
    db, ids = office
    _sql(db, edit(ids))
    result = _verify(db)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith("audit log BROKEN at "), result.stdout
    assert expected.format(**ids) in result.stdout, result.stdout
    assert "Traceback" not in result.stderr


def test_a_role_taken_away_and_put_back_with_sql_is_named(office) -> None:
    db, ids = office
    # recount-bot deleted GONE's membership when the role was taken away, and sealed the deletion; the row put back
    # with SQL (its id, a role) is named.
    deleted = _deleted_membership_id(db)
    _sql(db, insert(M).values(id=deleted, workspace_id=ids["workspace"], slack_user_id=GONE, role="staff",
                              can_approve=False, granted_by=DEO,
                              granted_at=dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc)))
    result = _verify(db)
    assert result.returncode == 1, result.stdout
    assert f"membership (role) {deleted} (memberships): it was deleted by recount-bot (audit row " in result.stdout
    assert "and is there again: written outside recount-bot" in result.stdout


def _deleted_membership_id(db) -> int:
    """The id of the membership whose deletion recount-bot sealed (its seal is null)."""
    with db.transaction() as s:
        entries = s.scalars(select(AuditEntry).where(AuditEntry.action == seals.ACTION,
                                                     AuditEntry.entity_id == "memberships"))
        [row_id] = [int(k) for e in entries for k, v in e.after["rows"].items() if v is None]
        return row_id


def test_where_a_card_is_in_slack_is_not_sealed(office) -> None:
    db, ids = office
    _sql(db, update(C).where(C.c.id == ids["case"]).values(card_ts="1700000000.000100"))
    result = _verify(db)
    assert result.returncode == 0, result.stdout
