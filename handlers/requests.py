"""`/recount request` and the global shortcut: enter a written recount request (1306(2)(a)) in a modal.

The modal opens at once (the trigger expires 3 seconds after the command; the subcommand is not
deferred) and is filled in by `views.update`. Step 1 chooses the contest, step 2 takes the request's
details (blocks/request_modal.py). On submit the statute core decides (services.requests.entry): a refusal
is shown on the field it is about and nothing is stored; an accepted request is posted as a card with
Approve / Reject in the office's approvals channel, or where `/recount request` was typed when none is
set. Deciding is handlers/approvals.py.

`/recount requests` lists the requests awaiting a decision, and posts the card of any whose card could
not be posted (the bot was not in the channel). It is deferred: it may post several messages.
"""
from __future__ import annotations

import logging
import re
from typing import Mapping

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from handlers.blocks.common import day, esc, message_modal
from handlers.blocks.request_card import request_card, request_text
from handlers.blocks.request_modal import (
    NOTARIZED,
    TITLE,
    enter_modal,
    in_favor_block,
    loading_modal,
    no_approvals_channel,
    pick_modal,
)
from handlers.cards import queue_call
from handlers.ids import Block, Shortcut, View
from handlers.interaction import Interaction, errors_on_fields
from handlers.registry import Registry
from handlers.slack_io.outbox import CHANNEL_REFUSED
from handlers.slack_io.posting import Unconfirmed, post_once
from handlers.slack_text import channel_link, fallback, link, said
from handlers.subcommands import SUBCOMMANDS
from handlers.view_state import date_picked, metadata_of, selected, typed, value_of
from rules.requests import PartyKind
from services.errors import UserError
from services.requests import entry as request_entry
from services.requests import views as request_service
from services.requests.entry import InvalidRequest, RequestRefused
from services.requests.views import RequestView
from services.services import Services
from services.wording import Message
from storage.models import Role

log = logging.getLogger("recount_bot.requests")

_VIEW_ID = re.compile(r"V[A-Z0-9]{2,40}")
TRIGGER_GONE = {"expired_trigger_id", "exchanged_trigger_id", "invalid_trigger_id"}
USAGE = "`/recount request` opens the form; `/recount requests` lists the requests awaiting a decision."
PENDING_SHOWN = 20
# The service's field names -> the block that shows the error (in_favor_of: its block carries the contest id).
FIELD_BLOCKS = {
    "contest": Block.REQUEST_CONTEST.value, "requester_name": Block.REQUEST_REQUESTER_NAME.value,
    "requester_contact": Block.REQUEST_REQUESTER_CONTACT.value, "party_kind": Block.REQUEST_PARTY_KIND.value,
    "received_on": Block.REQUEST_RECEIVED_ON.value, "received_reference": Block.REQUEST_REFERENCE.value,
    "requester_slack_user": Block.REQUEST_REQUESTER_USER.value, "notarized": Block.REQUEST_NOTARIZED.value,
}


def register(registry: Registry) -> None:
    registry.shortcut(Shortcut.REQUEST.value, needs=Role.STAFF)(request_shortcut)
    registry.view(View.REQUEST_PICK.value, needs=Role.STAFF)(submit_pick)
    registry.view(View.REQUEST_ENTER.value, needs=Role.STAFF)(submit_entry)
    # Choosing the contest redraws the form with its choices.
    registry.action(Block.REQUEST_CONTEST.value, needs=Role.STAFF, changes_state=False)(contest_changed)


# ------------------------------------------------------------------ opening the form
# Not deferred: the form must open within the trigger's 3 seconds.
@SUBCOMMANDS.add("request", needs=Role.STAFF, usage="/recount request",
                 summary="Enter a written request for a recount at the requester's expense (1306(2)(a)) in a form; "
                         "an official or a delegated approver approves or rejects it.")
def request_command(ix: Interaction, args: str) -> None:
    if args.strip():
        raise UserError(USAGE)
    _open_form(ix, channel_id=ix.channel_id)


@SUBCOMMANDS.add("requests", needs=Role.STAFF, usage="/recount requests", deferred=True,
                 summary="The recount requests awaiting a decision, with their cards (a card that could not be "
                         "posted is posted here).")
