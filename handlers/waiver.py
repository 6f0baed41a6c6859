"""Recording, from an automatic case's card, that its recount was waived (C.R.S. 1-10.5-103): the political
subdivision that referred a ballot issue or question that failed gave the clerk written notice within twenty-three
days after the election. The card then says so, and the case's thread."""
from __future__ import annotations

from handlers.blocks.common import esc
from handlers.blocks.waiver_modal import waived_line, waiver_modal
from handlers.cards import as_one_unit
from handlers.conduct_common import report_recorded
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import case_form, date_picked, typed
from rules.laws import DEFAULT_LAW
from services.conduct import cases, waiver
from services.errors import UserError
from storage.models import Role

FIELDS = {"waived_by": Block.WAIVED_BY, "capacity": Block.WAIVER_CAPACITY, "received_on": Block.WAIVER_RECEIVED_ON,
          "reference": Block.WAIVER_REFERENCE}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_WAIVER.value, needs=Role.STAFF, changes_state=False)(open_waiver)
    registry.view(View.WAIVER.value, needs=Role.STAFF)(submit_waiver)


def open_waiver(ix: Interaction) -> None:
    workspace_id = ix.member.workspace_id
    case_id = int(ix.body["actions"][0]["value"])
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    if case.waiver is not None:
        ix.tell(waived_line(case.waiver))
        return
    form = waiver.waiver_form(ix.services, workspace_id=workspace_id, case_id=case_id)
    law = case.law.profile if case.law is not None else DEFAULT_LAW
    if not form.offered or law.waiver is None:
        ix.tell(f"This recount cannot be waived: {law.named} allows a waiver only of the automatic recount of a "
                "referred ballot issue or question that failed, before counting starts (C.R.S. 1-10.5-103).")
        return
    ix.client.views_open(trigger_id=ix.trigger_id,
                         view=waiver_modal(case, law, deadline=form.deadline, today=form.today))


@as_one_unit
def submit_waiver(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    received_on = date_picked(state, Block.WAIVER_RECEIVED_ON)
    if received_on is None:
        ix.ack(response_action="errors", errors={Block.WAIVER_RECEIVED_ON.value: "Say when it was received."})
        return
    workspace_id = ix.member.workspace_id
    try:
        recorded = waiver.record_waiver(
            ix.services, workspace_id=workspace_id, case_id=case_id, waived_by=typed(state, Block.WAIVED_BY),
            capacity=typed(state, Block.WAIVER_CAPACITY), received_on=received_on,
            reference=typed(state, Block.WAIVER_REFERENCE), actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, FIELDS)
        return
    ix.ack()
    report_recorded(ix, cases.case_view(ix.services, case_id, workspace_id=workspace_id),
                    newly=recorded.newly_recorded, already="The waiver was already recorded; nothing was changed.",
                    posted=f":no_entry: {waived_line(recorded.waiver)} The recount is not held; recorded by "
                           f"{mention(ix.user_id)}. The written waiver: {esc(recorded.waiver.reference)}.")
