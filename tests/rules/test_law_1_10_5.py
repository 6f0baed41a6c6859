"""C.R.S. 1-10.5-101 to 107 and 109 (Uniform Election Code, an election the county clerk coordinates), shaped like
the statute: the window from the tenth to the twenty-second day, notarized and once only, only the losing side may
ask, the cost set within four days and by the twenty-fourth, the waiver within twenty-three days, completion by the
thirty-first, the entity that certified the item pays, the unused escrow to the officials (2022 text), the lot by
the board of canvassers (1-11-102).

Every date was counted by hand, the day of the event excluded and the last day included, weekday beside it.
"""
from __future__ import annotations

import datetime as dt
from datetime import date as D
from decimal import Decimal

import pytest

from rules.calendar import ColoradoCalendar
from rules.completion import complete_recount
from rules.contest import Contest, ContestKind
from rules.deadlines import (
    cost_determination_deadline,
    election_deadlines,
    payment_deadline,
    request_window_opens,
    subdivision_notice_deadline,
    waiver_deadline,
)
from rules.duties import CaseFacts, DutyKind, duties_of
from rules.laws import LAWS
from rules.lot import CandidateNotice, decide_lot, tie_to_draw
from rules.margin import MultiSeatRule, check_automatic_recount
from rules.notices_owed import OwedNotice, notices_before_completion
from rules.parties import PartyKind
from rules.requests import RecountRequest, evaluate_request
from rules.serialize import to_jsonable
from rules.settlement import settle

LAW = LAWS["1-10.5"]
REQUEST = "C.R.S. 1-10.5-106(2)"
DENVER = dt.timezone(dt.timedelta(hours=-7))


# --------------------------------------------------------------------------------------- the calendar

def test_the_issue_example_november_2026() -> None:
    # Tue 2026-11-03: opens + 10 = Fri 11-13; closes + 22 = Wed 11-25; automatic + 31 = Fri 12-04;
    # waiver + 23 = Thu 11-26, Thanksgiving -> Fri 11-27 (1-1-106(4)); cost no later than + 24 = Fri 11-27.
    e = election_deadlines(D(2026, 11, 3), law=LAW)
    assert (e.request_window_opens.date, e.request_window_opens.citation) == (D(2026, 11, 13), REQUEST)
    assert (e.request.date, e.request.citation, e.request.rolled_from) == (D(2026, 11, 25), REQUEST, None)
    assert (e.automatic_recount.date, e.automatic_recount.citation) == (D(2026, 12, 4), "C.R.S. 1-10.5-103")
    assert e.requested_recount.date == D(2026, 12, 4) and "thirty-seventh" in e.requested_recount.reading
    waiver, cost = e.extra
    assert (waiver.name, waiver.date, waiver.rolled_from) == ("waiver_deadline", D(2026, 11, 27), D(2026, 11, 26))
    assert "Thanksgiving Day" in waiver.note and "C.R.S. 1-1-106(4)" in waiver.note
    assert (cost.name, cost.date, cost.falls_on) == ("cost_determination_deadline", D(2026, 11, 27), None)


def test_the_worked_example_of_2025_with_the_friday_after_thanksgiving_closed() -> None:
    # Tue 2025-11-04: window Fri 11-14 .. Wed 11-26; waiver + 23 = Thu 11-27, Thanksgiving -> Fri 11-28;
    # completion + 31 = Fri 12-05. If the clerk's office is closed Fri 11-28, the waiver stands continued to
    # Mon 12-01 (24-11-110), and the cost (no later than Fri 11-28, day 24) is flagged: finish by Wed 11-26.
    e = election_deadlines(D(2025, 11, 4), law=LAW)
    assert (e.request_window_opens.date, e.request.date, e.automatic_recount.date) == (
        D(2025, 11, 14), D(2025, 11, 26), D(2025, 12, 5))
    assert e.extra[0].date == D(2025, 11, 28)
    closed = ColoradoCalendar(extra_closures={D(2025, 11, 28): "the day after Thanksgiving"})
    waiver = waiver_deadline(D(2025, 11, 4), closed, law=LAW)
    assert (waiver.date, waiver.rolled_from) == (D(2025, 12, 1), D(2025, 11, 27))
    assert "(C.R.S. 1-1-106(4); C.R.S. 24-11-110)" in waiver.note
    cost = cost_determination_deadline(D(2025, 11, 4), calendar=closed, law=LAW)
    assert (cost.date, cost.falls_on) == (D(2025, 11, 28), "the day after Thanksgiving")
    assert "finish by the business day before, Wed 2025-11-26" in cost.reason


