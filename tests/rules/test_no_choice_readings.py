"""A request that names no choice it favors, read against the statute.

(2)(a): "any interested party, including an eligible elector or a candidate for office or the issue committee
for a ballot issue or question, may submit to the designated election official a written request for a
recount" -- no choice is asked of an eligible elector.
(2)(d): "If, after the recount, the result of the election is reversed in favor of the interested party that
requested the recount or if the amended election count is such that a recount otherwise would have been
required pursuant to subsection (1) of this section, the payment for expenses must be refunded".
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from rules.contest import Contest
from rules.requests import NO_CHOICE_LABEL, PartyKind, RecountRequest, evaluate_request, favored_label
from rules.settlement import NoChoiceRefund, settle

ELECTION = dt.date(2026, 11, 3)
MAYOR = Contest.from_totals("Mayor", {"Smith": 5000, "Jones": 4880, "Lee": 10})


def _request(kind: PartyKind, *, candidate: str | None = None) -> RecountRequest:
    return RecountRequest(requester_name="Pat Doe", party_kind=kind, in_favor_of=None,
                          received_on=dt.date(2026, 11, 10), candidate_choice=candidate)


def test_an_eligible_elector_may_request_without_naming_a_choice() -> None:
    decision = evaluate_request(_request(PartyKind.ELIGIBLE_ELECTOR), contest=MAYOR, election_date=ELECTION)
    assert decision.outcome == "accepted"
    assert decision.citation == "C.R.S. 1-13.5-1306(2)(a)"
    assert "naming no choice it favors" in decision.reason
    assert "an eligible elector need not name a choice" in decision.reading
    assert decision.numbers["in_favor_of"] is None
    assert favored_label(decision.numbers["in_favor_of"]) == NO_CHOICE_LABEL


def test_a_candidate_who_names_no_choice_requests_in_their_own_favor() -> None:
    decision = evaluate_request(_request(PartyKind.CANDIDATE, candidate="Jones"), contest=MAYOR,
                                election_date=ELECTION)
    assert decision.outcome == "accepted" and decision.numbers["in_favor_of"] == "Jones"
    assert "in favor of Jones" in decision.reason


def test_without_a_choice_a_changed_result_is_no_refund_by_default() -> None:
    # (2)(d) first limb needs a side; none was named. Result changed, amended count outside (1)'s margin:
    # not refunded; paid $500.00, actual cost $300.00: the unused $200.00 is returned.
    s = settle(paid=Decimal("500.00"), actual_cost=Decimal("300.00"), reversed_in_favor_of_requester=None,
               amended_within_margin=False, result_changed=True)
    assert s.outcome == "return_unused_deposit" and s.refund == Decimal("0.00")
    assert s.deposit_return == Decimal("200.00")
    assert s.citation == "C.R.S. 1-13.5-1306(2)(f)"
    assert s.reading.startswith("no-choice refund, margin-only (default)")
    assert "the request named no choice" in s.reason


def test_without_a_choice_an_amended_count_within_the_margin_is_refunded() -> None:
    s = settle(paid=Decimal("500.00"), actual_cost=Decimal("300.00"), reversed_in_favor_of_requester=None,
               amended_within_margin=True, result_changed=False)
    assert s.outcome == "refund" and s.refund == Decimal("500.00")
    assert s.citation == "C.R.S. 1-13.5-1306(2)(d)"
    assert "no-choice refund, margin-only (default)" in s.reading


def test_the_any_change_reading_refunds_a_changed_result() -> None:
    s = settle(paid=Decimal("500.00"), actual_cost=Decimal("300.00"), reversed_in_favor_of_requester=None,
               amended_within_margin=False, result_changed=True, no_choice_refund=NoChoiceRefund.ANY_CHANGE)
    assert s.outcome == "refund" and s.refund == Decimal("500.00")
    assert s.citation == "C.R.S. 1-13.5-1306(2)(d)"
    assert s.reading.startswith("no-choice refund, any-change (option)")
    assert "the request named no choice" in s.reason


def test_a_named_choice_settles_as_before_and_names_no_no_choice_reading() -> None:
    s = settle(paid=Decimal("500.00"), actual_cost=Decimal("300.00"), reversed_in_favor_of_requester=False,
               amended_within_margin=False, result_changed=False)
    assert s.outcome == "return_unused_deposit" and (s.reading is None or "no-choice" not in s.reading)
