"""`/recount returns [contest]`: enter or correct a contest's returns in a modal. (`/recount returns upload`, or
step 1's "Upload a results file", takes a whole results file instead: handlers/returns_upload.py.)

Step 1 (`View.RETURNS_PICK`) chooses the election and contest, or sets up new ones; step 2
(`View.RETURNS_ENTER`) takes one count per choice for one unit and, for a correction, its reason.
Recording writes a new survey version (services.returns.entry), closes the modal and says so in
the channel where the command was typed, and in the recount case's thread when the contest has one.
"""
from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from handlers import returns_upload, returns_upload_preview
from handlers.blocks.common import esc, message_modal
from handlers.blocks.returns_modal import (
    case_thread_note,
    choice_block_id,
    confirmation,
    entry_modal,
    loading_modal,
    pick_modal,
    target_of,
)
from handlers.cards import as_one_unit, post_in_thread, post_where_typed, refresh_card
from handlers.ids import Block, View
from handlers.interaction import Interaction, errors_on_fields
from handlers.registry import Registry
from handlers.slack_text import echo, said
from handlers.subcommands import SMART_QUOTES, SUBCOMMANDS
from handlers.view_state import metadata_of, selected, shown_blocks, typed, value_of
from services.conduct import cases
from services.errors import UserError
from services.returns import entry as returns_entry
from services.returns import forms as returns_forms
from services.returns.forms import NEW, EntryForm, FormErrors
from storage.models import Role

log = logging.getLogger("recount_bot.returns")

# The service's field names -> the block that shows the error.
FIELD_BLOCKS = {
    "election": Block.RETURNS_ELECTION, "election_name": Block.RETURNS_NEW_ELECTION_NAME,
    "election_date": Block.RETURNS_NEW_ELECTION_DATE, "local_government": Block.RETURNS_LOCAL_GOVERNMENT,
    "governing_body": Block.RETURNS_GOVERNING_BODY, "law": Block.RETURNS_NEW_ELECTION_LAW,
    "contest": Block.RETURNS_CONTEST,
    "contest_name": Block.RETURNS_NEW_CONTEST_NAME, "kind": Block.RETURNS_NEW_CONTEST_KIND,
    "seats": Block.RETURNS_NEW_CONTEST_SEATS, "choices": Block.RETURNS_NEW_CONTEST_CHOICES,
    "unit": Block.RETURNS_UNIT, "reason": Block.RETURNS_REASON, "evidence": Block.RETURNS_EVIDENCE,
}


def register(registry: Registry) -> None:
    registry.view(View.RETURNS_PICK.value, needs=Role.STAFF)(submit_pick)
    registry.view(View.RETURNS_ENTER.value, needs=Role.STAFF)(submit_entry)
    # Changing a select redraws the form (the contests of the election chosen, the counts of the unit).
    registry.action(Block.RETURNS_ELECTION.value, needs=Role.STAFF, changes_state=False)(pick_changed)
    registry.action(Block.RETURNS_CONTEST.value, needs=Role.STAFF, changes_state=False)(pick_changed)
    registry.action(Block.RETURNS_UNIT.value, needs=Role.STAFF, changes_state=False)(unit_changed)
    returns_upload.register(registry)
    returns_upload_preview.register(registry)


# ------------------------------------------------------------------ the command
def _contest_arg(args: str) -> str | None:
    text = args.translate(SMART_QUOTES).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text or None


@SUBCOMMANDS.add("returns", needs=Role.STAFF, usage="/recount returns [contest | upload]",
                 summary="Enter or correct a contest's returns in a form, one count per choice; a correction is a "
                         "new survey version with its reason (1306(4)). `upload`: attach your vendor's results file "
                         "(CSV, JSON, XML, Excel), see every verdict, then save it as the next survey version.")
