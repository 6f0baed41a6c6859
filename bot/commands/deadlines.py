"""`recount-bot deadlines --election-date D [--law KEY]`: the recount calendar for one election under its law;
`--election NAME` reads the election's day, law and canvass date from the database instead.

JSON: one entry per deadline (`request_window_opens`, `request_deadline`, `automatic_recount_deadline`,
`requested_recount_deadline`, `contest_filing_deadline`, and where the law has them `waiver_deadline` and
`cost_determination_deadline`), each with its date and citation; beside them `law` (which law, and whether --law was
given) and `questions` (what to ask the office before relying on a date).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json

from bot.commands.common import parse_date
from bot.commands.errors import UsageError
from bot.commands.law_option import ChosenLaw, add_election_argument, add_law_argument, chosen_law, stored_law
from bot.text_table import render_table
from rules.calendar import ColoradoCalendar
from rules.deadlines import CompletionRollover, Deadline, counting_text, election_deadlines
from rules.statute import LEGAL_HOLIDAYS_CITATION, OFFICE_CLOSED_CITATION

LABELS = {
    "request_window_opens": "First day to file a recount request",
    "request_deadline": "Last day to file a recount request",
    "automatic_recount_deadline": "Automatic recount complete by",
    "requested_recount_deadline": "Requested recount complete by",
    "contest_filing_deadline": "Election contest filed by (information)",
    "waiver_deadline": "Last day to waive an automatic recount",
    "cost_determination_deadline": "Cost of a requested recount set by",
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("deadlines", help="the recount calendar for an election")
    parser.add_argument("--election-date", help="YYYY-MM-DD (required unless --election names a stored election)")
    add_law_argument(parser)
    add_election_argument(parser)
    parser.add_argument("--canvass-date", help="YYYY-MM-DD; without it the earliest possible deadline is shown, with "
                                               "the latest beside it")
    parser.add_argument("--recount-concluded", help="YYYY-MM-DD; when a recount concluded (for the contest deadline)")
    parser.add_argument("--completion-rollover", choices=[r.value for r in CompletionRollover],
                        default=CompletionRollover.NONE.value,
                        help="whether completion deadlines on a weekend or holiday roll forward (default: %(default)s)")
    parser.add_argument("--closed-day", action="append", default=[], metavar="YYYY-MM-DD=NAME",
                        help="a day the governor or the president appointed as a holiday (a legal holiday under "
                             f"{LEGAL_HOLIDAYS_CITATION}); repeat for several")
    parser.add_argument("--office-closed", action="append", default=[], metavar="YYYY-MM-DD=NAME",
                        help="a day the office is closed that is not a legal holiday (e.g. the Friday before a "
                             f"Saturday holiday): a filing due then stands continued ({OFFICE_CLOSED_CITATION}); "
                             "repeat for several")
    parser.add_argument("--format", choices=("text", "json"), default="text", dest="output_format")
    parser.set_defaults(func=run)


def _named_days(values: list[str], option: str, default_name: str) -> dict[dt.date, str]:
    """`--closed-day 2026-11-27=Day of thanksgiving` (the name is optional)."""
    days: dict[dt.date, str] = {}
    for value in values:
        text, _, name = value.partition("=")
        day = parse_date(text.strip(), option)
        if day in days:
            raise UsageError(f"{option} {day.isoformat()} is given twice")
        days[day] = name.strip() or default_name
    return days


def _calendar(args: argparse.Namespace) -> ColoradoCalendar:
    appointed = _named_days(args.closed_day, "--closed-day", "day appointed by the governor or the president")
    closed = _named_days(args.office_closed, "--office-closed", "the office is closed")
    both = sorted(set(appointed) & set(closed))
    if both:
        raise UsageError(f"{both[0].isoformat()} is given both as --closed-day (a legal holiday, "
                         f"{LEGAL_HOLIDAYS_CITATION}) and as --office-closed ({OFFICE_CLOSED_CITATION}); say which")
    return ColoradoCalendar(extra_closures=closed, appointed_holidays=appointed)


def run(args: argparse.Namespace) -> int:
    if args.election_date is None and args.election is None:
        raise UsageError("give --election-date YYYY-MM-DD, or --election NAME for an election stored in the database")
    asked = parse_date(args.election_date, "--election-date") if args.election_date else None
    canvass = parse_date(args.canvass_date, "--canvass-date") if args.canvass_date else None
    concluded = parse_date(args.recount_concluded, "--recount-concluded") if args.recount_concluded else None
    if args.election is not None:  # a stored election: its law, its day and the canvass date it holds
        law = stored_law(args, asked)
        election = law.stored.election_date
        canvass = canvass or law.stored.canvass_date
    else:
        law = chosen_law(args)
        election = parse_date(args.election_date, "--election-date")
    calendar = _calendar(args)
    try:
        deadlines = election_deadlines(election, canvass_date=canvass, recount_concluded=concluded,
                                       rollover=CompletionRollover(args.completion_rollover), calendar=calendar,
                                       law=law.profile)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    questions = deadlines.questions(calendar)
    if args.output_format == "json":
        print(json.dumps({**deadlines.as_json(), "law": law.as_json(), "questions": list(questions)}, indent=2))
        return 0
    _print_text(deadlines.all(), questions, law, election, calendar)
    return 0


def _print_text(items: tuple[Deadline, ...], questions: tuple[str, ...], law: ChosenLaw, election: dt.date,
                calendar: ColoradoCalendar) -> None:
    rows = []
    for d in items:
        flags = []
        if d.estimated:
            flags.append(f"earliest; latest {d.latest:%a %Y-%m-%d}" if d.latest else "estimate")
        if d.rolled_from:
            flags.append(f"rolled from {d.rolled_from:%a %Y-%m-%d}")
        if d.falls_on:
            flags.append(f"falls on {d.falls_on}")
        rows.append([LABELS.get(d.name, d.name), f"{d.date:%a %Y-%m-%d}", d.citation, "; ".join(flags)])
    print(f"Recount calendar for the election of {election:%A %Y-%m-%d} (America/Denver dates)")
    print(law.line)
    print(f"Counting: {counting_text(law.profile)}.")
    for day, name in sorted(calendar.appointed_holidays.items()):
        print(f"Closed: {day:%a %Y-%m-%d}, {name} — a legal holiday ({LEGAL_HOLIDAYS_CITATION}).")
    for day, name in sorted(calendar.extra_closures.items()):
        print(f"Office closed: {day:%a %Y-%m-%d}, {name} — a filing due then stands continued to the next full "
              f"business day ({OFFICE_CLOSED_CITATION}).")
    print()
    print(render_table(["Deadline", "Date", "Citation", "Flags"], rows))
    print()
    for d in items:
        print(f"- {LABELS.get(d.name, d.name)}: {d.note}")
        if d.falls_on or d.earliest:  # the reason says what to do: finish by the day before; enter the canvass
            print(f"  {d.reason}")
        if d.reading:
            print(f"  Reading: {d.reading}")
    for question in questions:
        print(f"Ask: {question}")
    for note in law.profile.unconfirmed:
        print(f"Not confirmed: {note}")
