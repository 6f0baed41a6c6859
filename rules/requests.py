"""Subsection (2)(a): who may request a recount, and until when.

"(2)(a) Whenever a recount of the votes cast in an election is not required pursuant to subsection (1)
of this section, any interested party, including an eligible elector or a candidate for office or the
issue committee for a ballot issue or question, may submit to the designated election official a
written request for a recount at the expense of the interested party making the request. This request
shall be filed with the designated election official within seventeen days after the election."

`evaluate_request()` checks, in this order, and reports the first failure (every failure is listed
in numbers["problems"]):

1. interested party  -> "refused_not_interested_party"
2. the request itself (requester named, in favor of a choice of this contest) -> "refused_invalid"
3. not already automatic under (1) -> "refused_automatic"
4. filed within the window -> "refused_late" (or "refused_invalid" when filed on or before election day)

Readings:
- "including" may reach beyond the three kinds it names; the bot accepts exactly those three (an
  eligible elector for any contest; a candidate in this candidate contest; the issue committee for a
  side of this ballot question) and leaves any other claim to the designated election official.
- A candidate asks in their own favor and an issue committee in favor of the side it supports, so for
  them `in_favor_of` must be that choice (left out, it is taken to be that choice): (2)(d)'s "reversed in
  favor of the interested party that requested the recount" is then decided against the right choice.
- An eligible elector need not name a choice it favours: (2)(a) asks only for "a written request for a
  recount". Without one (`in_favor_of` None) the request is accepted and the refund under (2)(d) follows the
  reading rules.settlement.NoChoiceRefund (NO_FAVORED_CHOICE_READING).
- A request on or before election day is refused as invalid, not late: the window had not opened.
- Whether the elector is eligible, or the committee is the registered issue committee, is a fact the
  designated election official verifies; the bot decides on what the request states.

Who decides a request (`check_decider`): a designated election official, or a delegated approver; never the
requester, and never whoever entered the request on the requester's behalf (a clerk who types in a letter
could otherwise approve it, the requester's own Slack user being an optional field). The one exception is
the reading ONE_PERSON_READING: an official who entered the request may decide it when no one else in the office
may, and only by recording why. Never, either, a candidate in the request's contest (rules.conflicts).
"""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any, Mapping

from rules.calendar import short_day
from rules.conflicts import CONFLICT_READING
from rules.contest import Contest, ContestKind
from rules.deadlines import is_request_timely
from rules.decision import Decision
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MultiSeatRule, check_automatic_recount
from rules.statute import REQUEST_WINDOW_DAYS, WEEKEND_ROLLOVER_CITATION, cite

REQUEST_CITATION = cite("(2)(a)")
AUTOMATIC_REFUSAL_CITATION = cite("(1), (2)(a)")

INTERESTED_PARTY_READING = (
    "(2)(a) says any interested party, 'including' an eligible elector, a candidate for office or the issue "
    "committee for a ballot issue or question; the bot accepts these three kinds only and leaves any other "
    "claim to the designated election official"
)
OWN_FAVOR_READING = (
    "a candidate requests in their own favor and an issue committee in favor of the side it supports, so "
    "in_favor_of must be that choice ((2)(d) refunds when the result is reversed in the requester's favor)"
)


NO_FAVORED_CHOICE_READING = (
    "an eligible elector need not name a choice it favours ((2)(a) asks only for a written request for a "
    "recount); the request names none, so (2)(d)'s refund follows the no-choice refund reading"
)


NO_CHOICE_LABEL = "no choice named (optional for an eligible elector, C.R.S. 1-13.5-1306(2)(a))"


def favored_label(in_favor_of: str | None) -> str:
    """The choice a request favours as a clerk reads it; a request that named none says so."""
    return in_favor_of if isinstance(in_favor_of, str) and in_favor_of.strip() else NO_CHOICE_LABEL


class PartyKind(str, enum.Enum):
    ELIGIBLE_ELECTOR = "eligible_elector"
    CANDIDATE = "candidate"
    ISSUE_COMMITTEE = "issue_committee"


