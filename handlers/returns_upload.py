"""`/recount returns upload` (or step 1's "Upload a results file"): a survey of returns from a results file.

1. The form (`View.RETURNS_UPLOAD`): a `file_input`, the election it belongs to, optionally the kind of election
   and seats. Its submission is checked in the request (field errors), then answered with a "Reading…" view;
   the download (`handlers.slack_io.files`) and the reading run after Slack has its answer (`Interaction.later`), and
   `views.update` shows the preview, or the form again with the file's row/column problems on its field.
2. The preview (`View.RETURNS_UPLOAD_PREVIEW`, handlers/blocks/upload_preview.py): the verdicts, what was set
   aside or left undecided, the readings; "Save as survey version N". A file that cannot be saved, a version
   recorded since, or a correction by someone who is not an official is refused at once on the file field
   (`response_action: errors`), from what the preview remembers; otherwise a "Saving…" view answers and the
   file is downloaded again, checked against the sha256 previewed, read strictly and saved
   (`services.returns.upload.save`) with the channel's record queued in the same transaction.
"""
from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from handlers.blocks.common import MESSAGE_BLOCKS_LIMIT, context, esc, message_modal
from handlers.blocks.upload_form import (
    Failed,
    FormValues,
    PreviewState,
    outcome_modal,
    preview_metadata,
    preview_state,
    reading_modal,
    saving_modal,
    upload_form,
    values_of,
)
from handlers.blocks.upload_preview import (
    case_thread_note,
    preview_modal,
    refusal,
    saved_message,
    saved_modal,
)
from handlers.cards import post_in_thread, queue_call
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, errors_on_fields, new_reference
from handlers.registry import Registry
from handlers.slack_io.files import MAX_BYTES, FileProblem, download_file
from handlers.slack_io.outbox import FALLBACK
from handlers.slack_text import channel_link, said
from handlers.view_state import metadata_of, selected, shown_blocks, typed, value_of
from rules.returns import ReturnsError
from services.conduct import cases
from services.errors import UserError
from services.returns import forms as returns_forms
from services.returns import upload as returns_file
from services.returns.forms import NEW, FormErrors
from services.returns.upload import FILE_TYPES, Reading, Saved, UploadTarget
from storage.models import Role

log = logging.getLogger("recount_bot.returns_upload")

FIELD_BLOCKS = {
    "file": Block.RETURNS_UPLOAD_FILE, "election": Block.RETURNS_UPLOAD_ELECTION,
    "election_name": Block.RETURNS_NEW_ELECTION_NAME, "election_date": Block.RETURNS_NEW_ELECTION_DATE,
    "local_government": Block.RETURNS_LOCAL_GOVERNMENT, "governing_body": Block.RETURNS_GOVERNING_BODY,
    "law": Block.RETURNS_NEW_ELECTION_LAW,
    "election_kind": Block.RETURNS_UPLOAD_KIND, "seats": Block.RETURNS_UPLOAD_SEATS,
}
FAILED = ":warning: Something went wrong and nothing was saved. Reference: *{reference}* (give it to your " \
         "administrator; the details are in the bot's log)."


def register(registry: Registry) -> None:
    registry.view(View.RETURNS_UPLOAD.value, needs=Role.STAFF)(submit_form)
    registry.view(View.RETURNS_UPLOAD_PREVIEW.value, needs=Role.STAFF)(submit_preview)
    registry.action(Block.RETURNS_UPLOAD_ELECTION.value, needs=Role.STAFF, changes_state=False)(election_changed)
    registry.action(Action.RETURNS_UPLOAD_OPEN.value, needs=Role.STAFF, changes_state=False)(open_from_step_one)


