"""How many seats a contest fills when its file does not say: one, or undecided ("seats not stated").

A verdict must never rest on a guessed number of seats. Where the file states them ("(Vote for  N)" in a
title, NumberElected, a seats column), infers them exactly (a Dominion statement's votes, undervotes,
overvotes and ballots), or the clerk gives them (--seats, the form's field), they are used. Where none of
these says, the rule is:

    A contest whose seats are not stated is read as one seat when no other *plausible* number of seats
    would change its verdict under 1306(1); otherwise it is undecided, "seats not stated", until the
    seats are given.

Which other numbers of seats are plausible, k from 2 to (named choices - 1), decided from the office's
name first and the shape of its votes second:

- **a single office by name** (President and presidential electors, Governor, Lieutenant Governor,
  Secretary of State, Attorney General, Treasurer, Senator, Representative, Mayor, Sheriff, Clerk,
  Assessor, Coroner, Surveyor, District Attorney, a judge or justice; or a singular office with a
  numbered seat: "Commissioner - District 2", "Regent - Congressional District 6", "Director District
  A"): no other k is plausible, whatever the votes;
- **a body of several members by name** (council, board, trustees, directors, commissioners, regents,
  members, aldermen, delegates, "at large"): every k whose first loser, the (k+1)-th highest named
  choice, holds at least 1/(10(k+1)) of the named choices' votes: k seats are contested only if more
  than k real contenders stand (so two write-ins tied at 3 votes at the bottom of a council race do not
  count);
- **neither** (e.g. "Ballot Race 1", "Director"): every k whose (k+1)-th highest holds at least 1/(4(k+1))
  of the votes: as many real contenders as a race for k seats has. A close race between two with a minor
  third (800, 799, 15) is one seat (15 is far below 1/12); three close (35%, 34%, 31%) may be two. A
  22-candidate presidential race is not held up by two write-ins tied at 3 (3 votes of 10,000).

The single-office words come first, so "Mayor At-Large" is one seat. k is at most MAX_SEATS_TRIED.
The verdict compared is "automatic recount or not" (an undecided verdict under some k counts as a
different one). The same rule applies to every reader, the CLI and the Slack preview alike; the
clerk is told, for a contest held, the verdicts under one seat and under the k that differs, and the
`--seats "CONTEST=N"` to give.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from rules.contest import Contest

MAX_SEATS_TRIED = 25

_SINGLE_OFFICE = re.compile(
    r"\b(?:president(?:ial)?|governor|lieutenant|secretary of state|attorney general|treasurer|senator|senate|"
    r"representative|congress(?:ional)?|house|mayor|sheriff|clerk|assessor|coroner|surveyor|district attorney|"
    r"judge|justice|auditor)\b", re.I)
_BODY = re.compile(
    r"\b(?:council|councils|councilmembers?|councilmen|board|boards|trustees?|directors|commissioners|regents|"
    r"members|aldermen|aldermans?|selectmen|delegates|committee|commission)\b|\bat[\s-]+large\b", re.I)
# A singular office with a numbered or lettered seat: one seat ("Commissioner - District 2", "Director District A").
_SINGULAR_WITH_SEAT = re.compile(
    r"\b(?:commissioner|regent|director|trustee|member|councilmember|alderman)\b.*\b(?:district|ward|seat|position|"
    r"precinct|area)\s*(?:no\.?\s*)?[0-9a-z]{1,3}\b", re.I)


class NameSays(str, enum.Enum):
    ONE = "one seat"
    SEVERAL = "several seats"
    NOTHING = "nothing"


def name_says(name: str) -> NameSays:
    """What an office's name says about its seats (see the module docstring)."""
    if _SINGLE_OFFICE.search(name):
        return NameSays.ONE
    if _SINGULAR_WITH_SEAT.search(name) and not re.search(r"\b(?:council|board)\b", name, re.I):
        return NameSays.ONE
    if _BODY.search(name):
        return NameSays.SEVERAL
    return NameSays.NOTHING


def plausible_seats(contest: Contest, named: list[str]) -> list[int]:
    """The numbers of seats other than one that the office's name or the shape of its votes makes plausible."""
    says = name_says(contest.name)
    if says is NameSays.ONE:
        return []
    votes = sorted((contest.totals[c] for c in named), reverse=True)
    total = sum(votes)
    if total <= 0:
        return []
    share = 10 if says is NameSays.SEVERAL else 4
    out = []
    for k in range(2, min(len(votes) - 1, MAX_SEATS_TRIED) + 1):
        if votes[k] * share * (k + 1) >= total:  # the first loser holds at least 1/(share*(k+1)) of the votes
            out.append(k)
    return out


@dataclass(frozen=True)
class SeatsHeld:
    """A contest undecided because its seats are not stated: the verdict under one seat and the one that differs."""

    seats: int  # the plausible number of seats whose verdict differs from one seat's
    as_one: str  # "automatic recount (A vs B)" / "no automatic recount"
    as_other: str
    why_plausible: str

    def reason(self, name: str) -> str:
        return (f"seats not stated: the file does not say how many seats {name!r} fills, and the verdict depends "
                f"on it: as one seat, {self.as_one}; as {self.seats} seats, {self.as_other} ({self.why_plausible}). "
                f'Say the seats: --seats "{name}=N"')


def why_plausible(contest: Contest, k: int) -> str:
    says = name_says(contest.name)
    if says is NameSays.SEVERAL:
        return (f"the office's name speaks of a body of several members, and {k + 1} candidates hold a real share "
                "of the votes")
    return (f"{k + 1} candidates hold at least 1/{4 * (k + 1)} of the votes each, as the contenders of a race "
            f"for {k} seats would")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def one_seat_reading(contest: Contest, tried: list[int]) -> str:
    """The reading named on a verdict decided as one seat although the file does not say."""
    says = name_says(contest.name)
    if says is NameSays.ONE:
        why = "the office's name names a single office"
    elif tried:
        shown = f"{tried[0]}" if len(tried) == 1 else f"{tried[0]} to {tried[-1]}"
        why = f"the verdict is the same as one seat for every plausible number of seats ({shown})"
    else:
        why = "neither the office's name nor its votes make several seats plausible"
    return f'one seat: the file does not say how many, and {why} (--seats "{contest.name}=N" to say)'
