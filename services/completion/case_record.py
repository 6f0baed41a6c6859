"""The whole record of one recount case, for a court or a records request: every fact, every decision with
its citation, and the timeline from the hash-chained audit log (each row's hash included, so the export
can be checked against the log).

Certificate links' tokens are left out: the record is meant to be handed out.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from rules.governing_body import governing_body_name
from rules.retention import records_retention
from rules.serialize import to_jsonable
from services.conduct.money import money_view
from services.conduct.tally import tally_state
from services.election_law import election_law
from services.errors import NotFound
from services.services import Services
from storage import audit
from storage.models import (
    AssistantRow,
    AuditEntry,
    CaseDeadline,
    Certificate,
    EvidenceDemand,
    LotDrawing,
    RecountCase,
    RecountRequestRow,
    SurveyVersion,
    TallySheetRow,
)

FORMAT_VERSION = 1


def _related_audit(session: Session, case: RecountCase, request: RecountRequestRow | None) -> list[AuditEntry]:
    """Audit rows about the case and everything that belongs to it."""
    pairs = [("recount_case", case.id)]
    pairs += [("notice", n.id) for n in case.notices]
    pairs += [("case_deadline", d.id) for d in session.scalars(select(CaseDeadline).where(CaseDeadline.case_id == case.id))]
    pairs += [("tally_sheet", t.id) for t in session.scalars(select(TallySheetRow).where(TallySheetRow.case_id == case.id))]
    pairs += [("assistant", a.id) for a in session.scalars(select(AssistantRow).where(AssistantRow.case_id == case.id))]
    pairs += [("evidence_demand", e.id) for e in session.scalars(select(EvidenceDemand).where(
        EvidenceDemand.case_id == case.id))]
    if request is not None:
        pairs.append(("recount_request", request.id))
    condition = or_(*(and_(AuditEntry.entity == entity, AuditEntry.entity_id == str(eid)) for entity, eid in pairs))
    rows = list(session.scalars(select(AuditEntry).where(condition).order_by(AuditEntry.id)))
    # The election's own rows that name this case (e.g. its abstract preparers set from this case).
    election_rows = session.scalars(select(AuditEntry).where(
        AuditEntry.entity == "election", AuditEntry.entity_id == str(case.contest.election_id)))
    rows += [r for r in election_rows if isinstance(r.after, dict) and r.after.get("case") == case.id]
    return sorted(rows, key=lambda r: r.id)


def _rows(session: Session, model, case_id: int) -> list:
    return list(session.scalars(select(model).where(model.case_id == case_id).order_by(model.id)))


def build_case_record(services: Services, *, case_id: int, workspace_id: int | None = None) -> dict[str, Any]:
    with services.db.transaction() as session:
        case = session.get(RecountCase, case_id)
        if case is None or (workspace_id is not None and case.workspace_id != workspace_id):
            raise NotFound(f"There is no recount case #{case_id} in this office.")
        contest, election = case.contest, case.contest.election
        government = election.local_government
        law = election_law(election)
        request = session.scalar(select(RecountRequestRow).where(RecountRequestRow.case_id == case.id))
        state = tally_state(session, case)
        versions = session.scalars(select(SurveyVersion).where(SurveyVersion.election_id == election.id)
                                   .order_by(SurveyVersion.number))
        decisions = [{"what": "verdict that opened the case" if case.kind == "automatic" else "request evaluation",
                      **{k: case.verdict.get(k) for k in ("outcome", "citation", "reason", "reading")}}]
        if case.completion:
            decisions.append({"what": "completion", **{k: case.completion.get(k) for k in
                                                       ("outcome", "citation", "reason", "reading")}})
        if case.settlement:
            decisions.append({"what": "settlement", **{k: case.settlement.get(k) for k in
                                                       ("outcome", "citation", "reason", "reading")}})
        notices_check = (case.completion or {}).get("notices_before_completion") or {}
        if notices_check.get("outcome") == "overridden":  # completed with (1) notices owed, for a recorded reason
            decisions.append({"what": "notices before completion", **{k: notices_check.get(k) for k in
                                                                      ("outcome", "citation", "reason", "reading")}})
        lot = session.scalar(select(LotDrawing).where(LotDrawing.case_id == case.id))
        if lot is not None:
            decisions.append({"what": "lot", **{k: lot.decision.get(k) for k in
                                                ("outcome", "citation", "reason", "reading")}})
        waiver = case.waiver  # 1-10.5-103: the automatic recount waived by written notice
        if waiver is not None:
            decisions.append({"what": "waiver", **{k: waiver.decision.get(k) for k in
                                                   ("outcome", "citation", "reason", "reading")}})
        record: dict[str, Any] = {
            "format": "recount-bot case record", "format_version": FORMAT_VERSION,
            "generated_at": services.now(),
            "statute": law.citation,  # the law the election is held under; "law" says how it came to be
            "law": {**law.as_json(), "named": law.named},
            "case": {
                "id": case.id, "kind": case.kind, "status": case.status, "contest": contest.name,
                "contest_kind": contest.kind, "seats": contest.seats, "election": election.name,
                "election_date": election.election_date, "canvass_date": election.canvass_date,
                "local_government": government.name, "governing_body": governing_body_name(government.governing_body, government.name),
                "opened_at": case.opened_at, "opened_by": case.opened_by, "multi_seat_rule": case.multi_seat_rule,
                "counting_started_at": case.counting_started_at, "counting_started_by": case.counting_started_by,
                "completed_at": case.completed_at, "completed_by": case.completed_by,
                "results_notice": {"given_at": case.results_notice_at, "given_by": case.results_notice_by,
                                   "method": case.results_notice_method} if case.results_notice_at else None,
            },
            "decisions": decisions,
            "verdict": case.verdict,
            "completion": case.completion,
            "settlement": case.settlement,
            "deadlines": [{"name": d.name, "date": d.due_date, "citation": d.citation, "note": d.note,
                           "reading": d.reading, "rolled_from": d.rolled_from, "estimated": d.estimated,
                           "falls_on": d.falls_on}
                          for d in _rows(session, CaseDeadline, case.id)],
            "notices": [{"recipient_kind": n.recipient_kind, "recipient": n.recipient_name, "citation": n.citation,
                         "given_at": n.given_at, "given_by": n.given_by, "method": n.method, "details": n.details,
                         "recorded_by": n.recorded_by} for n in case.notices],
            "request": None if request is None else {
                "requester": request.requester_name, "contact": request.requester_contact,
                "party_kind": request.party_kind, "in_favor_of": request.in_favor_of,
                "received_on": request.received_on, "reference": request.received_reference,
                "entered_by": request.entered_by, "status": request.status, "decided_by": request.decided_by,
                "decided_at": request.decided_at, "decision_note": request.decision_note},
            "money": None,
            "tally": None if state is None else {
                "method": case.count_method, "expected_units": case.expected_units, "double_entry": case.double_entry,
                "election_sheet_ids": case.election_sheet_ids or [],
                "progress": list(state.progress), "decision": state.decision(),
                "sheets": [{"sheet_id": t.sheet_id, "unit": t.unit, "entry": t.entry, "counts": t.counts,
                            "entered_by": t.entered_by, "entered_at": t.entered_at, "withdrawn_at": t.withdrawn_at,
                            "withdrawn_reason": t.withdrawn_reason} for t in _rows(session, TallySheetRow, case.id)]},
            "assistants": [{"name": a.name, "capacity": a.capacity, "days_served": a.days_served,
                            "compensation": a.compensation, "on_governing_body": a.on_governing_body,
                            "qualified_as_judge": a.qualified_as_judge, "served_as_judge": a.served_as_judge,
                            "replaces": a.replaces} for a in _rows(session, AssistantRow, case.id)],
            "evidence": [{"description": e.description, "demanded_of": e.demanded_of, "demanded_at": e.demanded_at,
                          "demanded_by": e.demanded_by, "produced": e.produced, "produced_at": e.produced_at}
                         for e in _rows(session, EvidenceDemand, case.id)],
            "lot": None if lot is None else {
                "citation": lot.decision.get("citation"), "drawn_at": lot.drawn_at, "place": lot.place,
                "conducted_by": lot.conducted_by, "witnesses": lot.witnesses, "method": lot.method,
                "method_details": lot.method_details, "tied": lot.tied, "winners": lot.winners,
                "candidate_notices": lot.candidate_notices, "recorded_by": lot.recorded_by,
                "recorded_at": lot.recorded_at,
                "amended_results_notice": {"given_at": lot.amended_notice_at, "given_by": lot.amended_notice_by,
                                           "method": lot.amended_notice_method} if lot.amended_notice_at else None},
            "waiver": None if waiver is None else {
                "citation": waiver.citation, "waived_by": waiver.waived_by, "capacity": waiver.capacity,
                "received_on": waiver.received_on, "written_waiver": waiver.reference,
                "recorded_by": waiver.recorded_by, "recorded_at": waiver.recorded_at},
            "certificates": [{"candidate": c.candidate, "votes": c.votes, "created_at": c.created_at,
                              "delivered_at": c.delivered_at, "delivered_by": c.delivered_by,
                              "delivery_method": c.delivery_method} for c in _rows(session, Certificate, case.id)],
            "survey_versions": [{"number": v.number, "reason": v.reason, "evidence": v.evidence,
                                 "source": v.source_name, "format": v.source_format, "sha256": v.source_sha256,
                                 "created_by": v.created_by, "created_at": v.created_at} for v in versions],
            "timeline": [{"id": a.id, "at": a.at, "actor": a.actor, "action": a.action, "entity": a.entity,
                          "entity_id": a.entity_id, "before": a.before, "after": a.after, "hash": a.hash}
                         for a in _related_audit(session, case, request)],
            "audit_chain": audit.verify(session).describe(),
            # How long the office keeps this record (and the election's other records): C.R.S. 1-7-802.
            "retention": records_retention(election.election_date).as_record(),
        }
        if case.kind == "requested":
            view = money_view(session, case)
            record["money"] = {
                "cost_determined": view.cost_determined, "cost_items": list(view.cost_items), "paid": view.paid,
                "due": view.due, "held": view.held,
                "ledger": [{"kind": line.kind, "amount": line.amount, "memo": line.memo, "details": line.details,
                            "received_on": line.details.get("received_on"),  # money in or out: the day, as entered
                            "recorded_by": line.recorded_by, "recorded_at": line.recorded_at} for line in view.lines],
                "cost_notices": [{"cost": n.cost, "notified_at": n.notified_at, "method": n.method,
                                  "notified_by": n.notified_by} for n in view.cost_notices],
                "checklist": view.checklist}
        return to_jsonable(record)
