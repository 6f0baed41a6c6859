"""What a results file says, before it is saved (the preview modal), and once it is (the modal's last word and the
channel's record of the new survey version). Pure builders; every name from the file is escaped.

Within Slack's limits: a modal holds 100 blocks and a section 3,000 characters. The contests go closest first,
one section each while there is room; the rest are summarised in one section.
"""
from __future__ import annotations

import re
from collections import Counter

from handlers.blocks.common import (
    MESSAGE_BLOCKS_LIMIT,
    MODAL_BLOCKS_LIMIT,
    SECTION_TEXT_LIMIT,
    button,
    chunks,
    clip,
    context,
    day,
    esc,
    modal,
    section,
)
from handlers.blocks.inputs import HINT_LIMIT, number_input
from handlers.blocks.upload_form import TITLE, file_input, problems_text
from handlers.ids import Action, Block, View
from handlers.slack_text import channel_link, mention
from rules.contest import Undecided
from rules.laws import DEFAULT_LAW
from rules.laws.profile import Part
from rules.margin import MarginDecision
from rules.returns.registry import KNOWN_AS
from services.election_law import ElectionLaw
from services.returns.upload import Preview, Saved

SUBMIT_LIMIT = 24
REFUSAL_LIMIT = 1000  # a field error: the first problems, then how many more (the preview lists them all)
TAG = {"automatic_recount": ":rotating_light: *RECOUNT*", "no_recount": "no recount", "uncontested": "uncontested"}
ROOM_KEPT = 2  # blocks kept free for the summary of the contests not shown and the file field


def format_name(source_format: str) -> str:
    known = KNOWN_AS.get(source_format)
    return f"{known.title if known else source_format} ({source_format})"


def save_label(version: int) -> str:
    label = f"Save as survey version {version}"
    return label if len(label) <= SUBMIT_LIMIT else f"Save as version {version}"[:SUBMIT_LIMIT]


def _size(size: int) -> str:
    return f"{size:,} bytes" if size < 10_240 else f"{size / 1024:,.0f} KB" if size < 10_485_760 \
        else f"{size / 1048576:,.1f} MB"


def _standing(d: MarginDecision, which: str) -> str:
    standing = getattr(d, which)
    return f"{esc(standing.choice)} — {standing.votes:,}" if standing else "—"


def verdict_line(d: MarginDecision) -> str:
    seats = f" · {d.seats} seats" if d.seats > 1 else ""
    if d.margin is None:
        line = f"{TAG[d.outcome]} · *{esc(d.contest)}*{seats} — {_standing(d, 'highest')}; no next highest"
    else:
        tie = " · :scales: tie for the last seat" if d.tie_for_last_seat else ""
        line = (f"{TAG[d.outcome]} · *{esc(d.contest)}*{seats}\n{_standing(d, 'highest')} vs "
                f"{_standing(d, 'next_highest')} · margin {d.margin:,} (triggers at ≤ "
                f"{d.max_margin_for_recount:,}){tie}")
    for note in (d.tie_note, d.write_in_note):
        if note:
            line += f"\n_{esc(note)}_"
    return clip(line, SECTION_TEXT_LIMIT)


def _undecided_line(u: Undecided) -> str:
    where = f" ({esc('; '.join(u.rows[:3]))}{'; …' if len(u.rows) > 3 else ''})" if u.rows else ""
    name = esc(u.contest) if u.contest is not None else "rows naming no contest"
    return f"• *{name}* — {esc(u.reason)}{where}"


# The rule's reason ends by naming the command line's option; in the preview the seats input stands for it.
_SAY_SEATS = re.compile(r"\s*Say the seats: --seats \".*\"\s*$", re.S)
MAX_SEATS = 99  # a seats input: more than any Colorado body elects at once


def seats_block(index: int) -> str:
    return f"{Block.RETURNS_UPLOAD_SEATS_FOR_PREFIX.value}{index}"


