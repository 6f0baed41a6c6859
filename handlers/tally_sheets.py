"""Tally sheets (5) in Slack: `/recount tally [case#]` and *Enter tally sheet* (the card, a thread post) open the
sheet form within the trigger's 3 seconds: the recount (a select when several are counting), the sheet id, the
unit, one whole number per choice. The entry number is decided for the person, who is recorded as having entered
it. Refusals go on the offending field and nothing is stored; the same sheet submitted twice is stored once.

Setting up the count is `handlers.tally_setup`; a double-entry disagreement, and withdrawing an entry,
`handlers.tally_disagreement`.
"""
from __future__ import annotations

import logging
import re

from slack_sdk.errors import SlackApiError

from handlers.blocks.common import esc
from handlers.blocks.law_cites import cites
from handlers.blocks.tally_modal import (
    count_block,
    counts_text,
    progress_text,
    sheet_modal,
    unit_block,
    unit_word,
)
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.conduct_common import after_modal, case_number, clicked_case, open_modal, tally_of
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention, said
from handlers.subcommands import SUBCOMMANDS
from handlers.tally_disagreement import announce_disagreement
from handlers.view_state import metadata_of, selected, shown_blocks, typed
from rules.corrections import unit_label
from services.conduct import cases, tally_forms, tally_sheets
from services.conduct.cases import CaseView
from services.conduct.tally_sheets import SheetEntered, SheetRefused
from services.errors import UserError
from storage.models import Role

log = logging.getLogger("recount_bot.tally")
MAX_VOTES = 100_000_000
ERROR_LIMIT = 1500


def register(registry: Registry) -> None:
    registry.action(Action.ENTER_SHEET.value, needs=Role.STAFF, changes_state=False)(open_sheet)
    registry.action(Block.TALLY_CASE.value, needs=Role.STAFF, changes_state=False)(case_changed)
    registry.view(View.TALLY_SHEET.value, needs=Role.STAFF)(submit_sheet)


@SUBCOMMANDS.add("tally", needs=Role.STAFF, usage="/recount tally [case#]",
                 summary="Enter a tally sheet of a recount that is counting, one count per choice (1306(5)); the "
                         "entry number (1st, or 2nd to check it) is decided for you.")
def tally_command(ix: Interaction, args: str) -> None:
    # Not deferred: the modal opens within the trigger's 3 seconds, after a few quick reads.
    case_id = case_number(args, "/recount tally [case#]")
    workspace_id = ix.member.workspace_id
    counting = tally_forms.counting_cases(ix.services, workspace_id=workspace_id)
    if case_id is None:
        ready = [c for c in counting if c.set_up]
        if not counting:
            raise UserError("No recount is counting. Start counting from the case card (*Start counting*), then set "
                            "up the count.")
        if not ready:
            raise UserError("Set up the count first (the card's *Set up the count*): "
                            + ", ".join(f"case #{c.id} {c.contest}" for c in counting) + ".")
        if len(ready) == 1:
            case_id = ready[0].id
    form = tally_forms.sheet_form(ix.services, workspace_id=workspace_id, case_id=case_id) if case_id else None
    open_modal(ix, sheet_modal(cases=counting, form=form, channel_id=ix.channel_id), "type `/recount tally`")


def open_sheet(ix: Interaction) -> None:
    workspace_id = ix.member.workspace_id
    form = tally_forms.sheet_form(ix.services, workspace_id=workspace_id, case_id=clicked_case(ix))
    counting = tally_forms.counting_cases(ix.services, workspace_id=workspace_id)
    open_modal(ix, sheet_modal(cases=counting, form=form, channel_id=ix.channel_id), "click *Enter tally sheet*")


def _sheet_view_for(ix: Interaction, chosen: str | None, channel_id: str | None, note: str | None = None) -> dict:
    workspace_id = ix.member.workspace_id
    counting = tally_forms.counting_cases(ix.services, workspace_id=workspace_id)
    form = None
    if chosen and chosen.isdigit():
        try:
            form = tally_forms.sheet_form(ix.services, workspace_id=workspace_id, case_id=int(chosen))
        except UserError as exc:
            note = said(exc.words)
    return sheet_modal(cases=counting, form=form, channel_id=channel_id, note=note)


def case_changed(ix: Interaction) -> None:
    """The case select changed: redraw the form with that case's units and choices (a newer redraw wins)."""
    view = ix.body["view"]
    chosen = selected(view.get("state", {}), Block.TALLY_CASE)
    if chosen is not None and chosen == str(metadata_of(view).get("k")):
        return
    new_view = _sheet_view_for(ix, chosen, metadata_of(view).get("c"))
    try:
        ix.client.views_update(view_id=view["id"], hash=view.get("hash"), view=new_view)
    except SlackApiError as exc:
        if exc.response.get("error") != "hash_conflict":
            raise
        log.info("a newer update of view %s won", view["id"])


def _count(raw: str | None, choice: str) -> tuple[int | None, str | None]:
    text = (raw or "").strip().replace(",", "")
    if not text:
        return None, f"Blank: write 0 if {choice} has no votes on the sheet — a blank is not a zero."
    if not re.fullmatch(r"\d+", text):
        return None, f"A whole number of votes, 0 or more — not “{raw.strip()}”."
    if int(text) > MAX_VOTES:
        return None, f"{raw.strip()} votes on one sheet is implausibly large."
    return int(text), None


