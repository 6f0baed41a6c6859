"""Completing the recount from its card (6), and what follows: the notice of the results to the governing body,
and for a requested recount a balance due collected on demand (2)(c).

"Complete the recount" is the designated election official's (the official completes and certifies). It is
refused, with every unit not yet counted and every blocking disagreement, until the tally is complete. A
requested recount asks its actual cost first (the settlement turns on it); an automatic one completes on the
button's confirmation. Completing twice changes nothing and says so. Once completed, the card shows the key
facts and the thread gets the recount report, the notice of the results ready to send and the certificates of
election with their links (handlers/certificates.py records their delivery).
"""
from __future__ import annotations

import logging
import time

from slack_sdk.errors import SlackApiError

from handlers.blocks.common import denver, esc
from handlers.blocks.completion_modals import balance_modal, complete_modal, results_notice_modal
from handlers.blocks.law_cites import cites
from handlers.blocks.recount_report import (
    certificates_text,
    report_blocks,
    report_text,
    results_notice_blocks,
    results_notice_letter,
    results_notice_text,
)
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.cost import letter_signer
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_io import outbox
from handlers.slack_text import mention
from handlers.view_state import case_form, date_picked, moment_picked, selected, shown_blocks, typed
from rules.conflicts import CaseStep
from rules.money import format_money, money
from services.completion import certificates as certs
from services.completion import complete as completion
from services.completion.certificates import certificate_link
from services.completion.complete import CertificateLine, CompletionResult, Readiness
from services.conduct import cases
from services.conduct.cases import CaseView
from services.errors import UserError
from services.office import conflicts
from storage.models import Role

log = logging.getLogger("recount_bot.completion")
# How long the certificates' upload waits for the report and the notice to be delivered before it.
OUTBOX_WAIT = 10.0
RESULTS_FIELDS = {"given_by": Block.RESULTS_GIVEN_BY, "method": Block.RESULTS_METHOD,
                  "given_at": Block.RESULTS_GIVEN_AT}
BALANCE_FIELDS = {"amount": Block.BALANCE_AMOUNT, "method": Block.BALANCE_METHOD,
                  "reference": Block.BALANCE_REFERENCE, "received_by": Block.BALANCE_RECEIVED_BY,
                  "received_on": Block.BALANCE_RECEIVED_ON}


def register(registry: Registry) -> None:
    registry.action(Action.COMPLETE_CASE.value, needs=Role.OFFICIAL)(complete_clicked)
    registry.view(View.COMPLETE.value, needs=Role.OFFICIAL)(submit_complete)
    registry.action(Action.RECORD_RESULTS_NOTICE.value, needs=Role.STAFF, changes_state=False)(open_results_notice)
    registry.view(View.RESULTS_NOTICE.value, needs=Role.STAFF)(submit_results_notice)
    registry.action(Action.RECORD_BALANCE.value, needs=Role.STAFF, changes_state=False)(open_balance)
    registry.view(View.BALANCE.value, needs=Role.STAFF)(submit_balance)


# ------------------------------------------------------------------ shared
def _clicked(ix: Interaction) -> CaseView:
    return cases.case_view(ix.services, int(ix.body["actions"][0]["value"]), workspace_id=ix.member.workspace_id)


def already_completed(case: CaseView) -> str:
    view = case.completion
    return (f"This recount was already completed {denver(view.completed_at)} by {mention(view.completed_by)}; nothing "
            "changed. The report is in the case's thread.")


def not_ready_text(case: CaseView, readiness: Readiness | None) -> str:
    if readiness is None or not readiness.counting_started:
        return "Counting has not started for this recount; start it from the card, tally, then complete it."
    if not readiness.set_up:
        return ("The count is not set up yet: say how it is counted and which units are expected, enter the tally "
                f"sheets ({cites(case).tally}), then complete the recount.")
    tallied, expected = readiness.progress
    lines = [f":no_entry: The recount cannot be completed yet: not every unit is tallied ({tallied:,} of "
             f"{expected:,}, {cites(case).tally})."]
    if readiness.missing_units:
        shown = [esc(u or "the whole contest") for u in readiness.missing_units[:30]]
        more = len(readiness.missing_units) - len(shown)
        lines.append("Not yet counted: " + ", ".join(shown) + (f" and {more:,} more" if more > 0 else "") + ".")
    if readiness.blocking:
        lines.append("Disagreements to resolve (check the physical sheet, withdraw the wrong entry):\n"
                     + "\n".join(f"• {esc(d)}" for d in readiness.blocking[:20]))
    if readiness.awaiting_second_entry:
        lines.append("Awaiting a second entry: " + ", ".join(esc(u or "the whole contest")
                                                               for u in readiness.awaiting_second_entry[:30]) + ".")
    return "\n".join(lines + ["Nothing was recorded."])


