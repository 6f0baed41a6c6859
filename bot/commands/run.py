"""`recount-bot run`: what the README's quick start runs.

Until the Slack app lands, it checks the example survey of returns shipped in `examples/` and
prints the recount calendar for its election, so a newcomer sees the statute core at work.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bot.commands import check, deadlines

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "survey-of-returns.csv"
EXAMPLE_ELECTION_DATE = "2026-11-03"


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run recount-bot (today: check the example returns)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_args = argparse.Namespace(
        file=EXAMPLE, input_format=None, seats=[], output_format="text",
        multi_seat_rule=check.DEFAULT_MULTI_SEAT_RULE.value, contest=[])
    status = check.run(check_args)
    print()
    deadline_args = argparse.Namespace(
        election_date=EXAMPLE_ELECTION_DATE, canvass_date=None, recount_concluded=None,
        completion_rollover="none", output_format="text")
    return status or deadlines.run(deadline_args)
