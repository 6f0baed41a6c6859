"""The lot (C.R.S. 1-13.5-1304) at the service seam, on each database: a drawing that names someone not tied changes
nothing; the drawing recorded makes the withheld certificate (1306(6)) for the winner; recording again (a retry, a
double click) records nothing more."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from rules.lot import CandidateNotice
from services.completion.complete import complete_case
from services.completion.lot import LotInput, record_lot
from services.errors import UserError
from storage.models import AuditEntry, Certificate, LotDrawing
from tests.services.test_completion_services import DEO, _requested_case, _tally, services  # noqa: F401

DANA, SAM = "Dana Whitfield", "Sam Okafor"


def drawing(services, winners: tuple[str, ...], **changes) -> LotInput:
    drawn = services.now()
    notices = tuple(CandidateNotice(name, drawn - dt.timedelta(hours=2), "phone") for name in (DANA, SAM))
    return LotInput(**{"drawn_at": drawn, "place": "District office", "conducted_by": "Canvass board: A, B, C",
                       "witnesses": "Both candidates", "method": "coin toss", "winners": winners,
                       "notices": notices, **changes})


def counts(services) -> tuple[int, int, int]:
    with services.db.transaction() as s:
        return (s.scalar(select(func.count(LotDrawing.id))), s.scalar(select(func.count(Certificate.id))),
                s.scalar(select(func.count(AuditEntry.id)).where(AuditEntry.action == "lot.drawn")))


def test_the_lot_certifies_its_winner_once_and_only_a_tied_candidate_can_win_it(services) -> None:
    case_id = _requested_case(services, paid="400.00")
    _tally(services, case_id, {DANA: 700, SAM: 857}, {DANA: 747, SAM: 590})  # 1,447 each: a tie for the seat
    result = complete_case(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                           actual_cost="350.00")
    assert result.completion["tie_for_last_seat"] and result.certificates == ()

    with pytest.raises(UserError, match="Ballot Issue 6A is not tied for the seat") as refused:
        record_lot(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                   data=drawing(services, ("Ballot Issue 6A",)))
    assert refused.value.field == "winners" and counts(services) == (0, 0, 0)
    with pytest.raises(UserError, match="Describe how the lot was drawn"):
        record_lot(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                   data=drawing(services, (SAM,), method="other"))
    assert counts(services) == (0, 0, 0)

    first = record_lot(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                       data=drawing(services, (SAM,)))
    assert first.newly_recorded and first.lot.winners == (SAM,) and len(first.tokens) == 1
    assert first.lot.decision["citation"] == "C.R.S. 1-13.5-1304"
    again = record_lot(services, workspace_id=services.workspace_id, case_id=case_id, actor=DEO,
                       data=drawing(services, (DANA,)))
    assert not again.newly_recorded and again.lot.winners == (SAM,) and again.tokens == {}
    assert counts(services) == (1, 1, 1)
    with services.db.transaction() as s:
        certificate = s.scalars(select(Certificate)).one()
        assert (certificate.candidate, certificate.votes) == (SAM, 1447)
