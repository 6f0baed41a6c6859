"""`recount-bot check FILE`: which contests need an automatic recount under 1306(1), and why."""
from __future__ import annotations

import argparse
import json

from bot.commands.common import add_returns_arguments, load_returns
from bot.commands.errors import UsageError
from bot.text_table import render_table
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MarginDecision, MultiSeatRule, check_all
from rules.serialize import to_jsonable


def register(subparsers) -> None:
    parser = subparsers.add_parser("check", help="check a survey of returns for automatic recounts (1306(1))")
    add_returns_arguments(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", dest="output_format")
    parser.add_argument("--multi-seat-rule", choices=[r.value for r in MultiSeatRule],
                        default=DEFAULT_MULTI_SEAT_RULE.value,
                        help="which totals to compare in multi-seat contests (1306 is silent; default: %(default)s)")
    parser.add_argument("--contest", action="append", default=[], help="check only this contest (repeatable)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    returns = load_returns(args)
    contests = list(returns.contests)
    if args.contest:
        try:
            contests = [returns.contest(name) for name in args.contest]
        except KeyError as exc:
            names = ", ".join(c.name for c in returns.contests[:10])
            raise UsageError(f"--contest {exc.args[0]!r}: no such contest in {args.file} (contests: {names}"
                             f"{', ...' if len(returns.contests) > 10 else ''})") from None
    decisions = check_all(contests, MultiSeatRule(args.multi_seat_rule))
    if args.output_format == "json":
        print(json.dumps(as_json(decisions, returns.source_format, returns.notes, args.multi_seat_rule), indent=2))
    else:
        print(as_text(decisions, returns.source_format, returns.notes, args.multi_seat_rule))
    return 0


def decision_json(d: MarginDecision) -> dict:
    return {
        "contest": d.contest,
        "automatic_recount": d.automatic_recount,
        "highest": to_jsonable(d.highest),
        "next_highest": to_jsonable(d.next_highest),
        "margin": d.margin,
        "max_margin_for_recount": d.max_margin_for_recount,
        "rule": d.rule,
        "citation": d.citation,
        "reason": d.reason,
        "outcome": d.outcome,
        "kind": d.kind.value,
        "seats": d.seats,
        "winners": to_jsonable(d.winners),
        "tie_for_last_seat": d.tie_for_last_seat,
        "tie_note": d.tie_note,
    }


def as_json(decisions: list[MarginDecision], source_format: str, notes, multi_seat_rule: str) -> dict:
    return {
        "contests": [decision_json(d) for d in decisions],
        "source_format": source_format,
        "multi_seat_rule": multi_seat_rule,
        "notes": list(notes),
    }


def _verdict(d: MarginDecision) -> str:
    if d.automatic_recount:
        return "RECOUNT"
    return "uncontested" if d.outcome == "uncontested" else "no recount"


def as_text(decisions: list[MarginDecision], source_format: str, notes, multi_seat_rule: str) -> str:
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
    out = [
        f"{len(decisions)} contest{'s' if len(decisions) != 1 else ''} checked ({source_format} format), "
        f"closest first; {recounts} need{'s' if recounts == 1 else ''} an automatic recount "
        f"under C.R.S. 1-13.5-1306(1).",
        "",
        render_table(["Verdict", "Contest", "Highest", "Next highest", "Margin", "Triggers at <=", "Seats"],
                     rows, right=(4, 5, 6)),
        "",
        "Test: (highest - next highest) x 200 <= highest, i.e. a margin of at most 1/2 of 1% of the highest.",
    ]
    if any(d.seats > 1 for d in decisions):
        out.append(f"Multi-seat contests use the reading '{multi_seat_rule}': "
                   f"{MultiSeatRule(multi_seat_rule).description}.")
    out.append("")
    for d in decisions:
        out.append(f"- {d.reason} [{d.citation}]")
        if d.tie_note:
            out.append(f"  TIE: {d.tie_note}.")
    for note in notes:
        out.append(f"Note: {note}")
    return "\n".join(out)
