"""Certificates of election (6) from the case card: record the delivery to the candidate (by whom, how, when;
audited), and make a new link when one expired (the old link stops working).

The PDF itself is served by `recount-bot serve` at the link (bot/web/server.py); the link is posted in the case's
thread. Tokens are never written to the log.
"""
from __future__ import annotations

from handlers.blocks.common import denver, esc
from handlers.blocks.completion_modals import delivery_modal
from handlers.blocks.law_cites import cites
from handlers.blocks.recount_report import certificate_link_line
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import metadata_of, moment_picked, selected, typed
from rules.conflicts import CaseStep
from services.completion import certificates as certs
from services.conduct import cases
from services.errors import UserError
from services.office import conflicts
from storage.models import Role

DELIVERY_FIELDS = {"delivered_by": Block.DELIVERY_BY, "method": Block.DELIVERY_METHOD,
                   "delivered_at": Block.DELIVERY_AT}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_DELIVERY.value, needs=Role.STAFF, changes_state=False)(open_delivery)
    registry.view(View.DELIVERY.value, needs=Role.STAFF)(submit_delivery)
    registry.action(Action.NEW_CERTIFICATE_LINK.value, needs=Role.STAFF)(new_link)


def _clicked(ix: Interaction):
    return certs.certificate(ix.services, workspace_id=ix.member.workspace_id,
                             certificate_id=int(ix.body["actions"][0]["value"]))


def open_delivery(ix: Interaction) -> None:
    certificate, case_id = _clicked(ix)
    if certificate.delivered:
        ix.tell(f"The certificate of election for {esc(certificate.candidate)} was already delivered: "
                f"{denver(certificate.delivered_at)} by {esc(certificate.delivered_by or '')} "
                f"({esc(certificate.delivery_method or '')}).")
        return
    conflicts.check_case_step(ix.services, workspace_id=ix.member.workspace_id, case_id=case_id, actor=ix.user_id,
                              step=CaseStep.CERTIFY)  # told who may instead, before the form opens
    case = cases.case_view(ix.services, case_id, workspace_id=ix.member.workspace_id)
    ix.client.views_open(trigger_id=ix.trigger_id, view=delivery_modal(case, certificate, now=ix.services.now()))


@as_one_unit
def submit_delivery(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    delivered_by = typed(state, Block.DELIVERY_BY)
    method = selected(state, Block.DELIVERY_METHOD) or ""
    delivered_at = moment_picked(state, Block.DELIVERY_AT)
    details = typed(state, Block.DELIVERY_DETAILS) or None
    errors = {}
    if not delivered_by:
        errors[Block.DELIVERY_BY.value] = "Say who delivered the certificate."
    if not method:
        errors[Block.DELIVERY_METHOD.value] = "Choose how it was delivered."
    if delivered_at is None:
        errors[Block.DELIVERY_AT.value] = "Say when it was delivered."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        result = certs.record_delivery(ix.services, workspace_id=workspace_id,
                                       certificate_id=int(meta["certificate_id"]), delivered_at=delivered_at,
                                       delivered_by=delivered_by, method=method, details=details, actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, DELIVERY_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, result.case_id, workspace_id=workspace_id)
    ix.channel_id = case.channel_id or ix.channel_id
    certificate = result.certificate
    if not result.newly_recorded:
        ix.tell(f"The delivery of the certificate for {esc(certificate.candidate)} had already been recorded "
                f"({denver(certificate.delivered_at)}, by {esc(certificate.delivered_by or '')}); nothing was changed.")
        return
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case,
                   f":scroll: Certificate of election delivered to *{esc(certificate.candidate)}*, recorded by "
                   f"{mention(ix.user_id)}: delivered by {esc(certificate.delivered_by or '')} "
                   f"({esc(certificate.delivery_method or '')}), {denver(certificate.delivered_at)} ({cites(case).certificate}).")


@as_one_unit
def new_link(ix: Interaction) -> None:
    certificate, case_id = _clicked(ix)
    renewed = certs.renew_link(ix.services, workspace_id=ix.member.workspace_id, certificate_id=certificate.id,
                               actor=ix.user_id)
    case = cases.case_view(ix.services, case_id, workspace_id=ix.member.workspace_id)
    if not renewed.renewed:  # only the link's hash is stored: the link itself is the one in the thread
        ix.tell(f"The link for {esc(certificate.candidate)} was made moments ago and still works: it is in the "
                "case's thread. Nothing changed.")
        return
    line = certificate_link_line(renewed.certificate, certs.certificate_link(renewed.certificate.token))
    post_in_thread(ix.services, case, f":link: New link for the certificate of election, made by {mention(ix.user_id)} "
                                      f"(the earlier link no longer works):\n{line}")
    ix.tell(f"A new link for the certificate of {esc(certificate.candidate)} is in the case's thread.")