# ------------------------------------------------------------------ opening the form
def form_view(ix: Interaction, channel_id: str | None, values: FormValues | None = None,
              failed: Failed | None = None) -> dict:
    wanted = None if values and values.election == NEW else (
        int(values.election) if values and values.election and values.election.isdigit() else "latest")
    form = returns_forms.pick_form(ix.services, team_id=ix.team_id, election_id=wanted)
    return upload_form(form, channel_id=channel_id, values=values, failed=failed)


def open_from_step_one(ix: Interaction) -> None:
    """The "Upload a results file" button of `/recount returns`' first step: the same modal becomes the form."""
    view = ix.body["view"]
    _update(ix, view["id"], form_view(ix, metadata_of(view).get("c")), view.get("hash"))


def election_changed(ix: Interaction) -> None:
    view = ix.body["view"]
    chosen = selected(view.get("state", {}), Block.RETURNS_UPLOAD_ELECTION)
    _update(ix, view["id"], form_view(ix, metadata_of(view).get("c"), FormValues(election=chosen)), view.get("hash"))


def _update(ix: Interaction, view_id: str, view: dict, hash: str | None = None) -> None:
    """Show `view` in the modal; a modal closed meanwhile (or redrawn by a newer change) is left alone."""
    try:
        ix.client.views_update(view_id=view_id, hash=hash, view=view)
    except SlackApiError as exc:
        if exc.response.get("error") not in ("hash_conflict", "not_found", "view_not_found"):
            raise
        log.info("view %s was closed or redrawn before this update (%s)", view_id, exc.response.get("error"))


def _show(ix: Interaction, view_id: str, view: dict) -> None:
    """The last word of work done after Slack's answer: the modal must not stay on "Reading…" or "Saving…"."""
    try:
        _update(ix, view_id, view)
    except Exception:
        reference = new_reference()
        log.exception("could not show the outcome in view %s; reference %s", view_id, reference)
        try:
            _update(ix, view_id, outcome_modal(f":warning: The outcome could not be shown here. Reference: "
                                               f"*{reference}*. The channel has the record of anything saved."))
        except Exception:
            log.exception("could not tell the user about reference %s", reference)


# ------------------------------------------------------------------ step 1: the form
def _the_file(files: list, block: Block) -> tuple[dict | None, dict[str, str]]:
    """The one file attached, or the error to show on `block`. Slack's `filetypes` are a convenience only."""
    if not files:
        return None, {block.value: "Attach the results file."}
    if len(files) > 1:
        return None, {block.value: "Attach one file at a time."}
    file = files[0] if isinstance(files[0], dict) else {}
    name = str(file.get("name") or "")
    kind = (str(file.get("filetype") or "") or name.rpartition(".")[2]).lower()
    if not file.get("id"):
        return None, {block.value: "Slack did not say which file this is; attach it again."}
    if kind not in FILE_TYPES and name.rpartition(".")[2].lower() not in FILE_TYPES:
        return None, {block.value: f"{name or 'This file'} is not a results file I read: attach CSV, JSON, XML "
                                   "or Excel (.xlsx, .xls)."}
    size = file.get("size")
    if isinstance(size, int) and size > MAX_BYTES:
        return None, {block.value: f"{name} is {size / 1048576:,.1f} MB; the most I read is "
                                   f"{MAX_BYTES / 1048576:,.0f} MB."}
    return file, {}


