"""Approve or reject a recount request from its card (1306(2)(a)).

The buttons need staff to click, but only a designated election official or a delegated approver may
decide, and never the requester's own Slack user: the click is checked on the server before the note
form opens, and the decision checks it all again (services.requests.decision.decide_request). Exactly one
decision wins; the other person is told in their form who decided first. The buttons leave the card
only once a decision is recorded. An approval opens the requested recount's case and posts its card
in the same channel, linked from the request's thread.

The card's edit and the decision in its thread are outbox rows written in the decision's own transaction
(`as_one_unit`): recorded and announced, or neither. The case's card is posted after Slack has its answer
(its `ts` is what the case's thread hangs on), and the thread posts that link the two are queued after
the decision's, so the request's thread reads: the decision, then "case #N is open".
"""
from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from handlers.blocks.common import esc, message_modal
from handlers.blocks.law_cites import cites
from handlers.blocks.request_modal import TITLE, decision_modal
from handlers.cards import as_one_unit, post_case_card, post_in_thread
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.requests import permalink, post_in_request_thread, refresh_request_card
from handlers.slack_text import channel_link, link, mention, said
from handlers.view_state import metadata_of, typed
from rules.laws import DEFAULT_LAW
from services.conduct import cases
from services.errors import UserError
from services.requests import decision as request_decision
from services.requests import views as request_service
from services.requests.deciders import OWN_REASON_FIELD
from services.requests.decision import AlreadyDecided
from services.requests.views import RequestView
from storage.models import Role

log = logging.getLogger("recount_bot.approvals")


def register(registry: Registry) -> None:
    registry.action(Action.APPROVE_REQUEST.value, needs=Role.STAFF)(open_approve)
    registry.action(Action.REJECT_REQUEST.value, needs=Role.STAFF)(open_reject)
    registry.view(View.REQUEST_DECISION.value, needs=Role.STAFF)(submit_decision)


# ------------------------------------------------------------------ the buttons
def open_approve(ix: Interaction) -> None:
    _open(ix, approve=True)


def open_reject(ix: Interaction) -> None:
    _open(ix, approve=False)


def _open(ix: Interaction, *, approve: bool) -> None:
    request_id = int(ix.body["actions"][0]["value"])
    try:
        # Denied (not an approver, their own request, or one they entered while someone else may decide) goes to
        # the error handler: told who may decide instead, nothing opens.
        decider = request_decision.check_decider(ix.services, team_id=ix.team_id, request_id=request_id,
                                                 actor=ix.user_id)
    except AlreadyDecided as exc:
        ix.tell(said(exc.words))
        # The card still showed the buttons: its edit must have failed. Show the decision now.
        refresh_request_card(ix.services, request_service.request_view(ix.services, request_id,
                                                                       workspace_id=ix.member.workspace_id))
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=decision_modal(decider.request, approve=approve,
                                                                       own_entry=decider.needs_reason))


# ------------------------------------------------------------------ the decision
@as_one_unit
def submit_decision(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    note = typed(view.get("state", {}), Block.REQUEST_NOTE)
    if not note:
        ix.ack(response_action="errors", errors={Block.REQUEST_NOTE.value: "Add a note explaining the decision."})
        return
    approve = bool(meta.get("a"))
    # Only in the form of an official who entered the request (no one else in the office may decide it).
    own_reason = typed(view.get("state", {}), Block.REQUEST_OWN_REASON) or None
    try:
        request = request_decision.decide_request(ix.services, team_id=ix.team_id, request_id=int(meta["r"]),
                                                  actor=ix.user_id, approve=approve, note=note,
                                                  settings=ix.member.settings, own_entry_reason=own_reason)
    except AlreadyDecided as exc:
        # Someone decided first: their decision stands (and their edit shows it on the card).
        ix.ack(response_action="update", view=message_modal(TITLE, said(exc.words)))
        return
    except UserError as exc:  # Denied, NotFound, a case already open: the modal tells it
        field_errors(ix, exc, {"note": Block.REQUEST_NOTE, OWN_REASON_FIELD: Block.REQUEST_OWN_REASON})
        return
    # Queued before the answer: if the outbox cannot take the rows, the decision is undone and the modal, still
    # open, says nothing was saved.
    _queue_decision(ix, request)
    ix.ack()  # closes the modal: the decision is told in the card's thread
    ix.channel_id = request.channel_id  # a modal has no channel: anything for this person alone goes beside the card
    if request.case_id is not None:
        ix.later(lambda: _post_case(ix, request))  # after the modal has closed: several Slack calls


def _queue_decision(ix: Interaction, request: RequestView) -> None:
    """The card loses its buttons and its thread hears the decision."""
    refresh_request_card(ix.services, request)
    verb, icon = ("Approved", ":white_check_mark:") if request.status == "approved" else ("Rejected", ":no_entry_sign:")
    post_in_request_thread(ix.services, request,
                           f"{icon} {verb} by {mention(ix.user_id)}: {esc(request.decision_note or '')}")


def _post_case(ix: Interaction, request: RequestView) -> None:
    """The approval opened a case: post its card beside the request's, and link the two threads."""
    channel = request.channel_id or ix.member.settings.approvals_channel
    if channel is None:
        ix.tell(f"Approved: recount case #{request.case_id} is open, but the request has no card to post its "
                "card beside.")
        return
    try:
        case = post_case_card(ix.client, ix.services, request.case_id, channel_id=channel, actor=ix.user_id)
    except SlackApiError as exc:
        error = exc.response.get("error")
        log.warning("could not post the card of case %s: %s", request.case_id, error)
        ix.tell(f"Recorded: request #{request.id} approved; recount case #{request.case_id} is open. But I could "
                f"not post its card in {channel_link(channel)} ({error}).")
        return
    if case is None:
        return  # posted already
    case_link = permalink(ix.client, case.channel_id, case.card_ts)
    request_link = permalink(ix.client, request.channel_id, request.card_ts)
    card = f" ({link(case_link, 'its card')})" if case_link else ""
    request_ref = link(request_link, f"recount request #{request.id}") if request_link \
        else f"recount request #{request.id}"
    opened = cases.case_view(ix.services, case.id)
    with ix.services.db.transaction():  # both links, or neither
        post_in_request_thread(ix.services, request,
                               f":ballot_box_with_ballot: Recount case #{case.id}{card} is open: {_before(opened)} "
                               "before counting.")
        post_in_thread(ix.services, opened,
                       f"Opened on the approval of {request_ref} by {mention(ix.user_id)}: "
                       f"{esc(request.decision_note or '')}")


def _before(case: cases.CaseView) -> str:
    """What comes before counting, in the election's law: 1306 numbers the steps (2)(b)(I)-(IV); 31-10-1207(2) and
    1-10.5-106(2) say them in one provision."""
    c = cites(case)
    if c.law.key == DEFAULT_LAW.key:
        return ("notice under C.R.S. 1-13.5-1306(2)(b)(I), then the cost, the requester's notice of it and its "
                "collection ((2)(b)(II)–(IV))")
    return f"notice under {c.notice}, then the cost, the requester's notice of it and its collection ({c.pre_count})"
