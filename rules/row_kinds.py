"""What a name in a results file says a row is, when it is not votes for a choice.

Real files mix votes for choices with rows that are something else, and every reader must set
those aside before anything is compared or added up:

- contest totals: a choice named "Total" (Douglas County), "Total Votes", ...;
- turnout and registration: "Registered Voters", "Ballots Cast", an office "Voters" with a
  candidate "Cast" (El Paso County 2012), "Registration" (Denver 2012), ...;
- over and under votes: "Over Votes", "Under-votes", "Undervotes", "Blank", ...;
- subtotals: a precinct cell naming the county ("CO", "EL PASO CO", "Total", "County Total").

An aggregate write-in line ("Write-ins", "Write-in", "Scattering") is different: its votes are
real votes, for people the file does not name, so it stays in the contest as a *bucket*: it can
never win (`rules.margin`), but the verdict says when it alone is close enough to matter.

Names are compared after `normalise`: lower case, every run of other characters one space, so
"Over-Votes", "over votes" and "OVER VOTES" are the same. The functions are cached: a statewide
file repeats a few hundred names over half a million rows.
"""
from __future__ import annotations

import enum
import re
from functools import lru_cache

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


class RowKind(str, enum.Enum):
    """Why a row was set aside. The values are what the summary and the JSON show."""

    CONTEST_TOTAL = "contest total"
    TURNOUT = "turnout or registration"
    OVER_UNDER = "over or under votes"
    SUBTOTAL = "subtotal"
    NOT_RESULTS = "not a row of results"  # a footnote, a title, "End of worksheet"
    NO_CHOICE = "no choice named"  # votes on a row that names no candidate or answer: never a vote for a choice
    MOVED = "votes reported in another unit"  # "REDACTED - INCLUDED IN PRECINCT ... RESULTS", "***" moved


def normalise(name: str) -> str:
    return _NOT_ALNUM.sub(" ", name.casefold()).strip()


_TOTAL_CHOICES = frozenset({
    "total", "totals", "total votes", "total vote", "total votes cast", "contest total", "contest totals",
    "grand total", "county total", "county totals", "sum", "votes cast total", "total for contest",
})
_TURNOUT = frozenset({
    "registered voters", "registered", "registration", "active voters", "total registered voters",
    "ballots", "ballots cast", "total ballots", "total ballots cast", "number of ballots", "ballots counted",
    "times cast", "times counted", "voters", "cast", "voters cast", "turnout", "voter turnout", "total voters",
    "number of voters", "ballots issued", "cards cast", "registered voters total", "ballots cast total",
    "total ballots counted", "election day ballots", "voters voting", "precincts reporting",
})
_OVER_UNDER = frozenset({
    "over votes", "overvotes", "over vote", "overvote", "under votes", "undervotes", "under vote", "undervote",
    "over and under votes", "total overvotes", "total undervotes", "total over votes", "total under votes",
    "blank", "blanks", "blank votes", "blank ballots", "invalid votes", "invalid", "rejected votes",
    "overvotes undervotes", "over votes under votes", "under votes over votes", "spoiled", "not voted",
})
# Offices (contests) that are not contests at all.
_TURNOUT_OFFICES = _TURNOUT | frozenset({
    "statistics", "voter statistics", "registration and turnout", "ballots cast and registered voters",
})
_WRITE_IN_BUCKET = re.compile(
    r"(?:all |total |unresolved |unqualified |qualified |undeclared |unassigned |non certified |miscellaneous )?"
    r"(?:write ?ins?|write in votes|write in totals?|write in candidates?|write in votes cast)"
    r"(?: votes?| totals?| candidates?)?(?: [0-9]+)?"
    r"|scatter(?:ing|ed)?(?: votes)?"
)
_TRAILING_PARENTHESES = re.compile(r"\s*\([^()]*\)\s*$")
# A unit (precinct) name that is a subtotal of the others, whatever the county is called.
_SUBTOTAL_UNITS = frozenset({
    "total", "totals", "county total", "county totals", "co", "county", "total county", "grand total",
    "all precincts", "county wide total", "countywide total", "summary", "jurisdiction total", "jurisdiction wide",
    "district total", "district totals", "state total", "statewide total",
})
_YES = frozenset({"yes", "for", "approve", "approved", "accept"})
_NO = frozenset({"no", "against", "reject", "rejected", "not approved"})


