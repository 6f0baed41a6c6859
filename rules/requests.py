"""A written request for a recount, decided under the election's law: who may ask, in what form, when, how often.

The law's profile (rules.laws) says who is an interested party (`Requesting.parties`), whether the request must be
notarized and may be made only once, and when the window opens and closes. Under C.R.S. 1-13.5-1306(2)(a):

"(2)(a) Whenever a recount of the votes cast in an election is not required pursuant to subsection (1)
of this section, any interested party, including an eligible elector or a candidate for office or the
issue committee for a ballot issue or question, may submit to the designated election official a
written request for a recount at the expense of the interested party making the request. This request
shall be filed with the designated election official within seventeen days after the election."

31-10-1207(2) names candidates and petition representatives and gives ten days; 1-10.5-106 takes only the
interested parties its (1) defines (the losing side), a notarized request, "no sooner than ten days or later than
twenty-two days after" the election, and "only once".

`evaluate_request()` checks, in this order, and reports the first failure (every failure is listed in
numbers["problems"]):

1. interested party  -> "refused_not_interested_party"
2. the request itself (requester named, in favor of a choice of this contest) -> "refused_invalid"; not notarized
   where the law requires it -> "refused_not_notarized"
3. once only, where the law says so -> "refused_once_only"
4. not already automatic -> "refused_automatic"
5. filed within the window -> "refused_early" (before it opened) or "refused_late"

Readings (each named in the decision):
- "including" may reach beyond the kinds a law names; the bot accepts exactly those and leaves any other claim to
  the official (`Requesting.parties_reading`).
- A candidate asks in their own favor and an issue committee or petition representative in favor of the side it
  supports, so for them `in_favor_of` must be that choice (left out, it is taken to be that choice): the refund's
  "reversed in favor of the interested party that requested the recount" is then decided against the right choice.
- An eligible elector need not name a choice it favors (1306(2)(a) asks only for "a written request for a
  recount"): the refund then follows rules.settlement.NoChoiceRefund (NO_FAVORED_CHOICE_READING).
- Whether the person is who they say (the eligible elector, the registered committee, the candidate's party) is a
  fact the official verifies; the bot decides on what the request states.
"""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any, Sequence

from rules.calendar import DEFAULT_CALENDAR, ColoradoCalendar, short_day
from rules.completion import result_of
from rules.contest import Contest, ContestKind
from rules.decision import Decision
from rules.filing_deadlines import RequestTiming, request_timing
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Requester
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MarginDecision, MultiSeatRule, check_automatic_recount
from rules.parties import PartyCondition, PartyKind
from rules.request_deciders import (  # noqa: F401  (re-exported: callers import them from here)
    ONE_OFFICE_ONE_PERSON,
    ONE_PERSON_READING,
    DeciderCheck,
    DeciderStanding,
    check_decider,
)
from rules.statute import cite

REQUEST_CITATION = cite("(2)(a)")
AUTOMATIC_REFUSAL_CITATION = cite("(1), (2)(a)")

INTERESTED_PARTY_READING = DEFAULT_LAW.requesting.parties_reading
OWN_FAVOR_READING = (
    "a candidate requests in their own favor and an issue committee or petition representative in favor of the side "
    "it supports, so in_favor_of must be that choice (the refund follows when the result is reversed in the "
    "requester's favor)"
)
NO_FAVORED_CHOICE_READING = (
    "an eligible elector need not name a choice it favors ((2)(a) asks only for a written request for a "
    "recount); the request names none, so (2)(d)'s refund follows the no-choice refund reading"
)
NO_CHOICE_LABEL = "no choice named (optional for an eligible elector, C.R.S. 1-13.5-1306(2)(a))"
COUNTED_EARLIER = frozenset({"accepted", "pending", "withdrawn"})


def favored_label(in_favor_of: str | None) -> str:
    """The choice a request favors as a clerk reads it; a request that named none says so."""
    return in_favor_of if isinstance(in_favor_of, str) and in_favor_of.strip() else NO_CHOICE_LABEL


