"""The recount request form (1306(2)(a)) and the decision form. Pure builders.

Step 1 (`View.REQUEST_PICK`) chooses the contest; choosing it redraws the form as step 2
(`View.REQUEST_ENTER`, by `views.update`), and "Next" does the same by `response_action: update` when
that redraw was lost. Step 2 keeps the contest select, so a refusal about the contest is shown on it.

`private_metadata` (JSON, short keys):

    step 1, step 2   {"c": channel where `/recount request` was typed (null from the shortcut),
                      "k": contest id shown (step 2)}
    decision         {"r": request id, "a": 1 approve | 0 reject}
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from handlers.blocks.common import context, day, esc, message_modal, metadata, modal, option, plain, section
from handlers.blocks.inputs import date_input, input_block, select_input, text_input
from handlers.blocks.law_cites import request_law
from handlers.blocks.requested_case import PARTY_LABEL
from handlers.ids import Block, View
from handlers.slack_text import channel_link
from rules.laws import DEFAULT_LAW
from rules.requests import PartyKind, favored_label
from services.requests.views import ContestOption, RequestForm, RequestView

TITLE = "Recount request"
KIND_LABEL = {"candidate": "candidate race", "question": "ballot issue or question"}
PARTY_OPTIONS = [
    (PartyKind.ELIGIBLE_ELECTOR.value, "An eligible elector", "May request a recount of any contest"),
    (PartyKind.CANDIDATE.value, "A candidate in this contest", "Requests in their own favor"),
    (PartyKind.ISSUE_COMMITTEE.value, "The issue committee", "For a ballot issue or question: in favor of its side"),
]


NOTARIZED = "notarized"


def party_options(form: RequestForm) -> list[tuple[str, str, str]]:
    """(value, label, note) of each interested party the election's law names: 1-13.5-1306's three as the form
    always offered them; another law's from its profile, in its own order."""
    law = form.law.profile if form.law is not None else None
    if law is None or law.key == DEFAULT_LAW.key:
        return PARTY_OPTIONS
    return [(r.kind.value, r.kind.label[:1].upper() + r.kind.label[1:], r.condition.value) for r in
            law.requesting.parties]


def _parties_citation(form: RequestForm) -> str:
    return form.law.profile.requesting.parties_provision.citation if form.law is not None else "(2)(a)"


def _notarized_block(form: RequestForm) -> list[dict]:
    """Where the law requires a notarized request, the form records whether it is (the core refuses one that
    is not)."""
    notarized = form.law.profile.requesting.notarized if form.law is not None else None
    if notarized is None:
        return []
    return [input_block(Block.REQUEST_NOTARIZED, "Notarized", {
        "type": "checkboxes", "options": [option("The written request is notarized", NOTARIZED)]}, optional=True,
        hint=f"{notarized.citation} requires a notarized request; one that is not is refused.")]


def in_favor_block(contest_id: int) -> str:
    return f"{Block.REQUEST_IN_FAVOR_OF_PREFIX.value}{contest_id}"


def _contest_select(form: RequestForm, contest_id: int | None) -> dict[str, Any]:
    options = [option(c.name, str(c.id)) for c in form.contests]
    return select_input(Block.REQUEST_CONTEST, "Contest", options, placeholder="Choose the contest",
                        initial=str(contest_id) if contest_id is not None else None, dispatch=True,
                        hint=f"The contests of {form.election} with returns.")


def _where(approvals_channel: str | None, channel_id: str | None) -> str:
    target = approvals_channel or channel_id
    if target is None:
        return ("No approvals channel is set: an official sets one with "
                "`/recount admin setting approvals-channel #channel`.")
    return (f"An accepted request is posted in {channel_link(target)} for a designated election official to approve "
            "or reject.")


