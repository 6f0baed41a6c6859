"""The modals of completion (6): the actual cost of a requested recount, the notice of the results, the balance
paid, the delivery of a certificate of election. Pure builders."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.case_card import RECIPIENT_LABEL
from handlers.blocks.common import context, esc, metadata, modal, section
from handlers.blocks.completion_section import signer_prompt
from handlers.blocks.cost_modal import amount_input, received_on_input
from handlers.blocks.inputs import moment_input, select_input, text_input, word_options
from handlers.blocks.law_cites import cites
from handlers.ids import Block, View
from rules.money import format_money
from rules.notices_owed import REASON_LIMIT as NOTICES_REASON_LIMIT
from rules.requests import favored_label
from services.completion.certificates import DELIVERY_METHODS
from services.completion.complete import RESULTS_NOTICE_METHODS, CertificateLine, CompletionView
from services.conduct.cases import CaseView
from services.conduct.money import NAME_LIMIT, PAYMENT_METHODS, REFERENCE_LIMIT


def owed_notice_lines(case: CaseView, limit: int = 20) -> list[str]:
    """The notices of the recount (1) not recorded as given, as the card names them."""
    owed = [n for n in case.notices if not n.given]
    lines = [f"• {RECIPIENT_LABEL.get(n.recipient_kind, n.recipient_kind)}: {esc(n.recipient_name)} ({n.citation})"
             for n in owed[:limit]]
    if len(owed) > limit:
        lines.append(f"• and {len(owed) - limit:,} more (see the card)")
    return lines


def _notices_blocks(case: CaseView) -> list[dict]:
    owed = owed_notice_lines(case)
    if not owed:
        return []
    count = case.notices_outstanding
    return [
        section(f":warning: *{count} notice{'' if count == 1 else 's'} of the recount "
                f"{'is' if count == 1 else 'are'} not recorded as given* ({cites(case).notice}):\n" + "\n".join(owed)),
        context(f"{cites(case).notice} gives the candidates and committees affected the right to be present during the "
                "recount, so its notices come before the recount is completed: completing is refused while one is "
                "owed. Record each notice on the card, or complete anyway with your reason; the reason is recorded "
                "with the completion (the reading “owed-with-reason”) and shown with its announcement."),
        text_input(Block.COMPLETE_NOTICES_REASON, "Reason for completing with notices owed", optional=True,
                   max_length=NOTICES_REASON_LIMIT, multiline=True,
                   placeholder="e.g. the candidate could not be reached by any means; attempts listed on the card"),
    ]


def complete_modal(case: CaseView) -> dict:
    """Completing: for a requested recount the actual cost, which the settlement turns on; for any recount with
    notices under (1) still owed, those notices and the reason for completing anyway."""
    blocks = []
    if case.requested:
        money = case.money
        standing = ""
        if money is not None:
            determined = format_money(money.cost_determined) if money.cost_determined is not None else "—"
            standing = (f"\nCost determined before the recount {determined} · paid by the requester "
                        f"{format_money(money.paid)} · held {format_money(money.held)}")
        favored = f" in favor of *{esc(favored_label(case.request.in_favor_of))}*" if case.request else ""
        blocks += [
            section(f"Complete the recount of *{esc(case.contest)}*, requested{favored}.{standing}"),
            context(f"Completing writes the amended count as a new version of the survey of returns (when a vote "
                    f"changed), makes the "
                    f"certificates of election and settles the requester's money ({cites(case).certificate}): a refund of the "
                    f"payment if the result is reversed in the requester's favor or the amended count is within "
                    f"½ of 1% {cites(case).refund}; otherwise the return of what the recount did not use "
                    f"{cites(case).leftover} or the balance due on demand {cites(case).payment}. It cannot be undone."),
            amount_input(Block.COMPLETE_ACTUAL_COST, "Actual cost of the recount ($)", optional=False,
                         hint=f"All expenses incurred in the recount ({cites(case).payment}), not the estimate "
                              "determined before it."),
        ]
    else:
        blocks += [
            section(f"Complete the automatic recount of *{esc(case.contest)}* ({cites(case).notice})."),
            context(f"Completing writes the amended count as a new version of the survey of returns (when a vote "
                    f"changed) and makes the "
                    f"certificates of election ({cites(case).certificate}). It cannot be undone."),
        ]
    blocks += _notices_blocks(case)
    if prompt := signer_prompt(case):
        blocks.append(section(prompt))
    return modal("Complete the recount", blocks, callback_id=View.COMPLETE.value, submit="Complete",
                 private_metadata=metadata({"case_id": case.id}))


def results_notice_modal(case: CaseView, view: CompletionView, *, now: dt.datetime) -> dict:
    body = (view.completion or {}).get("notice_of_results_to") or case.governing_body
    amended = "Amended notice (with the lot that decided the tie)" if view.amended_notice_owed else "Notice"
    blocks = [
        section(f"{amended} of the results of the recount of *{esc(case.contest)}* to *{esc(body)}*."),
        context(f"{cites(case).results}: after the recount the designated election official notifies the governing body "
                "of the local government of its results. The notice to send is in the case's thread."),
        text_input(Block.RESULTS_GIVEN_BY, "Given by", optional=False, max_length=NAME_LIMIT,
                   placeholder="Name of the person who gave the notice"),
        select_input(Block.RESULTS_METHOD, "How", word_options(RESULTS_NOTICE_METHODS),
                     placeholder="Choose how the notice was given"),
        moment_input(Block.RESULTS_GIVEN_AT, "When", initial=now),
    ]
    return modal("Record results notice", blocks, callback_id=View.RESULTS_NOTICE.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))


def balance_modal(case: CaseView, view: CompletionView, *, today: dt.date) -> dict:
    who = f"*{esc(case.request.requester_name)}*" if case.request else "the requester"
    outstanding = view.balance_outstanding
    blocks = [
        section(f"The balance due from {who} for the recount of *{esc(case.contest)}*: *{format_money(outstanding)}* "
                f"still due of {format_money(view.balance_due)}."),
        context(f"{cites(case).payment}: the requester pays the cost on demand. The payment is recorded, then spent on the "
                "rest of the actual cost of the recount."),
        amount_input(Block.BALANCE_AMOUNT, "Amount ($)", optional=False, initial=f"{outstanding:.2f}"),
        select_input(Block.BALANCE_METHOD, "Method", word_options(PAYMENT_METHODS),
                     placeholder="Choose how it was paid"),
        text_input(Block.BALANCE_REFERENCE, "Receipt or check number", optional=False, max_length=REFERENCE_LIMIT,
                   placeholder="e.g. check 1077 / receipt R-2026-131"),
        text_input(Block.BALANCE_RECEIVED_BY, "Received by", optional=False, max_length=NAME_LIMIT,
                   placeholder="Name of the person who received it"),
        received_on_input(Block.BALANCE_RECEIVED_ON, "Received on", today),
    ]
    return modal("Record balance paid", blocks, callback_id=View.BALANCE.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))


def delivery_modal(case: CaseView, certificate: CertificateLine, *, now: dt.datetime) -> dict:
    blocks = [
        section(f"Delivery of the certificate of election to *{esc(certificate.candidate)}* "
                f"({certificate.votes:,} votes), {esc(case.contest)}."),
        context(f"{cites(case).certificate}: the designated election official makes a certificate of election for each candidate "
                "who received the highest number of votes and delivers it to that candidate."),
        text_input(Block.DELIVERY_BY, "Delivered by", optional=False, max_length=NAME_LIMIT,
                   placeholder="Name of the person who delivered it"),
        select_input(Block.DELIVERY_METHOD, "How", word_options(DELIVERY_METHODS),
                     placeholder="Choose how it was delivered"),
        moment_input(Block.DELIVERY_AT, "When", initial=now),
        text_input(Block.DELIVERY_DETAILS, "Details (address, tracking number, who received it)", max_length=1000,
                   multiline=True, optional=True),
    ]
    return modal("Record delivery", blocks, callback_id=View.DELIVERY.value, submit="Record",
                 private_metadata=metadata({"certificate_id": certificate.id, "case_id": case.id}))