def requests_command(ix: Interaction, args: str) -> None:
    if args.strip():
        raise UserError(USAGE)
    _pending(ix)


def request_shortcut(ix: Interaction) -> None:
    if not ix.member.settings.approvals_channel:
        # From the shortcut there is no channel to fall back on: say how to set one before any typing.
        ix.client.views_open(trigger_id=ix.trigger_id, view=no_approvals_channel())
        return
    _open_form(ix, channel_id=None)


def _open_form(ix: Interaction, *, channel_id: str | None) -> None:
    # The trigger_id expires 3 seconds after the command: open the modal first, fill it in after.
    try:
        opened = ix.client.views_open(trigger_id=ix.trigger_id, view=loading_modal())["view"]
    except SlackApiError as exc:
        if exc.response.get("error") not in TRIGGER_GONE:
            raise
        raise UserError("Slack's moment to open the form passed before I could; try again.") from None
    try:
        form = request_service.request_form(ix.services, team_id=ix.team_id)
        view = pick_modal(form, channel_id=channel_id, approvals_channel=ix.member.settings.approvals_channel)
    except UserError as exc:
        view = message_modal(TITLE, said(exc.words))
    except Exception:
        ix.client.views_update(view_id=opened["id"], view=message_modal(
            TITLE, ":warning: The form could not be loaded; recount-bot sent you the details."))
        raise
    ix.client.views_update(view_id=opened["id"], hash=opened.get("hash"), view=view)


# ------------------------------------------------------------------ reading the form
def _contest_id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def _enter_view(ix: Interaction, form: request_service.RequestForm, contest: request_service.ContestOption,
                meta: dict) -> dict:
    return enter_modal(form, contest, channel_id=meta.get("c"), approvals_channel=ix.member.settings.approvals_channel,
                       today=ix.services.today())


def _field_errors(ix: Interaction, errors: Mapping[str, Message], contest_id: int) -> None:
    """Each error on the block of the field it is about (handlers.interaction.errors_on_fields)."""
    errors_on_fields(ix, ((in_favor_block(contest_id) if field == "in_favor_of" else FIELD_BLOCKS.get(field), message)
                          for field, message in errors.items()))


def _form_key(view: dict) -> str | None:
    """The form's own key, Slack's view id (the same for every submission of one modal, across its updates): a form
    submitted again finds the request it recorded (services.requests.entry.AlreadyEntered, shown in the modal)."""
    view_id = view.get("id")
    return f"view:{view_id}" if isinstance(view_id, str) and _VIEW_ID.fullmatch(view_id) else None


