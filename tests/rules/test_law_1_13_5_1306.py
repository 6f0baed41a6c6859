"""C.R.S. 1-13.5-1306 as a profile, shaped like the statute and checked against the same rules given no law (the
default every caller relied on before there were several laws): the May special district calendar, the Friday
before a Saturday holiday, who may ask, who pays and gets back what.

Every date was counted by hand, the day of the event excluded and the last day included, weekday beside it.
"""
from __future__ import annotations

from datetime import date as D
from decimal import Decimal

import pytest

from rules.calendar import ColoradoCalendar
from rules.contest import Contest
from rules.deadlines import election_deadlines, request_deadline, requested_recount_deadline
from rules.laws import LAWS
from rules.margin import check_automatic_recount
from rules.parties import PartyKind
from rules.requests import RecountRequest, evaluate_request
from rules.serialize import to_jsonable
from rules.settlement import settle

LAW = LAWS["1-13.5-1306"]


def test_the_regular_special_district_election_of_2027() -> None:
    # Tue 2027-05-04 (1-13.5-111(1)): window Wed 05-05 .. + 17 = Fri 05-21; automatic + 28 = Tue 06-01;
    # requested: canvass Wed 05-05 + 28 = Wed 06-02 (the earliest), canvass Tue 05-18 + 28 = Tue 06-15 (the latest);
    # contest: Fri 05-21 + 10 = Mon 05-31, Memorial Day -> Tue 06-01.
    e = election_deadlines(D(2027, 5, 4), law=LAW)
    assert (e.request_window_opens.date, e.request.date, e.automatic_recount.date) == (
        D(2027, 5, 5), D(2027, 5, 21), D(2027, 6, 1))
    assert (e.requested_recount.date, e.requested_recount.latest, e.requested_recount.estimated) == (
        D(2027, 6, 2), D(2027, 6, 15), True)
    assert (e.contest_filing.date, e.contest_filing.rolled_from) == (D(2027, 6, 1), D(2027, 5, 31))
    assert e.extra == ()
    assert e.as_json() == election_deadlines(D(2027, 5, 4)).as_json()  # the profile is the default


def test_the_notes_worked_example_with_the_canvass_on_the_fourteenth_day() -> None:
    # Tue 2025-05-06: request + 17 = Fri 05-23; automatic + 28 = Tue 06-03; canvass Tue 05-20 + 28 = Tue 06-17.
    e = election_deadlines(D(2025, 5, 6), canvass_date=D(2025, 5, 20), law=LAW)
    assert (e.request.date, e.automatic_recount.date, e.requested_recount.date) == (
        D(2025, 5, 23), D(2025, 6, 3), D(2025, 6, 17))
    assert e.requested_recount.estimated is False and e.requested_recount.latest is None


def test_the_friday_before_independence_day_is_asked_about_not_assumed() -> None:
    # Tue 2026-06-16 + 17 = Fri 2026-07-03; Sat 07-04 is Independence Day. Colorado moves no Saturday holiday to
    # Friday: the deadline stays Friday unless the office says it is closed (24-11-110), then Mon 07-06.
    assert request_deadline(D(2026, 6, 16)).date == D(2026, 7, 3)
    questions = election_deadlines(D(2026, 6, 16)).questions(ColoradoCalendar())
    assert len(questions) == 1 and questions[0].startswith("The last day to file a recount request falls on Fri "
                                                           "2026-07-03, the Friday before Independence Day")
    closed = ColoradoCalendar(extra_closures={D(2026, 7, 3): "Independence Day observed"})
    d = request_deadline(D(2026, 6, 16), closed)
    assert (d.date, d.rolled_from) == (D(2026, 7, 6), D(2026, 7, 3))
    assert "(C.R.S. 24-11-110; C.R.S. 1-1-106(4))" in d.note
    # A day appointed by the governor is a legal holiday instead (24-11-101(1)): 1-1-106(4) alone.
    appointed = ColoradoCalendar(appointed_holidays={D(2026, 7, 3): "Day of thanksgiving"})
    a = request_deadline(D(2026, 6, 16), appointed)
    assert a.date == D(2026, 7, 6) and "(C.R.S. 1-1-106(4))" in a.note and "24-11-110" not in a.note


def test_an_entered_canvass_moves_the_requested_deadline_off_the_estimate() -> None:
    estimate = requested_recount_deadline(D(2026, 11, 3))
    exact = requested_recount_deadline(D(2026, 11, 3), D(2026, 11, 9))  # Mon + 28 = Mon 12-07
    assert estimate.date < exact.date <= estimate.latest
    assert (exact.date, exact.estimated) == (D(2026, 12, 7), False)


MAYOR = Contest.from_totals("Mayor", {"Smith": 5000, "Jones": 4880})


@pytest.mark.parametrize("kind, kw, outcome", [
    (PartyKind.ELIGIBLE_ELECTOR, {}, "accepted"),
    (PartyKind.CANDIDATE, {"candidate_choice": "Jones"}, "accepted"),
    (PartyKind.CANDIDATE, {"candidate_choice": "Smith"}, "accepted"),  # 1306 does not ask that the candidate lost
    (PartyKind.PETITION_REPRESENTATIVE, {"committee_side": "Jones"}, "refused_not_interested_party"),
    (PartyKind.POLITICAL_PARTY, {"candidate_choice": "Jones"}, "refused_not_interested_party"),
])
def test_who_may_ask_under_1306(kind, kw, outcome) -> None:
    decision = evaluate_request(RecountRequest("Pat Doe", kind, None, D(2026, 11, 10), **kw), contest=MAYOR,
                                election_date=D(2026, 11, 3), law=LAW)
    assert decision.outcome == outcome
    # Not notarized, and a second request is not refused for being one: neither is in 1306.
    assert "notarized" not in decision.reason


@pytest.mark.parametrize("highest, next_highest, automatic", [(500, 498, True), (500, 497, False),
                                                              (1000, 995, True), (1000, 994, False)])
def test_the_margin_at_its_boundary(highest, next_highest, automatic) -> None:
    contest = Contest.from_totals("Seat", {"A": highest, "B": next_highest})
    verdict = check_automatic_recount(contest, law=LAW)
    assert verdict.automatic_recount is automatic and verdict.citation == "C.R.S. 1-13.5-1306(1)"
    assert to_jsonable(check_automatic_recount(contest)) == to_jsonable(verdict)


def test_who_pays_and_what_comes_back() -> None:
    refund = settle(paid=Decimal("1000.00"), actual_cost=Decimal("800.00"), reversed_in_favor_of_requester=False,
                    amended_within_margin=True, result_changed=False, law=LAW)
    assert (refund.outcome, refund.refund, refund.citation) == ("refund", Decimal("1000.00"),
                                                                "C.R.S. 1-13.5-1306(2)(d)")
    left = settle(paid=Decimal("1000.00"), actual_cost=Decimal("800.00"), reversed_in_favor_of_requester=False,
                  amended_within_margin=False, result_changed=False, law=LAW)
    assert (left.outcome, left.deposit_return, left.citation) == ("return_unused_deposit", Decimal("200.00"),
                                                                 "C.R.S. 1-13.5-1306(2)(f)")
    assert left.reading is None  # (2)(f) says so: no reading needed