# ------------------------------------------------------------------ (6): completing
@as_one_unit
def complete_clicked(ix: Interaction) -> None:
    case = _clicked(ix)
    conflicts.check_case_step(ix.services, workspace_id=ix.member.workspace_id, case_id=case.id, actor=ix.user_id,
                              step=CaseStep.COMPLETE)  # a candidate or the requester is told who may, first
    view = case.completion
    if view is not None and view.completed:
        ix.tell(already_completed(case))
        return
    readiness = view.readiness if view is not None else None
    if readiness is None or not readiness.ready:
        ix.tell(not_ready_text(case, readiness))
        return
    if case.requested or case.notices_outstanding:
        # The actual cost (2)(c), and the notices (1) still owed with the reason for completing anyway.
        ix.client.views_open(trigger_id=ix.trigger_id, view=complete_modal(case))
        return
    result = completion.complete_case(ix.services, workspace_id=ix.member.workspace_id, case_id=case.id,
                                      actor=ix.user_id)
    _completed(ix, result)


def _has_block(ix: Interaction, block: Block) -> bool:
    return block.value in shown_blocks(ix.body["view"])


@as_one_unit
def submit_complete(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    cost = None
    if _has_block(ix, Block.COMPLETE_ACTUAL_COST):
        raw = typed(state, Block.COMPLETE_ACTUAL_COST)
        try:
            cost = money(raw, field="Actual cost")
        except (TypeError, ValueError) as exc:
            message = "Enter what the recount actually cost." if not raw else str(exc)
            ix.ack(response_action="errors", errors={Block.COMPLETE_ACTUAL_COST.value: message})
            return
    reason = typed(state, Block.COMPLETE_NOTICES_REASON) or None
    try:
        result = completion.complete_case(ix.services, workspace_id=ix.member.workspace_id, case_id=case_id,
                                          actor=ix.user_id, actual_cost=cost, notices_reason=reason)
    except UserError as exc:
        fields = {"actual_cost": Block.COMPLETE_ACTUAL_COST}
        if _has_block(ix, Block.COMPLETE_NOTICES_REASON):  # a modal opened before a notice went owed has none
            fields["notices_reason"] = Block.COMPLETE_NOTICES_REASON
        field_errors(ix, exc, fields)
        return
    ix.ack()
    _completed(ix, result)


def _completed(ix: Interaction, result: CompletionResult) -> None:
    case = cases.case_view(ix.services, result.case_id, workspace_id=ix.member.workspace_id)
    ix.channel_id = case.channel_id or ix.channel_id  # a modal has no channel; tell them beside the card
    if not result.newly_completed:
        ix.tell(already_completed(case))
        return
    announce_completion(ix, case, result.tokens)


def announce_completion(ix: Interaction, case: CaseView, tokens: dict[int, str]) -> None:
    """The card shows the completion; the thread gets the report, the notice of the results and the certificates.
    Queued in the listener's unit, so they commit with the completion; only the PDFs' upload (not an outbox
    post) waits until Slack has its answer."""
    services, view = ix.services, case.completion
    refresh_card(services, case)
    post_in_thread(services, case, report_text(case), blocks=report_blocks(case, view))
    letter = results_notice_letter(case, view, today=services.today(), signer=letter_signer(ix))
    post_in_thread(services, case, results_notice_text(case, view),
                   blocks=results_notice_blocks(case, view, letter))
    links = {c.id: certificate_link(tokens[c.id]) for c in view.certificates}  # only hashes are stored
    post_in_thread(services, case, certificates_text(case, view, links))
    if view.certificates:
        ix.later(lambda: upload_certificates(ix, case, view.certificates))


def upload_certificates(ix: Interaction, case: CaseView, certificates: tuple[CertificateLine, ...]) -> None:
    """The certificates' PDFs into the case's thread too, after the posts above (the links stay the way to get
    them: an upload is not retried like the outbox's posts, so a failure is only logged and told)."""
    services = ix.services
    deadline = time.monotonic() + OUTBOX_WAIT
    while not outbox.idle(services.db, services.now()) and time.monotonic() < deadline:
        time.sleep(0.1)  # the report first, then the files, in the thread's order
    files = []
    for line in certificates:
        document = certs.certificate_document(services, workspace_id=ix.member.workspace_id, certificate_id=line.id)
        files.append({"content": document.pdf(), "filename": document.filename,
                      "title": f"Certificate of election — {line.candidate}"})
    try:
        response = ix.client.files_upload_v2(
            file_uploads=files, channel=case.channel_id, thread_ts=case.card_ts,
            initial_comment=f":page_facing_up: The certificate{'s' if len(files) != 1 else ''} of election as PDF, "
                            f"to print, sign and deliver ({cites(case).results}).")
    except SlackApiError as exc:
        log.warning("case %s: uploading the certificates failed: %s", case.id, exc.response.get("error"))
        ix.tell(":warning: The certificates of election could not be uploaded into the case's thread; their links "
                "there still work.")
        return
    uploaded = response.get("files") or []
    for line, item in zip(certificates, uploaded):
        if item.get("id"):
            certs.set_slack_file(services, certificate_id=line.id, file_id=item["id"])


# ------------------------------------------------------------------ (6): the notice of the results
def open_results_notice(ix: Interaction) -> None:
    case = _clicked(ix)
    view = case.completion
    if view is None or not view.completed:
        ix.tell("The recount is not complete yet; the governing body is notified of its results afterwards "
                f"({cites(case).results}).")
        return
    if view.results_notice_at is not None and not view.amended_notice_owed:
        ix.tell(f"The notice of the results was already recorded: given by {esc(view.results_notice_by or '')} by "
                f"{esc(view.results_notice_method or '')}, {denver(view.results_notice_at)}.")
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=results_notice_modal(case, view, now=ix.services.now()))


