"""The tally forms (5): setting up the count, entering one tally sheet, withdrawing an entry; and the
disagreement post. Pure builders.

`private_metadata` (JSON, short keys):
    set-up      {"k": case id}
    sheet       {"c": channel, "k": case id shown (null: none chosen yet), "f": fingerprint of the units}
    withdraw    {"k": case id}
"""
from __future__ import annotations

from handlers.blocks.common import button, context, esc, metadata, modal, option, section
from handlers.blocks.inputs import input_block, number_input, select_input, text_input
from handlers.ids import Action, Block, View
from handlers.slack_text import mention
from rules.corrections import unit_label
from rules.tally import CountMethod
from services.conduct.tally_forms import CountingCase, DisagreementLine, EntryLine, SetUpForm, SheetForm, TallySummary

METHOD_OPTIONS = [(CountMethod.PAPER.value, "Paper ballots"), (CountMethod.ELECTRONIC.value, "Electronic ballots"),
                  (CountMethod.VOTING_MACHINE.value, "Voting machines (one tally sheet per machine)")]
DOUBLE_ENTRY = "on"
UNITS_TEXT_LIMIT = 3000


# ------------------------------------------------------------------ small pieces
def unit_word(method: str) -> str:
    return "machine" if method == CountMethod.VOTING_MACHINE.value else "unit"


def unit_block(case_id: int) -> str:
    return f"{Block.TALLY_UNIT_PREFIX.value}{case_id}"


def count_block(case_id: int, position: int) -> str:
    return f"{Block.TALLY_COUNT_PREFIX.value}{case_id}.{position}"


def counts_text(counts: tuple[tuple[str, int], ...] | list[tuple[str, int]]) -> str:
    return " · ".join(f"{choice} {votes:,}" if isinstance(votes, int) else f"{choice} ?" for choice, votes in counts)


def progress_text(summary: TallySummary) -> str:
    return f"{summary.tallied:,} of {summary.expected:,} units tallied"


# ------------------------------------------------------------------ setting up the count
def set_up_modal(form: SetUpForm) -> dict:
    units_listed = ", ".join(unit_label(u) for u in form.returns_units[:20])
    if len(form.returns_units) > 20:
        units_listed += f" and {len(form.returns_units) - 20:,} more"
    custom = form.units is not None and tuple(form.units) != tuple(form.returns_units)
    initial_units = "\n".join(form.units) if custom and form.units else None
    blocks: list[dict] = [
        section(f"How the recount of *{esc(form.contest)}* is tallied, and the units expected — one tally sheet "
                f"each."),
        context(f"{form.tally}: with paper or electronic ballots the ballots cast are recounted and tallied on "
                "sheets other than those used at the election; with voting machines the votes tabulated on the "
                "machines are recounted, on separate tally sheets for each machine."),
        select_input(Block.TALLY_METHOD, "How the votes are recounted",
                     [option(label, value) for value, label in METHOD_OPTIONS], placeholder="Choose the method",
                     initial=form.method),
        text_input(Block.TALLY_UNITS, "Units expected (one per line)", initial=initial_units, multiline=True,
                   max_length=UNITS_TEXT_LIMIT, optional=True,
                   placeholder="M-01\nM-02",
                   hint=f"Blank: the survey's units ({units_listed}). With voting machines, list the machines' ids: "
                        "one tally sheet per machine."),
        input_block(Block.TALLY_DOUBLE_ENTRY, "Double entry", {
            "type": "checkboxes", "options": [option("Each sheet is entered by two people", DOUBLE_ENTRY)],
            **({"initial_options": [option("Each sheet is entered by two people", DOUBLE_ENTRY)]}
               if form.double_entry else {})},
            optional=True, hint="A unit then counts only when two different people's entries of its sheet agree."),
        text_input(Block.TALLY_ELECTION_SHEETS, "Tally sheets used at the election (one per line)",
                   initial="\n".join(form.election_sheet_ids) or None, multiline=True,
                   max_length=UNITS_TEXT_LIMIT, optional=True, placeholder="E-01\nE-02",
                   hint="The identifiers of the election's own tally sheets. A recount sheet with one of them is "
                        f"refused: with paper or electronic ballots the votes are tallied on sheets other than those "
                        f"used at the election ({form.tally}). Not checked with voting machines."),
    ]
    if form.sheets_entered:
        blocks.append(context(f"{form.sheets_entered:,} tally entr{'y is' if form.sheets_entered == 1 else 'ies are'}"
                              " entered: the method and the units can change only after they are withdrawn; double "
                              "entry can change."))
    return modal("Set up the count", blocks, callback_id=View.SET_UP_COUNT.value, submit="Save",
                 private_metadata=metadata({"k": form.case_id}))