def _seats_asked(p: Preview, asked: tuple[str, ...]) -> list[dict]:
    """First in the preview: each contest whose seats the file does not state (and another number would change its
    verdict, rules/seats.py), with a number input for its seats; submitting reads the file again with them."""
    held = {u.contest: u for u in p.verdicts.undecided if u.seats_not_stated}
    if not asked:
        return []
    blocks = [section(f":bust_in_silhouette: *Seats not stated ({len(asked)})*: the file does not say how many seats "
                      f"{'these contests fill' if len(asked) > 1 else 'this contest fills'}, and another number would "
                      "change the verdict, so it is undecided until you say. Give the seats and click *Read with "
                      "these seats*: I read the file again with them (nothing is saved until you save).")]
    for index, name in enumerate(asked):
        reason = held[name].reason if name in held else ""
        blocks.append(number_input(seats_block(index), f"Seats: {name}", minimum=1, optional=True,
                                   hint=clip(_SAY_SEATS.sub("", reason) or reason, HINT_LIMIT) or None))
    return blocks


def _readings(p: Preview) -> list[str]:
    """Every reading applied: the file's, then the contests' (with how many contests each applies to)."""
    counted: Counter[str] = Counter()
    for d in p.verdicts.decisions:
        counted.update(dict.fromkeys(d.readings, 1))
    lines = [f"• {esc(r)}" for r in p.returns.readings]
    lines += [f"• {esc(r)}" + (f" _({n} contests)_" if n > 1 else "") for r, n in counted.most_common()]
    return lines


def _status(p: Preview) -> str:
    if p.problems:
        return (f":no_entry: *This file cannot be saved as a survey of returns*: a survey needs every count exact and "
                f"every contest decided. The verdicts below are what the file allows. {len(p.problems)} "
                f"problem{'s' if len(p.problems) != 1 else ''}:")
    if p.identical:
        return (f":information_source: These returns are identical to survey version {p.based_on}: there is nothing "
                "to save.")
    if p.correction:
        return (f":pencil2: Saving makes survey version {p.next_version}. It *changes returns already recorded* in "
                f"version {p.based_on} ({esc(', '.join(p.changed))}): a correction of the survey of returns, which "
                f"only a designated election official may save ({correcting_under(p.law)}). Version {p.based_on} stays "
                "on the record.")
    return f":white_check_mark: This file can be saved as survey version {p.next_version} of *{esc(p.election_name)}*."


def _changes(p: Preview) -> str | None:
    if not p.based_on:
        return None
    parts = []
    if p.changed:
        parts.append(f"changed: {', '.join(p.changed)}")
    if p.new_contests:
        parts.append(f"new: {', '.join(p.new_contests)}")
    if p.carried_over:
        parts.append(f"not in this file, carried over unchanged: {', '.join(p.carried_over)}")
    return clip(esc(f"Compared with version {p.based_on}: " + ("; ".join(parts) or "no change")), SECTION_TEXT_LIMIT)


def _trigger(found: Preview | Saved) -> str:
    """The automatic-recount subsection of the election's law ("C.R.S. 31-10-1207(1)")."""
    law = found.law.profile if found.law is not None else DEFAULT_LAW
    return law.trigger.provision.citation


