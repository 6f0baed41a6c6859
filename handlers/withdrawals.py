"""The requester withdraws a pending recount request: staff record it from the request's card (1306(2)(a)).

The button opens a form asking how the requester withdrew (a letter, an email, in person); the submission records
it (services.requests.withdrawal.withdraw_request), and the card's edit and the thread's post are outbox rows
written in the same transaction (`as_one_unit`): recorded and announced, or neither. A request decided first stays
decided; the form says by whom.
"""
from __future__ import annotations

from handlers.blocks.common import esc, message_modal
from handlers.blocks.law_cites import request_law
from handlers.blocks.request_modal import WITHDRAWAL_TITLE as TITLE
from handlers.blocks.request_modal import withdrawal_modal
from handlers.cards import as_one_unit
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.requests import post_in_request_thread, refresh_request_card
from handlers.slack_text import mention, said
from handlers.view_state import metadata_of, typed
from services.errors import UserError
from services.requests import views as request_service
from services.requests.decision import AlreadyDecided
from services.requests.withdrawal import withdraw_request
from storage.models import Role


def register(registry: Registry) -> None:
    registry.action(Action.WITHDRAW_REQUEST.value, needs=Role.STAFF)(open_withdrawal)
    registry.view(View.REQUEST_WITHDRAWAL.value, needs=Role.STAFF)(submit_withdrawal)


def open_withdrawal(ix: Interaction) -> None:
    request = request_service.request_view(ix.services, int(ix.body["actions"][0]["value"]),
                                           workspace_id=ix.member.workspace_id)
    if request.status != "pending":
        ix.tell(f"Request #{request.id} is already {request.status}; nothing to withdraw.")
        refresh_request_card(ix.services, request)  # the card still showed the buttons: show its state now
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=withdrawal_modal(request))


@as_one_unit
def submit_withdrawal(ix: Interaction) -> None:
    view = ix.body["view"]
    note = typed(view.get("state", {}), Block.REQUEST_WITHDRAWAL_NOTE)
    try:
        request = withdraw_request(ix.services, team_id=ix.team_id, request_id=int(metadata_of(view)["r"]),
                                   actor=ix.user_id, note=note or "")
    except AlreadyDecided as exc:
        ix.ack(response_action="update", view=message_modal(TITLE, said(exc.words)))
        return
    except UserError as exc:
        field_errors(ix, exc, {"note": Block.REQUEST_WITHDRAWAL_NOTE})
        return
    refresh_request_card(ix.services, request)
    post_in_request_thread(ix.services, request,
                           f":leftwards_arrow_with_hook: Withdrawn by the requester, recorded by {mention(ix.user_id)}: "
                           f"{esc(request.decision_note or '')} ({request_law(request).requesting.provision.citation})")
    ix.ack()
