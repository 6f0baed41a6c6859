"""(2)(b)(II)-(III): the notice of cost to the requester, as a letter ready to send, and the modal that records
that it was sent.

The letter is plain text (a clerk copies it into an email or onto letterhead), posted in the case's thread
in code blocks so Slack keeps its lines. It states what the statute makes the requester's business: the
itemised cost and its total (2)(b)(II); that it is payable on demand and held for the recount's expenses
(2)(c); that counting begins only once it is collected (2)(b)(IV); the refund (2)(d) and the return of an
unused deposit (2)(f); the completion deadline (2)(e). Pure builders.
"""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import context, denver, esc, metadata, modal, section
from handlers.blocks.inputs import moment_input, select_input, text_input, word_options
from handlers.blocks.letters import SIGNATURE_PLACEHOLDER, letter_sections, long_day
from handlers.blocks.requested_case import PARTY_LABEL
from handlers.ids import Block, View
from handlers.slack_text import mention
from rules.money import format_money
from rules.statute import cite
from services.conduct.cases import CaseView
from services.conduct.money import COST_NOTICE_METHODS, NAME_LIMIT, PAYMENT_METHODS

DEADLINE = "requested_recount_deadline"
def _methods() -> str:
    methods = list(PAYMENT_METHODS)
    return ", ".join(methods[:-1]) + f" or {methods[-1]}"


def cost_notice_letter(case: CaseView, *, today: dt.date, signer: str | None = None) -> str:
    """The notice of the cost determined now, addressed to the requester. Requires a determined cost."""
    money, request = case.money, case.request
    if money is None or money.cost_determined is None:
        raise ValueError("no cost determined: there is nothing to notify")
    total = format_money(money.cost_determined)
    requester = request.requester_name if request else "[requester]"
    contact = request.requester_contact if request else "[address]"
    deadline = case.deadline(DEADLINE)
    lines = [
        case.local_government,
        "Office of the Designated Election Official",
        "",
        long_day(today),
        "",
        f"To: {requester}",
        *[f"    {line.strip()}" for line in contact.splitlines() if line.strip()],
        "",
        f"Re: Notice of the cost of the recount you requested - {case.contest}, {case.election} "
        f"of {long_day(case.election_date)} (recount case #{case.id})",
        "",
        f"Dear {requester}:",
        "",
    ]
    if request:
        lines.append(
            f"On {long_day(request.received_on)} this office received your written request (reference "
            f"{request.received_reference}), as {_a(PARTY_LABEL.get(request.party_kind, request.party_kind))}, for a "
            f"recount of the votes cast for {case.contest}. Under {cite('(2)(a)')} a recount that the law does "
            "not otherwise require is conducted at the expense of the interested party who requests it.")
        lines.append("")
    lines += [
        f"Cost. As {cite('(2)(b)(II)')} and (III) require, I have determined the cost of the "
        "recount and notify you of it:",
        "",
        *[f"  - {line}" for line in money.cost_items],
        f"  Total cost of the recount: {total}",
        "",
        f"Payment. Under {cite('(2)(c)')} you are to pay this cost on demand to the designated election official; "
        f"this notice is that demand. Payment of {total} may be made by {_methods()}"
        + (f", quoting reference {request.received_reference}" if request else "") + ". The funds paid are held "
        "and used for the payment of all expenses incurred in the recount.",
        "",
        f"When the recount begins. Under {cite('(2)(b)(IV)')} the recount will not begin until the cost has been "
        "collected from you in full.",
        "",
        f"Refund. Under {cite('(2)(d)')}, if after the recount the result of the election is reversed in your "
        "favor, or the amended count is such that a recount would otherwise have been required under "
        f"{cite('(1)')} (a difference of one-half of one percent or less of the highest number of votes), the "
        "payment for expenses will be refunded to you.",
        "",
        f"Unused deposit. Under {cite('(2)(f)')}, if any funds you paid remain after the expenses of the recount "
        "and the recount does not change the result of the election, the unused portion will be returned to you.",
        "",
    ]
    if deadline is not None:
        when = f"that is, by {long_day(deadline.due_date)}"
        if deadline.estimated:
            when += (" (an estimate until the canvass date is entered: the canvass board certifies no later than "
                     f"the fourteenth day after the election, {cite(section='1-13.5-1305')})")
        lines += [f"Completion. Under {cite('(2)(e)')} the recount must be completed no later than the "
                  f"twenty-eighth day after the canvass of the election, {when}.", ""]
    lines += [
        "If you have questions about this notice, please contact this office.",
        "",
        "Sincerely,",
        "",
        "",
        "______________________________",
        f"{signer or SIGNATURE_PLACEHOLDER}",
        "Designated Election Official",
        case.local_government,
    ]
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return ", ".join(line.strip() for line in text.splitlines() if line.strip())


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def letter_blocks(case: CaseView, letter: str) -> list[dict]:
    """The letter in code blocks (each within a section's 3,000 characters), with what to do after sending."""
    request = case.request
    to = f" to {esc(request.requester_name)} ({esc(_one_line(request.requester_contact))})" if request else ""
    blocks = [section(f":envelope: *Notice of cost, ready to send*{to} ({cite('(2)(b)(III)')}). Copy it into an "
                      "email or onto letterhead, sign it and send it; then press *Record cost notice* on the card.")]
    return blocks + letter_sections(letter)


def letter_text(case: CaseView) -> str:
    money = case.money
    total = format_money(money.cost_determined) if money and money.cost_determined is not None else "—"
    who = case.request.requester_name if case.request else "the requester"
    return f"Notice of cost to {esc(who)}, ready to send: {total} ({cite('(2)(b)(III)')})"


# ------------------------------------------------------------------ the modal
def cost_notice_modal(case: CaseView, *, now: dt.datetime) -> dict:
    money, request = case.money, case.request
    cost = format_money(money.cost_determined) if money and money.cost_determined is not None else "—"
    who = (f"*{esc(request.requester_name)}* ({esc(_one_line(request.requester_contact))})" if request
           else "the requester")
    blocks = [
        section(f"Notice to {who} of the cost of the recount of *{esc(case.contest)}*: *{cost}*."),
        context(f"{cite('(2)(b)(III)')}: the designated election official notifies the interested party that "
                "requested the recount of the cost. The letter to send is in the case's thread."),
        select_input(Block.COST_NOTICE_METHOD, "How", word_options(COST_NOTICE_METHODS),
                     placeholder="Choose how the requester was notified"),
        moment_input(Block.COST_NOTICE_AT, "When", initial=now),
        text_input(Block.COST_NOTICE_BY, "By whom", optional=False, max_length=NAME_LIMIT,
                   placeholder="Name of the person who sent it"),
        text_input(Block.COST_NOTICE_DETAILS, "Details (address, email, tracking number)", max_length=1000,
                   multiline=True, optional=True),
    ]
    return modal("Record cost notice", blocks, callback_id=View.COST_NOTICE.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))


def cost_notice_recorded(case: CaseView, *, cost, method: str, by: str, at: dt.datetime, actor: str) -> str:
    return (f":incoming_envelope: Notice of the cost, *{format_money(cost)}*, to the requester recorded by "
            f"{mention(actor)}: sent by {esc(by)} by {esc(method)}, {denver(at)} ({cite('(2)(b)(III)')}).")