def test_the_2024_general_election_matches_the_secretary_of_states_day() -> None:
    # Tue 2024-11-05 + 31 = Fri 2024-12-06: the Secretary of State's release of 2024-11-27 ("by December 6").
    e = election_deadlines(D(2024, 11, 5), law=LAW)
    assert e.automatic_recount.date == D(2024, 12, 6)
    # + 22 = Wed 11-27; + 23 = Thu 11-28, Thanksgiving -> Fri 11-29.
    assert (e.request.date, e.extra[0].date) == (D(2024, 11, 27), D(2024, 11, 29))


def test_a_window_closing_on_veterans_day_and_opening_on_christmas() -> None:
    # Tue 2026-10-20 + 22 = Wed 2026-11-11, Veterans Day -> Thu 11-12.
    e = election_deadlines(D(2026, 10, 20), law=LAW)
    assert (e.request.date, e.request.rolled_from) == (D(2026, 11, 12), D(2026, 11, 11))
    # Tue 2026-12-15 + 10 = Fri 12-25: the window opens on Christmas (not rolled: it is not a deadline); the office
    # takes requests from Mon 12-28.
    opens = request_window_opens(D(2026, 12, 15), law=LAW)
    assert (opens.date, opens.falls_on, opens.rolled_from) == (D(2026, 12, 25), "Christmas Day", None)
    assert "Mon 2026-12-28" in opens.reason


@pytest.mark.parametrize("received, due", [
    (D(2026, 11, 13), D(2026, 11, 17)),  # Fri + 4 = Tue, before the 24th day
    (D(2026, 11, 23), D(2026, 11, 27)),  # Mon + 4 = Fri 11-27, the 24th day itself
    (D(2026, 11, 25), D(2026, 11, 27)),  # Wed + 4 = Sun 11-29, after the 24th day: the 24th day
])
def test_the_cost_is_set_within_four_days_and_no_later_than_the_24th(received, due) -> None:
    d = cost_determination_deadline(D(2026, 11, 3), received, law=LAW)
    assert (d.date, d.citation) == (due, REQUEST)


def test_the_subdivision_is_told_the_day_after_and_the_requester_pays_within_a_day() -> None:
    notice = subdivision_notice_deadline(D(2026, 11, 13), law=LAW)  # Fri + 1 = Sat 11-14: finish by Fri 11-13
    assert (notice.date, notice.falls_on) == (D(2026, 11, 14), "Saturday")
    pay = payment_deadline(D(2026, 11, 20), law=LAW)  # Fri + 1 = Sat 11-21 -> Mon 11-23: a payment is a filing
    assert (pay.date, pay.rolled_from) == (D(2026, 11, 23), D(2026, 11, 21))
    assert "certified funds" in pay.reason and "not confirmed for the 2023+ text" in pay.reading
    assert payment_deadline(D(2026, 11, 20)) is None  # 1306: on demand, no day


# ------------------------------------------------------------------------------------------ requests

ELECTION = D(2026, 11, 3)
MAYOR = Contest.from_totals("Council Ward 2", {"Ortiz": 1000, "Baker": 900})
QUESTION = Contest.from_totals("Ballot Issue 4B", {"Yes": 700, "No": 800}, kind=ContestKind.QUESTION)