# Placeholders where a contest had no candidate (Dolores 2010: "No Candidate for Race").
_NOT_RESULTS = frozenset({"no candidate for race", "no candidate", "no candidates", "no candidate filed",
                          "there are no candidates for this office"})  # Arapahoe's exports


@lru_cache(maxsize=4096)
def choice_row_kind(choice: str) -> RowKind | None:
    """The kind of row a choice name makes (None: votes for a choice, or a write-in bucket)."""
    key = normalise(choice)
    if key in _NOT_RESULTS:
        return RowKind.NOT_RESULTS
    if key in _TOTAL_CHOICES:
        return RowKind.CONTEST_TOTAL
    if key in _TURNOUT:
        return RowKind.TURNOUT
    if key in _OVER_UNDER:
        return RowKind.OVER_UNDER
    return None


@lru_cache(maxsize=4096)
def office_row_kind(office: str) -> RowKind | None:
    """RowKind.TURNOUT for an "office" that counts voters or ballots ("Voters", "Registered Voters")."""
    return RowKind.TURNOUT if normalise(office) in _TURNOUT_OFFICES else None


@lru_cache(maxsize=4096)
def is_write_in_bucket(choice: str) -> bool:
    """True for an aggregate write-in line ("Write-ins", "Write-in", "Scattering", "Write-in (wi-3)").

    A named write-in candidate ("Jane Doe (Write-In)") is a candidate, not a bucket.
    """
    # "Write-in (wi-3)": an unnamed line told apart by an id. Only a trailing parenthesis is dropped, so
    # "Write-in John Smith" stays a candidate.
    return _WRITE_IN_BUCKET.fullmatch(normalise(_TRAILING_PARENTHESES.sub("", choice))) is not None


@lru_cache(maxsize=4096)
def is_subtotal_unit(unit: str, county: str = "") -> bool:
    """True when a precinct cell names a subtotal: "Total", "CO", "County Total", or the county itself
    ("EL PASO CO", "El Paso County", "El Paso")."""
    key = normalise(unit)
    if key in _SUBTOTAL_UNITS:
        return True
    place = normalise(county)
    if not place:
        return False
    for suffix in ("", " co", " county", " cnty", " total", " totals", " county total", " co total"):
        if key == place + suffix:
            return True
    return False


@lru_cache(maxsize=4096)
def answer(choice: str) -> str | None:
    """"yes" or "no" for the answers of a ballot question ("Yes", "Yes/For", "No - Against", "FOR"), else None."""
    words = normalise(choice)
    if not words:
        return None
    if words in _YES or words in _NO:
        return "yes" if words in _YES else "no"
    tokens = set(words.split())
    if tokens <= _YES:
        return "yes"
    if tokens <= {"no", "against", "reject"}:
        return "no"
    return None


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10}
_VOTE_FOR = re.compile(
    r"\(\s*vote\s+for\s*[=:]?\s*(?:not\s+more\s+than\s+|no\s+more\s+than\s+|up\s+to\s+)?"
    r"(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s*\)", re.I)


def seats_in_name(name: str) -> int | None:
    """N of "(Vote For N)" (Clarity, OpenElections), "(Vote For=N)" (Dominion), "(Vote for not more than N)",
    "(Vote for One)" (Arapahoe's 2010 export)."""
    match = _VOTE_FOR.search(name)
    if match is None:
        return None
    word = match[1].casefold()
    seats = _NUMBER_WORDS[word] if word in _NUMBER_WORDS else int(word)
    return seats if seats >= 1 else None


def is_question(choices) -> bool:
    """True when the choices (buckets and set-aside names excluded by the caller) are one yes and one no."""
    answers = [answer(c) for c in choices]
    return len(answers) == 2 and sorted(answers, key=str) == ["no", "yes"]
