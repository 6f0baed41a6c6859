"""Setting up the count (5) in Slack: *Set up the count* (the card, once counting began) opens a form: the
method (paper ballots, electronic ballots, voting machines), the units expected (blank: the survey's precincts
or batches; with voting machines the office lists its machines, one sheet each) and double entry. The set-up
is posted in the case's thread."""
from __future__ import annotations

from handlers.blocks.common import esc
from handlers.blocks.law_cites import cites
from handlers.blocks.tally_modal import progress_text, set_up_modal, unit_word
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.conduct_common import after_modal, clicked_case, metadata_case, open_modal, tally_of
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import selected, typed, value_of
from rules.corrections import unit_label
from services.conduct import cases, tally_forms, tally_setup
from services.conduct.cases import CaseView
from services.errors import UserError
from storage.models import Role


def register(registry: Registry) -> None:
    registry.action(Action.SET_UP_COUNT.value, needs=Role.STAFF, changes_state=False)(open_set_up)
    registry.view(View.SET_UP_COUNT.value, needs=Role.STAFF)(submit_set_up)


def open_set_up(ix: Interaction) -> None:
    form = tally_forms.set_up_form(ix.services, workspace_id=ix.member.workspace_id, case_id=clicked_case(ix))
    open_modal(ix, set_up_modal(form), "click *Set up the count*")


@as_one_unit
def submit_set_up(ix: Interaction) -> None:
    state = ix.body["view"].get("state", {})
    case_id = metadata_case(ix)
    method = selected(state, Block.TALLY_METHOD)
    raw_units = typed(state, Block.TALLY_UNITS)
    units = [line for line in raw_units.splitlines() if line.strip()] or None
    double = bool(value_of(state, Block.TALLY_DOUBLE_ENTRY).get("selected_options"))
    election_sheets = tally_setup.split_sheet_ids(typed(state, Block.TALLY_ELECTION_SHEETS))
    if not method:
        ix.ack(response_action="errors", errors={Block.TALLY_METHOD.value: "Choose how the votes are recounted."})
        return
    workspace_id = ix.member.workspace_id
    try:
        result = tally_setup.configure_count(ix.services, workspace_id=workspace_id, case_id=case_id, method=method,
                                             units=units, double_entry=double, actor=ix.user_id,
                                             election_sheet_ids=election_sheets)
    except UserError as exc:
        field_errors(ix, exc, {"method": Block.TALLY_METHOD.value, "units": Block.TALLY_UNITS.value,
                               "election_sheets": Block.TALLY_ELECTION_SHEETS.value})
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    if not result.changed:
        ix.later(lambda: ix.tell("The count was already set up that way; nothing changed."))
        return
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, set_up_text(case, ix.user_id), blocks=None)


def set_up_text(case: CaseView, actor: str) -> str:
    summary = tally_of(case)
    word = unit_word(summary.method)
    units = ", ".join(esc(unit_label(u)) for u in summary.units[:30])
    if len(summary.units) > 30:
        units += f" and {len(summary.units) - 30:,} more"
    per = " (one tally sheet each)" if word == "machine" else ""
    entry = ("double entry: each sheet is entered by two people and a unit counts when their entries agree"
             if summary.double_entry else "single entry: the first entry of each sheet counts")
    used = summary.election_sheet_ids
    if word == "machine":
        sheets = ""
    elif used:
        listed = ", ".join(esc(s) for s in used[:30]) + (f" and {len(used) - 30:,} more" if len(used) > 30 else "")
        sheets = (f" Tally sheets used at the election ({len(used):,}): {listed}; a recount sheet with one of these "
                  f"identifiers is refused.")
    else:
        sheets = " The tally sheets used at the election are not listed, so recount sheets are not checked against them."
    return (f":clipboard: *Count set up* by {mention(actor)}: {summary.method_label}, {summary.expected:,} {word}s "
            f"expected{per}: {units}; {entry} ({cites(case).tally}).{sheets} Enter sheets with `/recount tally {case.id}` or "
            f"*Enter tally sheet* on the card. {progress_text(summary).capitalize()}.")
