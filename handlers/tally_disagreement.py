"""A double-entry disagreement (5) and withdrawing an entry, in Slack.

A disagreement is posted in the case's thread and sent to both people who entered, naming the choices that
differ, with a button to withdraw either entry (with a reason); the sheet is then entered again. The
withdrawn entry stays on the record, marked withdrawn.
"""
from __future__ import annotations

from handlers.blocks.common import button, esc, section
from handlers.blocks.law_cites import cites
from handlers.blocks.tally_modal import disagreement_blocks, disagreement_text, progress_text, withdraw_modal
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.conduct_common import after_modal, dm, metadata_case, open_modal, tally_of
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import selected, typed
from rules.corrections import unit_label
from services.conduct import cases, tally_sheets
from services.conduct.cases import CaseView
from services.conduct.tally_forms import DisagreementLine, TallySummary
from services.errors import UserError
from storage.models import Role


def register(registry: Registry) -> None:
    registry.action(Action.WITHDRAW_ENTRY.value, needs=Role.STAFF, changes_state=False)(open_withdraw)
    registry.view(View.WITHDRAW_ENTRY.value, needs=Role.STAFF)(submit_withdraw)


def announce_disagreement(ix: Interaction, case: CaseView, summary: TallySummary,
                          disagreement: DisagreementLine) -> None:
    """Post the disagreement in the case's thread and send it to both people who entered (once each)."""
    blocks = disagreement_blocks(disagreement, contest=case.contest, case_id=case.id,
                                 double_entry=summary.double_entry, cited=cites(case).tally)
    text = disagreement_text(disagreement, contest=case.contest, case_id=case.id,
                             double_entry=summary.double_entry, cited=cites(case).tally)
    post_in_thread(ix.services, case, text, blocks=blocks)
    for person in dict.fromkeys((disagreement.first.entered_by, disagreement.second.entered_by)):
        dm(ix, person, text, blocks, key=f"tally.disagreement:{disagreement.second.row_id}:{person}")


def enter_button(case_id: int) -> dict:
    return {"type": "actions", "elements": [button("Enter tally sheet", Action.ENTER_SHEET.value, str(case_id))]}


def open_withdraw(ix: Interaction) -> None:
    value = ix.body["actions"][0]["value"]
    case_id = int(value.split(":")[0])
    chosen = int(value.split(":")[1]) if ":" in value else None
    case = cases.case_view(ix.services, case_id, workspace_id=ix.member.workspace_id)
    summary = tally_of(case)
    entries = summary.entries if summary else ()
    if case.conduct and case.conduct.completed:
        raise UserError("This recount is complete; its sheets can no longer be withdrawn.")
    if chosen is not None and all(e.row_id != chosen for e in entries):
        raise UserError("That entry is no longer standing: it was withdrawn already. Nothing to do.")
    if not entries:
        raise UserError("No tally entry is standing in this recount; nothing to withdraw.")
    open_modal(ix, withdraw_modal(case_id=case.id, contest=case.contest, entries=entries, chosen=chosen),
               "click the button")


@as_one_unit
def submit_withdraw(ix: Interaction) -> None:
    state = ix.body["view"].get("state", {})
    case_id = metadata_case(ix)
    raw = selected(state, Block.TALLY_ENTRY)
    reason = typed(state, Block.TALLY_REASON)
    errors = {}
    if raw is None or not raw.isdigit():
        errors[Block.TALLY_ENTRY.value] = "Choose the entry to withdraw."
    if not reason:
        errors[Block.TALLY_REASON.value] = "Say why the entry is withdrawn (it stays on the record with the reason)."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        result = tally_sheets.withdraw_entry(ix.services, workspace_id=workspace_id, case_id=case_id, row_id=int(raw),
                                             reason=reason, actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, {"entry": Block.TALLY_ENTRY.value, "reason": Block.TALLY_REASON.value})
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    if not result.newly_withdrawn:
        ix.later(lambda: ix.tell(f"Entry {result.entry} of sheet {esc(result.sheet_id)} had already been withdrawn "
                                 f"by {mention(result.withdrawn_by)}; nothing changed."))
        return
    refresh_card(ix.services, case)
    summary = tally_of(case)
    text = (f":wastebasket: Entry {result.entry} of sheet *{esc(result.sheet_id)}* ({esc(unit_label(result.unit))}),"
            f" entered by {mention(result.entered_by)}, *withdrawn* by {mention(ix.user_id)}: “{esc(result.reason)}”. "
            f"It stays on the record, marked withdrawn. Enter the sheet again with `/recount tally {case.id}` or the "
            f"button below. Tally: {progress_text(summary)} ({cites(case).tally}).")
    post_in_thread(ix.services, case, text, blocks=[section(text), enter_button(case.id)])
