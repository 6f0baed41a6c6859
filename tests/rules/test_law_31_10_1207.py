"""C.R.S. 31-10-1207 (Municipal Election Code), shaped like the statute: the tenth-day request, the fifteenth-day
completion of every recount, who may ask, who pays and gets a refund, the clerk's lot (31-10-1204).

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
from rules.deadlines import election_deadlines, request_deadline
from rules.laws import LAWS
from rules.lot import CandidateNotice, decide_lot, tie_to_draw
from rules.margin import check_automatic_recount
from rules.parties import PartyKind
from rules.requests import RecountRequest, RequestOutcome, evaluate_request
from rules.serialize import to_jsonable
from rules.settlement import SettlementOutcome, settle

LAW = LAWS["31-10-1207"]
TWO = "C.R.S. 31-10-1207(2)"
DENVER = dt.timezone(dt.timedelta(hours=-6))


def _wd(day: dt.date) -> str:
    return day.strftime("%a")


# (election, request deadline, rolled from, completion (automatic and requested), falls on, contest deadline)
CALENDARS = [
    # The example: Tue 2026-04-07 + 10 = Fri 04-17; + 15 = Wed 04-22; contest: Fri 04-17 + 10 = Mon 04-27.
    (D(2026, 4, 7), D(2026, 4, 17), None, D(2026, 4, 22), None, D(2026, 4, 27)),
    # Tue 2026-06-09 + 10 = Fri 06-19, Juneteenth -> Mon 06-22 (31-10-103); + 15 = Wed 06-24; Mon 06-22 + 10 = Thu 07-02.
    (D(2026, 6, 9), D(2026, 6, 22), D(2026, 6, 19), D(2026, 6, 24), None, D(2026, 7, 2)),
    # Tue 2026-12-15 + 10 = Fri 12-25, Christmas -> Mon 12-28; + 15 = Wed 12-30; Mon 12-28 + 10 = Thu 2027-01-07.
    (D(2026, 12, 15), D(2026, 12, 28), D(2026, 12, 25), D(2026, 12, 30), None, D(2027, 1, 7)),
    # Tue 2024-12-10 + 10 = Fri 12-20; + 15 = Wed 12-25, Christmas: not rolled, flagged; Fri 12-20 + 10 = Mon 12-30.
    (D(2024, 12, 10), D(2024, 12, 20), None, D(2024, 12, 25), "Christmas Day", D(2024, 12, 30)),
]


@pytest.mark.parametrize("election, request_by, rolled_from, complete, falls_on, contest", CALENDARS,
                         ids=[str(c[0]) for c in CALENDARS])
def test_the_municipal_calendar(election, request_by, rolled_from, complete, falls_on, contest) -> None:
    assert _wd(election) == "Tue"
    e = election_deadlines(election, law=LAW)
    assert e.request_window_opens.date == election + dt.timedelta(days=1)
    assert (e.request.date, e.request.rolled_from, e.request.citation) == (request_by, rolled_from, TWO)
    assert (e.automatic_recount.date, e.automatic_recount.falls_on) == (complete, falls_on)
    assert e.automatic_recount.citation == "C.R.S. 31-10-1207(1)"
    # (2): the requested recount too is done by the fifteenth day after the election; no canvass is awaited.
    assert (e.requested_recount.date, e.requested_recount.estimated, e.requested_recount.citation) == (
        complete, False, TWO)
    assert (e.contest_filing.date, e.contest_filing.citation) == (contest, "C.R.S. 31-10-1303")
    assert e.extra == ()  # no waiver, no cost-setting day
    if rolled_from:
        assert "C.R.S. 31-10-103" in e.request.note
    assert all(d.law == "31-10-1207" for d in e.all())


def test_a_friday_the_office_closes_before_a_saturday_holiday() -> None:
    # Tue 2026-06-23 + 10 = Fri 2026-07-03, the Friday before Independence Day (Sat 07-04): a business day in law.
    e = election_deadlines(D(2026, 6, 23), law=LAW)
    assert e.request.date == D(2026, 7, 3) and e.request.rolled_from is None
    [question] = e.questions(ColoradoCalendar())
    assert "Fri 2026-07-03" in question and "Independence Day" in question and "C.R.S. 24-11-110" in question
    # The office says it closes that Friday: the filing stands continued to Mon 07-06 (24-11-110, then 31-10-103).
    closed = ColoradoCalendar(extra_closures={D(2026, 7, 3): "Independence Day observed"})
    d = request_deadline(D(2026, 6, 23), closed, law=LAW)
    assert (d.date, d.rolled_from) == (D(2026, 7, 6), D(2026, 7, 3))
    assert "(C.R.S. 24-11-110; C.R.S. 31-10-103)" in d.note
    assert election_deadlines(D(2026, 6, 23), calendar=closed, law=LAW).questions(closed) == ()


# ------------------------------------------------------------------------------------------ requests

MAYOR = Contest.from_totals("Mayor", {"Ortiz": 1000, "Baker": 980})  # margin 20 > 5: not automatic
CLOSE = Contest.from_totals("Trustee", {"Ortiz": 1000, "Baker": 995})  # margin 5 = 1000/200: automatic
QUESTION = Contest.from_totals("Question 300", {"Yes": 700, "No": 800}, kind=ContestKind.QUESTION)
ELECTION = D(2026, 4, 7)


def ask(kind, received, contest=MAYOR, **kw) -> dict:
    request = RecountRequest("Pat Doe", kind, kw.pop("in_favor_of", None), received, **kw)
    return to_jsonable(evaluate_request(request, contest=contest, election_date=ELECTION, law=LAW))


@pytest.mark.parametrize("received, outcome", [
    (D(2026, 4, 7), "refused_early"),  # election day: the window has not opened
    (D(2026, 4, 8), "accepted"),  # the day after
    (D(2026, 4, 17), "accepted"),  # the tenth day, Fri
    (D(2026, 4, 18), "refused_late"),  # the eleventh
])
def test_the_ten_day_window(received, outcome) -> None:
    decision = ask(PartyKind.CANDIDATE, received, candidate_choice="Baker")
    assert decision["outcome"] == outcome
    assert decision["citation"] == TWO


def test_who_may_ask_under_31_10_1207() -> None:
    assert ask(PartyKind.CANDIDATE, D(2026, 4, 10), candidate_choice="Baker")["outcome"] == "accepted"
    rep = ask(PartyKind.PETITION_REPRESENTATIVE, D(2026, 4, 10), QUESTION, committee_side="Yes")
    assert rep["outcome"] == "accepted" and rep["numbers"]["in_favor_of"] == "Yes"
    elector = ask(PartyKind.ELIGIBLE_ELECTOR, D(2026, 4, 10), in_favor_of="Baker")
    assert elector["outcome"] == RequestOutcome.REFUSED_NOT_INTERESTED_PARTY.value
    assert "C.R.S. 31-10-1207 names" in elector["reason"]
    # Neither notarized nor once only: a second request is decided on its own.
    again = to_jsonable(evaluate_request(RecountRequest("Pat Doe", "candidate", None, D(2026, 4, 10),
                                                        candidate_choice="Baker"),
                                         contest=MAYOR, election_date=ELECTION, law=LAW, earlier_requests=("accepted",)))
    assert again["outcome"] == "accepted" and "notarized" not in again["reason"]


def test_an_automatic_recount_is_not_requested_and_the_governing_body_pays() -> None:
    decision = ask(PartyKind.CANDIDATE, D(2026, 4, 10), CLOSE, candidate_choice="Baker")
    assert decision["outcome"] == "refused_automatic"
    assert decision["citation"] == "C.R.S. 31-10-1207(1), (2)"
    assert "paid by the governing body" in decision["reason"]


def test_the_margin_at_its_boundary() -> None:
    assert check_automatic_recount(CLOSE, law=LAW).automatic_recount is True  # 5 <= 1000/200
    six = Contest.from_totals("Trustee", {"Ortiz": 1000, "Baker": 994})
    verdict = check_automatic_recount(six, law=LAW)
    assert verdict.automatic_recount is False and verdict.citation == "C.R.S. 31-10-1207(1)"


# ---------------------------------------------------------------------------------- money and the lot

def test_the_refund_and_the_escrow_left_over() -> None:
    refund = settle(paid=Decimal("900.00"), actual_cost=Decimal("700.00"), reversed_in_favor_of_requester=True,
                    amended_within_margin=False, result_changed=True, law=LAW)
    assert (refund.outcome, refund.refund, refund.citation) == ("refund", Decimal("900.00"), TWO)
    assert "the governing body bears the $700.00 actual cost" in refund.reason
    # 31-10-1207 is silent on an unused escrow balance: returned by reading, and the reading says so.
    left = settle(paid=Decimal("900.00"), actual_cost=Decimal("700.00"), reversed_in_favor_of_requester=False,
                  amended_within_margin=False, result_changed=False, law=LAW)
    assert (left.outcome, left.deposit_return) == (SettlementOutcome.RETURN_UNUSED.value, Decimal("200.00"))
    assert "no clause on the unused part of the escrow" in left.reading and "by reading" in left.reason
    due = settle(paid=Decimal("500.00"), actual_cost=Decimal("700.00"), reversed_in_favor_of_requester=False,
                 amended_within_margin=False, result_changed=False, law=LAW)
    assert (due.outcome, due.balance_due, due.citation) == ("balance_due", Decimal("200.00"), TWO)


def test_a_tie_left_by_the_recount_is_drawn_by_the_clerk() -> None:
    board = Contest.from_totals("Trustees", {"Ortiz": 900, "Baker": 800, "Lee": 800}, seats=2)
    done = complete_recount(board, board, law=LAW)
    assert done.tie_citation == "C.R.S. 31-10-1204" and done.citation == "C.R.S. 31-10-1207(6)"
    tie = tie_to_draw(to_jsonable(done))
    drawn_at = dt.datetime(2026, 4, 23, 10, tzinfo=DENVER)
    notices = [CandidateNotice(c, drawn_at - dt.timedelta(days=2), "telephone") for c in ("Baker", "Lee")]
    lot = decide_lot(tie, winners=["Lee"], notices=notices, drawn_at=drawn_at, law=LAW)
    assert lot.citation == "C.R.S. 31-10-1204" and "drawn by the clerk and the clerk's assistant" in lot.reason
    assert lot.numbers["certificate_citation"] == "C.R.S. 31-10-1207(6)"
