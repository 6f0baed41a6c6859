"""The upload's preview (`View.RETURNS_UPLOAD_PREVIEW`, handlers/blocks/upload_preview.py): the verdicts, what was
set aside or left undecided, the readings; "Save as survey version N".

- Contests whose seats the file does not state, where another number would change the verdict (rules/seats.py),
  come first with a seats input each; submitting with seats given reads the same file again with them (a new
  preview, nothing saved). "Back to the form" shows the form again in the same modal with everything typed kept
  (the seats given here added to its Seats field); only the file is attached again, since Slack keeps none in a form.
- A file that cannot be saved, a version recorded since, or a correction by someone who is not an official is
  refused at once on the file field (`response_action: errors`), from what the preview remembers; otherwise a
  "Saving…" view answers and the file is downloaded again, checked against the sha256 previewed, read strictly
  (in a child process, as the preview was) and saved (`services.returns.upload.save`) with the channel's record
  queued in the same transaction.
"""
from __future__ import annotations

import logging
from dataclasses import replace

from handlers.blocks.common import esc
from handlers.blocks.upload_form import (
    PreviewState,
    outcome_modal,
    preview_state,
    reading_modal,
    saving_modal,
    values_of,
)
from handlers.blocks.upload_preview import MAX_SEATS, case_thread_note, saved_message, saved_modal, seats_block
from handlers.cards import post_in_thread, post_where_typed
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, new_reference
from handlers.registry import Registry
from handlers.returns_upload import (
    FAILED,
    Progress,
    form_view,
    read_and_preview,
    show_outcome,
    the_file,
    update_view,
)
from handlers.slack_io.files import FileProblem, download_file
from handlers.slack_io.reading_child import ReadAborted
from handlers.slack_text import said
from handlers.view_state import metadata_of, typed, value_of
from rules.laws.profile import Part
from rules.returns import ReturnsError
from services.conduct import cases
from services.election_law import law_of_stored
from services.errors import UserError
from services.returns import upload as returns_file
from services.returns.forms import FormErrors
from services.returns.upload import SEATS_TEXT_LIMIT, Reading, Saved
from storage.models import Role

log = logging.getLogger("recount_bot.returns_upload")


def register(registry: Registry) -> None:
    registry.view(View.RETURNS_UPLOAD_PREVIEW.value, needs=Role.STAFF)(submit_preview)
    registry.action(Action.RETURNS_UPLOAD_BACK.value, needs=Role.STAFF, changes_state=False)(back_to_form)


def back_to_form(ix: Interaction) -> None:
    """The preview's "Back to the form": the form again in the same modal, with everything typed in it kept and the
    seats given in the preview added to its Seats field; only the file must be attached again."""
    view = ix.body["view"]
    remembered = _remembered(view)
    given, _ = _seats_given(view, remembered)  # an input that is not a number is left out, not an error here
    remembered = _with_seats(remembered, given)
    update_view(ix, view["id"], form_view(ix, remembered.channel_id, values_of(remembered)), view.get("hash"))



def _remembered(view: dict) -> PreviewState:
    try:
        return preview_state(metadata_of(view))
    except (FormErrors, KeyError, TypeError, ValueError):
        raise UserError("This preview can no longer be read; type `/recount returns upload` again.") from None


def _seats_given(view: dict, remembered: PreviewState) -> tuple[dict[str, int], dict[str, str]]:
    """The seats typed in the preview's inputs, by contest (those left empty are not given), and the error of
    each input that is not a whole number of seats."""
    state, given, errors = view.get("state", {}), {}, {}
    for index, name in enumerate(remembered.seats_asked):
        block = seats_block(index)
        raw = typed(state, block)
        if not raw:
            continue
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_SEATS:
            errors[block] = f"A whole number of seats, from 1 to {MAX_SEATS}."
        else:
            given[name] = int(raw)
    return given, errors


def _with_seats(remembered: PreviewState, given: dict[str, int]) -> PreviewState:
    """The preview's reading with the seats given in it, over those the form gave."""
    if not given:
        return remembered
    return replace(remembered, reading=Reading(remembered.reading.election_kind, {**remembered.reading.seats,
                                                                                  **given}))


