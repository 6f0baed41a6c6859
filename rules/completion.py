"""After the recount, under the election's law (1-13.5-1306(6) by default; 31-10-1207(6); 1-10.5-107(4)-(5) with the
certificates of 1-11-103(1)).

"After a recount conducted pursuant to this section has been completed, the designated election
official shall notify the governing body of the local government conducting the election of the
results of the recount, shall make a certificate of election for each candidate who received the
highest number of votes for an office for which a recount was conducted, and shall deliver the
certificate to such candidate."

`complete_recount` compares the survey of returns with the amended count and says: who won before
and after, whether the result changed, whom to certify, whom to notify, and the two facts (2)(d)
turns on (reversed in favor of the requester; amended count within the (1) margin), so the
settlement can decide the refund without recomputing anything.

Readings (the text is silent; each is applied on purpose):

- "The highest number of votes" for an office with N seats: the N candidates with the most votes.
- A tie for the last seat (the only seat, when there is one) after the recount is decided by lot
  under the law's tie section (1-13.5-1304; 31-10-1204; 1-11-102). The candidates above the tie are elected and certified; the certificate for the
  tied seat(s) is withheld until the lot is drawn. Those tied are not counted as winners (they are
  in `tied_for_last_seat`): the recount did not elect them.
- A ballot question elects no one, so it gets no certificate; its result is the choice with the most
  votes. If the choices are tied, no choice leads; what a tie does to a ballot question is outside
  the recount section and is left to the clerk (the tie sections' lot is for candidates and is never applied to a
  question: rules.margin.TIED_QUESTION_READING).
- "The result changed" (and (2)(f)'s "does not change the result") means the winners differ: the set
  of candidates elected, or the leading choice of a question; a tie pending lot counts as a different
  result from a clear win, either way round.
- "Reversed in favor of the interested party that requested the recount" ((2)(d)) is judged on the
  choice named in the request: it was not a winner (not leading, for a question) before the recount
  and is after. A tie left for the lot is not a reversal; (2)(d)'s other limb (the amended count is
  within the (1) margin) covers it, since a tie is always within it. With no requested choice the
  recount was not requested in anyone's favor and the value is None.
- The amended count is checked against (1) with the same multi-seat reading as the original check.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from rules.contest import Contest, ContestKind
from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.margin import (
    DEFAULT_MULTI_SEAT_RULE,
    TIED_QUESTION_READING,
    MarginDecision,
    MultiSeatRule,
    check_automatic_recount,
)
from rules.statute import cite

CITATION = cite("(6)")
REFUND_CITATION = cite("(2)(d)")
LEFTOVER_CITATION = cite("(2)(f)")


class CompletionOutcome(str, enum.Enum):
    CONFIRMED = "confirmed"
    CHANGED = "changed"
    TIE_BY_LOT = "tie_by_lot"


@dataclass(frozen=True)
class Result:
    """Who a count elects: clear winners, and those tied for the last seat(s) with how many seats are left."""

    winners: tuple[str, ...]
    tied: tuple[str, ...] = ()
    seats_by_lot: int = 0

    @property
    def key(self) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(self.winners), frozenset(self.tied)


def result_of(contest: Contest) -> Result:
    """The winners of a count: the top `seats` choices, unless the last seat is tied."""
    ranked = contest.ranked()
    seats = contest.seats
    if len(ranked) <= seats:
        return Result(tuple(c for c, _ in ranked))
    last_winner, first_loser = ranked[seats - 1][1], ranked[seats][1]
    if last_winner != first_loser:
        return Result(tuple(c for c, _ in ranked[:seats]))
    clear = tuple(c for c, v in ranked if v > last_winner)
    tied = tuple(c for c, v in ranked if v == last_winner)
    return Result(clear, tied, seats - len(clear))


@dataclass(frozen=True, kw_only=True)
class CompletionDecision(Decision):
    contest: str
    seats: int
    kind: ContestKind
    original_totals: Mapping[str, int]
    amended_totals: Mapping[str, int]
    changes: Mapping[str, int]  # choice -> amended - original, every choice
    winners_before: tuple[str, ...]
    winners_after: tuple[str, ...]
    outcome_changed: bool
    reversed_in_favor_of_requester: bool | None  # None when the recount was not requested in a choice's favor
    amended_within_margin: bool
    amended_margin: MarginDecision
    certificates: tuple[str, ...]  # candidates to certify and deliver a certificate to; () for a question
    notice_of_results_to: str
    tie_for_last_seat: bool
    tied_for_last_seat: tuple[str, ...] = ()
    seats_by_lot: int = 0
    tie_citation: str | None = None  # "C.R.S. 1-13.5-1304" when the last seat goes to the lot
    requested_in_favor_of: str | None = None


def _names(names) -> str:
    names = list(names)
    if not names:
        return "no one"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def complete_recount(
    original: Contest, amended: Contest, *, requested_in_favor_of: str | None = None,
    governing_body: str = "the governing body", multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE,
    law: LawProfile = DEFAULT_LAW,
) -> CompletionDecision:
    """After the recount of one contest under `law`: results, certificates, notice; with the facts the refund
    ((2)(d) under 1306) needs."""
    if original.name != amended.name:
        raise ValueError(f"the amended count is for {amended.name!r}, not {original.name!r}")
    if set(original.choices) != set(amended.choices) or len(original.choices) != len(amended.choices):
        raise ValueError(f"{original.name}: the amended count has different choices from the survey of returns")
    if original.seats != amended.seats or original.kind != amended.kind:
        raise ValueError(f"{original.name}: the amended count has different seats or kind from the survey of returns")
    if requested_in_favor_of is not None and requested_in_favor_of not in original.choices:
        raise ValueError(f"{original.name}: the recount was requested in favor of {requested_in_favor_of!r}, "
                         f"which is not a choice in this contest")
    if not isinstance(governing_body, str) or not governing_body.strip():
        raise ValueError("notice of the results goes to the governing body: name it")
    governing_body = " ".join(governing_body.split())

    name, seats, kind = original.name, original.seats, original.kind
    is_question = kind is ContestKind.QUESTION
    before_totals = {c: original.totals[c] for c in original.choices}
    after_totals = {c: amended.totals[c] for c in original.choices}
    changes = {c: after_totals[c] - before_totals[c] for c in original.choices}
    before, after = result_of(original), result_of(amended)
    outcome_changed = before.key != after.key
    tie = bool(after.tied) and not is_question
    reversed_for = None
    if requested_in_favor_of is not None:
        reversed_for = requested_in_favor_of not in before.winners and requested_in_favor_of in after.winners
    margin = check_automatic_recount(amended, multi_seat_rule, law=law)
    tie_citation, refund = law.tie.provision.citation, law.short(law.refund.citation)
    trigger = law.short(law.trigger.provision.citation)
    within = margin.automatic_recount

    # What the clerk reads aloud.
    moved = ", ".join(f"{c} {before_totals[c]:,} -> {after_totals[c]:,}" for c, d in changes.items() if d)
    moved = f" (recount: {moved})" if moved else " (no vote changed)"
    if is_question:
        certificates: tuple[str, ...] = ()
        if after.tied:
            standing = (f"{_names(after.tied)} are tied at {after_totals[after.tied[0]]:,}; no choice has the most "
                        f"votes")
        else:
            lead = after.winners[0]
            others = [after_totals[c] for c in original.choices if c != lead]
            standing = f"{lead} has the most votes, {after_totals[lead]:,} to {max(others, default=0):,}"
        certify = "no certificate of election: a ballot question elects no one"
    else:
        certificates = after.winners
        if tie:
            standing = (f"{_names(after.tied)} are tied for the last "
                        f"{'seat' if after.seats_by_lot == 1 else f'{after.seats_by_lot} seats'} at "
                        f"{after_totals[after.tied[0]]:,} votes, to be decided by lot ({tie_citation})")
            certify = (f"certificates of election to {_names(certificates)}; the certificate for the tied seat is "
                       f"withheld until the lot is drawn" if certificates else
                       "the certificate of election is withheld until the lot is drawn")
        else:
            standing = f"elected: {_names(after.winners)}"
            certify = f"certificates of election to {_names(certificates)}"
    if outcome_changed:
        verdict = "the recount changes the result"
        was = (f"{_names(before.winners)}" + (f", with {_names(before.tied)} tied" if before.tied else ""))
        verdict += f" (before: {was})"
    else:
        verdict = "the recount confirms the result"
    requested = ""
    if requested_in_favor_of is not None:
        limbs = []
        if reversed_for:
            limbs.append(f"reversed in favor of {requested_in_favor_of}")
        if within:
            limbs.append(f"amended count within the {trigger} margin")
        requested = (f"; {refund}: {' and '.join(limbs)}" if limbs
                     else f"; {refund}: not reversed in favor of {requested_in_favor_of}, amended count outside the "
                          f"{trigger} margin")
    reason = (f"{name}: {verdict} — {standing}{moved}; {certify}; notify {governing_body} of the results"
              f"{requested}.")

    readings = []
    if seats > 1:
        readings.append(f"winners are the {seats} candidates with the most votes")
        readings.append(margin.rule)
    if tie:
        readings.append(f"a tie for the last seat is decided by lot ({tie_citation}); certificates for the "
                        f"tied seat are withheld until then")
    if is_question and after.tied:
        readings.append(TIED_QUESTION_READING)
    if requested_in_favor_of is not None:
        readings.append("reversed in favor of the requester: the requested choice did not win before and wins after")

    outcome = (CompletionOutcome.TIE_BY_LOT if tie else
               CompletionOutcome.CHANGED if outcome_changed else CompletionOutcome.CONFIRMED).value
    return CompletionDecision(
        outcome=outcome, citation=law.cite(Part.RESULTS), reason=reason,
        numbers={
            "original_totals": before_totals, "amended_totals": after_totals, "changes": changes,
            "winners_before": list(before.winners), "winners_after": list(after.winners),
            "tied_before": list(before.tied), "tied_after": list(after.tied),
            "certificates": list(certificates), "notice_of_results_to": governing_body,
            # The facts (2)(d) turns on, for the settlement:
            "refund_test_citation": law.refund.citation, "law": law.key,
            "requested_in_favor_of": requested_in_favor_of,
            "reversed_in_favor_of_requester": reversed_for,
            "amended_within_margin": within,
            "amended_margin": margin.margin,
            "amended_max_margin_for_recount": margin.max_margin_for_recount,
            "amended_margin_test": margin.numbers.get("test"),
            # and the fact (2)(f) turns on:
            "leftover_citation": law.leftover.provision.citation,
            "result_changed": outcome_changed,
        },
        reading="; ".join(readings) or None,
        contest=name, seats=seats, kind=kind,
        original_totals=MappingProxyType(before_totals), amended_totals=MappingProxyType(after_totals),
        changes=MappingProxyType(changes), winners_before=before.winners, winners_after=after.winners,
        outcome_changed=outcome_changed, reversed_in_favor_of_requester=reversed_for,
        amended_within_margin=within, amended_margin=margin, certificates=certificates,
        notice_of_results_to=governing_body, tie_for_last_seat=tie, tied_for_last_seat=after.tied if tie else (),
        seats_by_lot=after.seats_by_lot if tie else 0, tie_citation=tie_citation if tie else None,
        requested_in_favor_of=requested_in_favor_of,
    )