def returns_command(ix: Interaction, args: str) -> None:
    if args.strip().casefold() == "upload":  # a contest called “upload” is still `/recount returns "upload"`
        returns_upload.open_upload(ix)
        return
    # The trigger_id expires 3 seconds after the command: open the modal first, fill it in after.
    try:
        opened = ix.client.views_open(trigger_id=ix.trigger_id, view=loading_modal())["view"]
    except SlackApiError as exc:
        if exc.response.get("error") not in {"expired_trigger_id", "exchanged_trigger_id", "invalid_trigger_id"}:
            raise
        raise UserError("Slack's moment to open the form passed before I could; type `/recount returns` "
                        "again.") from None
    try:
        found = returns_forms.form_for_command(ix.services, team_id=ix.team_id, contest_name=_contest_arg(args))
        if isinstance(found, EntryForm):
            view = entry_modal(found, channel_id=ix.channel_id)
        else:
            form, name = found
            note = None
            if name:
                where = next((e.name for e in form.elections if e.id == form.election_id), None)
                note = (f"No contest called “{echo(name)}” in {esc(where)}: choose one, or set it up as a new "
                        "contest." if where else f"No contest called “{echo(name)}” yet: set it up below.")
            view = pick_modal(form, channel_id=ix.channel_id, contest=NEW if name else None, contest_name=name,
                              note=note)
    except UserError as exc:
        view = message_modal("Enter returns", said(exc.words))
    except Exception:
        ix.client.views_update(view_id=opened["id"], view=message_modal(
            "Enter returns", ":warning: The form could not be loaded; recount-bot sent you the details."))
        raise
    ix.client.views_update(view_id=opened["id"], hash=opened.get("hash"), view=view)


# ------------------------------------------------------------------ reading a view
def _errors(ix: Interaction, exc: UserError, choice_ids: dict[str, str] | None = None) -> None:
    """Each error on the block of the field it is about (handlers.interaction.errors_on_fields)."""
    raw = exc.errors if isinstance(exc, FormErrors) else {exc.field: exc.words}
    blocks = {**{field: block.value for field, block in FIELD_BLOCKS.items()}, **(choice_ids or {})}
    errors_on_fields(ix, ((blocks.get(field or ""), message) for field, message in raw.items()))


def _update(ix: Interaction, view: dict, new_view: dict) -> None:
    """Redraw a modal after a select changed; a newer redraw (hash conflict) wins."""
    try:
        ix.client.views_update(view_id=view["id"], hash=view.get("hash"), view=new_view)
    except SlackApiError as exc:
        if exc.response.get("error") != "hash_conflict":
            raise
        log.info("a newer update of view %s won", view["id"])


# ------------------------------------------------------------------ step 1
def _pick_view(ix: Interaction, meta: dict, election: str | None, contest: str | None) -> dict:
    wanted = None if election == NEW else int(election) if election and election.isdigit() else "latest"
    form = returns_forms.pick_form(ix.services, team_id=ix.team_id, election_id=wanted)
    if contest != NEW and contest not in {str(c.id) for c in form.contests}:
        contest = None  # a contest of the election shown before
    return pick_modal(form, channel_id=meta.get("c"), contest=contest)


def pick_changed(ix: Interaction) -> None:
    view = ix.body["view"]
    state = view.get("state", {})
    election = selected(state, Block.RETURNS_ELECTION)
    contest = selected(state, Block.RETURNS_CONTEST)
    if ix.body["actions"][0]["action_id"] == Block.RETURNS_ELECTION.value:
        contest = None if election == NEW else contest
    _update(ix, view, _pick_view(ix, metadata_of(view), election, contest))