def _window(form: RequestForm) -> str:
    """The request window under the election's law, its first day included where the law opens it later."""
    cited = form.window_citation or _request_citation(form)
    opens = f"from *{day(form.window_opens)}* " if form.window_opens else ""
    return (f"Written requests may be filed {opens}through *{day(form.window_closes)}* ({esc(form.window_note)}; "
            f"{cited}).")


def _request_citation(form: RequestForm) -> str:
    return form.law.profile.requesting.provision.citation if form.law else "C.R.S. 1-13.5-1306(2)(a)"


def _cost_citation(form: RequestForm) -> str:
    if form.law is None or form.law.key == DEFAULT_LAW.key:
        return "C.R.S. 1-13.5-1306(2)(b)(III)"
    return form.law.profile.cost.provision.citation


def _held_under(form: RequestForm) -> str:
    return f" {form.law.held_under}" if form.law else ""


def loading_modal() -> dict:
    return modal(TITLE, [section(":hourglass_flowing_sand: Loading the contests…")],
                 callback_id=View.MESSAGE.value, close="Close")


# ------------------------------------------------------------------ step 1
def pick_modal(form: RequestForm, *, channel_id: str | None, approvals_channel: str | None) -> dict:
    blocks = [
        section(f"Enter a written request for a recount at the requester's expense ({_request_citation(form)})."
                f"{esc(_held_under(form))} Choose the contest; its details come next."),
        context(_window(form)),
        _contest_select(form, None),
        context(_where(approvals_channel, channel_id)),
    ]
    return modal(TITLE, blocks, callback_id=View.REQUEST_PICK.value, submit="Next",
                 private_metadata=metadata({"c": channel_id}))


# ------------------------------------------------------------------ step 2
def _contest_summary(contest: ContestOption) -> str:
    seats = f"{contest.seats} seat{'s' if contest.seats != 1 else ''}"
    votes = " · ".join(f"{esc(c.name)} {c.votes:,}" for c in contest.choices)
    return f"{KIND_LABEL.get(contest.kind, contest.kind)} · {seats}\n{votes}"


def enter_modal(form: RequestForm, contest: ContestOption, *, channel_id: str | None,
                approvals_channel: str | None, today: dt.date) -> dict:
    blocks: list[dict] = [_contest_select(form, contest.id), context(_contest_summary(contest)[:3000])]
    if contest.case_id is not None:
        blocks.append(context(f":warning: A recount of this contest is already open (case #{contest.case_id})."))
    blocks += [
        text_input(Block.REQUEST_REQUESTER_NAME, "Requester's name", max_length=300,
                   placeholder="As written on the request"),
        text_input(Block.REQUEST_REQUESTER_CONTACT, "Requester's contact", max_length=500,
                   placeholder="Address, email or phone",
                   hint=f"Where the cost of the recount is sent ({_cost_citation(form)})."),
        input_block(Block.REQUEST_PARTY_KIND, "The requester is", {
            "type": "radio_buttons",
            "options": [{"text": plain(label, 75), "value": value, "description": plain(note, 75)}
                        for value, label, note in party_options(form)]},
            hint=f"The interested parties {_parties_citation(form)} names."),
        select_input(
            in_favor_block(contest.id), "In favor of", [option(c.name, str(c.id)) for c in contest.choices],
            placeholder="Choose the choice", optional=True,
            hint="A candidate names themselves, an issue committee its side; optional for an eligible elector "
                 "((2)(a) asks none). It decides a refund under (2)(d): with none, only an amended count within "
                 "(1)'s margin refunds (reading: no-choice refund, margin-only)."),
        date_input(Block.REQUEST_RECEIVED_ON, "Written request received on", initial=today,
                   placeholder="The day the office received it"),
        text_input(Block.REQUEST_REFERENCE, "Reference to the written request", max_length=300,
                   placeholder="e.g. letter of 2026-11-05, file no. R-2026-01"),
        *_notarized_block(form),
        input_block(Block.REQUEST_REQUESTER_USER, "The requester in Slack", {
            "type": "users_select", "placeholder": plain("If they are in this workspace")}, optional=True,
            hint="A person may not decide their own request."),
        context(_window(form)),
        context(_where(approvals_channel, channel_id)),
    ]
    return modal(TITLE, blocks, callback_id=View.REQUEST_ENTER.value, submit="Enter request",
                 private_metadata=metadata({"c": channel_id, "k": contest.id}))


