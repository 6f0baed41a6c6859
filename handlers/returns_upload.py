"""`/recount returns upload` (or step 1's "Upload a results file"): a survey of returns from a results file.

1. The form (`View.RETURNS_UPLOAD`), here: a `file_input`, the election it belongs to, optionally the kind of
   election and seats. Its submission is checked in the request (field errors), then answered with a "Reading…"
   view; the download (`handlers.slack_io.files`) and the reading, in a child process within the app's memory and
   time limits (`handlers.slack_io.reading_child`; the modal says how long it has read, about every second), run
   after Slack has its answer (`Interaction.later`), and `views.update` shows the preview, or the form again with
   the file's row/column problems (or the limit it ran out of) on its field.
2. The preview: handlers/returns_upload_preview.py.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from slack_sdk.errors import SlackApiError

from handlers.blocks.common import message_modal
from handlers.blocks.upload_form import (
    Failed,
    FormValues,
    PreviewState,
    outcome_modal,
    preview_metadata,
    reading_modal,
    upload_form,
)
from handlers.blocks.upload_preview import (
    preview_modal,
    refusal,
)
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, errors_on_fields, new_reference
from handlers.registry import Registry
from handlers.slack_io.files import MAX_BYTES, FileProblem, download_file
from handlers.slack_io.reading_child import ChildReader, ParseLimits, ReadAborted
from handlers.slack_text import said
from handlers.view_state import metadata_of, selected, shown_blocks, typed, value_of
from rules.returns import ReturnsError
from services.errors import UserError
from services.returns import forms as returns_forms
from services.returns import upload as returns_file
from services.returns.forms import NEW, FormErrors
from services.returns.upload import FILE_TYPES, Reading, UploadTarget
from storage.models import Role

log = logging.getLogger("recount_bot.returns_upload")
UPDATE_SECONDS = 1.0  # the modal says how far a large file has come at most this often

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
    update_view(ix, view["id"], form_view(ix, metadata_of(view).get("c")), view.get("hash"))


def election_changed(ix: Interaction) -> None:
    view = ix.body["view"]
    chosen = selected(view.get("state", {}), Block.RETURNS_UPLOAD_ELECTION)
    update_view(ix, view["id"], form_view(ix, metadata_of(view).get("c"), FormValues(election=chosen)), view.get("hash"))


def update_view(ix: Interaction, view_id: str, view: dict, hash: str | None = None) -> None:
    """Show `view` in the modal; a modal closed meanwhile (or redrawn by a newer change) is left alone."""
    try:
        ix.client.views_update(view_id=view_id, hash=hash, view=view)
    except SlackApiError as exc:
        if exc.response.get("error") not in ("hash_conflict", "not_found", "view_not_found"):
            raise
        log.info("view %s was closed or redrawn before this update (%s)", view_id, exc.response.get("error"))


def show_outcome(ix: Interaction, view_id: str, view: dict) -> None:
    """The last word of work done after Slack's answer: the modal must not stay on "Reading…" or "Saving…"."""
    try:
        update_view(ix, view_id, view)
    except Exception:
        reference = new_reference()
        log.exception("could not show the outcome in view %s; reference %s", view_id, reference)
        try:
            update_view(ix, view_id, outcome_modal(f":warning: The outcome could not be shown here. Reference: "
                                               f"*{reference}*. The channel has the record of anything saved."))
        except Exception:
            log.exception("could not tell the user about reference %s", reference)


class Progress:
    """What the modal says while a file is downloaded and read, so that a large one does not sit on "Reading…": the
    share downloaded (files.info gives the size), then how long the reading has taken against its limits. The
    readers take the file whole and cannot say how far through it they are (the CLI shows the elapsed time for the
    same reason: bot/commands/progress.py). At most one views.update a second, and none in the first second, so a
    small file goes straight to its outcome."""

    def __init__(self, ix: Interaction, view_id: str, name: str, busy: Callable[..., dict]) -> None:
        self.ix, self.view_id, self.name, self.busy = ix, view_id, name, busy
        self.next = time.monotonic() + UPDATE_SECONDS

    def _say(self, **so_far: Any) -> None:
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + UPDATE_SECONDS
        update_view(self.ix, self.view_id, self.busy(self.name, **so_far))

    def downloaded(self, done: int, size: int | None) -> None:
        self._say(downloaded=(done, size))

    def reading(self, seconds: float, limits: ParseLimits) -> None:
        self._say(waited=seconds, limits=limits)

    def reader(self, name: str) -> ChildReader:
        """The file is read in a child process within the app's limits (handlers/slack_io/reading_child.py), not in
        this one."""
        self.name = name
        return ChildReader(self.ix.parse_limits, name, on_wait=self.reading)


# ------------------------------------------------------------------ step 1: the form
def the_file(files: list, block: Block) -> tuple[dict | None, dict[str, str]]:
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
    file, errors = the_file(value_of(state, Block.RETURNS_UPLOAD_FILE).get("files") or [], Block.RETURNS_UPLOAD_FILE)
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
                                      channel_id=channel, values=values, file_name=name))


def read_and_preview(ix: Interaction, view_id: str, *, file_id: str, target: UploadTarget, reading: Reading,
                     channel_id: str | None, values: FormValues, file_name: str = "the file") -> None:
    """After Slack's answer: download the file, read it, show the preview (or the form with what went wrong)."""
    name = file_name
    progress = Progress(ix, view_id, name, reading_modal)
    try:
        try:
            download = download_file(ix.client, file_id, progress=progress.downloaded)
            name = download.name
            found = returns_file.preview(
                ix.services, team_id=ix.team_id, target=target, file_name=download.name, data=download.data,
                sha256=download.sha256, reading=reading, multi_seat_rule=ix.member.settings.multi_seat_rule,
                reader=progress.reader(name))
        except (FileProblem, ReadAborted) as exc:
            view = form_view(ix, channel_id, values, Failed(name, (exc.message,)))
        except ReturnsError as exc:
            seats = tuple(str(p) for p in exc.problems if p.location.startswith("seats"))
            others = tuple(str(p) for p in exc.problems if not p.location.startswith("seats"))
            view = form_view(ix, channel_id, values, Failed(name, others, seats))
        else:
            metadata, asked = preview_metadata(PreviewState(
                channel_id=channel_id, target=target, reading=reading, file_id=file_id, file_name=download.name,
                sha256=download.sha256, based_on=found.based_on, saveable=found.saveable,
                correction=found.correction, refusal=refusal(found) if found.problems else "",
                seats_asked=tuple(u.contest for u in found.verdicts.undecided
                                  if u.seats_not_stated and u.contest is not None)))
            view = preview_modal(found, metadata=metadata, asked=asked)
    except UserError as exc:
        view = outcome_modal(f":warning: {said(exc.words)}")
    except Exception:
        reference = new_reference()
        log.exception("reading an uploaded returns file failed; reference %s", reference)
        view = outcome_modal(FAILED.format(reference=reference))
    show_outcome(ix, view_id, view)


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
        update_view(ix, opened["id"], message_modal(
            "Returns from a file", ":warning: The form could not be loaded; recount-bot sent you the details."))
        raise
    update_view(ix, opened["id"], view, opened.get("hash"))