def ask(kind, contest=MAYOR, received=D(2026, 11, 16), notarized=True, earlier=(), **kw) -> dict:
    request = RecountRequest("Pat Doe", kind, kw.pop("in_favor_of", None), received, notarized=notarized, **kw)
    return to_jsonable(evaluate_request(request, contest=contest, election_date=ELECTION, law=LAW,
                                        earlier_requests=earlier))


@pytest.mark.parametrize("received, outcome", [
    (D(2026, 11, 4), "refused_early"),  # the day after the election
    (D(2026, 11, 12), "refused_early"),  # the ninth day
    (D(2026, 11, 13), "accepted"),  # the tenth: "no sooner than ten days"
    (D(2026, 11, 25), "accepted"),  # the twenty-second
    (D(2026, 11, 26), "refused_late"),  # the twenty-third
])
def test_no_sooner_than_ten_days_nor_later_than_twenty_two(received, outcome) -> None:
    decision = ask(PartyKind.CANDIDATE, received=received, candidate_choice="Baker")
    assert decision["outcome"] == outcome and decision["citation"] == REQUEST
    if outcome == "refused_early":
        assert "the window had not opened" in decision["reason"] and "Fri 2026-11-13" in decision["reason"]


def test_only_the_losing_side_may_ask() -> None:
    assert ask(PartyKind.CANDIDATE, candidate_choice="Baker")["outcome"] == "accepted"
    winner = ask(PartyKind.CANDIDATE, candidate_choice="Ortiz")
    assert winner["outcome"] == "refused_not_interested_party" and winner["citation"] == "C.R.S. 1-10.5-106(1)"
    assert "did not lose" in winner["reason"]
    assert ask(PartyKind.POLITICAL_PARTY, candidate_choice="Baker")["outcome"] == "accepted"
    assert ask(PartyKind.ELIGIBLE_ELECTOR, in_favor_of="Baker")["outcome"] == "refused_not_interested_party"
    # Ballot Issue 4B failed (No 800, Yes 700): its petition representative, the governing body that referred it
    # and a committee that supported it may ask; a committee that opposed it may not.
    for kind in (PartyKind.PETITION_REPRESENTATIVE, PartyKind.GOVERNING_BODY, PartyKind.ISSUE_COMMITTEE):
        assert ask(kind, QUESTION, committee_side="Yes")["outcome"] == "accepted", kind
    assert ask(PartyKind.ISSUE_COMMITTEE, QUESTION, committee_side="No")["outcome"] == "refused_not_interested_party"


def test_notarized_and_only_once() -> None:
    unsworn = ask(PartyKind.CANDIDATE, candidate_choice="Baker", notarized=None)
    assert unsworn["outcome"] == "refused_not_notarized" and "not recorded as notarized" in unsworn["reason"]
    assert ask(PartyKind.CANDIDATE, candidate_choice="Baker", notarized=False)["outcome"] == "refused_not_notarized"
    again = ask(PartyKind.CANDIDATE, candidate_choice="Baker", earlier=("accepted",))
    assert again["outcome"] == "refused_once_only" and "may be made only once" in again["reason"]
    # A request refused as early was not a request the section allows: the party may file again in the window.
    assert ask(PartyKind.CANDIDATE, candidate_choice="Baker", earlier=("refused_early",))["outcome"] == "accepted"
    accepted = ask(PartyKind.CANDIDATE, candidate_choice="Baker")
    assert "requests, notarized, a recount" in accepted["reason"]
    assert "Fri 2026-11-13 through Wed 2026-11-25" in accepted["reason"]


def test_an_automatic_recount_is_paid_by_the_entity_that_certified_the_item() -> None:
    close = Contest.from_totals("Council Ward 3", {"Ortiz": 1000, "Baker": 995})
    decision = ask(PartyKind.CANDIDATE, close, candidate_choice="Baker")
    assert decision["outcome"] == "refused_automatic"
    assert decision["citation"] == "C.R.S. 1-10.5-101(1)(b); 1-10.5-106(2)"
    assert "paid by the entity that certified the candidate, ballot question, or ballot issue" in decision["reason"]