def submit_preview(ix: Interaction) -> None:
    view = ix.body["view"]
    remembered = _remembered(view)
    given, errors = _seats_given(view, remembered)
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    if len(_with_seats(remembered, given).reading.seats_text) > SEATS_TEXT_LIMIT:
        ix.ack(response_action="errors", errors={seats_block(0): (
            f"The seats given come to more than the {SEATS_TEXT_LIMIT:,} characters a preview carries: click "
            "*Back to the form* and give them in its Seats field.")})
        return
    remembered = _with_seats(remembered, given)
    field = Block.RETURNS_UPLOAD_AGAIN
    files = value_of(view.get("state", {}), field).get("files") or []
    if files:  # another file: read it and preview it, nothing is saved
        file, errors = the_file(files, field)
        if errors:
            ix.ack(response_action="errors", errors=errors)
            return
        ix.ack(response_action="update", view=reading_modal(str(file.get("name") or "the file")))
        ix.later(lambda: read_and_preview(ix, view["id"], file_id=str(file["id"]), target=remembered.target,
                                          reading=remembered.reading, channel_id=remembered.channel_id,
                                          values=values_of(remembered), file_name=str(file.get("name") or "the file")))
        return
    if given:  # the same file, read again with the seats given: a new preview, nothing is saved
        ix.ack(response_action="update", view=reading_modal(remembered.file_name))
        ix.later(lambda: read_and_preview(ix, view["id"], file_id=remembered.file_id, target=remembered.target,
                                          reading=remembered.reading, channel_id=remembered.channel_id,
                                          values=values_of(remembered), file_name=remembered.file_name))
        return
    if not remembered.saveable:
        message = remembered.refusal or f"{remembered.file_name} holds nothing new to save; attach another file."
        ix.ack(response_action="errors", errors={field.value: message})
        return
    if remembered.correction and ix.role is not Role.OFFICIAL:
        ix.ack(response_action="errors", errors={field.value: (
            f"{remembered.file_name} changes returns already recorded: a correction of the survey of returns, which "
            f"only a designated election official may save ({_correcting_under(ix, remembered)}). Nothing was saved.")})
        return
    try:
        already = returns_file.check_before_saving(ix.services, team_id=ix.team_id, target=remembered.target,
                                                    based_on=remembered.based_on, sha256=remembered.sha256)
    except UserError as exc:
        ix.ack(response_action="errors", errors={field.value: exc.message})
        return
    if already is not None:  # a double click: the first one saved it
        ix.ack(response_action="update", view=outcome_modal(
            f":white_check_mark: *{esc(remembered.file_name)}* is already saved as survey version {already}; nothing "
            "more was recorded."))
        return
    ix.ack(response_action="update", view=saving_modal(remembered.file_name))
    ix.later(lambda: save_file(ix, view["id"], remembered))


def save_file(ix: Interaction, view_id: str, remembered: PreviewState) -> None:
    """After Slack's answer: download the file again, check it is the one previewed, save it, say so."""
    name = remembered.file_name
    try:
        progress = Progress(ix, view_id, name, saving_modal)
        download = download_file(ix.client, remembered.file_id, progress=progress.downloaded)
        if download.sha256 != remembered.sha256:
            raise UserError(f"{name} in Slack is not the file previewed (its content changed); attach it again "
                            "to see what it says now. Nothing was saved.")
        saved = returns_file.save(
            ix.services, team_id=ix.team_id, actor=ix.user_id, may_correct=ix.role is Role.OFFICIAL,
            target=remembered.target, file_name=name, data=download.data, sha256=download.sha256,
            reading=remembered.reading, based_on=remembered.based_on,
            multi_seat_rule=ix.member.settings.multi_seat_rule,
            announce=lambda s: announce(ix, s, channel_id=remembered.channel_id),
            reader=progress.reader(name))
        view = saved_modal(saved, channel_id=remembered.channel_id)
    except FileProblem as exc:
        view = outcome_modal(f":warning: {esc(exc.message)} Nothing was saved.")
    except ReadAborted as exc:
        view = outcome_modal(f":warning: {esc(exc.message)}")
    except ReturnsError as exc:
        lines = "\n".join(f"• {esc(str(p))}" for p in exc.problems[:20])
        more = f"\n… and {len(exc.problems) - 20} more" if len(exc.problems) > 20 else ""
        view = outcome_modal(f":no_entry: *{esc(name)}* cannot be saved as a survey of returns; nothing was saved."
                             f"\n{lines}{more}"[:3000])
    except UserError as exc:
        view = outcome_modal(f":warning: {said(exc.words)}")
    except Exception:
        reference = new_reference()
        log.exception("saving an uploaded returns file failed; reference %s", reference)
        view = outcome_modal(FAILED.format(reference=reference))
    show_outcome(ix, view_id, view)


def announce(ix: Interaction, saved: Saved, *, channel_id: str | None) -> None:
    """The channel's record of the new version, and a note in the thread of each recount case whose contest the
    file changed: outbox rows in the save's own transaction. If the channel will not take the post, the worker
    sends it to the person with the reason."""
    text, blocks = saved_message(saved, ix.user_id)
    for case_id in saved.case_ids:
        case = cases.case_view(ix.services, case_id)
        if case.card_ts:
            post_in_thread(ix.services, case, case_thread_note(saved, ix.user_id))
    post_where_typed(ix.services, team_id=ix.team_id, user_id=ix.user_id, channel_id=channel_id, text=text,
                     blocks=blocks)


def _correcting_under(ix: Interaction, remembered: PreviewState) -> str:
    """The election's law's power to correct the survey of returns (1306(4), 31-10-1207(4), 1-10.5-107(3))."""
    law = law_of_stored(ix.services, team_id=ix.team_id, election_id=remembered.target.election_id)
    return law.cite(Part.EVIDENCE)