def submit_form(ix: Interaction) -> None:
    view = ix.body["view"]
    state, channel = view.get("state", {}), metadata_of(view).get("c")
    shown = shown_blocks(view)
    election = selected(state, Block.RETURNS_UPLOAD_ELECTION) if Block.RETURNS_UPLOAD_ELECTION.value in shown \
        else NEW
    values = FormValues(
        election=election, election_name=typed(state, Block.RETURNS_NEW_ELECTION_NAME),
        election_date=value_of(state, Block.RETURNS_NEW_ELECTION_DATE).get("selected_date"),
        local_government=typed(state, Block.RETURNS_LOCAL_GOVERNMENT),
        governing_body=typed(state, Block.RETURNS_GOVERNING_BODY), law=selected(state, Block.RETURNS_NEW_ELECTION_LAW),
        election_kind=selected(state, Block.RETURNS_UPLOAD_KIND), seats=typed(state, Block.RETURNS_UPLOAD_SEATS))
    if election == NEW and Block.RETURNS_NEW_ELECTION_NAME.value not in shown:
        # "New election…" was chosen but the form's redraw was lost: show its fields now instead of guessing.
        ix.ack(response_action="update", view=form_view(ix, channel, values))
        return
    file, errors = _the_file(value_of(state, Block.RETURNS_UPLOAD_FILE).get("files") or [], Block.RETURNS_UPLOAD_FILE)
    target = reading = None
    try:
        target = returns_file.resolve_target(
            ix.services, team_id=ix.team_id, election=election, election_name=values.election_name,
            election_date=values.election_date, local_government=values.local_government,
            governing_body=values.governing_body, law=values.law)
    except FormErrors as exc:
        errors.update({FIELD_BLOCKS[k].value: v for k, v in exc.errors.items()})
    try:
        reading = returns_file.parse_reading(values.election_kind, values.seats)
    except FormErrors as exc:
        errors.update({FIELD_BLOCKS[k].value: v for k, v in exc.errors.items()})
    if errors:
        errors_on_fields(ix, errors.items())
        return
    name = str(file.get("name") or "the file")
    ix.ack(response_action="update", view=reading_modal(name))
    ix.later(lambda: read_and_preview(ix, view["id"], file_id=str(file["id"]), target=target, reading=reading,
                                      channel_id=channel, values=values))


def read_and_preview(ix: Interaction, view_id: str, *, file_id: str, target: UploadTarget, reading: Reading,
                     channel_id: str | None, values: FormValues) -> None:
    """After Slack's answer: download the file, read it, show the preview (or the form with what went wrong)."""
    name = "the file"
    try:
        try:
            download = download_file(ix.client, file_id)
            name = download.name
            found = returns_file.preview(
                ix.services, team_id=ix.team_id, target=target, file_name=download.name, data=download.data,
                sha256=download.sha256, reading=reading, multi_seat_rule=ix.member.settings.multi_seat_rule)
        except FileProblem as exc:
            view = form_view(ix, channel_id, values, Failed(name, (exc.message,)))
        except ReturnsError as exc:
            seats = tuple(str(p) for p in exc.problems if p.location.startswith("seats"))
            others = tuple(str(p) for p in exc.problems if not p.location.startswith("seats"))
            view = form_view(ix, channel_id, values, Failed(name, others, seats))
        else:
            metadata = preview_metadata(PreviewState(
                channel_id=channel_id, target=target, reading=reading, file_id=file_id, file_name=download.name,
                sha256=download.sha256, based_on=found.based_on, saveable=found.saveable,
                correction=found.correction, refusal=refusal(found) if found.problems else ""))
            view = preview_modal(found, metadata=metadata)
    except UserError as exc:
        view = outcome_modal(f":warning: {said(exc.words)}")
    except Exception:
        reference = new_reference()
        log.exception("reading an uploaded returns file failed; reference %s", reference)
        view = outcome_modal(FAILED.format(reference=reference))
    _show(ix, view_id, view)


