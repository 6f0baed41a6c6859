"""The `/recount returns` form: step 1 chooses the election and contest, step 2 takes one count per choice.

Pure builders. What a later request needs is kept in `private_metadata` (JSON, short keys):

    step 1  {"c": channel, "le": id of the election whose contests are listed (null: a new election)}
    step 2  {"c": channel, "e": election id | null, "ne": new election | null, "k": contest id | null,
             "nc": new contest | null, "u": unit, "ux": unit key, "v": version the form is built on,
             "ids": stored choice ids, "x": correction?}
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from handlers.blocks.common import (
    MESSAGE_BLOCKS_LIMIT,
    MODAL_BLOCKS_LIMIT,
    SECTION_TEXT_LIMIT,
    button,
    chunks,
    context,
    day,
    denver,
    election_label,
    esc,
    metadata,
    modal,
    option,
    section,
)
from handlers.blocks.inputs import SELECT_OPTIONS_LIMIT, date_input, number_input, select_input, text_input
from handlers.blocks.law_select import law_select
from handlers.ids import Action, Block, View
from handlers.slack_text import mention
from rules.contest import ContestKind
from rules.corrections import signed, unit_label
from services.conduct.follow_returns import Followed
from services.errors import UserError
from services.returns.entry import EntryResult
from services.returns.forms import (
    KIND_LABEL,
    MAX_CHOICES,
    NEW,
    EntryForm,
    NewContest,
    NewElection,
    PickForm,
    Target,
)

METADATA_LIMIT = 3000
KIND_OPTIONS = [(ContestKind.CANDIDATE.value, "Candidate race"),
                (ContestKind.QUESTION.value, "Ballot issue or question")]


# ------------------------------------------------------------------ small pieces
def _metadata(data: dict[str, Any], *, field: str | None = None) -> str:
    text = metadata(data)
    if len(text) > METADATA_LIMIT:
        raise UserError("The names in this contest are too long to carry through Slack's form; shorten them or "
                        "import the returns from a file (`recount-bot import`).", field=field)
    return text


def loading_modal() -> dict:
    return modal("Enter returns", [section(":hourglass_flowing_sand: Loading the returns…")],
                 callback_id=View.MESSAGE.value, close="Close")


# ------------------------------------------------------------------ step 1
def pick_modal(form: PickForm, *, channel_id: str | None, contest: str | None = None,
               contest_name: str | None = None, note: str | None = None) -> dict:
    """Which election and contest. `contest` is the contest selected (an id as text, or NEW)."""
    blocks: list[dict] = [section("Choose the contest whose returns you are entering or correcting, or set up a "
                                  "new one. Next you enter one count per choice."),
                          {"type": "actions", "elements": [button(
                              "Upload a results file instead", Action.RETURNS_UPLOAD_OPEN.value, "upload")]}]
    if note:
        blocks.append(context(note))
    new_election = form.election_id is None
    if form.elections:
        options = [option(election_label(e, form.elections), str(e.id))
                   for e in form.elections[:SELECT_OPTIONS_LIMIT - 1]]
        options.append(option("New election…", NEW))
        blocks.append(select_input(Block.RETURNS_ELECTION, "Election", options, placeholder="Choose the election",
                                   initial=str(form.election_id) if form.election_id else NEW, dispatch=True))
    if new_election:
        government, body = form.governments[0] if len(form.governments) == 1 else (None, None)
        known = ", ".join(name for name, _ in form.governments)
        blocks += [
            text_input(Block.RETURNS_NEW_ELECTION_NAME, "Election name",
                       placeholder="e.g. Regular Special District Election"),
            date_input(Block.RETURNS_NEW_ELECTION_DATE, "Election day", placeholder="Choose the day of the election"),
            text_input(Block.RETURNS_LOCAL_GOVERNMENT, "Local government conducting the election", initial=government,
                       placeholder="e.g. Bear Creek Fire Protection District",
                       hint=f"Already set up: {known}." if known else None),
            text_input(Block.RETURNS_GOVERNING_BODY, "Its governing body (receives the recount notices)",
                       initial=body, placeholder="e.g. Board of Directors"),
            law_select(),
        ]
    show_new_contest = new_election or not form.contests or contest == NEW
    if not new_election and form.contests:
        options = [option(c.name, str(c.id)) for c in form.contests]
        options.append(option("New contest…", NEW))
        blocks.append(select_input(Block.RETURNS_CONTEST, "Contest", options, placeholder="Choose the contest",
                                   initial=contest, dispatch=True))
    if show_new_contest:
        blocks += [
            text_input(Block.RETURNS_NEW_CONTEST_NAME, "New contest: name", initial=contest_name,
                       placeholder="e.g. Aspen Grove Library District - Trustee"),
            select_input(Block.RETURNS_NEW_CONTEST_KIND, "Kind",
                         [option(label, value) for value, label in KIND_OPTIONS], placeholder="Choose the kind",
                         initial=ContestKind.CANDIDATE.value),
            number_input(Block.RETURNS_NEW_CONTEST_SEATS, "Seats to fill", initial=1, minimum=1),
            text_input(Block.RETURNS_NEW_CONTEST_CHOICES, "Choices, one per line", multiline=True, max_length=3000,
                       placeholder="The candidates, or Yes and No",
                       hint=f"In ballot order. Blank lines are ignored; at most {MAX_CHOICES}. One choice alone is "
                            "an uncontested race."),
        ]
    metadata = _metadata({"c": channel_id, "le": form.election_id})
    return modal("Enter returns", blocks, callback_id=View.RETURNS_PICK.value, submit="Next",
                 private_metadata=metadata)


# ------------------------------------------------------------------ step 2
def choice_block_id(unit_key: int, position: int) -> str:
    return f"{Block.RETURNS_CHOICE_PREFIX.value}{unit_key}.{position}"


def _target_metadata(target: Target) -> dict[str, Any]:
    ne, nc = target.new_election, target.new_contest
    return {
        "e": target.election_id, "k": target.contest_id,
        "ne": {"n": ne.name, "d": ne.election_date.isoformat(), "g": ne.local_government, "b": ne.governing_body,
               "l": ne.law} if ne else None,
        "nc": {"n": nc.name, "t": nc.kind, "s": nc.seats, "ch": list(nc.choices)} if nc else None,
    }


def target_of(meta: dict[str, Any]) -> Target:
    ne, nc = meta.get("ne"), meta.get("nc")
    return Target(
        election_id=meta.get("e"), contest_id=meta.get("k"),
        new_election=NewElection(ne["n"], dt.date.fromisoformat(ne["d"]), ne["g"], ne["b"], str(ne.get("l") or ""))
        if ne else None,
        new_contest=NewContest(nc["n"], nc["t"], int(nc["s"]), tuple(nc["ch"])) if nc else None)


def entry_modal(form: EntryForm, *, channel_id: str | None) -> dict:
    """One number input per choice, the unit when the contest has several, and for a correction its reason."""
    if len(form.choices) > MAX_CHOICES:
        raise UserError(f"{form.contest_name} has {len(form.choices)} choices; this form holds at most "
                        f"{MAX_CHOICES}. Import its returns from a file (`recount-bot import`).", field="choices")
    seats = f"{form.seats} seat{'s' if form.seats != 1 else ''}"
    new = " (new)" if form.target.contest_id is None else ""
    blocks: list[dict] = [section(
        f"*{esc(form.contest_name)}*{new}\n{esc(form.election_name)} · {day(form.election_date)} · "
        f"{KIND_LABEL.get(form.kind, form.kind)} · {seats}{'' if form.per_unit else ' · whole contest'}")]
    next_version = form.version + 1
    if form.correction:
        blocks.append(context(
            f"Correcting survey version {form.version} (recorded by {mention(form.version_by)}"
            f"{', ' + denver(form.version_at) if form.version_at else ''}). Your correction becomes version "
            f"{next_version} with its reason; version {form.version} stays on the record ({form.correcting_under})."))
    else:
        blocks.append(context(f"First returns for this contest: they become survey version {next_version}."))
    unit_key = form.units.index(form.unit) if form.unit in form.units else 0
    if form.per_unit:
        options = [option(unit_label(u), str(i)) for i, u in enumerate(form.units)]
        blocks.append(select_input(Block.RETURNS_UNIT, "Unit (precinct, machine or batch)", options,
                                   placeholder="Choose the unit", initial=str(unit_key), dispatch=True,
                                   hint="Enter one unit at a time; the other units are carried over unchanged."))
    for position, choice in enumerate(form.choices):
        current = form.current.get(choice) if form.current is not None else None
        hint = None
        if form.correction:
            hint = f"Version {form.version}: {current:,}" if current is not None else \
                f"Version {form.version}: no count"
        blocks.append(number_input(choice_block_id(unit_key, position), choice, initial=current, minimum=0,
                                   hint=hint))
    if form.correction:
        blocks += [
            text_input(Block.RETURNS_REASON, "Reason for the correction", multiline=True, max_length=1000,
                       placeholder="The finding it rests on, e.g. Precinct 2 batch 14 was not counted",
                       hint=f"Required: {form.correcting_under} allows a correction on the official's findings."),
            text_input(Block.RETURNS_EVIDENCE, "Evidence presented", multiline=True, max_length=1000, optional=True,
                       placeholder="One item per line, e.g. Batch 14 tally sheet"),
        ]
    if len(blocks) > MODAL_BLOCKS_LIMIT:
        raise UserError(f"{form.contest_name} does not fit in one form; import its returns from a file.")
    metadata = _metadata({"c": channel_id, **_target_metadata(form.target), "u": form.unit, "ux": unit_key,
                          "v": form.version, "ids": list(form.choice_ids), "x": form.correction}, field="choices")
    title, submit = ("Correct returns", "Record correction") if form.correction else ("Enter returns", "Record")
    return modal(title, blocks, callback_id=View.RETURNS_ENTER.value, submit=submit, private_metadata=metadata)


# ------------------------------------------------------------------ after recording
def headline(result: EntryResult, actor: str) -> str:
    return f"Returns for {esc(result.contest_name)} recorded as survey version {result.version} by {mention(actor)}"


def _about(result: EntryResult) -> str:
    """"a correction of version 1, Precinct 1" / "first returns, whole contest"."""
    what = f"a correction of version {result.supersedes}" if result.correction else "first returns"
    return f"{what}, {esc(unit_label(result.unit))}"


def change_lines(result: EntryResult) -> list[str]:
    """Each choice of the unit entered: before → after for a correction, the count for a first entry."""
    lines = []
    for choice in result.choices:
        after = result.after[choice]
        if result.before is None:
            lines.append(f"• {esc(choice)}: {after:,}")
            continue
        before = result.before.get(choice)
        if before == after:
            lines.append(f"• {esc(choice)}: {after:,} (unchanged)")
        else:
            shown = f"{before:,}" if before is not None else "no count"
            lines.append(f"• {esc(choice)}: {shown} → {after:,} ({signed(after - (before or 0))})")
    return lines


def confirmation(result: EntryResult, actor: str) -> tuple[str, list[dict]]:
    """The message posted in the channel where `/recount returns` was typed."""
    text = headline(result, actor)
    icon = ":pencil2:" if result.correction else ":ballot_box_with_ballot:"
    blocks = [section(f"{icon} {text}: {_about(result)}.")]
    blocks += [section(chunk) for chunk in chunks(change_lines(result))]
    if result.correction:
        details = f"*Reason:* {esc(result.reason)}"
        if result.evidence:
            details += "\n*Evidence:* " + "; ".join(esc(e) for e in result.evidence)
        blocks.append(section(details))
        note = (f"{result.citation}: a correction is recorded as a new version with its reason; version "
                f"{result.supersedes} stays on the record.")
    else:
        note = f"`/recount check {esc(result.contest_name)}` applies the ½ of 1% test of {result.trigger}."
    blocks.append(context(note, esc(result.election_name)))
    if len(blocks) > MESSAGE_BLOCKS_LIMIT:
        blocks = blocks[:MESSAGE_BLOCKS_LIMIT - 2] + [
            context("More choices than one message holds; the audit log has them all."), blocks[-1]]
    fallback = f"{text}: {_about(result)}"
    if result.correction:
        fallback += f" ({result.citation}). Reason: {esc(result.reason)}"
    return fallback, blocks


def followed_note(followed: Followed | None) -> str:
    """Whether the case follows the corrected survey (services.conduct.follow_returns), said before completion."""
    if followed is None:
        return ""
    if followed.followed:
        return (f"The recount now follows version {followed.after}: the card, the completion's comparison and the "
                "observers' page use it.")
    return (f"The recount stays on version {followed.before} and completion compares with it: "
            f"{esc(followed.why_not or '')}.")


def case_thread_note(result: EntryResult, actor: str, *, case_version: int) -> str:
    """For the recount case's thread: the returns it rests on were corrected after it opened."""
    changes = "; ".join(
        f"{esc(unit_label(c.unit))} {esc(c.choice)} {c.before:,} → {c.after:,} ({signed(c.delta)})"
        for c in result.changes[:20])
    if len(result.changes) > 20:
        changes += f"; and {len(result.changes) - 20} more"
    text = (f":pencil2: The returns of this contest were corrected after the case opened (on version "
            f"{case_version}): survey version {result.version} by {mention(actor)}: {changes}. Reason: "
            f"{esc(result.reason)} ({result.citation}). {followed_note(result.followed)}")
    return text[:SECTION_TEXT_LIMIT]
