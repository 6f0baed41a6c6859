"""`recount-bot deadlines --election-date D`: the statute's calendar for one election."""
from __future__ import annotations

import argparse
import json

from bot.commands.common import parse_date
from bot.text_table import render_table
from rules.calendar import ColoradoCalendar
from rules.deadlines import COUNTING, CompletionRollover, Deadline, election_deadlines
from rules.statute import LEGAL_HOLIDAYS_CITATION

LABELS = {
    "request_deadline": "Last day to file a recount request",
    "automatic_recount_deadline": "Automatic recount complete by",
    "requested_recount_deadline": "Requested recount complete by",
    "contest_filing_deadline": "Election contest filed by (information)",
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("deadlines", help="the recount calendar for an election")
    parser.add_argument("--election-date", required=True, help="YYYY-MM-DD")
    parser.add_argument("--canvass-date", help="YYYY-MM-DD; without it the statutory latest day is used as an estimate")
    parser.add_argument("--recount-concluded", help="YYYY-MM-DD; when a recount concluded (for the contest deadline)")
    parser.add_argument("--completion-rollover", choices=[r.value for r in CompletionRollover],
                        default=CompletionRollover.NONE.value,
                        help="whether completion deadlines on a weekend or holiday roll forward (default: %(default)s)")
    parser.add_argument("--closed-day", action="append", default=[], metavar="YYYY-MM-DD=NAME",
                        help="a day the governor or the president appointed as a holiday (a legal holiday under "
                             "C.R.S. 24-11-101(1)); repeat for several")
    parser.add_argument("--format", choices=("text", "json"), default="text", dest="output_format")
    parser.set_defaults(func=run)


def _closed_days(values: list[str]) -> dict:
    """--closed-day 2026-11-27=Day of thanksgiving (the name is optional)."""
    from bot.commands.errors import UsageError

    days: dict = {}
    for value in values:
        text, _, name = value.partition("=")
        day = parse_date(text.strip(), "--closed-day")
        if day in days:
            raise UsageError(f"--closed-day {day.isoformat()} is given twice")
        days[day] = name.strip() or "day appointed by the governor or the president"
    return days


def run(args: argparse.Namespace) -> int:
    election = parse_date(args.election_date, "--election-date")
    canvass = parse_date(args.canvass_date, "--canvass-date") if args.canvass_date else None
    concluded = parse_date(args.recount_concluded, "--recount-concluded") if args.recount_concluded else None
    calendar = ColoradoCalendar(appointed_holidays=_closed_days(args.closed_day))
    try:
        deadlines = election_deadlines(election, canvass_date=canvass, recount_concluded=concluded,
                                       rollover=CompletionRollover(args.completion_rollover), calendar=calendar)
    except ValueError as exc:
        from bot.commands.errors import UsageError

        raise UsageError(str(exc)) from None
    data = deadlines.as_json()
    if args.output_format == "json":
        print(json.dumps(data, indent=2))
        return 0
    items: list[Deadline] = [deadlines.request, deadlines.automatic_recount, deadlines.requested_recount,
                             deadlines.contest_filing]
    rows = []
    for d in items:
        flags = []
        if d.estimated:
            flags.append(f"estimate: between {d.earliest:%a %Y-%m-%d} and {d.date:%a %Y-%m-%d}" if d.earliest
                         else "estimate")
        if d.rolled_from:
            flags.append(f"rolled from {d.rolled_from:%a %Y-%m-%d}")
        if d.falls_on:
            flags.append(f"falls on {d.falls_on}")
        rows.append([LABELS[d.name], f"{d.date:%a %Y-%m-%d}", d.citation, "; ".join(flags)])
    print(f"Recount calendar for the election of {election:%A %Y-%m-%d} (America/Denver dates)")
    print(f"Counting: {COUNTING}.")
    for day, name in sorted(calendar.appointed_holidays.items()):
        print(f"Closed: {day:%a %Y-%m-%d}, {name} — a legal holiday ({LEGAL_HOLIDAYS_CITATION}).")
    print()
    print(render_table(["Deadline", "Date", "Citation", "Flags"], rows))
    print()
    for d in items:
        print(f"- {LABELS[d.name]}: {d.note}")
        if d.falls_on or d.earliest:  # the reason says what to do: finish by the day before; enter the canvass
            print(f"  {d.reason}")
        if d.reading:
            print(f"  Reading: {d.reading}")
    return 0