# ------------------------------------------------------------------ the decision
def decision_modal(request: RequestView, *, approve: bool, own_entry: bool = False) -> dict:
    """`own_entry`: the official deciding entered the request and no one else in the office may decide it; the
    form asks why (the reading "one office, one person")."""
    who = f"{esc(request.requester_name)} ({PARTY_LABEL.get(request.party_kind, request.party_kind)})"
    if approve:
        what = (f"*Approve* the request of {who} for a recount of *{esc(request.contest)}* in favor of "
                f"{esc(favored_label(request.in_favor_of))}?\nApproval opens the requested recount: before counting, "
                "notice under (2)(b)(I), then the cost is determined, the requester notified and the cost collected "
                "((2)(b)(II)–(IV)).")
    else:
        what = (f"*Reject* the request of {who} for a recount of *{esc(request.contest)}*?\nNo recount is opened; "
                "the note is kept in the record.")
    blocks = [
        section(what),
        context(f"Received {day(request.received_on)} · ref. {esc(request.received_reference)} · request "
                f"#{request.id}"),
        text_input(Block.REQUEST_NOTE, "Note", max_length=2000, multiline=True,
                   placeholder="Why: e.g. timely, requester verified as an eligible elector",
                   hint="Required. Posted in the request's thread and kept in the audit log."),
    ]
    if own_entry:
        blocks += [
            section("You entered this request on the requester's behalf, and no one else in this office may decide "
                    "it. You may decide it yourself under the reading *one office, one person*, saying why; or an "
                    "official names an approver with `/recount admin approver @person on` to decide it instead."),
            text_input(Block.REQUEST_OWN_REASON, "Why you decide a request you entered", max_length=2000,
                       multiline=True, placeholder="e.g. I am the office's only election official and staff",
                       hint="Required. Kept with the decision and in the audit log."),
        ]
    title, submit = ("Approve request", "Approve") if approve else ("Reject request", "Reject")
    return modal(title, blocks, callback_id=View.REQUEST_DECISION.value, submit=submit,
                 private_metadata=metadata({"r": request.id, "a": 1 if approve else 0}))


WITHDRAWAL_TITLE = "Record withdrawal"


def withdrawal_modal(request: RequestView) -> dict:
    """Staff record that the requester withdrew a pending request, and how (handlers/withdrawals.py)."""
    who = f"{esc(request.requester_name)} ({PARTY_LABEL.get(request.party_kind, request.party_kind)})"
    blocks = [
        section(f"Record that {who} *withdrew* the request for a recount of *{esc(request.contest)}*?\nThe request "
                "is then no longer awaiting a decision, and no recount is opened for it."),
        context(f"Received {day(request.received_on)} · ref. {esc(request.received_reference)} · request "
                f"#{request.id} · {request_law(request).requesting.provision.citation}"),
        text_input(Block.REQUEST_WITHDRAWAL_NOTE, "How the requester withdrew it", max_length=2000, multiline=True,
                   placeholder="e.g. letter received Nov 9, signed by the requester",
                   hint="Required. Posted in the request's thread and kept in the audit log."),
    ]
    return modal(WITHDRAWAL_TITLE, blocks, callback_id=View.REQUEST_WITHDRAWAL.value, submit="Record",
                 private_metadata=metadata({"r": request.id}))


def no_approvals_channel() -> dict:
    return message_modal(TITLE, (
        "Requests entered from the shortcut are posted for approval in the office's approvals channel, and none "
        "is set. A designated election official sets one with `/recount admin setting approvals-channel "
        "#channel`. Or type `/recount request` in the channel where the team decides requests."))