# ------------------------------------------------------------------ one tally sheet
def _case_select(cases: list[CountingCase], chosen: int | None) -> dict:
    options = [option(f"#{c.id} — {c.contest}", str(c.id)) for c in cases if c.set_up]
    return select_input(Block.TALLY_CASE, "Recount", options, placeholder="Choose the recount",
                        initial=str(chosen) if chosen else None, dispatch=True)


def sheet_modal(*, cases: list[CountingCase], form: SheetForm | None, channel_id: str | None,
                note: str | None = None) -> dict:
    """The tally-sheet form. With several recounts counting, a select chooses the case (choosing redraws the
    form with its units and choices); with one, its form is shown at once."""
    blocks: list[dict] = []
    if note:
        blocks.append(context(note))
    if len([c for c in cases if c.set_up]) > 1 or form is None:
        blocks.append(_case_select(cases, form.case_id if form else None))
    not_set_up = [c for c in cases if not c.set_up]
    if form is None:
        blocks.append(section("Choose the recount whose tally sheet you are entering."))
        if not_set_up:
            blocks.append(context("Not set up yet (the card's *Set up the count*): " + ", ".join(
                f"#{c.id} {esc(c.contest)}" for c in not_set_up[:10])))
        return modal("Enter tally sheet", blocks, callback_id=View.TALLY_SHEET.value, submit="Next",
                     private_metadata=metadata({"c": channel_id, "k": None, "f": None}))
    summary = form.summary
    word = unit_word(summary.method)
    mode = "double entry: a unit counts when two people's entries agree" if summary.double_entry \
        else "single entry: the first entry counts; a second entry checks it"
    blocks += [
        section(f"*{esc(form.contest)}* (case #{form.case_id}) — {summary.method_label}; {mode}.\n"
                f"*{progress_text(summary)}*."),
        context(f"{form.tally}: tally on sheets other than those used at the election"
                + ("; a separate tally sheet for each machine." if word == "machine" else
                   f" ({len(summary.election_sheet_ids):,} of the election's sheet ids on record: a sheet with one of "
                   "them is refused)." if summary.election_sheet_ids else
                   " (the election's sheet ids are not on record: the card's *Set up the count* takes them).")
                + " You are recorded as the person entering this sheet; the entry number is decided for you: 1 for a "
                  "sheet not yet entered, 2 for the check of a sheet someone else entered."),
    ]
    waiting = summary.awaiting_sheets
    if waiting:
        listed = ", ".join(f"{esc(e.sheet_id)} ({esc(unit_label(e.unit))})" for e in waiting[:15])
        more = f" and {len(waiting) - 15:,} more" if len(waiting) > 15 else ""
        blocks.append(context(f"Awaiting a second entry by someone other than the first: {listed}{more}."))
    units = [option(unit_label(u), str(i)) for i, u in enumerate(summary.units)]
    blocks += [
        text_input(Block.TALLY_SHEET_ID, "Sheet id", max_length=100,
                   placeholder="The id written on the tally sheet, e.g. T-7"),
        select_input(unit_block(form.case_id), word.capitalize(), units,
                     placeholder=f"Choose the {word} this sheet tallies"),
    ]
    for position, choice in enumerate(summary.choices):
        blocks.append(number_input(count_block(form.case_id, position), choice, minimum=0,
                                   hint="Votes on the sheet; write 0 if none (a blank is not a zero)." if position == 0
                                   else None))
    return modal("Enter tally sheet", blocks, callback_id=View.TALLY_SHEET.value, submit="Record sheet",
                 private_metadata=metadata({"c": channel_id, "k": form.case_id, "f": form.fingerprint}))