class RequestOutcome(str, enum.Enum):
    ACCEPTED = "accepted"
    REFUSED_AUTOMATIC = "refused_automatic"
    REFUSED_LATE = "refused_late"
    REFUSED_NOT_INTERESTED_PARTY = "refused_not_interested_party"
    REFUSED_INVALID = "refused_invalid"


@dataclass(frozen=True)
class RecountRequest:
    """A written request as received. `party_kind` may be a `PartyKind` or its text; unknown kinds are kept
    as given and refused by `evaluate_request` as not interested parties."""

    requester_name: str
    party_kind: PartyKind | str
    in_favor_of: str | None  # None: no choice named (optional for an eligible elector)
    received_on: dt.date
    candidate_choice: str | None = None  # a candidate: which choice of the contest the requester is
    committee_side: str | None = None  # an issue committee: the choice it supports


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


def _party_problem(request: RecountRequest, kind: PartyKind | None, contest: Contest) -> tuple[str | None, str | None]:
    """(problem text or None, the choice the party is, for a candidate or committee)."""
    where = f"{contest.name!r}"
    if kind is None:
        return (f"{request.party_kind!r} is not one of the interested parties the bot accepts (an eligible "
                f"elector, a candidate in the contest, the issue committee for the question)", None)
    if kind is PartyKind.ELIGIBLE_ELECTOR:
        return None, None
    if kind is PartyKind.CANDIDATE:
        if contest.kind is not ContestKind.CANDIDATE:
            return (f"{where} is a ballot question; a candidate is not an interested party in it (request as an "
                    f"eligible elector or as the issue committee)", None)
        own = _match_choice(contest, request.candidate_choice)
        if own is None:
            listed = ", ".join(contest.choices)
            return (f"a candidate must be a candidate in {where}: {request.candidate_choice!r} is not one of "
                    f"{listed}", None)
        return None, own
    # the issue committee
    if contest.kind is not ContestKind.QUESTION:
        return (f"{where} is a candidate contest; an issue committee is an interested party only for a ballot "
                f"issue or question (request as an eligible elector)", None)
    side = _match_choice(contest, request.committee_side)
    if side is None:
        listed = ", ".join(contest.choices)
        return (f"the issue committee must support a choice of {where}: {request.committee_side!r} is not one "
                f"of {listed}", None)
    return None, side