def preview_modal(p: Preview, *, metadata: str, asked: tuple[str, ...] = ()) -> dict:
    """`asked`: the contests whose seats the preview asks for (preview_metadata says how many fit), first."""
    decisions = p.verdicts.decisions
    recounts = sum(d.automatic_recount for d in decisions)
    head = [
        section(f"*{esc(p.file_name)}* · {esc(format_name(p.returns.source_format))} · {_size(p.size)}"),
        context(f"{esc(p.election_name)} · {day(p.election_date)} · {esc(p.local_government)}",
                f"sha256 {p.sha256[:12]}…"),
        section(_status(p)),
    ]
    if p.problems:
        head += [section(chunk) for chunk in chunks([esc(str(x)) for x in p.problems[:60]])[:4]]
        if len(p.problems) > 60:
            head.append(context(f"… and {len(p.problems) - 60} more problems."))
    head += _seats_asked(p, asked)
    changes = _changes(p)
    if changes:
        head.append(context(changes))
    head.append(section(
        f"*{len(decisions)} contest{'s' if len(decisions) != 1 else ''} decided, closest first* · {recounts} inside "
        f"the margin of {_trigger(p)} (a difference of at most ½ of 1% of the highest) · multi-seat "
        f"reading: {esc(p.multi_seat_rule)}"))
    if p.law is not None:
        head.append(context(esc(p.law.held_under)))
    tail: list[dict] = []
    undecided_rest = [u for u in p.verdicts.undecided if u.contest not in asked]
    if undecided_rest:
        lines = [_undecided_line(u) for u in undecided_rest]
        undecided = chunks([f":grey_question: *Undecided ({len(lines)})*: the file does not let me decide these",
                            *lines])
        tail += [section(c) for c in undecided[:3]]
    if p.returns.set_aside:
        aside = "; ".join(f"{esc(s.kind)} rows: {s.count:,}" + (f" ({esc(', '.join(s.rows[:3]))}…)" if s.rows else "")
                          for s in p.returns.set_aside)
        tail.append(context(clip(f"*Set aside* (not votes for a choice): {aside}", SECTION_TEXT_LIMIT)))
    readings = _readings(p)
    if readings:
        tail += [section(c) for c in chunks(["*Readings applied*", *readings])[:2]]
        if any("--seats" in r or "--election-kind" in r for r in readings):
            tail.append(context("Here `--seats` is the form's *Seats* field and `--election-kind` its *Kind of "
                                "election*: to read the file otherwise, click *Back to the form* and fill them in."))
    if p.returns.notes:
        tail.append(context(clip("*Notes:* " + " · ".join(esc(n) for n in p.returns.notes[:12]), SECTION_TEXT_LIMIT)))
    # Back to the form, with everything typed kept (the seats given here too): to change the election, the kind of
    # election or seats beyond the inputs above.
    tail.append({"type": "actions", "elements": [
        button("Back to the form", Action.RETURNS_UPLOAD_BACK.value, "back")]})
    room = MODAL_BLOCKS_LIMIT - len(head) - len(tail) - ROOM_KEPT
    shown = [section(verdict_line(d)) for d in decisions[:max(room, 0)]]
    rest = decisions[len(shown):]
    if rest:
        names = ", ".join(esc(d.contest) for d in rest)
        inside = sum(d.automatic_recount for d in rest)
        shown.append(section(clip(f"… and {len(rest)} more contest{'s' if len(rest) != 1 else ''}, further from the "
                                  f"margin ({inside} automatic recount{'s' if inside != 1 else ''}): {names}",
                                  SECTION_TEXT_LIMIT)))
    if p.saveable:
        again = file_input(Block.RETURNS_UPLOAD_AGAIN, "Or read another file instead", optional=True,
                           hint=f"Leave it empty to save {p.file_name}. A file attached here is read and shown first; "
                                "nothing is saved then.")
        submit = save_label(p.next_version)
    elif p.identical:
        again = file_input(Block.RETURNS_UPLOAD_AGAIN, "Read another file",
                           hint=f"{p.file_name} holds the returns already recorded.")
        submit = "Read file"
    else:
        again = file_input(Block.RETURNS_UPLOAD_AGAIN, "Attach the corrected file", optional=True,
                           hint=clip(f"{p.file_name} cannot be saved as it is: fix what is listed above and attach it "
                                     "here to read it again.", HINT_LIMIT))
        submit = "Read with these seats" if asked else save_label(p.next_version)
    blocks = [*head, *shown, *tail, again]
    return modal(TITLE, blocks, callback_id=View.RETURNS_UPLOAD_PREVIEW.value, submit=submit,
                 private_metadata=metadata)