# ------------------------------------------------------------------ withdrawing an entry
def entry_option_text(entry: EntryLine) -> str:
    return f"Sheet {entry.sheet_id} · {unit_label(entry.unit)} · entry {entry.entry} · {counts_text(entry.counts)}"


def withdraw_modal(*, case_id: int, contest: str, entries: tuple[EntryLine, ...], chosen: int | None) -> dict:
    entry = next((e for e in entries if e.row_id == chosen), None)
    blocks: list[dict] = [
        section(f"Withdraw an entry of a tally sheet of *{esc(contest)}* (case #{case_id}). It stays on the record, "
                "marked withdrawn with your reason; the sheet can then be entered again."),
    ]
    if entry is not None:
        blocks.append(section(f"{mention(entry.entered_by)}'s entry {entry.entry} of sheet *{esc(entry.sheet_id)}* "
                              f"({esc(unit_label(entry.unit))}): {esc(counts_text(entry.counts))}."))
    blocks += [
        select_input(Block.TALLY_ENTRY, "Entry", [option(entry_option_text(e), str(e.row_id)) for e in entries],
                     placeholder="Choose the entry to withdraw", initial=str(chosen) if chosen else None),
        text_input(Block.TALLY_REASON, "Why it is withdrawn", multiline=True, max_length=1000,
                   placeholder="e.g. mistyped: the sheet says 2,190 for No"),
    ]
    return modal("Withdraw an entry", blocks, callback_id=View.WITHDRAW_ENTRY.value, submit="Withdraw",
                 private_metadata=metadata({"k": case_id}))


# ------------------------------------------------------------------ the disagreement
def differences_text(d: DisagreementLine) -> str:
    return "; ".join(f"{esc(choice)}: {a:,} (entry 1) vs {b:,} (entry 2)" for choice, a, b in d.differences)


def disagreement_text(d: DisagreementLine, *, contest: str, case_id: int, double_entry: bool, cited: str) -> str:
    effect = ("the unit does not count until they agree" if double_entry
              else "the first entry counts meanwhile (single entry), but the sheet should be checked")
    return (f":x: *Double-entry disagreement* on {esc(unit_label(d.unit))}, sheet *{esc(d.sheet_id)}* of "
            f"{esc(contest)} (case #{case_id}): entry 1 by {mention(d.first.entered_by)} and entry 2 by "
            f"{mention(d.second.entered_by)} differ — {differences_text(d)}. {effect.capitalize()} ({cited}). "
            "Check the physical sheet; withdraw the mistyped entry and enter it again.")


def disagreement_blocks(d: DisagreementLine, *, contest: str, case_id: int, double_entry: bool,
                        cited: str) -> list[dict]:
    """The post, with a button to withdraw each entry (a section each: action ids are unique within a block)."""
    blocks = [section(disagreement_text(d, contest=contest, case_id=case_id, double_entry=double_entry,
                                        cited=cited))]
    for entry in (d.first, d.second):
        blocks.append(section(f"Entry {entry.entry} by {mention(entry.entered_by)}: {esc(counts_text(entry.counts))}",
                              accessory=button("Withdraw", Action.WITHDRAW_ENTRY.value, f"{case_id}:{entry.row_id}")))
    blocks.append({"type": "actions", "elements": [
        button("Enter tally sheet", Action.ENTER_SHEET.value, str(case_id))]})
    return blocks