# ------------------------------------------------------------------ step 2: the preview
def submit_preview(ix: Interaction) -> None:
    view = ix.body["view"]
    try:
        remembered = preview_state(metadata_of(view))
    except (FormErrors, KeyError, TypeError, ValueError):
        raise UserError("This preview can no longer be read; type `/recount returns upload` again.") from None
    field = Block.RETURNS_UPLOAD_AGAIN
    files = value_of(view.get("state", {}), field).get("files") or []
    if files:  # another file: read it and preview it, nothing is saved
        file, errors = _the_file(files, field)
        if errors:
            ix.ack(response_action="errors", errors=errors)
            return
        ix.ack(response_action="update", view=reading_modal(str(file.get("name") or "the file")))
        ix.later(lambda: read_and_preview(ix, view["id"], file_id=str(file["id"]), target=remembered.target,
                                          reading=remembered.reading, channel_id=remembered.channel_id,
                                          values=values_of(remembered)))
        return
    if not remembered.saveable:
        message = remembered.refusal or f"{remembered.file_name} holds nothing new to save; attach another file."
        ix.ack(response_action="errors", errors={field.value: message})
        return
    if remembered.correction and ix.role is not Role.OFFICIAL:
        ix.ack(response_action="errors", errors={field.value: (
            f"{remembered.file_name} changes returns already recorded: a correction of the survey of returns, which "
            "only a designated election official may save (C.R.S. 1-13.5-1306(4)). Nothing was saved.")})
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
        download = download_file(ix.client, remembered.file_id)
        if download.sha256 != remembered.sha256:
            raise UserError(f"{name} in Slack is not the file previewed (its content changed); attach it again "
                            "to see what it says now. Nothing was saved.")
        saved = returns_file.save(
            ix.services, team_id=ix.team_id, actor=ix.user_id, may_correct=ix.role is Role.OFFICIAL,
            target=remembered.target, file_name=name, data=download.data, sha256=download.sha256,
            reading=remembered.reading, based_on=remembered.based_on,
            multi_seat_rule=ix.member.settings.multi_seat_rule,
            announce=lambda s: announce(ix, s, channel_id=remembered.channel_id))
        view = saved_modal(saved, channel_id=remembered.channel_id)
    except FileProblem as exc:
        view = outcome_modal(f":warning: {esc(exc.message)} Nothing was saved.")
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
    _show(ix, view_id, view)


def announce(ix: Interaction, saved: Saved, *, channel_id: str | None) -> None:
    """The channel's record of the new version, and a note in the thread of each recount case whose contest the
    file changed: outbox rows in the save's own transaction. If the channel will not take the post, the worker
    sends it to the person with the reason."""
    text, blocks = saved_message(saved, ix.user_id)
    for case_id in saved.case_ids:
        case = cases.case_view(ix.services, case_id)
        if case.card_ts:
            post_in_thread(ix.services, case, case_thread_note(saved, ix.user_id))
    if not channel_id:
        queue_call(ix.services, "chat.postMessage", {"text": text, "blocks": blocks}, dm_user=ix.user_id,
                   team_id=ix.team_id)
        return
    hint = context(f":warning: I could not post this in {channel_link(channel_id)}: invite me there with "
                   "`/invite @recount-bot`.")
    fallback = {"user": ix.user_id, "text": text, "blocks": [hint, *blocks][:MESSAGE_BLOCKS_LIMIT]}
    queue_call(ix.services, "chat.postMessage",
               {"channel": channel_id, "text": text, "blocks": blocks, FALLBACK: fallback}, team_id=ix.team_id)


def open_upload(ix: Interaction) -> None:
    """`/recount returns upload`: the trigger expires 3 seconds after the command, so the modal opens first."""
    try:
        opened = ix.client.views_open(trigger_id=ix.trigger_id, view=outcome_modal(
            ":hourglass_flowing_sand: Loading the form…"))["view"]
    except SlackApiError as exc:
        if exc.response.get("error") not in {"expired_trigger_id", "exchanged_trigger_id", "invalid_trigger_id"}:
            raise
        raise UserError("Slack's moment to open the form passed before I could; type `/recount returns upload` "
                        "again.") from None
    try:
        view = form_view(ix, ix.channel_id)
    except UserError as exc:
        view = message_modal("Returns from a file", said(exc.words))
    except Exception:
        _update(ix, opened["id"], message_modal(
            "Returns from a file", ":warning: The form could not be loaded; recount-bot sent you the details."))
        raise
    _update(ix, opened["id"], view, opened.get("hash"))