def refusal(p: Preview) -> str:
    """Why the file cannot be saved, with the row/column of each problem, for the file field."""
    return problems_text([f"{p.file_name} cannot be saved as a survey of returns: {len(p.problems)} problem"
                          f"{'s' if len(p.problems) != 1 else ''}; nothing was saved.", *map(str, p.problems)],
                         REFUSAL_LIMIT)


# ------------------------------------------------------------------ once saved
def saved_modal(saved: Saved, *, channel_id: str | None) -> dict:
    if saved.already:
        text = (f":white_check_mark: *{esc(saved.file_name)}* is already saved as survey version {saved.version} of "
                f"*{esc(saved.election_name)}*; nothing more was recorded.")
    elif not saved.new_version:
        text = (f":information_source: The returns in *{esc(saved.file_name)}* are identical to survey version "
                f"{saved.version} of *{esc(saved.election_name)}*; no new version was made.")
    else:
        where = f" I posted the record in {channel_link(channel_id)}." if channel_id else " I sent you the record."
        text = (f":white_check_mark: *{esc(saved.file_name)}* saved as survey version {saved.version} of "
                f"*{esc(saved.election_name)}* ({saved.contests} contests).{where} *Check this election* on it "
                "applies the ½ of 1% test and opens a recount case for each contest inside the margin.")
    return modal(TITLE, [section(text)], callback_id=View.MESSAGE.value, close="Close")


def saved_message(saved: Saved, actor: str) -> tuple[str, list[dict]]:
    """The channel's record of the new version."""
    decisions = saved.verdicts.decisions
    recounts = [d.contest for d in decisions if d.automatic_recount]
    text = (f"Survey of returns version {saved.version} of {esc(saved.election_name)} recorded by {mention(actor)} "
            f"from {esc(saved.file_name)}: {saved.contests} contests; inside the margin of "
            f"{_trigger(saved)}: {esc(', '.join(recounts)) if recounts else 'none'}")
    blocks = [section(clip(f":inbox_tray: {text}.", SECTION_TEXT_LIMIT))]
    if saved.version > 1:
        changed = esc(", ".join(saved.changed)) or "no recorded contest"
        carried = f"; carried over unchanged: {esc(', '.join(saved.carried_over))}" if saved.carried_over else ""
        blocks.append(context(clip(f"Changed from version {saved.version - 1}: {changed}{carried}",
                                   SECTION_TEXT_LIMIT)))
    verdicts = chunks([verdict_line(d) for d in decisions])
    room = MESSAGE_BLOCKS_LIMIT - len(blocks) - 3  # the "more" line, the source line and the button
    blocks += [section(c) for c in verdicts[:room]]
    if len(verdicts) > room:
        blocks.append(context("More contests than one message holds; `/recount check` lists them all."))
    blocks.append(context(
        f"{esc(format_name(saved.source_format))} · sha256 {saved.sha256[:12]}… · *Check this election* opens its "
        f"recount cases ({_trigger(saved)}); `/recount check` checks the latest election day",
        f"{esc(saved.election_name)} · {day(saved.election_date)}"
        + (f" · {esc(saved.law.held_under)}" if saved.law is not None else "")))
    # The check of this election, whatever its day: `/recount check` takes the latest day's elections, and an
    # older election uploaded afterwards is not among them.
    blocks.append({"type": "actions", "elements": [
        button("Check this election", Action.CHECK_ELECTION.value, str(saved.election_id), style="primary")]})
    return clip(text, 3000), blocks


def case_thread_note(saved: Saved, actor: str) -> str:
    """For a recount case whose contest the file changed."""
    return clip(f":pencil2: The returns of this contest were corrected after the case opened: survey version "
                f"{saved.version}, from {esc(saved.file_name)}, saved by {mention(actor)} ({correcting_under(saved.law)}).",
                SECTION_TEXT_LIMIT)


def correcting_under(law: ElectionLaw | None) -> str:
    """The election's law's power to correct the survey of returns (1306(4), 31-10-1207(4), 1-10.5-107(3))."""
    return (law.profile if law is not None else DEFAULT_LAW).cite(Part.EVIDENCE)
