"""The case card's part about conducting the recount: tally sheets (5), assistants (3), evidence and the
survey's versions (4), with their buttons. Pure; at most 8 blocks."""
from __future__ import annotations

from handlers.blocks.assistant_modal import finding_line
from handlers.blocks.common import button, divider, esc, section
from handlers.blocks.evidence_modal import demand_line, production_button, versions_text
from handlers.blocks.law_cites import cites
from handlers.blocks.tally_modal import differences_text, progress_text, unit_word
from handlers.ids import Action
from handlers.slack_text import mention
from rules.corrections import unit_label
from rules.laws.cites import Cites
from services.conduct.assistants import AssistantsSummary
from services.conduct.cases import CaseView
from services.conduct.evidence import EvidenceSummary
from services.conduct.tally_forms import TallySummary

SHOWN_LINES = 4
DEMAND_BUTTONS = 3


def _more(items: tuple | list, shown: int, what: str) -> str:
    return f"\n…and {len(items) - shown:,} more {what} (in the case's thread)" if len(items) > shown else ""


def set_up_text(tally: TallySummary) -> str:
    word = unit_word(tally.method)
    per = ", one sheet per machine" if word == "machine" else ""
    mode = "double entry" if tally.double_entry else "single entry"
    units = ", ".join(esc(unit_label(u)) for u in tally.units[:10])
    more = f" and {len(tally.units) - 10:,} more" if len(tally.units) > 10 else ""
    sheets = ""
    if word != "machine":
        used = len(tally.election_sheet_ids)
        sheets = (f" · {used:,} tally sheet{'s' if used != 1 else ''} of the election on record (refused as recount "
                  "sheets)") if used else " · the election's tally sheets not listed"
    return f"How: {tally.method_label}{per} · {mode} · {tally.expected:,} {word}s expected: {units}{more}{sheets}"


def tally_text(tally: TallySummary | None, c: Cites) -> str:
    head = f"*Tally sheets* ({c.tally})"
    if tally is None:
        return (f"{head} — the count is not set up yet: say how the votes are recounted (paper ballots, electronic "
                "ballots or voting machines) and the units expected, one tally sheet each.")
    lines = [f"{head} — *{progress_text(tally)}*" + (" :white_check_mark:" if tally.complete else "")]
    waiting = tally.awaiting_sheets
    if tally.awaiting_second_entry:
        shown = ", ".join(f"{esc(unit_label(e.unit))} (sheet {esc(e.sheet_id)}, {mention(e.entered_by)})"
                          for e in waiting[:SHOWN_LINES]) or ", ".join(
            esc(unit_label(u)) for u in tally.awaiting_second_entry[:SHOWN_LINES])
        lines.append(f":hourglass_flowing_sand: {len(tally.awaiting_second_entry):,} awaiting a second entry: {shown}"
                     + _more(tally.awaiting_second_entry, SHOWN_LINES, "units"))
    for d in tally.disagreements[:SHOWN_LINES]:
        lines.append(f":x: Disagreement on {esc(unit_label(d.unit))}, sheet {esc(d.sheet_id)} "
                     f"({mention(d.first.entered_by)} / {mention(d.second.entered_by)}): {differences_text(d)}"
                     + ("" if d.blocking else " — the first entry counts (single entry)"))
    if tally.disagreements:
        lines[-1] += _more(tally.disagreements, SHOWN_LINES, "disagreements")
    for problem in tally.problems[:SHOWN_LINES]:
        lines.append(f":warning: {esc(problem)}")
    return "\n".join(lines)


def assistants_text(summary: AssistantsSummary, c: Cites) -> str:
    head = f"*Assistants* ({c.conduct})"
    preparers = (", ".join(esc(p) for p in summary.preparers) if summary.preparers else "_not recorded_")
    if not summary.assistants:
        return (f"{head} — none recorded yet.\nPrepared the official abstract: {preparers}. They assist in the "
                "recount; others are appointed under 1-13.5-1301 if they cannot.")
    warnings = summary.warnings
    count = f"{len(summary.assistants):,} recorded"
    count += f" · :warning: {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else \
        f" · :white_check_mark: as {c.law.short(c.conduct)} provides"
    lines = [f"{head} — {count}", f"Prepared the official abstract: {preparers}"]
    lines += [finding_line(f) for f in warnings[:SHOWN_LINES]]
    return "\n".join(lines) + _more(warnings, SHOWN_LINES, "warnings")


def evidence_text(summary: EvidenceSummary, c: Cites) -> str:
    head = f"*Evidence* ({c.evidence})"
    demands, outstanding = summary.demands, summary.outstanding
    if not demands:
        lines = [f"{head} — none demanded."]
    else:
        lines = [f"{head} — {len(demands):,} demanded, {len(outstanding):,} outstanding"]
        produced = [d for d in demands if not d.outstanding]
        lines += [demand_line(d) for d in produced[-SHOWN_LINES:]]
        if len(outstanding) > DEMAND_BUTTONS:
            lines += [demand_line(d) for d in outstanding[DEMAND_BUTTONS:DEMAND_BUTTONS + SHOWN_LINES]]
    lines.append(versions_text(summary))
    return "\n".join(lines)


def _tally_blocks(case: CaseView, tally: TallySummary | None, open_: bool) -> list[dict]:
    """The tally's status with the next step beside it; its set-up and withdrawing in their own lines."""
    value = str(case.id)
    if tally is None:
        return [section(tally_text(None, cites(case)), accessory=button("Set up the count", Action.SET_UP_COUNT.value, value,
                                                           style="primary") if open_ else None)]
    blocks = [section(tally_text(tally, cites(case)), accessory=button(
        "Enter tally sheet", Action.ENTER_SHEET.value, value, style=None if tally.complete else "primary")
        if open_ else None)]
    blocks.append(section(set_up_text(tally), accessory=button("Change set-up", Action.SET_UP_COUNT.value, value)
                          if open_ else None))
    if tally.entries and open_:
        n = len(tally.entries)
        blocks.append(section(f"{n:,} entr{'y' if n == 1 else 'ies'} standing. A mistyped or wrong entry is withdrawn "
                              "with its reason (it stays on the record), then the sheet is entered again.",
                              accessory=button("Withdraw an entry", Action.WITHDRAW_ENTRY.value, value)))
    return blocks


def conduct_section(case: CaseView) -> list[dict]:
    """At most 9 blocks: a divider, the tally (up to 3), the assistants, the evidence and up to 3 demands
    outstanding. Buttons are the sections' accessories, each beside what it acts on."""
    conduct = case.conduct
    if conduct is None:
        return []
    open_ = not conduct.completed
    value = str(case.id)
    blocks: list[dict] = [divider()]
    if conduct.counting or conduct.tally is not None:
        blocks += _tally_blocks(case, conduct.tally, open_ and conduct.counting)
    blocks.append(section(assistants_text(conduct.assistants, cites(case)),
                          accessory=button("Assistants", Action.ASSISTANTS.value, value) if open_ else None))
    blocks.append(section(evidence_text(conduct.evidence, cites(case)),
                          accessory=button("Demand evidence", Action.DEMAND_EVIDENCE.value, value) if open_ else None))
    if open_:
        for demand in conduct.evidence.outstanding[:DEMAND_BUTTONS]:
            blocks.append(section(demand_line(demand), accessory=production_button(demand)))
    return blocks