def submit_pick(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    shown = shown_blocks(view)
    election = selected(state, Block.RETURNS_ELECTION) if Block.RETURNS_ELECTION.value in shown else NEW
    listed = meta.get("le")
    if Block.RETURNS_CONTEST.value in shown:
        contest = selected(state, Block.RETURNS_CONTEST)
    else:
        contest = NEW
    if election is None:
        ix.ack(response_action="errors",
               errors={Block.RETURNS_ELECTION.value: "Choose an election, or “New election…”."})
        return
    # The form does not show what was selected (its redraw was lost): redraw it now instead of guessing.
    stale_shape = (
        (election == NEW and Block.RETURNS_NEW_ELECTION_NAME.value not in shown)
        or (election not in (None, NEW) and str(listed) != election)
        or (contest == NEW and Block.RETURNS_NEW_CONTEST_NAME.value not in shown))
    if stale_shape:
        ix.ack(response_action="update", view=_pick_view(ix, meta, election, contest))
        return
    try:
        target = returns_forms.resolve_target(
            ix.services, team_id=ix.team_id, election=election, contest=contest,
            election_name=typed(state, Block.RETURNS_NEW_ELECTION_NAME),
            election_date=value_of(state, Block.RETURNS_NEW_ELECTION_DATE).get("selected_date"),
            local_government=typed(state, Block.RETURNS_LOCAL_GOVERNMENT),
            governing_body=typed(state, Block.RETURNS_GOVERNING_BODY),
            law=selected(state, Block.RETURNS_NEW_ELECTION_LAW),
            contest_name=typed(state, Block.RETURNS_NEW_CONTEST_NAME),
            kind=selected(state, Block.RETURNS_NEW_CONTEST_KIND),
            seats=typed(state, Block.RETURNS_NEW_CONTEST_SEATS),
            choices=typed(state, Block.RETURNS_NEW_CONTEST_CHOICES))
        next_view = entry_modal(returns_forms.entry_form(ix.services, team_id=ix.team_id, target=target),
                                channel_id=meta.get("c"))
    except UserError as exc:
        _errors(ix, exc)
        return
    ix.ack(response_action="update", view=next_view)


# ------------------------------------------------------------------ step 2
def unit_changed(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    chosen = selected(view.get("state", {}), Block.RETURNS_UNIT)
    if chosen is None or not chosen.isdigit() or int(chosen) == meta.get("ux"):
        return
    form = returns_forms.entry_form(ix.services, team_id=ix.team_id, target=target_of(meta), unit_index=int(chosen))
    _update(ix, view, entry_modal(form, channel_id=meta.get("c")))


@as_one_unit
def submit_entry(ix: Interaction) -> None:
    view = ix.body["view"]
    meta = metadata_of(view)
    state = view.get("state", {})
    target = target_of(meta)
    unit_key = int(meta.get("ux") or 0)
    chosen = selected(state, Block.RETURNS_UNIT)
    if chosen is not None and chosen.isdigit() and int(chosen) != unit_key:
        # Another unit is selected but its counts were never shown (the redraw was lost): show them now.
        form = returns_forms.entry_form(ix.services, team_id=ix.team_id, target=target, unit_index=int(chosen))
        ix.ack(response_action="update", view=entry_modal(form, channel_id=meta.get("c")))
        return
    count = len(meta.get("ids") or []) if target.contest_id else len(target.new_contest.choices)
    blocks = {returns_forms.choice_field(i): choice_block_id(unit_key, i) for i in range(count)}
    entry = returns_entry.Entry(
        target=target, unit=meta.get("u") or "", based_on=int(meta.get("v") or 0),
        choice_ids=tuple(meta.get("ids") or ()), counts=[typed(state, blocks[f]) for f in blocks],
        reason=typed(state, Block.RETURNS_REASON), evidence=typed(state, Block.RETURNS_EVIDENCE))
    try:
        result = returns_entry.record_entry(ix.services, team_id=ix.team_id, actor=ix.user_id, entry=entry,
                                           may_correct=ix.role is Role.OFFICIAL)
    except UserError as exc:
        if isinstance(exc, FormErrors) or exc.field:
            _errors(ix, exc, blocks)
            return
        raise  # not about a field (a newer version, ...): the modal tells it
    # Queued in the entry's transaction, before the answer: if the outbox cannot take them, nothing is recorded
    # and the modal, still open, says so. The worker posts them once Slack has its answer.
    _note_in_case_thread(ix, result)
    _announce(ix, result, channel_id=meta.get("c"))
    ix.ack()  # closes the modal


def _note_in_case_thread(ix: Interaction, result: returns_entry.EntryResult) -> None:
    """A correction of returns under recount is said in the case's thread (through the outbox)."""
    if result.case_id is None or not result.correction:
        return
    case = cases.case_view(ix.services, result.case_id)
    if case.card_ts:
        opened_on = result.followed.before if result.followed else case.returns_version
        post_in_thread(ix.services, case, case_thread_note(result, ix.user_id, case_version=opened_on))
        refresh_card(ix.services, case)  # the version it follows, and the comparison with it


def _announce(ix: Interaction, result: returns_entry.EntryResult, *, channel_id: str | None) -> None:
    """The returns are recorded: say so where `/recount returns` was typed, through the outbox in the entry's own
    transaction. If that channel will not take the post, the worker sends it to the clerk with the reason."""
    text, blocks = confirmation(result, ix.user_id)
    post_where_typed(ix.services, team_id=ix.team_id, user_id=ix.user_id, channel_id=channel_id, text=text,
                     blocks=blocks)
