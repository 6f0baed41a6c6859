"""`--law`: which recount law an election runs under, for `import`, `check` and `deadlines`.

Where no --law is given the CLI applies C.R.S. 1-13.5-1306 (what every election was before there were several laws)
and says so on every answer: a line in the text, `"law": {..., "given": false}` in the JSON.

`check` and `deadlines` may name an election stored in the database instead (`--election NAME`): its stored law
applies, and a --law that disagrees with it is refused, naming both (its verdicts and deadlines were decided under
the stored one).
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from rules.laws import DEFAULT_LAW, LAW_KEYS, LAWS, LawProfile


def add_law_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--law", choices=LAW_KEYS, default=None,
        help="the recount law the election runs under: 1-13.5-1306 (special districts and other local governments, "
             "article 13.5), 31-10-1207 (a municipal election the municipal clerk conducts), 1-10.5 (an election "
             f"the county clerk coordinates); default: {DEFAULT_LAW.key}, and every answer says it was not given")


@dataclass(frozen=True)
class ChosenLaw:
    profile: LawProfile
    given: bool
    stored: Any = None  # the services.election_law.StoredElection whose law this is (--election)

    @property
    def line(self) -> str:
        """What the text answer says first."""
        law = self.profile
        if self.stored is not None:
            return (f"Law: {self.stored.law.named} — the law the election {self.stored.name} of "
                    f"{self.stored.election_date.isoformat()} is stored with.")
        said = (f"--law {law.key}" if self.given else
                f"no --law given, so the default; say --law {' or --law '.join(k for k in LAW_KEYS if k != law.key)} "
                f"for another")
        return f"Law: {law.citation} ({law.title}) — {said}."

    def as_json(self) -> dict[str, Any]:
        law = self.profile
        found: dict[str, Any] = {
            "key": law.key, "citation": law.citation, "title": law.title, "given": self.given,
            "note": None if self.given else f"no --law given: {law.citation} applied by default",
            "unconfirmed": list(law.unconfirmed),
        }
        if self.stored is not None:
            found["election"] = {"name": self.stored.name, "election_date": self.stored.election_date.isoformat(),
                                 "basis": self.stored.law.basis, "named": self.stored.law.named}
        return found

    @property
    def reading(self) -> str:
        """The law as a reading of the survey (import keeps it with the survey's readings for now)."""
        how = "given with --law" if self.given else "no --law given, the default"
        return f"recount law: {self.profile.citation} ({how})"


def stored_law_line(stored: Any, asked: ChosenLaw) -> str:
    """What `import` says of the law the election is now stored with (a services.election_law.ElectionLaw)."""
    if asked.given:
        return f"Law: {stored.named} — stored with the election (--law {asked.profile.key})."
    if stored.basis == "default":
        others = " or --law ".join(k for k in LAW_KEYS if k != stored.key)
        return (f"Law: {stored.profile.named} — no --law given, so the default, stored with the election; a new election "
                f"under another law is imported with --law {others}.")
    return f"Law: {stored.named} — the law the election is stored with (no --law given)."


def chosen_law(args: argparse.Namespace) -> ChosenLaw:
    key = getattr(args, "law", None)
    if key is None:
        return ChosenLaw(DEFAULT_LAW, False)
    return ChosenLaw(LAWS[key], True)


def add_election_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--election", metavar="NAME",
                        help="an election stored in the database (as `import --name` named it): its stored law "
                             "applies, and a --law that disagrees is refused")
    parser.add_argument("--team", help="the Slack workspace of --election (team id); may be left out when the "
                                       "database holds exactly one")


def stored_law(args: argparse.Namespace, election_date: Any = None) -> ChosenLaw:
    """The law of `--election NAME` (on `election_date` when given), as stored; refused (UsageError) when no such
    election is stored, when its elections of that name run under different laws, or when --law disagrees."""
    from bot.commands.common import open_database, slack_id
    from bot.commands.errors import UsageError
    from bot.commands.importing import choose_team
    from bot.terminal_text import escaped
    from services.election_law import stored_elections
    from services.services import Services

    team = slack_id(args.team, "--team", "TE", "T0123ABCD") if args.team else None
    db = open_database()
    try:
        services = Services(db)
        found = stored_elections(services, team_id=choose_team(services, team), name=args.election,
                                 election_date=election_date)
    finally:
        db.dispose()
    on = f" on {election_date.isoformat()}" if election_date is not None else ""
    if not found:
        raise UsageError(f"--election {escaped(args.election)!r}: no election of that name{on} is stored; "
                         "`recount-bot import` stores one")
    days = sorted({e.election_date for e in found}, reverse=True)
    chosen = [e for e in found if e.election_date == days[0]]  # the newest day, when --election-date is not given
    laws = {e.law.key for e in chosen}
    if len(laws) > 1 and args.law in laws:  # several local governments' elections; --law says which
        chosen, laws = [e for e in chosen if e.law.key == args.law], {args.law}
    if len(laws) > 1:
        listed = "; ".join(f"{escaped(e.local_government)}: {e.law.named}" for e in chosen)
        raise UsageError(f"--election {escaped(args.election)!r} of {days[0].isoformat()} names elections held under "
                         f"different laws ({listed}); give --law for the one you mean")
    stored = chosen[0]
    if args.law is not None and LAWS[args.law].key != stored.law.key:
        raise UsageError(f"--law {args.law}: the election {escaped(stored.name)} of {stored.election_date.isoformat()} "
                         f"is held under {stored.law.named}, not {LAWS[args.law].named}; leave --law out to use "
                         "its law")
    return ChosenLaw(stored.law.profile, True, stored)