class RequestOutcome(str, enum.Enum):
    ACCEPTED = "accepted"
    REFUSED_AUTOMATIC = "refused_automatic"
    REFUSED_LATE = "refused_late"
    REFUSED_EARLY = "refused_early"
    REFUSED_NOT_INTERESTED_PARTY = "refused_not_interested_party"
    REFUSED_INVALID = "refused_invalid"
    REFUSED_NOT_NOTARIZED = "refused_not_notarized"
    REFUSED_ONCE_ONLY = "refused_once_only"


@dataclass(frozen=True)
class RecountRequest:
    """A written request as received. `party_kind` may be a `PartyKind` or its text; unknown kinds are kept
    as given and refused by `evaluate_request` as not interested parties."""

    requester_name: str
    party_kind: PartyKind | str
    in_favor_of: str | None  # None: no choice named (optional for an eligible elector)
    received_on: dt.date
    candidate_choice: str | None = None  # a candidate (or a candidate's party): which choice of the contest
    committee_side: str | None = None  # an issue committee or petition representative: the choice it supports
    notarized: bool | None = None  # None: not recorded


def party_kind_of(value: PartyKind | str) -> PartyKind | None:
    """The `PartyKind` named by `value` ("candidate", "Eligible elector", "issue-committee"), else None."""
    if isinstance(value, PartyKind):
        return value
    if not isinstance(value, str):
        return None
    key = value.strip().casefold().replace("-", "_").replace(" ", "_")
    try:
        return PartyKind(key)
    except ValueError:
        return None


def _match_choice(contest: Contest, name: str | None) -> str | None:
    """The contest's spelling of `name`: exact, else the one choice equal ignoring case and outer spaces."""
    if not isinstance(name, str) or not name.strip():
        return None
    if name in contest.choices:
        return name
    folded = name.strip().casefold()
    matches = [c for c in contest.choices if c.strip().casefold() == folded]
    return matches[0] if len(matches) == 1 else None


def _problem(outcome: RequestOutcome, citation: str, what: str) -> dict[str, str]:
    return {"outcome": outcome.value, "citation": citation, "problem": what}


def _lost(contest: Contest, choice: str) -> bool:
    """The survey of returns does not elect `choice` (nor lead with it, for a question), and it is not tied."""
    result = result_of(contest)
    return choice not in result.winners and choice not in result.tied


_CANDIDATE_CONDITIONS = {PartyCondition.CANDIDATE_IN_CONTEST, PartyCondition.LOSING_CANDIDATE,
                         PartyCondition.PARTY_OF_LOSING_CANDIDATE}
_LOSING = {PartyCondition.LOSING_CANDIDATE, PartyCondition.PARTY_OF_LOSING_CANDIDATE,
           PartyCondition.LOSING_SIDE_OF_QUESTION}


_QUESTION_CONDITIONS = {PartyCondition.SIDE_OF_QUESTION, PartyCondition.LOSING_SIDE_OF_QUESTION}


def _instead(contest: Contest, law: LawProfile) -> str:
    """" (request as an eligible elector or as the issue committee ...)": the kinds the law takes for this contest."""
    fits = _QUESTION_CONDITIONS if contest.kind is ContestKind.QUESTION else _CANDIDATE_CONDITIONS
    words = [r.words for r in law.requesting.parties if r.condition is PartyCondition.ANY_CONTEST or r.condition in fits]
    return f" (request as {' or as '.join(words)})" if words else ""


