"""`--law`: which recount law an election runs under, for `import`, `check` and `deadlines`.

Where no --law is given the CLI applies C.R.S. 1-13.5-1306 (what every election was before there were several laws)
and says so on every answer: a line in the text, `"law": {..., "given": false}` in the JSON.
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

    @property
    def line(self) -> str:
        """What the text answer says first."""
        law = self.profile
        said = (f"--law {law.key}" if self.given else
                f"no --law given, so the default; say --law {' or --law '.join(k for k in LAW_KEYS if k != law.key)} "
                f"for another")
        return f"Law: {law.citation} ({law.title}) — {said}."

    def as_json(self) -> dict[str, Any]:
        law = self.profile
        return {
            "key": law.key, "citation": law.citation, "title": law.title, "given": self.given,
            "note": None if self.given else f"no --law given: {law.citation} applied by default",
            "unconfirmed": list(law.unconfirmed),
        }

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
