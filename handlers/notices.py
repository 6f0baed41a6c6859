"""Recording the notices owed under (1): the card's button opens a modal; the modal records."""
from __future__ import annotations

from handlers.blocks.case_card import RECIPIENT_LABEL
from handlers.blocks.common import denver, esc
from handlers.blocks.notice_modal import notice_modal
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import metadata_of, moment_picked, selected, typed
from services.conduct import cases
from services.errors import UserError
from storage.models import Role

FIELD_BLOCKS = {"given_by": Block.NOTICE_GIVEN_BY, "method": Block.NOTICE_METHOD, "given_at": Block.NOTICE_GIVEN_AT}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_NOTICE.value, needs=Role.STAFF)(open_notice_modal)
    registry.view(View.RECORD_NOTICE.value, needs=Role.STAFF)(submit_notice)


def open_notice_modal(ix: Interaction) -> None:
    notice_id = int(ix.body["actions"][0]["value"])
    notice, case = cases.notice_view(ix.services, notice_id, workspace_id=ix.member.workspace_id)
    if notice.given:
        ix.tell(f"The notice to {esc(notice.recipient_name)} was already recorded: given by {esc(notice.given_by)} "
                f"by {esc(notice.method)}, {denver(notice.given_at)}.")
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=notice_modal(notice, case, now=ix.services.now()))


@as_one_unit
def submit_notice(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    given_by = typed(state, Block.NOTICE_GIVEN_BY)
    method = selected(state, Block.NOTICE_METHOD) or ""
    given_at = moment_picked(state, Block.NOTICE_GIVEN_AT)
    details = typed(state, Block.NOTICE_DETAILS) or None
    errors = {}
    if not given_by:
        errors[Block.NOTICE_GIVEN_BY.value] = "Say who gave the notice."
    if not method:
        errors[Block.NOTICE_METHOD.value] = "Choose how the notice was given."
    if given_at is None:
        errors[Block.NOTICE_GIVEN_AT.value] = "Say when the notice was given."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    try:
        result = cases.record_notice(ix.services, workspace_id=ix.member.workspace_id, notice_id=int(meta["notice_id"]),
                                     given_by=given_by, method=method, given_at=given_at, details=details,
                                     actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, FIELD_BLOCKS)
        return
    ix.ack()
    notice = result.notice
    who = f"{RECIPIENT_LABEL.get(notice.recipient_kind, notice.recipient_kind)} {notice.recipient_name}"
    if not result.newly_recorded:
        ix.channel_id = result.case.channel_id  # a modal has no channel; tell them where the card is
        ix.tell(f"The notice to {esc(who)} had already been recorded by {mention(notice.recorded_by)}; nothing was "
                "changed.")
        return
    refresh_card(ix.services, result.case)
    post_in_thread(ix.services, result.case,
                   f":white_check_mark: Notice to {esc(who)} recorded by {mention(ix.user_id)}: given by "
                   f"{esc(notice.given_by)} by {esc(notice.method)}, {denver(notice.given_at)} ({notice.citation}). "
                   f"{result.case.notices_outstanding} still outstanding.")