def _condition_problem(request: RecountRequest, requester: Requester, contest: Contest,
                       law: LawProfile) -> tuple[str | None, str | None]:
    """(problem text or None, the choice the party is or is for) under the law's condition for this kind."""
    where, listed = f"{contest.name!r}", ", ".join(contest.choices)
    condition = requester.condition
    if condition is PartyCondition.ANY_CONTEST:
        return None, None
    if condition in _CANDIDATE_CONDITIONS:
        if contest.kind is not ContestKind.CANDIDATE:
            return (f"{where} is a ballot question; {requester.kind.label} is not an interested party in it"
                    f"{_instead(contest, law)}", None)
        own = _match_choice(contest, request.candidate_choice)
        if own is None:
            return (f"{requester.words} must name a candidate in {where}: {request.candidate_choice!r} is not one of "
                    f"{listed}", None)
    else:
        if contest.kind is not ContestKind.QUESTION:
            return (f"{where} is a candidate contest; {requester.kind.label} is an interested party only for a ballot "
                    f"issue or question{_instead(contest, law)}", None)
        own = _match_choice(contest, request.committee_side)
        if own is None:
            return (f"{requester.words} must support a choice of {where}: {request.committee_side!r} is not one of "
                    f"{listed}", None)
    if condition in _LOSING and not _lost(contest, own):
        return (f"{own} did not lose {where} by the survey of returns; only {requester.words} may request "
                f"(the losing side)", None)
    return None, own


def _party_problems(request: RecountRequest, kind: PartyKind | None, contest: Contest,
                    law: LawProfile) -> tuple[list[dict[str, str]], str | None, Requester | None]:
    citation = law.requesting.parties_provision.citation
    requester = law.requesting.accepts(kind) if kind is not None else None
    if requester is None:
        named = "; ".join(r.words for r in law.requesting.parties)
        problem = f"{request.party_kind!r} is not one of the interested parties {law.citation} names ({named})"
        return [_problem(RequestOutcome.REFUSED_NOT_INTERESTED_PARTY, citation, problem)], None, None
    condition_problem, own = _condition_problem(request, requester, contest, law)
    if condition_problem:
        return [_problem(RequestOutcome.REFUSED_NOT_INTERESTED_PARTY, citation, condition_problem)], None, requester
    return [], own, requester


def _form_problems(request: RecountRequest, kind: PartyKind | None, own: str | None, contest: Contest,
                   law: LawProfile, readings: list[str]) -> tuple[list[dict[str, str]], str | None]:
    """The request itself: named, notarized where the law says, in favor of the right choice."""
    citation = law.requesting.provision.citation
    problems: list[dict[str, str]] = []
    name = request.requester_name.strip() if isinstance(request.requester_name, str) else ""
    if not name:
        problems.append(_problem(RequestOutcome.REFUSED_INVALID, citation, "the written request must name the "
                                                                           "requester"))
    if law.requesting.notarized is not None and request.notarized is not True:
        said = "not recorded as notarized" if request.notarized is None else "not notarized"
        problems.append(_problem(RequestOutcome.REFUSED_NOT_NOTARIZED, law.requesting.notarized.citation,
                                 f"the request is {said}; {law.requesting.notarized.citation} asks for a notarized "
                                 f"written request"))
    named = isinstance(request.in_favor_of, str) and bool(request.in_favor_of.strip())
    in_favor_of = _match_choice(contest, request.in_favor_of) if named else own
    if not named and kind is PartyKind.ELIGIBLE_ELECTOR:
        readings.append(NO_FAVORED_CHOICE_READING)
    elif not named and own is None:
        pass  # a party not in the contest: already refused as not an interested party
    elif in_favor_of is None:
        problems.append(_problem(RequestOutcome.REFUSED_INVALID, citation,
                                 f"in favor of {request.in_favor_of!r}, which is not a choice of {contest.name!r} "
                                 f"({', '.join(contest.choices)})"))
    elif own is not None and in_favor_of != own:
        problems.append(_problem(RequestOutcome.REFUSED_INVALID, citation,
                                 f"the requester asks in favor of {own!r} (the choice it is or supports), not "
                                 f"{in_favor_of!r}"))
    if kind not in (None, PartyKind.ELIGIBLE_ELECTOR):
        readings.append(OWN_FAVOR_READING)
    return problems, in_favor_of


def _once_problems(earlier: Sequence[str], law: LawProfile, readings: list[str]) -> list[dict[str, str]]:
    once = law.requesting.once_only
    if once is None:
        return []
    if law.requesting.once_only_reading:
        readings.append(law.requesting.once_only_reading)
    counted = [o for o in earlier if str(o) in COUNTED_EARLIER]
    if not counted:
        return []
    return [_problem(RequestOutcome.REFUSED_ONCE_ONLY, once.citation,
                     f"this interested party already made a request for this contest ({counted[0]}); "
                     f"{once.citation}: a request may be made only once")]