@as_one_unit
def submit_results_notice(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    given_by = typed(state, Block.RESULTS_GIVEN_BY)
    method = selected(state, Block.RESULTS_METHOD)
    given_at = moment_picked(state, Block.RESULTS_GIVEN_AT)
    errors = {}
    if not given_by:
        errors[Block.RESULTS_GIVEN_BY.value] = "Say who gave the notice."
    if not method:
        errors[Block.RESULTS_METHOD.value] = "Choose how the notice was given."
    if given_at is None:
        errors[Block.RESULTS_GIVEN_AT.value] = "Say when the notice was given."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        newly = completion.record_results_notice(ix.services, workspace_id=workspace_id, case_id=case_id,
                                                 given_at=given_at, given_by=given_by, method=method, actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, RESULTS_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    ix.channel_id = case.channel_id or ix.channel_id
    view = case.completion
    lot = view.lot
    amended = (newly and lot is not None and lot.amended_notice_at is not None
               and lot.drawn_at > view.results_notice_at)
    if not newly:
        ix.tell(f"The notice of the results had already been recorded (given by {esc(view.results_notice_by or '')}, "
                f"{denver(view.results_notice_at)}); nothing was changed.")
        return
    refresh_card(ix.services, case)
    body = (view.completion or {}).get("notice_of_results_to") or case.governing_body
    what, by, method, at = (
        ("Amended notice of the results (with the lot)", lot.amended_notice_by, lot.amended_notice_method,
         lot.amended_notice_at) if amended else
        ("Notice of the results", view.results_notice_by, view.results_notice_method, view.results_notice_at))
    post_in_thread(ix.services, case,
                   f":white_check_mark: {what} to {esc(body)} recorded by {mention(ix.user_id)}: given by "
                   f"{esc(by or '')} by {esc(method or '')}, {denver(at)} ({cites(case).results}).")


# ------------------------------------------------------------------ (2)(c): the balance due
def open_balance(ix: Interaction) -> None:
    case = _clicked(ix)
    view = case.completion
    if view is None or not view.completed or view.balance_due == 0:
        ix.tell("No balance is due for this recount.")
        return
    if view.balance_outstanding == 0:
        ix.tell(f"The balance of {format_money(view.balance_due)} was already collected in full; nothing to record.")
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=balance_modal(case, view, today=ix.services.today()))


@as_one_unit
def submit_balance(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    raw = typed(state, Block.BALANCE_AMOUNT)
    method = selected(state, Block.BALANCE_METHOD)
    reference = typed(state, Block.BALANCE_REFERENCE)
    received_by = typed(state, Block.BALANCE_RECEIVED_BY)
    received_on = date_picked(state, Block.BALANCE_RECEIVED_ON)
    errors = {}
    if not raw:
        errors[Block.BALANCE_AMOUNT.value] = "Enter the amount paid."
    if not method:
        errors[Block.BALANCE_METHOD.value] = "Choose how it was paid."
    if not reference:
        errors[Block.BALANCE_REFERENCE.value] = "Give the receipt, check or transaction number."
    if not received_by:
        errors[Block.BALANCE_RECEIVED_BY.value] = "Say who received the payment."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        collected = completion.record_balance_collected(
            ix.services, workspace_id=workspace_id, case_id=case_id, amount=raw, method=method, reference=reference,
            received_by=received_by, actor=ix.user_id, received_on=received_on)
    except UserError as exc:
        field_errors(ix, exc, BALANCE_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    ix.channel_id = case.channel_id or ix.channel_id
    refresh_card(ix.services, case)
    text = (f":moneybag: Balance payment of *{format_money(collected.amount)}* recorded by {mention(ix.user_id)}: "
            f"{esc(method)}, ref. {esc(reference)}, received by {esc(received_by)} on {received_on or ix.services.today():%a %Y-%m-%d} "
            f"({cites(case).payment}). Written to "
            f"the ledger: balance collected {format_money(collected.amount)}")
    if collected.expense:
        text += f"; expense {format_money(collected.expense)}, the rest of the actual cost of the recount"
    text += "."
    text += (f" *{format_money(collected.outstanding)} still due.*" if collected.outstanding
             else " The balance is collected in full: the requester has paid the actual cost of the recount.")
    post_in_thread(ix.services, case, text)
