"""The returns-from-a-file form (`/recount returns upload`): the file, the election it belongs to, how to read it;
and the short modals shown while the bot reads or saves it. Pure builders.

`private_metadata` (JSON, short keys):

    form     {"c": channel}
    preview  {"c": channel, "e": election id | null, "ne": new election | null, "ek": election kind | null,
              "st": seats as CONTEST=N lines, "f": file id, "fn": file name, "h": sha256, "v": version it is built
              on, "ok": can be saved, "x": a correction, "p": why it cannot be saved (row/column messages),
              "sa": the contests whose seats the preview asks for, in the order of its seats inputs}
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from handlers.blocks.common import clip, election_label, esc, metadata, modal, option, section
from handlers.blocks.inputs import HINT_LIMIT, SELECT_OPTIONS_LIMIT, date_input, input_block, select_input, text_input
from handlers.blocks.law_select import law_select
from handlers.ids import Block, View
from handlers.slack_io.reading_child import ParseLimits
from rules.returns.registry import KNOWN_AS
from services.errors import UserError
from services.returns.forms import NEW, NewElection, PickForm
from services.returns.upload import FILE_TYPES, SEATS_TEXT_LIMIT, Reading, UploadTarget, parse_reading

TITLE = "Returns from a file"
METADATA_LIMIT = 3000
SEATS_ASKED_LIMIT = 20  # seats inputs in one preview (a modal holds 100 blocks; the verdicts need the rest)
KIND_OPTIONS = [("general", "General election: every candidate compared"),
                ("primary", "Party primary: one contest per party")]
# Every format read, as people know them, from the readers' registry (a format added there is named here too).
FORMATS = ", ".join(known.title for known in KNOWN_AS.values())


@dataclass(frozen=True)
class FormValues:
    """What the person had entered, shown again when the form comes back (a file that could not be read)."""

    election: str | None = None  # a stored election's id as text, or NEW
    election_name: str | None = None
    election_date: str | None = None
    local_government: str | None = None
    governing_body: str | None = None
    law: str | None = None
    election_kind: str | None = None
    seats: str | None = None
    file_name: str | None = None  # the file to attach again (back from the preview: Slack keeps no file in a form)


@dataclass(frozen=True)
class Failed:
    """The file that could not be read, and why (row/column messages, or what went wrong fetching it); problems
    with the seats asked for go on the seats field."""

    file_name: str
    problems: tuple[str, ...]
    seats_problems: tuple[str, ...] = ()


def problems_text(problems: list[str] | tuple[str, ...], limit: int) -> str:
    """As many problems as fit in `limit` characters, one per line, then how many more there are."""
    lines: list[str] = []
    for index, problem in enumerate(problems):
        more = len(problems) - index - 1
        reserve = len(f"\n… and {more} more") if more else 0
        if len("\n".join([*lines, problem])) + reserve > limit:
            if not lines:  # one long problem: as much of it as fits
                lines.append(clip(problem, max(1, limit - reserve - 1)))
                if more:
                    lines.append(f"… and {more} more")
            else:
                lines.append(f"… and {more + 1} more")
            break
        lines.append(problem)
    return clip("\n".join(lines), limit)


# ------------------------------------------------------------------ small pieces
def file_input(block: Block, label: str, *, optional: bool = False, hint: str | None = None) -> dict[str, Any]:
    return input_block(block, label, {"type": "file_input", "filetypes": list(FILE_TYPES), "max_files": 1},
                       optional=optional, hint=hint)


def _day(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


# ------------------------------------------------------------------ the form
def upload_form(form: PickForm, *, channel_id: str | None, values: FormValues | None = None,
                failed: Failed | None = None) -> dict:
    values = values or FormValues()
    blocks: list[dict] = [section(
        f"Attach the results file your vendor gave you, in any format I read: {FORMATS}. I read it and show you every verdict before "
        "anything is saved; saving makes it the election's next survey version.")]
    hint = "CSV, JSON, XML or Excel (.xlsx, .xls); one file."
    if failed is not None:
        where = "under the file field" if failed.problems else "under the seats field"
        blocks.append(section(f":warning: *{esc(failed.file_name)}* could not be read, so nothing was saved. Fix "
                              f"what is listed {where} and submit again."))
        hint = problems_text(failed.problems, HINT_LIMIT) if failed.problems else hint
    elif values.file_name:
        blocks.append(section(f":leftwards_arrow_with_hook: Back from the preview of *{esc(values.file_name)}*: "
                              "everything you typed is kept; attach the file again (Slack does not carry a file back "
                              "into a form) and change what you need."))
        hint = f"Attach {values.file_name} again, or another file."
    blocks.append(file_input(Block.RETURNS_UPLOAD_FILE, "Results file", hint=hint))
    selected = values.election or (str(form.election_id) if form.election_id else NEW)
    known = {str(e.id) for e in form.elections}
    if selected != NEW and selected not in known:
        selected = NEW if not form.elections else str(form.elections[0].id)
    if form.elections:
        options = [option(election_label(e, form.elections), str(e.id))
                   for e in form.elections[:SELECT_OPTIONS_LIMIT - 1]]
        options.append(option("New election…", NEW))
        blocks.append(select_input(Block.RETURNS_UPLOAD_ELECTION, "Election", options,
                                   placeholder="Choose the election", initial=selected, dispatch=True))
    if selected == NEW:
        government, body = form.governments[0] if len(form.governments) == 1 else (None, None)
        named = ", ".join(name for name, _ in form.governments)
        blocks += [
            text_input(Block.RETURNS_NEW_ELECTION_NAME, "Election name", initial=values.election_name,
                       placeholder="e.g. Regular Special District Election"),
            date_input(Block.RETURNS_NEW_ELECTION_DATE, "Election day", initial=_day(values.election_date),
                       placeholder="Choose the day of the election"),
            text_input(Block.RETURNS_LOCAL_GOVERNMENT, "Local government conducting the election",
                       initial=values.local_government or government,
                       placeholder="e.g. Bear Creek Fire Protection District",
                       hint=f"Already set up: {named}." if named else None),
            text_input(Block.RETURNS_GOVERNING_BODY, "Its governing body (receives the recount notices)",
                       initial=values.governing_body or body, placeholder="e.g. Board of Directors"),
            law_select(values.law),
        ]
    blocks += [
        select_input(Block.RETURNS_UPLOAD_KIND, "Kind of election",
                     [option(label, value) for value, label in KIND_OPTIONS], placeholder="As the file says",
                     initial=values.election_kind, optional=True,
                     hint="Leave empty to go by the file. Where a file does not say and the verdict depends on it, "
                          "the contest is left undecided until you choose."),
        text_input(Block.RETURNS_UPLOAD_SEATS, "Seats, where the file does not say", initial=values.seats,
                   multiline=True, max_length=SEATS_TEXT_LIMIT, optional=True,
                   placeholder="Cherry Creek Valley Water and Sanitation District - Director=2",
                   hint=problems_text(failed.seats_problems, HINT_LIMIT) if failed and failed.seats_problems else
                   "One contest per line: its name as in the file, =, the number of seats. Contests not listed fill "
                   "one seat unless the file says otherwise."),
    ]
    return modal(TITLE, blocks, callback_id=View.RETURNS_UPLOAD.value, submit="Read file",
                 private_metadata=metadata({"c": channel_id}))


def busy_modal(text: str) -> dict:
    return modal(TITLE, [section(f":hourglass_flowing_sand: {text}")], callback_id=View.MESSAGE.value, close="Close")


def _megabytes(size: int) -> str:
    return f"{size / 1048576:,.1f} MB"


def _so_far(waited: float | None, limits: ParseLimits | None, downloaded: tuple[int, int | None] | None) -> str:
    """How far a large file has come: the share downloaded from Slack, then how long the reading has taken and the
    most it may (the reading process is stopped there: handlers/slack_io/reading_child.py)."""
    if downloaded is not None:
        done, size = downloaded
        return (f" Downloaded from Slack: {min(done * 100 // size, 100)}% ({_megabytes(done)} of {_megabytes(size)})."
                if size else f" Downloaded from Slack: {_megabytes(done)} so far.")
    if waited is None or limits is None:
        return ""
    return f" Read for {int(waited):,} s so far; I stop at {limits.seconds:,} s or {limits.memory_mib:,} MiB."


def reading_modal(file_name: str, *, waited: float | None = None, limits: ParseLimits | None = None,
                  downloaded: tuple[int, int | None] | None = None) -> dict:
    return busy_modal(f"Reading *{esc(file_name)}*… the verdicts show here in a moment."
                      f"{_so_far(waited, limits, downloaded)}")


def saving_modal(file_name: str, *, waited: float | None = None, limits: ParseLimits | None = None,
                 downloaded: tuple[int, int | None] | None = None) -> dict:
    return busy_modal(f"Saving *{esc(file_name)}*…{_so_far(waited, limits, downloaded)}")


def outcome_modal(text: str) -> dict:
    return modal(TITLE, [section(text)], callback_id=View.MESSAGE.value, close="Close")


# ------------------------------------------------------------------ what the preview carries
@dataclass(frozen=True)
class PreviewState:
    channel_id: str | None
    target: UploadTarget
    reading: Reading
    file_id: str
    file_name: str
    sha256: str
    based_on: int
    saveable: bool
    correction: bool
    refusal: str  # why it cannot be saved, for the field
    seats_asked: tuple[str, ...] = ()  # contests whose seats the file does not state: one seats input each


def _target_data(target: UploadTarget) -> dict[str, Any]:
    ne = target.new_election
    return {"e": target.election_id,
            "ne": {"n": ne.name, "d": ne.election_date.isoformat(), "g": ne.local_government,
                   "b": ne.governing_body, "l": ne.law} if ne else None}


def preview_metadata(state: PreviewState) -> tuple[str, tuple[str, ...]]:
    """The preview's `private_metadata`, and the contests whose seats it asks for: as many of `seats_asked` as
    fit (at most SEATS_ASKED_LIMIT), each with room to spare for why the file cannot be saved."""
    data = {"c": state.channel_id, **_target_data(state.target), "ek": state.reading.election_kind,
            "st": state.reading.seats_text, "f": state.file_id, "fn": state.file_name[:200], "h": state.sha256,
            "v": state.based_on, "ok": state.saveable, "x": state.correction, "p": "", "sa": []}
    room = METADATA_LIMIT - len(metadata(data)) - 20
    if room < 100:
        raise UserError("The names in this form are too long to carry through Slack; shorten the seats list, or "
                        "import the file at the console (`recount-bot import`).")
    for name in state.seats_asked[:SEATS_ASKED_LIMIT]:
        if len(metadata({**data, "sa": [*data["sa"], name]})) > METADATA_LIMIT - 300:
            break  # the rest are listed as undecided: their seats go in the form's Seats field
        data["sa"].append(name)
    asked = tuple(data["sa"])
    refusal = state.refusal
    while True:  # JSON escapes (quotes, newlines) may lengthen the text: shorten until it fits
        data["p"] = refusal
        text = metadata(data)
        if len(text) <= METADATA_LIMIT:
            return text, asked
        refusal = refusal[: max(0, len(refusal) - (len(text) - METADATA_LIMIT) - 2)] + "…"


def preview_state(meta: dict[str, Any]) -> PreviewState:
    ne = meta.get("ne")
    target = UploadTarget(
        election_id=meta.get("e"),
        new_election=NewElection(ne["n"], dt.date.fromisoformat(ne["d"]), ne["g"], ne["b"], str(ne.get("l") or ""))
        if ne else None)
    return PreviewState(
        channel_id=meta.get("c"), target=target, reading=parse_reading(meta.get("ek"), meta.get("st")),
        file_id=str(meta.get("f") or ""), file_name=str(meta.get("fn") or "the file"), sha256=str(meta.get("h") or ""),
        based_on=int(meta.get("v") or 0), saveable=bool(meta.get("ok")), correction=bool(meta.get("x")),
        refusal=str(meta.get("p") or ""), seats_asked=tuple(str(n) for n in meta.get("sa") or ()))


def values_of(state: PreviewState) -> FormValues:
    """The form's values as the preview remembers them (to show the form again, the file to attach again)."""
    ne = state.target.new_election
    election = str(state.target.election_id) if state.target.election_id else NEW
    return FormValues(election=election, election_name=ne.name if ne else None,
                      election_date=ne.election_date.isoformat() if ne else None,
                      local_government=ne.local_government if ne else None,
                      governing_body=ne.governing_body if ne else None, law=ne.law if ne else None,
                      election_kind=state.reading.election_kind, seats=state.reading.seats_text or None,
                      file_name=state.file_name)