def _joined(first: str, second: str) -> str:
    """"C.R.S. 1-13.5-1306(1)" and "C.R.S. 1-13.5-1306(2)(a)" -> "C.R.S. 1-13.5-1306(1), (2)(a)"."""
    head, _, tail = second.partition("(")
    if tail and first.startswith(head) and first != head:
        return f"{first}, ({tail}"
    return f"{first}; {second.removeprefix('C.R.S. ')}"


def _automatic_problems(margin: MarginDecision, law: LawProfile) -> list[dict[str, str]]:
    if not margin.automatic_recount or margin.highest is None or margin.next_highest is None:
        return []
    hi, nx = margin.highest, margin.next_highest
    citation = _joined(law.trigger.provision.citation, law.requesting.provision.citation)
    return [_problem(
        RequestOutcome.REFUSED_AUTOMATIC, citation,
        f"a recount is already required by {law.short(law.trigger.provision.citation)}: the margin of "
        f"{margin.margin:,} between "
        f"{hi.choice} ({hi.votes:,}) and {nx.choice} ({nx.votes:,}) is within 1/2 of 1% of {hi.votes:,} (at most "
        f"{margin.max_margin_for_recount:,}); it is automatic and paid by {law.automatic_payer.who}")]


def _timing_problems(timing: RequestTiming, deadline, opens, received_on: dt.date, law: LawProfile,
                     election_date: dt.date, readings: list[str]) -> list[dict[str, str]]:
    citation = law.requesting.provision.citation
    if timing is RequestTiming.EARLY:
        readings.append(f"a request before the window opens is refused as early: {opens.reading or opens.citation}")
        where = (f"on or before election day ({election_date.isoformat()})" if law.requesting.opens.days == 1
                 else f"before the window opened on {short_day(opens.date)}")
        return [_problem(RequestOutcome.REFUSED_EARLY, citation,
                         f"received {short_day(received_on)}, {where}: the window had not opened; it runs from "
                         f"{short_day(opens.date)} through {short_day(deadline.date)}")]
    if timing is RequestTiming.LATE:
        return [_problem(RequestOutcome.REFUSED_LATE, citation,
                         f"received {short_day(received_on)}, after the window closed {short_day(deadline.date)} "
                         f"({deadline.note})")]
    return []


def evaluate_request(
    request: RecountRequest, *, contest: Contest, election_date: dt.date,
    multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE, calendar: ColoradoCalendar | None = None,
    law: LawProfile = DEFAULT_LAW, earlier_requests: Sequence[str] = (),
) -> Decision:
    """Decide a written recount request under `law`. `earlier_requests`: the outcomes of this interested party's
    earlier requests for this contest ("accepted", "pending", "withdrawn", "refused_..."), for a once-only law."""
    calendar = calendar or DEFAULT_CALENDAR
    readings = [law.requesting.parties_reading]
    kind = party_kind_of(request.party_kind)
    problems, own_choice, requester = _party_problems(request, kind, contest, law)
    form, in_favor_of = _form_problems(request, kind, own_choice, contest, law, readings)
    problems += form
    problems += _once_problems(earlier_requests, law, readings)
    margin = check_automatic_recount(contest, multi_seat_rule, law=law)
    if contest.seats > 1 and margin.reading:
        readings.append(margin.reading)
    problems += _automatic_problems(margin, law)
    timing, deadline, opens = request_timing(request.received_on, election_date, calendar, law=law)
    problems += _timing_problems(timing, deadline, opens, request.received_on, law, election_date, readings)

    name = request.requester_name.strip() if isinstance(request.requester_name, str) else ""
    numbers: dict[str, Any] = {
        "law": law.key, "requester": name, "party_kind": kind.value if kind else str(request.party_kind),
        "contest": contest.name, "contest_kind": contest.kind.value, "seats": contest.seats,
        "in_favor_of": in_favor_of if in_favor_of is not None else request.in_favor_of,
        "candidate_choice": request.candidate_choice, "committee_side": request.committee_side,
        "notarized": request.notarized, "received_on": request.received_on, "election_date": election_date,
        "window_days": law.requesting.closes.days, "window_opens": opens.date, "deadline": deadline.date,
        "deadline_note": deadline.note, "deadline_citation": deadline.citation, "rolled_from": deadline.rolled_from,
        "timely": timing is RequestTiming.TIMELY, "automatic_recount": margin.automatic_recount,
        "margin_outcome": margin.outcome, **dict(margin.numbers), "problems": problems,
    }
    reading = "; ".join(readings)
    if problems:
        first = problems[0]
        outcome = RequestOutcome(first["outcome"])
        more = len(problems) - 1
        also = f" ({more} more problem{'s' if more > 1 else ''} listed)" if more else ""
        reason = _refusal_reason(outcome, name, contest, first["problem"], deadline, request.received_on) + also + "."
        return Decision(outcome=outcome.value, citation=first["citation"], reason=reason, numbers=numbers,
                        reading=reading)
    assert requester is not None
    reason = _accepted_reason(name, requester, own_choice, in_favor_of, contest, request, margin, deadline, opens, law)
    return Decision(outcome=RequestOutcome.ACCEPTED.value, citation=law.requesting.provision.citation, reason=reason,
                    numbers=numbers, reading=reading)


