"""What `recount-bot check` prints: the verdicts as a table a clerk reads, or as JSON for tools.

Both name, for every verdict, each reading applied; both list what was set aside (by kind and
count, with where the first rows are) and what could not be decided (with why and the rows).
"""
from __future__ import annotations

from bot.commands.law_option import ChosenLaw
from bot.text_table import render_table
from rules.contest import Returns
from rules.margin import MarginDecision, MultiSeatRule
from rules.returns.build import ONE_SEAT_ASSUMED
from rules.returns.problems import Problem
from rules.serialize import to_jsonable
from rules.verdicts import Verdicts

ONE_SEAT_PREFIX = ONE_SEAT_ASSUMED.split(":")[0]


def decision_json(d: MarginDecision) -> dict:
    return {
        "contest": d.contest,
        "automatic_recount": d.automatic_recount,
        "highest": to_jsonable(d.highest),
        "next_highest": to_jsonable(d.next_highest),
        "margin": d.margin,
        "max_margin_for_recount": d.max_margin_for_recount,
        "rule": d.rule,
        "readings": list(d.readings),
        "citation": d.citation,
        "reason": d.reason,
        "outcome": d.outcome,
        "kind": d.kind.value,
        "seats": d.seats,
        "winners": to_jsonable(d.winners),
        "tie_for_last_seat": d.tie_for_last_seat,
        "tie_note": d.tie_note,
        "write_in_note": d.write_in_note,
    }


def as_json(verdicts: Verdicts, returns: Returns, multi_seat_rule: str, law: ChosenLaw) -> dict:
    return {
        "law": law.as_json(),
        "contests": [decision_json(d) for d in verdicts.decisions],
        "undecided": [{"contest": u.contest, "reason": u.reason, "rows": list(u.rows)} for u in verdicts.undecided],
        "set_aside": [{"kind": s.kind, "count": s.count, "rows": list(s.rows)} for s in returns.set_aside],
        "source_format": returns.source_format,
        "multi_seat_rule": multi_seat_rule,
        "readings": list(returns.readings),
        "notes": list(returns.notes),
    }


def problems_json(problems: list[Problem], law: ChosenLaw) -> dict:
    """The JSON of a file that could not be read at all (exit 2): nothing decided, every problem listed."""
    return {
        "law": law.as_json(),
        "contests": [], "undecided": [], "set_aside": [], "source_format": None, "readings": [], "notes": [],
        "problems": [{"location": p.location, "message": p.message} for p in problems],
    }


def _verdict(d: MarginDecision) -> str:
    if d.automatic_recount:
        return "RECOUNT"
    return "uncontested" if d.outcome == "uncontested" else "no recount"


def as_text(verdicts: Verdicts, returns: Returns, multi_seat_rule: str, law: ChosenLaw) -> str:
    decisions = verdicts.decisions
    rows = []
    for d in decisions:
        rows.append([
            _verdict(d), d.contest,
            f"{d.highest.choice} {d.highest.votes:,}" if d.highest else "-",
            f"{d.next_highest.choice} {d.next_highest.votes:,}" if d.next_highest else "-",
            f"{d.margin:,}" if d.margin is not None else "-",
            f"{d.max_margin_for_recount:,}" if d.max_margin_for_recount is not None else "-",
            str(d.seats),
        ])
    recounts = sum(d.automatic_recount for d in decisions)
    undecided = len(verdicts.undecided)
    out = [
        f"{len(decisions)} contest{'s' if len(decisions) != 1 else ''} checked ({returns.source_format} format), "
        f"closest first; {recounts} need{'s' if recounts == 1 else ''} an automatic recount "
        f"under {law.profile.trigger.provision.citation}"
        + (f"; {undecided} could not be decided (below)." if undecided else "."),
        law.line,
        "",
    ]
    if decisions:
        out += [
            render_table(["Verdict", "Contest", "Highest", "Next highest", "Margin", "Triggers at <=", "Seats"],
                         rows, right=(4, 5, 6)),
            "",
            "Test: (highest - next highest) x 200 <= highest, i.e. a margin of at most 1/2 of 1% of the highest.",
        ]
    if any(d.seats > 1 for d in decisions):
        out.append(f"Multi-seat contests use the reading '{multi_seat_rule}': "
                   f"{MultiSeatRule(multi_seat_rule).description_for(law.profile)}.")
    for reading in returns.readings:
        out.append(f"Reading: {reading}.")
    out.append("")
    for d in decisions:
        out.append(f"- {d.reason} [{d.citation}]")
        for reading in d.readings[1:]:
            if not reading.startswith(ONE_SEAT_PREFIX):  # said once for all above; in the JSON per contest
                out.append(f"  Reading: {reading}.")
        if d.tie_note:
            out.append(f"  TIE: {d.tie_note}.")
        if d.write_in_note:
            out.append(f"  WRITE-INS: {d.write_in_note}.")
    if verdicts.undecided:
        out += ["", f"Undecided ({undecided}): not checked; nothing is said about them."]
        for u in verdicts.undecided:
            out.append(f"- {u.contest if u.contest is not None else '(rows naming no contest)'}: {u.reason}")
            for where in u.rows[:5]:
                out.append(f"    {where}")
            if len(u.rows) > 5:
                out.append(f"    ... {len(u.rows) - 5} more rows listed in --format json")
    if returns.set_aside:
        out += ["", "Set aside (not votes for a choice; never compared or added):"]
        for s in returns.set_aside:
            where = f" (first: {', '.join(s.rows[:3])})" if s.rows else ""
            out.append(f"- {s.kind}: {s.count:,}{where}")
    for note in returns.notes:
        out.append(f"Note: {note}")
    return "\n".join(out)
