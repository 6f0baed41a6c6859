"""`recount-bot check FILE [--law KEY | --election NAME]`: which contests need an automatic recount under the
election's law, and why (1-13.5-1306(1) when no --law is given, and the answer says so; with --election, the law that
election is stored with).

Exit status: 0 when every contest was decided; 3 when some contest (or a row naming none) could not
be decided, each listed with why; 2 when the file could not be read at all. With --format json the
answer goes to stdout in all three cases (`contests`, `undecided`, `set_aside`, and for 2 `problems`).
"""
from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext

from bot.commands.check_report import as_json, as_text, problems_json
from bot.commands.common import add_returns_arguments, read_returns_file, refusal
from bot.commands.errors import UsageError
from bot.commands.law_option import ChosenLaw, add_election_argument, add_law_argument, chosen_law, stored_law
from bot.commands.progress import add_quiet, elapsed
from bot.terminal_text import escaped
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MultiSeatRule
from rules.returns import ReturnsError
from rules.verdicts import decide_returns

EXIT_SOME_UNDECIDED = 3
LARGE_FILE = 4 << 20  # bytes


def register(subparsers) -> None:
    parser = subparsers.add_parser("check", help="check a survey of returns for automatic recounts")
    add_returns_arguments(parser)
    add_law_argument(parser)
    add_election_argument(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", dest="output_format")
    parser.add_argument("--multi-seat-rule", choices=[r.value for r in MultiSeatRule], default=None,
                        help="which totals to compare in multi-seat contests where the law is silent (1-13.5-1306, "
                             f"31-10-1207; 1-10.5-101(1)(b) says it itself); default: {DEFAULT_MULTI_SEAT_RULE.value}")
    parser.add_argument("--contest", action="append", default=[], help="check only this contest (repeatable)")
    add_quiet(parser)
    parser.set_defaults(func=run)


def _rule(args: argparse.Namespace, law: ChosenLaw) -> MultiSeatRule:
    """The multi-seat reading asked for; refused when the law itself says which totals to compare."""
    statutory = law.profile.multi_seat.statutory_rule
    if args.multi_seat_rule is None:
        return MultiSeatRule(statutory) if statutory else DEFAULT_MULTI_SEAT_RULE
    if statutory and args.multi_seat_rule != statutory:
        raise UsageError(f"--multi-seat-rule {args.multi_seat_rule}: under --law {law.profile.key} the law itself "
                         f"says which totals a multi-seat contest compares ({law.profile.multi_seat.provision.citation}"
                         f": {statutory}); leave the option out")
    return MultiSeatRule(args.multi_seat_rule)


def run(args: argparse.Namespace) -> int:
    law = stored_law(args) if args.election is not None else chosen_law(args)
    rule = _rule(args, law)
    try:
        with _reading(args):
            returns = read_returns_file(args)
    except ReturnsError as exc:
        if args.output_format == "json":
            print(json.dumps(problems_json(exc.problems, law), indent=2))
        raise UsageError(refusal(args.file, exc, "checked")) from None
    if args.contest:
        contests, undecided = _chosen(args, returns)
        verdicts = decide_returns(returns, rule, contests=contests, law=law.profile)
        verdicts = type(verdicts)(verdicts.decisions, verdicts.undecided + tuple(undecided))
    else:
        verdicts = decide_returns(returns, rule, law=law.profile)
    if args.output_format == "json":
        print(json.dumps(as_json(verdicts, returns, rule.value, law), indent=2))
    else:
        print(as_text(verdicts, returns, rule.value, law))
    if verdicts.undecided:
        print(f"recount-bot check: {len(verdicts.undecided)} contest{'s' if len(verdicts.undecided) != 1 else ''} "
              "could not be decided; see \"Undecided\"", file=sys.stderr)
        return EXIT_SOME_UNDECIDED
    return 0


def _reading(args: argparse.Namespace):
    """A large file (LARGE_FILE bytes or more) shows how long it has been read; a small one is done before a bar
    would be drawn."""
    try:
        large = args.file.stat().st_size >= LARGE_FILE
    except OSError:
        large = False  # the reader names what is wrong with the path
    return elapsed(args, what=f"reading {args.file.name}") if large else nullcontext()


def _chosen(args: argparse.Namespace, returns):
    contests, undecided = [], []
    by_undecided = {u.contest.casefold().strip(): u for u in returns.undecided if u.contest}
    for name in args.contest:
        try:
            contests.append(returns.contest(name))
        except KeyError:
            found = by_undecided.get(name.casefold().strip())
            if found is None:
                names = escaped(", ".join(c.name for c in returns.contests[:10]))
                raise UsageError(f"--contest {name!r}: no such contest in {args.file} (contests: {names}"
                                 f"{', ...' if len(returns.contests) > 10 else ''})") from None
            undecided.append(found)
    return contests, undecided