def contest_changed(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    chosen = _contest_id((ix.body["actions"][0].get("selected_option") or {}).get("value"))
    if chosen is None or (view.get("callback_id") == View.REQUEST_ENTER.value and chosen == meta.get("k")):
        return
    form = request_service.request_form(ix.services, team_id=ix.team_id)
    contest = form.contest(chosen)
    if contest is None:
        return  # a contest no longer offered: the submission says so on the field
    try:
        ix.client.views_update(view_id=view["id"], hash=view.get("hash"), view=_enter_view(ix, form, contest, meta))
    except SlackApiError as exc:
        if exc.response.get("error") != "hash_conflict":
            raise
        log.info("a newer update of view %s won", view["id"])


def submit_pick(ix: Interaction) -> None:
    view = ix.body["view"]
    chosen = _contest_id(selected(view.get("state", {}), Block.REQUEST_CONTEST))
    form = request_service.request_form(ix.services, team_id=ix.team_id)
    contest = form.contest(chosen)
    if contest is None:
        ix.ack(response_action="errors", errors={
            Block.REQUEST_CONTEST.value: f"Choose a contest of {form.election} with returns."})
        return
    ix.ack(response_action="update", view=_enter_view(ix, form, contest, metadata_of(view)))


def _notarized(state: dict) -> bool | None:
    """Whether the request is notarized, where the form asked (the law requires it); None where it did not."""
    if Block.REQUEST_NOTARIZED.value not in state.get("values", {}):
        return None
    checked = value_of(state, Block.REQUEST_NOTARIZED).get("selected_options") or []
    return any(isinstance(o, dict) and o.get("value") == NOTARIZED for o in checked)


def submit_entry(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    form = request_service.request_form(ix.services, team_id=ix.team_id)
    contest = form.contest(_contest_id(selected(state, Block.REQUEST_CONTEST)))
    if contest is None:
        ix.ack(response_action="errors", errors={
            Block.REQUEST_CONTEST.value: f"Choose a contest of {form.election} with returns."})
        return
    if contest.id != meta.get("k"):
        # Another contest is selected but its choices were never shown (the redraw was lost): show them now.
        ix.ack(response_action="update", view=_enter_view(ix, form, contest, meta))
        return
    channel = ix.member.settings.approvals_channel or meta.get("c")
    errors = {}
    if not channel:
        errors["contest"] = ("No approvals channel is set for requests entered from the shortcut: an official sets "
                             "one with `/recount admin setting approvals-channel #channel`.")
    party = selected(state, Block.REQUEST_PARTY_KIND)
    if not party:
        errors["party_kind"] = "Choose who is requesting."
    favor_id = selected(state, in_favor_block(contest.id))
    in_favor_of = next((c.name for c in contest.choices if str(c.id) == favor_id), None)
    if in_favor_of is None and party != PartyKind.ELIGIBLE_ELECTOR.value:
        # A candidate names themselves and an issue committee its side; an eligible elector need not ((2)(a)).
        errors["in_favor_of"] = ("Choose the candidate who is requesting." if party == PartyKind.CANDIDATE.value
                                 else "Choose the side the issue committee supports.")
    received_on = date_picked(state, Block.REQUEST_RECEIVED_ON)
    if received_on is None:
        errors["received_on"] = "Say when the written request was received."
    if errors:
        _field_errors(ix, errors, contest.id)
        return
    data = request_entry.RequestInput(
        contest_id=contest.id, requester_name=typed(state, Block.REQUEST_REQUESTER_NAME),
        requester_contact=typed(state, Block.REQUEST_REQUESTER_CONTACT), party_kind=party, in_favor_of=in_favor_of,
        received_on=received_on, received_reference=typed(state, Block.REQUEST_REFERENCE),
        requester_slack_user=value_of(state, Block.REQUEST_REQUESTER_USER).get("selected_user") or None,
        form_key=_form_key(view), notarized=_notarized(state))
    try:
        request = request_entry.submit_request(ix.services, team_id=ix.team_id, actor=ix.user_id,
                                               settings=ix.member.settings, data=data)
    except RequestRefused as exc:
        _field_errors(ix, request_entry.refusal_errors(exc), contest.id)
        return
    except InvalidRequest as exc:
        _field_errors(ix, exc.errors, contest.id)
        return
    except UserError as exc:
        if not exc.field:
            raise  # not about a field: the modal tells it
        _field_errors(ix, {exc.field: exc.words}, contest.id)
        return
    ix.ack()  # closes the modal: what follows is told in Slack, after the answer (handlers/interaction.py)
    ix.channel_id = meta.get("c")  # a modal has no channel: answer where the command was typed
    if _post_card(ix, request, channel) and channel != meta.get("c"):
        ix.tell(f"Recount request #{request.id} ({esc(request.contest)}, {esc(request.requester_name)}) is posted "
                f"for approval in {channel_link(channel)}.")


# ------------------------------------------------------------------ the request's card
REQUEST_CARD_METADATA = "recount_bot_request_card"  # a request card's message metadata: {"request_id": N}


def post_request_card(client: WebClient, services: Services, request_id: int, *, workspace_id: int,
                      channel_id: str, actor: str) -> RequestView | None:
    """Post the request's card once (None when it is posted already, or being posted right now).

    Through `post_once`, as a case's card: a try Slack may have taken (a timeout, a 5xx) is looked for by its
    metadata before any second post, and a claim taken over from a post never confirmed looks first."""
    claim = request_service.card_claim(services, request_id)
    if not request_service.claim_request_card(services, request_id):
        return None
    taken_over = claim is not None
    try:
        request = request_service.request_view(services, request_id, workspace_id=workspace_id)
        response = post_once(client, {"channel": channel_id, "text": fallback(request_text(request)),
                                      "blocks": request_card(request), "unfurl_links": False},
                             metadata={"event_type": REQUEST_CARD_METADATA,
                                       "event_payload": {"request_id": request_id}},
                             since=claim if taken_over else services.now(), look_first=taken_over)
    except Unconfirmed:
        # Slack may have the card: the claim stays, so nothing posts a second one; `/recount requests` after
        # CARD_CLAIM_STALE looks for it (or posts it) and records where it is.
        log.warning("the card of request %s was not confirmed by Slack; the next listing looks for it", request_id)
        raise
    except BaseException:
        request_service.release_request_card(services, request_id)
        raise
    request_service.set_request_card(services, request_id, channel_id=response["channel"], ts=response["ts"],
                                     actor=actor)
    return request_service.request_view(services, request_id, workspace_id=workspace_id)


def _post_card(ix: Interaction, request: RequestView, channel: str) -> bool:
    """Post the card; if Slack refuses, the request is still recorded: say so and how to get its card."""
    try:
        return post_request_card(ix.client, ix.services, request.id, workspace_id=ix.member.workspace_id,
                                 channel_id=channel, actor=ix.user_id) is not None
    except Unconfirmed:
        ix.tell(f":hourglass: Recount request #{request.id} ({esc(request.contest)}) is recorded and awaits a "
                f"decision. Slack did not confirm its card in {channel_link(channel)}: it may appear there in a "
                "moment; if it has not within two minutes, type `/recount requests` there, which looks for it "
                "before posting it.")
        return False
    except SlackApiError as exc:
        error = exc.response.get("error")
        log.warning("could not post the card of request %s in %s: %s", request.id, channel, error)
        invite = "invite me there with `/invite @recount-bot`, then " if error in CHANNEL_REFUSED else ""
        ix.tell(f":warning: Recount request #{request.id} ({esc(request.contest)}) is recorded and awaits a "
                f"decision, but I could not post its card in {channel_link(channel)} ({esc(error)}): {invite}type "
                "`/recount requests` there to post it.")
        return False


def refresh_request_card(services: Services, request: RequestView) -> None:
    """Edit the request's card to show its state (through the outbox: a Slack outage delays it, loses nothing)."""
    if request.card_ts and request.channel_id:
        queue_call(services, "chat.update", {"channel": request.channel_id, "ts": request.card_ts,
                                             "text": request_text(request), "blocks": request_card(request)},
                   request.workspace_id)


def post_in_request_thread(services: Services, request: RequestView, text: str) -> None:
    """A message in the request card's thread (through the outbox)."""
    if request.card_ts and request.channel_id:
        queue_call(services, "chat.postMessage", {"channel": request.channel_id, "thread_ts": request.card_ts,
                                                  "text": text}, request.workspace_id)


def permalink(client: WebClient, channel_id: str | None, ts: str | None) -> str | None:
    if not channel_id or not ts:
        return None
    try:
        return client.chat_getPermalink(channel=channel_id, message_ts=ts)["permalink"]
    except SlackApiError as exc:
        log.info("no permalink for %s/%s: %s", channel_id, ts, exc.response.get("error"))
        return None


# ------------------------------------------------------------------ pending requests
def _pending(ix: Interaction) -> None:
    pending = request_service.pending_requests(ix.services, team_id=ix.team_id)
    if not pending:
        ix.tell("No recount request is awaiting a decision.")
        return
    channel = ix.member.settings.approvals_channel or ix.channel_id
    lines = []
    for request in pending[:PENDING_SHOWN]:
        line = (f"• #{request.id} *{esc(request.contest)}* — {esc(request.requester_name)}, received "
                f"{day(request.received_on)}")
        if request.card_ts:
            card = permalink(ix.client, request.channel_id, request.card_ts)
            line += f": {link(card, 'its card')}" if card else f": its card is in {channel_link(request.channel_id)}"
        elif channel and _post_card(ix, request, channel):
            line += f": its card is now posted in {channel_link(channel)}"
        else:
            line += ": no card yet"
        lines.append(line)
    if len(pending) > PENDING_SHOWN:
        lines.append(f"… and {len(pending) - PENDING_SHOWN} more.")
    ix.tell("Recount requests awaiting a decision:\n" + "\n".join(lines))
