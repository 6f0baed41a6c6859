"""Whether an automatic recount may be waived, where the law allows it (1-10.5-103).

"A political subdivision that referred a ballot issue or ballot question to the electors may waive the automatic
recount provisions of this section if the ballot issue or ballot question fails by giving written notice to the
county clerk and recorder within twenty-three days after any election." (the profile's quote, CPL24_103)

So the waiver is: of an automatic recount (not a requested one), of a ballot issue or question (not an office),
that failed, by the subdivision that referred it, in writing, received by the twenty-third day after the election.
The section names no notice the clerk must give in return; the written notice it names is the subdivision's, and
its receipt is what the office records (the reading below).

Reading, decided here: "fails" is read from the survey of returns as the case opened on it. A measure fails when its
affirmative choice ("Yes", "For") is not the leading choice; a tie fails too (a measure needs a majority). A
question whose choices are not named Yes/No or For/Against cannot be read, and the waiver is refused with a reason
so the official enters the choices' names the usual way.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Sequence

from rules.contest import ContestKind
from rules.decision import Decision
from rules.laws import LawProfile

AFFIRMATIVE = frozenset({"yes", "for"})
NEGATIVE = frozenset({"no", "against"})
WHO_LIMIT = 200
REFERENCE_LIMIT = 300

FAILED_READING = ("a ballot issue or question \"fails\" when its affirmative choice (Yes, For) does not lead the "
                  "survey of returns the case was opened on; a tie fails (a measure needs a majority)")
NOTICE_READING = ("1-10.5-103 names one notice for a waiver: the subdivision's written notice to the county clerk and "
                  "recorder; the office records its receipt, and the notices of the recount (1-10.5-105) are no longer "
                  "owed, since no recount is held")

# Fields a refusal names, as the form's fields are called (the handler maps them to its blocks).
FIELD_WHO = "waived_by"
FIELD_RECEIVED = "received_on"


@dataclass(frozen=True)
class WaiverFacts:
    """What decides a waiver: the case, its contest as surveyed, and the waiver as received."""

    automatic: bool
    kind: ContestKind
    standings: Sequence[tuple[str, int]]  # (choice, votes), as the verdict that opened the case had them
    counting_started: bool
    received_on: dt.date
    deadline: dt.date | None  # rules.filing_deadlines.waiver_deadline; None where the law has no waiver
    today: dt.date


def measure_failed(standings: Sequence[tuple[str, int]]) -> bool | None:
    """True when the affirmative choice does not lead; None when the choices are not Yes/No or For/Against."""
    names = {choice.strip().casefold(): votes for choice, votes in standings}
    yes = [v for n, v in names.items() if n in AFFIRMATIVE]
    no = [v for n, v in names.items() if n in NEGATIVE]
    if len(yes) != 1 or len(no) != 1 or len(names) != 2:
        return None
    return yes[0] <= no[0]


def _refused(law: LawProfile, citation: str, reason: str, field: str | None, numbers: dict) -> Decision:
    return Decision(outcome="refused", citation=citation, reason=reason, numbers={**numbers, "field": field},
                    reading=FAILED_READING)


def may_waive(facts: WaiverFacts, *, law: LawProfile) -> Decision:
    """`waived` when the law allows this waiver; `refused` with the field at fault (numbers["field"], None for the
    case itself) otherwise."""
    numbers: dict = {"law": law.key, "received_on": facts.received_on, "deadline": facts.deadline}
    waiver = law.waiver
    if waiver is None:
        return _refused(law, law.citation, f"{law.named} has no waiver of an automatic recount; only C.R.S. 1-10.5-103 "
                                           "provides one", None, numbers)
    citation = waiver.provision.citation
    if not facts.automatic:
        return _refused(law, citation, f"only an automatic recount may be waived under {citation}; this recount was "
                                       "requested", None, numbers)
    if facts.kind is not ContestKind.QUESTION:
        return _refused(law, citation, f"{citation} lets {waiver.who} waive the recount of a ballot issue or "
                                       "question that failed; this contest is an office", None, numbers)
    failed = measure_failed(facts.standings)
    if failed is None:
        return _refused(law, citation, "the choices are not named Yes/No or For/Against, so whether the measure "
                                       f"failed ({citation}) cannot be read from the survey of returns", None, numbers)
    if not failed:
        return _refused(law, citation, f"the measure passed by the survey of returns; {citation} allows a waiver only "
                                       "if the ballot issue or question fails", None, numbers)
    if facts.counting_started:
        return _refused(law, citation, "counting has started; a waiver is written notice given before the recount",
                        None, numbers)
    if facts.received_on > facts.today:
        return _refused(law, citation, "the written waiver cannot have been received in the future", FIELD_RECEIVED,
                        numbers)
    if facts.deadline is not None and facts.received_on > facts.deadline:
        return _refused(law, citation, f"{citation} takes written notice within {waiver.by.days} days after the "
                                       f"election, by {facts.deadline.isoformat()}; this one was received on "
                                       f"{facts.received_on.isoformat()}", FIELD_RECEIVED, numbers)
    return Decision(outcome="waived", citation=citation, numbers={**numbers, "field": None},
                    reason=f"the automatic recount is waived under {citation}: the written notice was received on "
                           f"{facts.received_on.isoformat()}, within {waiver.by.days} days after the election",
                    reading=f"{FAILED_READING}; {NOTICE_READING}")