def evaluate_request(
    request: RecountRequest, *, contest: Contest, election_date: dt.date,
    multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE, calendar=None,
) -> Decision:
    """Decide a written recount request under (2)(a), with (1) and the request window."""
    problems: list[dict[str, str]] = []
    readings = [INTERESTED_PARTY_READING]

    # 1. interested party
    kind = party_kind_of(request.party_kind)
    party_problem, own_choice = _party_problem(request, kind, contest)
    if party_problem:
        problems.append(_problem(RequestOutcome.REFUSED_NOT_INTERESTED_PARTY, REQUEST_CITATION, party_problem))

    # 2. the request itself
    name = request.requester_name.strip() if isinstance(request.requester_name, str) else ""
    if not name:
        problems.append(_problem(RequestOutcome.REFUSED_INVALID, REQUEST_CITATION,
                                 "the written request must name the requester"))
    named = isinstance(request.in_favor_of, str) and bool(request.in_favor_of.strip())
    in_favor_of = _match_choice(contest, request.in_favor_of) if named else own_choice
    if not named and kind is PartyKind.ELIGIBLE_ELECTOR:
        readings.append(NO_FAVORED_CHOICE_READING)
    elif not named and own_choice is None:
        pass  # a candidate or committee not in the contest: already refused as not an interested party
    elif in_favor_of is None:
        problems.append(_problem(
            RequestOutcome.REFUSED_INVALID, REQUEST_CITATION,
            f"in favor of {request.in_favor_of!r}, which is not a choice of {contest.name!r} "
            f"({', '.join(contest.choices)})"))
    elif own_choice is not None and in_favor_of != own_choice:
        who = ("a candidate requests in their own favor" if kind is PartyKind.CANDIDATE
               else "the issue committee requests in favor of the side it supports")
        problems.append(_problem(
            RequestOutcome.REFUSED_INVALID, REQUEST_CITATION,
            f"{who} ({own_choice!r}), not in favor of {in_favor_of!r}"))
    if kind in (PartyKind.CANDIDATE, PartyKind.ISSUE_COMMITTEE):
        readings.append(OWN_FAVOR_READING)

    # 3. already automatic under (1)?
    margin = check_automatic_recount(contest, multi_seat_rule)
    if contest.seats > 1 and margin.reading:
        readings.append(margin.reading)
    if margin.automatic_recount:
        hi, nx = margin.highest, margin.next_highest
        assert hi is not None and nx is not None  # (1) is a margin between two standings: both are there
        problems.append(_problem(
            RequestOutcome.REFUSED_AUTOMATIC, AUTOMATIC_REFUSAL_CITATION,
            f"a recount is already required by (1): the margin of {margin.margin:,} between {hi.choice} "
            f"({hi.votes:,}) and {nx.choice} ({nx.votes:,}) is within 1/2 of 1% of {hi.votes:,} (at most "
            f"{margin.max_margin_for_recount:,}); it is automatic and paid by the governing body"))

    # 4. timeliness
    timely, deadline = (is_request_timely(request.received_on, election_date) if calendar is None
                        else is_request_timely(request.received_on, election_date, calendar))
    early = not timely and request.received_on <= election_date
    if not timely:
        if early:
            readings.append("a request on or before election day is refused as invalid, not late: the window "
                            "opens the day after the election")
            opens = election_date + dt.timedelta(days=1)
            problems.append(_problem(
                RequestOutcome.REFUSED_INVALID, REQUEST_CITATION,
                f"received {short_day(request.received_on)}, on or before election day ({election_date.isoformat()}); "
                f"the window runs from {short_day(opens)} through {short_day(deadline.date)}"))
        else:
            problems.append(_problem(
                RequestOutcome.REFUSED_LATE, REQUEST_CITATION,
                f"received {short_day(request.received_on)}, after the window closed {short_day(deadline.date)} "
                f"({deadline.note})"))

    numbers: dict[str, Any] = {
        "requester": name,
        "party_kind": kind.value if kind else str(request.party_kind),
        "contest": contest.name,
        "contest_kind": contest.kind.value,
        "seats": contest.seats,
        "in_favor_of": in_favor_of if in_favor_of is not None else request.in_favor_of,
        "candidate_choice": request.candidate_choice,
        "committee_side": request.committee_side,
        "received_on": request.received_on,
        "election_date": election_date,
        "window_days": REQUEST_WINDOW_DAYS.value,
        "deadline": deadline.date,
        "deadline_note": deadline.note,
        "deadline_citation": deadline.citation,
        "rolled_from": deadline.rolled_from,
        "timely": timely,
        "automatic_recount": margin.automatic_recount,
        "margin_outcome": margin.outcome,
        **{k: v for k, v in margin.numbers.items()},
        "problems": problems,
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

    assert kind is not None
    as_who = {PartyKind.ELIGIBLE_ELECTOR: "an eligible elector",
              PartyKind.CANDIDATE: f"a candidate in the contest ({own_choice})",
              PartyKind.ISSUE_COMMITTEE: f"the issue committee for {own_choice}"}[kind]
    rolled = (f" (moved from {short_day(deadline.rolled_from)} under {WEEKEND_ROLLOVER_CITATION})"
              if deadline.rolled_from else "")
    if margin.margin is not None and margin.highest is not None:  # a margin is measured from the highest
        why_not = (f"margin {margin.margin:,} exceeds 1/2 of 1% of {margin.highest.votes:,} (at most "
                   f"{margin.max_margin_for_recount:,}), so no automatic recount")
    else:
        why_not = "the contest is uncontested, so no automatic recount"
    favoring = f"in favor of {in_favor_of}" if in_favor_of is not None else "naming no choice it favours"
    reason = (f"Accepted: {name}, {as_who}, requests a recount of {contest.name} {favoring}; "
              f"received {short_day(request.received_on)}, within the window ending {short_day(deadline.date)}"
              f"{rolled}; {why_not} — the recount is at the requester's expense.")
    return Decision(outcome=RequestOutcome.ACCEPTED.value, citation=REQUEST_CITATION, reason=reason,
                    numbers=numbers, reading=reading)


def _refusal_reason(outcome: RequestOutcome, name: str, contest: Contest, problem: str, deadline, received_on) -> str:
    who = name or "the requester"
    if outcome is RequestOutcome.REFUSED_NOT_INTERESTED_PARTY:
        return f"Refused: {who} is not an interested party in {contest.name}: {problem}"
    if outcome is RequestOutcome.REFUSED_AUTOMATIC:
        return f"Refused: no request is needed for {contest.name} — {problem}"
    if outcome is RequestOutcome.REFUSED_LATE:
        return (f"Refused as late: {who}'s request was received {short_day(received_on)}, after the deadline of "
                f"{short_day(deadline.date)} — {deadline.note}")
    return f"Refused: the request of {who} for {contest.name} is not valid: {problem}"


# ---------------------------------------------------------------------------- who decides a request
ONE_OFFICE_ONE_PERSON = "one office, one person"
ONE_PERSON_READING = (
    "one office, one person: (2)(a) has the request submitted to the designated election official, and no one "
    "decides a request they made or entered on the requester's behalf; when the official entered it and no one "
    "else in the office may decide it, the official decides it and records why"
)


class DeciderStanding(str, enum.Enum):
    MAY_DECIDE = "may_decide"
    NOT_A_DECIDER = "not_a_decider"  # neither an official nor a delegated approver
    OWN_REQUEST = "own_request"  # the requester's own Slack user
    ENTERED_IT = "entered_it"  # entered it on the requester's behalf, and someone else may decide
    CANDIDATE = "candidate"  # a candidate in the request's contest (rules.conflicts)
    ONE_PERSON_OFFICE = "one_person_office"  # an official who entered it, and no one else may: only with a reason


@dataclass(frozen=True)
class DeciderCheck:
    standing: DeciderStanding
    others: tuple[str, ...]  # who else may decide (neither the requester nor whoever entered it), as listed
    reading: str | None = None

    @property
    def allowed(self) -> bool:
        return self.standing in (DeciderStanding.MAY_DECIDE, DeciderStanding.ONE_PERSON_OFFICE)

    @property
    def needs_reason(self) -> bool:
        return self.standing is DeciderStanding.ONE_PERSON_OFFICE


def check_decider(decider: str, *, deciders: Mapping[str, bool], requester: str | None,
                  entered_by: str, candidates: Mapping[str, str] | None = None) -> DeciderCheck:
    """May `decider` decide a request `entered_by` entered for `requester` (their Slack user, when known)?
    `deciders`: everyone in the office who may decide requests (officials and delegated approvers), each
    mapped to whether they are an official. `candidates`: the Slack users recorded as candidates in the
    request's contest (and their choice); none of them decides it (rules.conflicts.CONFLICT_READING), not even
    as the only one in the office."""
    candidates = candidates or {}
    excluded = {decider, entered_by} | ({requester} if requester else set()) | set(candidates)
    others = tuple(person for person in deciders if person not in excluded)
    if decider not in deciders:
        return DeciderCheck(DeciderStanding.NOT_A_DECIDER, others)
    if requester and decider == requester:
        return DeciderCheck(DeciderStanding.OWN_REQUEST, others)
    if decider in candidates:
        return DeciderCheck(DeciderStanding.CANDIDATE, others, CONFLICT_READING)
    if decider == entered_by:
        if not others and deciders[decider]:
            return DeciderCheck(DeciderStanding.ONE_PERSON_OFFICE, others, ONE_PERSON_READING)
        return DeciderCheck(DeciderStanding.ENTERED_IT, others)
    return DeciderCheck(DeciderStanding.MAY_DECIDE, others)
