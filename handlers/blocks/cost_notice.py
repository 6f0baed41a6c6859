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
from handlers.blocks.law_cites import cites
from handlers.blocks.letters import SIGNATURE_PLACEHOLDER, letter_sections, long_day
from handlers.blocks.requested_case import PARTY_LABEL
from handlers.ids import Block, View
from handlers.slack_text import mention
from rules.day_counting import ordinal
from rules.laws.cites import Cites
from rules.laws.profile import CountFrom, LeftoverRule, PaymentTiming
from rules.money import format_money
from services.conduct.cases import CaseView, DeadlineView
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
    c = cites(case)
    if request:
        lines.append(
            f"On {long_day(request.received_on)} this office received your written request (reference "
            f"{request.received_reference}), as {_a(PARTY_LABEL.get(request.party_kind, request.party_kind))}, for a "
            f"recount of the votes cast for {case.contest}. Under {c.request} a recount that the law does "
            "not otherwise require is conducted at the expense of the interested party who requests it.")
        lines.append("")
    lines += [
        f"Cost. As {_cost_cited(c)}, I have determined the cost of the "
        "recount and notify you of it:",
        "",
        *[f"  - {line}" for line in money.cost_items],
        f"  Total cost of the recount: {total}",
        "",
        _payment(c, total, request.received_reference if request else None),
        "",
        f"When the recount begins. Under {c.collection} the recount will not begin until the cost has been "
        "collected from you in full.",
        "",
        f"Refund. Under {c.refund}, if after the recount the result of the election is reversed in your "
        "favor, or the amended count is such that a recount would otherwise have been required under "
        f"{c.trigger} (a difference of one-half of one percent or less of the highest number of votes), the "
        "payment for expenses will be refunded to you.",
        "",
        _leftover(c),
        "",
    ]
    if deadline is not None:
        lines += [_completion(c, deadline), ""]
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


def _cost_cited(c: Cites) -> str:
    """1306 numbers determining and notifying the cost apart ((2)(b)(II) and (III)); another law says both in one
    provision (31-10-1207(2), 1-10.5-106(2))."""
    if c.cost == c.cost_notice:
        return f"{c.cost} requires"
    return f"{c.cost} and {c.cost_notice[c.cost_notice.rindex('('):]} require"


def _payment(c: Cites, total: str, reference: str | None) -> str:
    """How and when the requester pays, as the law says it ((2)(c) under 1306: on demand; 1-10.5-106(2): certified
    funds within one day of the cost determination)."""
    payment = c.law.payment
    to = c.law.requesting.filed_with
    if payment.timing is PaymentTiming.ON_DEMAND:
        how = f"you are to pay this cost on demand to {to}; this notice is that demand"
    else:
        days = payment.within_days or 1
        funds = "by certified funds " if payment.certified_funds else ""
        how = (f"you are to pay this cost {funds}to {to} within {days} day{'s' if days != 1 else ''} of receiving "
               "this determination of the cost")
    quoting = f", quoting reference {reference}" if reference else ""
    return (f"Payment. Under {c.payment} {how}. Payment of {total} may be made by {_methods()}{quoting}. The funds "
            f"paid are {payment.held}.")


def _leftover(c: Cites) -> str:
    """What becomes of funds the recount did not use: returned under 1306(2)(f), paid to the officials under
    1-10.5-106(2), and under 31-10-1207, which is silent, returned by the bot's stated reading."""
    leftover = c.law.leftover
    if leftover.rule is LeftoverRule.TO_OFFICIALS:
        return (f"Unused deposit. Under {c.leftover}, any amount paid that is not refunded to you is paid to the "
                "election officials who conducted the recount.")
    if leftover.rule is LeftoverRule.RETURN_BY_READING:
        return (f"Unused deposit. {c.law.citation} does not say what becomes of funds the recount did not use; "
                f"they are held for its expenses ({c.leftover}), so if any remain and the recount does not change "
                "the result of the election, this office will return the unused portion to you.")
    return (f"Unused deposit. Under {c.leftover}, if any funds you paid remain after the expenses of the recount "
            "and the recount does not change the result of the election, the unused portion will be returned to you.")


def _completion(c: Cites, deadline: DeadlineView) -> str:
    period, canvass = c.law.requested_completion, c.law.canvass
    when = f"that is, by {long_day(deadline.due_date)}"
    if deadline.estimated:
        when += (" (an estimate until the canvass date is entered: the canvass board certifies no later than "
                 f"the {_words(canvass.days)} day after the election, {canvass.provision.citation})")
    after = "the canvass of the election" if period.counted_from is CountFrom.CANVASS else "the election"
    return (f"Completion. Under {c.requested_completion} the recount must be completed no later than the "
            f"{_words(period.days)} day after {after}, {when}.")


def _words(days: int) -> str:
    return _ORDINAL_WORDS.get(days, ordinal(days))


# The periods the profiles name, in the statutes' own words.
_ORDINAL_WORDS = {10: "tenth", 14: "fourteenth", 15: "fifteenth", 22: "twenty-second", 24: "twenty-fourth",
                  28: "twenty-eighth", 31: "thirty-first"}


def _one_line(text: str) -> str:
    return ", ".join(line.strip() for line in text.splitlines() if line.strip())


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def letter_blocks(case: CaseView, letter: str) -> list[dict]:
    """The letter in code blocks (each within a section's 3,000 characters), with what to do after sending."""
    request = case.request
    to = f" to {esc(request.requester_name)} ({esc(_one_line(request.requester_contact))})" if request else ""
    blocks = [section(f":envelope: *Notice of cost, ready to send*{to} ({cites(case).cost_notice}). Copy it into an "
                      "email or onto letterhead, sign it and send it; then press *Record cost notice* on the card.")]
    return blocks + letter_sections(letter)


def letter_text(case: CaseView) -> str:
    money = case.money
    total = format_money(money.cost_determined) if money and money.cost_determined is not None else "—"
    who = case.request.requester_name if case.request else "the requester"
    return f"Notice of cost to {esc(who)}, ready to send: {total} ({cites(case).cost_notice})"


# ------------------------------------------------------------------ the modal
def cost_notice_modal(case: CaseView, *, now: dt.datetime) -> dict:
    money, request = case.money, case.request
    cost = format_money(money.cost_determined) if money and money.cost_determined is not None else "—"
    who = (f"*{esc(request.requester_name)}* ({esc(_one_line(request.requester_contact))})" if request
           else "the requester")
    blocks = [
        section(f"Notice to {who} of the cost of the recount of *{esc(case.contest)}*: *{cost}*."),
        context(f"{cites(case).cost_notice}: the designated election official notifies the interested party that "
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
            f"{mention(actor)}: sent by {esc(by)} by {esc(method)}, {denver(at)} ({cites(case).cost_notice}).")
