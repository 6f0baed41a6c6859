"""The requester withdraws a recount request before it is decided: staff record it, with how the requester said so.

Each law lets an interested party request a recount (1-13.5-1306(2)(a), 31-10-1207(2), 1-10.5-106(2)); none says anything of taking a request back, and nothing
forbids it. A request withdrawn is one no one need decide any more: it leaves the list of requests waiting for a
decision, its card loses Approve and Reject, and its status is "withdrawn". Only a request still pending may be
withdrawn: once approved, the case is open and the office's duties under (2)(b) have begun; once rejected, there
is nothing to take back.

Like a decision, the withdrawal is a conditional update (`WHERE status = 'pending'`): a withdrawal and a decision
made at the same moment cannot both win. It is audited, and the row is sealed again (storage.seals) so that an edit
of its status outside the bot shows in `recount-bot audit verify`.
"""
from __future__ import annotations

from sqlalchemy import update

from services.election_law import law_of
from services.errors import UserError
from services.office.access import ensure_workspace
from services.requests.decision import already_decided
from services.requests.views import RequestView, as_view, office_request
from services.services import Services
from storage import audit, seals
from storage.models import Election, RecountRequestRow, RequestStatus
from storage.repositories import rows_updated


def withdraw_request(services: Services, *, team_id: str, request_id: int, actor: str, note: str) -> RequestView:
    """Record that the requester withdrew request `request_id`; `note` says how (e.g. "by email to the clerk,
    Nov 9"). Raises AlreadyDecided when it was decided (or withdrawn) first, NotFound for another office's."""
    note = (note or "").strip()
    if not note:
        raise UserError("Say how the requester withdrew the request (e.g. by letter received Nov 9); it is kept in "
                        "the record.", field="note")
    now = services.now()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        row = office_request(session, request_id, workspace.id)
        won = rows_updated(session, update(RecountRequestRow)
                           .where(RecountRequestRow.id == request_id,
                                  RecountRequestRow.status == RequestStatus.PENDING.value)
                           .values(status=RequestStatus.WITHDRAWN.value, decided_by=actor, decided_at=now,
                                   decision_note=note)
                           .execution_options(synchronize_session=False))
        session.refresh(row)
        if won != 1:
            raise already_decided(row)
        seals.mark(session, row)  # written by the Core UPDATE above, unseen by the ORM
        # The provision the request was made under, in the election's own law (1306(2)(a), 31-10-1207(2), ...).
        citation = law_of(session.get_one(Election, row.contest.election_id)).requesting.provision.citation
        audit.append(session, actor=actor, action="request.withdrawn", entity="recount_request", entity_id=row.id,
                     before={"status": RequestStatus.PENDING.value},
                     after={"status": RequestStatus.WITHDRAWN.value, "note": note, "citation": citation,
                            "requester": row.requester_name, "entered_by": row.entered_by},
                     workspace_id=workspace.id, at=now)
        session.flush()
        return as_view(row)