def _accepted_reason(name: str, requester: Requester, own: str | None, in_favor_of: str | None, contest: Contest,
                     request: RecountRequest, margin: MarginDecision, deadline, opens, law: LawProfile) -> str:
    as_who = requester.words if own is None else f"{requester.words} ({own})"
    if requester.kind is PartyKind.ELIGIBLE_ELECTOR:
        as_who = "an eligible elector"
    elif requester.kind is PartyKind.CANDIDATE and requester.condition is PartyCondition.CANDIDATE_IN_CONTEST:
        as_who = f"a candidate in the contest ({own})"
    elif requester.kind is PartyKind.ISSUE_COMMITTEE and requester.condition is PartyCondition.SIDE_OF_QUESTION:
        as_who = f"the issue committee for {own}"
    rolled = (f" (moved from {short_day(deadline.rolled_from)} under {law.time.filing_rollover.citation})"
              if deadline.rolled_from else "")
    if law.requesting.opens.days > 1:
        window = f"within the window from {short_day(opens.date)} through {short_day(deadline.date)}{rolled}"
    else:
        window = f"within the window ending {short_day(deadline.date)}{rolled}"
    if margin.margin is not None and margin.highest is not None:
        why_not = (f"margin {margin.margin:,} exceeds 1/2 of 1% of {margin.highest.votes:,} (at most "
                   f"{margin.max_margin_for_recount:,}), so no automatic recount")
    else:
        why_not = "the contest is uncontested, so no automatic recount"
    favoring = f"in favor of {in_favor_of}" if in_favor_of is not None else "naming no choice it favors"
    notarized = ", notarized," if law.requesting.notarized is not None else ""
    return (f"Accepted: {name}, {as_who}, requests{notarized} a recount of {contest.name} {favoring}; received "
            f"{short_day(request.received_on)}, {window}; {why_not} — the recount is at the requester's expense.")


def _refusal_reason(outcome: RequestOutcome, name: str, contest: Contest, problem: str, deadline, received_on) -> str:
    who = name or "the requester"
    if outcome is RequestOutcome.REFUSED_NOT_INTERESTED_PARTY:
        return f"Refused: {who} is not an interested party in {contest.name}: {problem}"
    if outcome is RequestOutcome.REFUSED_AUTOMATIC:
        return f"Refused: no request is needed for {contest.name} — {problem}"
    if outcome is RequestOutcome.REFUSED_LATE:
        return (f"Refused as late: {who}'s request was received {short_day(received_on)}, after the deadline of "
                f"{short_day(deadline.date)} — {deadline.note}")
    if outcome is RequestOutcome.REFUSED_EARLY:
        return f"Refused as early: {who}'s request for {contest.name} was {problem}"
    return f"Refused: the request of {who} for {contest.name} is not valid: {problem}"