def _problem_errors(exc: SheetRefused, case_id: int, choices: tuple[str, ...]) -> dict[str, str]:
    blocks = {"sheet_id": Block.TALLY_SHEET_ID.value, "entry": Block.TALLY_SHEET_ID.value,
              "entered_by": Block.TALLY_SHEET_ID.value, "unit": unit_block(case_id)}
    blocks.update({f"counts.{c}": count_block(case_id, i) for i, c in enumerate(choices)})
    errors: dict[str, str] = {}
    for problem in exc.problems:
        block = blocks.get(problem.field)
        if block is None:
            continue
        text = problem.message[:1].upper() + problem.message[1:]
        if problem.citation:
            text += f" ({problem.citation})"
        text += "" if text.endswith(".") else "."
        if "both tally" in problem.message:
            text += " If the sheet entered before is the wrong one, withdraw it first."
        errors[block] = (f"{errors[block]} {text}" if block in errors else text)[:ERROR_LIMIT]
    return errors


@as_one_unit
def submit_sheet(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    shown = shown_blocks(view)
    chosen = selected(state, Block.TALLY_CASE) if Block.TALLY_CASE.value in shown else str(meta.get("k"))
    if not chosen or not chosen.isdigit():
        ix.ack(response_action="errors", errors={Block.TALLY_CASE.value: "Choose the recount."})
        return
    case_id = int(chosen)
    if case_id != meta.get("k"):
        # Another recount is chosen than the form shows (its redraw was lost, or this is step one): show its form.
        ix.ack(response_action="update", view=_sheet_view_for(ix, chosen, meta.get("c")))
        return
    workspace_id = ix.member.workspace_id
    form = tally_forms.sheet_form(ix.services, workspace_id=workspace_id, case_id=case_id)
    summary = form.summary
    if form.fingerprint != meta.get("f"):
        ix.ack(response_action="update", view=_sheet_view_for(
            ix, chosen, meta.get("c"), note=":warning: The count's set-up changed since this form opened: check "
                                            "the unit, then record the sheet again."))
        return
    errors: dict[str, str] = {}
    sheet_id = typed(state, Block.TALLY_SHEET_ID)
    if not sheet_id:
        errors[Block.TALLY_SHEET_ID.value] = "Give the sheet's id, as written on the tally sheet."
    raw_unit = selected(state, unit_block(case_id))
    unit = None
    if raw_unit is None or not raw_unit.isdigit() or int(raw_unit) >= len(summary.units):
        errors[unit_block(case_id)] = f"Choose the {unit_word(summary.method)} this sheet tallies."
    else:
        unit = summary.units[int(raw_unit)]
    counts: dict[str, int] = {}
    for position, choice in enumerate(summary.choices):
        number, problem = _count(typed(state, count_block(case_id, position)), choice)
        if problem:
            errors[count_block(case_id, position)] = problem
        else:
            counts[choice] = number
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    try:
        result = tally_sheets.enter_sheet(ix.services, workspace_id=workspace_id, case_id=case_id, sheet_id=sheet_id,
                                          unit=unit, counts=counts, actor=ix.user_id)
    except SheetRefused as exc:
        refused = _problem_errors(exc, case_id, summary.choices)
        if not refused:
            raise
        ix.ack(response_action="errors", errors=refused)
        return
    except UserError as exc:
        field_errors(ix, exc, {"sheet_id": Block.TALLY_SHEET_ID.value, "unit": unit_block(case_id)})
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    _announce_sheet(ix, case, result)


def _announce_sheet(ix: Interaction, case: CaseView, result: SheetEntered) -> None:
    sheet = result.sheet
    word = unit_word(tally_of(case).method)
    where = f"machine {sheet.unit}" if word == "machine" else unit_label(sheet.unit)
    if not result.newly_entered:
        ix.later(lambda: ix.tell(f"Sheet {esc(sheet.sheet_id)} ({esc(where)}): your entry {sheet.entry} was already "
                                 "recorded exactly so; it is stored once."))
        return
    summary = tally_of(case)
    refresh_card(ix.services, case)
    disagreement = next((d for d in summary.disagreements
                         if result.row_id in (d.first.row_id, d.second.row_id)), None)
    if disagreement is not None:
        announce_disagreement(ix, case, summary, disagreement)
        return
    counted = result.state.counted.get(sheet.unit)
    counts = esc(counts_text([(c, sheet.counts[c]) for c in summary.choices]))
    head = f"Sheet *{esc(sheet.sheet_id)}* ({esc(where)}), entry {sheet.entry} by {mention(ix.user_id)}: {counts}."
    if sheet.entry == 2 and counted is not None:
        first = next((e for e in summary.entries if e.sheet_id == sheet.sheet_id and e.entry == 1), None)
        text = (f":white_check_mark: {head} It agrees with entry 1"
                + (f" by {mention(first.entered_by)}" if first else "") + f": {esc(unit_label(sheet.unit))} counts.")
    elif sheet.entry == 1 and summary.double_entry:
        text = f":memo: {head} Waiting for the second entry of this sheet by someone else (double entry)."
    elif sheet.entry == 1:
        text = f":white_check_mark: {head} {esc(unit_label(sheet.unit)).capitalize()} counts (single entry)."
    else:
        text = f":memo: {head} It checks entry 1."
    text += f" Tally: *{progress_text(summary)}* ({cites(case).tally})."
    if summary.complete:
        text += f" Every unit expected is tallied: the recount can be completed ({cites(case).results})."
    post_in_thread(ix.services, case, text)