def test_the_multi_seat_rule_is_the_statutes_not_the_offices() -> None:
    # Two seats: A 3,000, B 1,000, C 996. 1-10.5-101(1)(b): B (least-vote winner) against C: 4 <= 1,000/200.
    board = Contest.from_totals("School Board", {"A": 3000, "B": 1000, "C": 996}, seats=2)
    verdict = check_automatic_recount(board, MultiSeatRule.TOP_TWO, law=LAW)
    assert verdict.automatic_recount is True and verdict.citation == "C.R.S. 1-10.5-101(1)(b)"
    assert "as C.R.S. 1-10.5-101(1)(b) says" in verdict.rule
    assert any("'top-two' is not applied" in r for r in verdict.readings)
    # Under 1306 the office's top-two reading compares A and B: no recount.
    assert check_automatic_recount(board, MultiSeatRule.TOP_TWO).automatic_recount is False


# ---------------------------------------------------------------------------------- money, notices, lot

def test_the_unused_escrow_goes_to_the_officials_and_is_flagged() -> None:
    left = settle(paid=Decimal("1500.00"), actual_cost=Decimal("1200.00"), reversed_in_favor_of_requester=False,
                  amended_within_margin=False, result_changed=False, law=LAW)
    assert (left.outcome, left.to_officials, left.deposit_return) == ("unused_to_officials", Decimal("300.00"),
                                                                      Decimal("0.00"))
    assert left.requester_net_cost == Decimal("1500.00") and "not confirmed" in left.reading
    refund = settle(paid=Decimal("1500.00"), actual_cost=Decimal("1200.00"), reversed_in_favor_of_requester=True,
                    amended_within_margin=False, result_changed=True, law=LAW)
    assert refund.refund == Decimal("1500.00") and refund.citation == REQUEST
    assert "the entity that certified the candidate, ballot question, or ballot issue for the ballot bears" in refund.reason
    facts = CaseFacts(case_id=7, contest="Council Ward 2", requested=True, completed=True, governing_body="Council",
                      results_notified=True, settlement_outcome="unused_to_officials",
                      to_officials=Decimal("300.00"))
    [duty] = duties_of(facts, LAW)
    assert duty.kind is DutyKind.TO_OFFICIALS and duty.citation == REQUEST and "$300.00" in duty.what


def test_notices_cite_1_10_5_105() -> None:
    refused = notices_before_completion([OwedNotice("candidate", "Baker")], law=LAW)
    assert refused.outcome == "refused" and refused.citation == "C.R.S. 1-10.5-105"
    assert notices_before_completion([], law=LAW).reason.startswith("every notice of the recount under C.R.S. 1-10.5-105")


def test_a_tie_left_by_the_recount_is_drawn_by_the_board_of_canvassers() -> None:
    board = Contest.from_totals("School Board", {"A": 900, "B": 800, "C": 800}, seats=2)
    done = complete_recount(board, board, law=LAW)
    assert done.tie_citation == "C.R.S. 1-11-102" and done.citation == "C.R.S. 1-10.5-107(4), (5)"
    tie = tie_to_draw(to_jsonable(done))
    drawn_at = dt.datetime(2026, 12, 7, 10, tzinfo=DENVER)
    notices = [CandidateNotice(c, drawn_at - dt.timedelta(days=1), "e-mail") for c in ("B", "C")]
    lot = decide_lot(tie, winners=["C"], notices=notices, drawn_at=drawn_at, law=LAW)
    assert lot.citation == "C.R.S. 1-11-102" and "drawn by the board of canvassers" in lot.reason
    assert lot.numbers["certificate_citation"] == "C.R.S. 1-11-103(1)" and "1-11-101" in lot.reading
