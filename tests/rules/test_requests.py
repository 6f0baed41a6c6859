"""(2)(a): "Whenever a recount ... is not required pursuant to subsection (1) ..., any interested party,
including an eligible elector or a candidate for office or the issue committee for a ballot issue or question,
may submit ... a written request for a recount at the expense of the interested party making the request.
This request shall be filed ... within seventeen days after the election." """
from __future__ import annotations

import datetime as dt

import pytest

from rules.calendar import DEFAULT_CALENDAR
from rules.contest import Contest, ContestKind
from rules.margin import MultiSeatRule
from rules.requests import (
    INTERESTED_PARTY_READING,
    OWN_FAVOR_READING,
    PartyKind,
    RecountRequest,
    RequestOutcome,
    evaluate_request,
    party_kind_of,
)

A = "C.R.S. 1-13.5-1306(2)(a)"
ONE_AND_A = "C.R.S. 1-13.5-1306(1), (2)(a)"

ELECTION = dt.date(2026, 11, 3)  # Tue; 17 days after is Fri 2026-11-20
IN_TIME = dt.date(2026, 11, 10)
LAST_DAY = dt.date(2026, 11, 20)
DAY_AFTER = dt.date(2026, 11, 21)

# 1/2 of 1% of 5,000 is 25 votes: a margin of 120 is not automatic.
MAYOR = Contest.from_totals("Mayor", {"Smith": 5000, "Jones": 4880, "Lee": 10})
# 1/2 of 1% of 500 is 2.5 votes: a margin of 2 is automatic under (1).
CLOSE = Contest.from_totals("Fire Board", {"Smith": 500, "Jones": 498})
QUESTION = Contest.from_totals("Question 2A", {"Yes": 1000, "No": 1200}, kind=ContestKind.QUESTION)

ELECTOR, CANDIDATE, COMMITTEE = PartyKind.ELIGIBLE_ELECTOR, PartyKind.CANDIDATE, PartyKind.ISSUE_COMMITTEE
ACCEPTED = RequestOutcome.ACCEPTED.value
AUTOMATIC = RequestOutcome.REFUSED_AUTOMATIC.value
LATE = RequestOutcome.REFUSED_LATE.value
NOT_PARTY = RequestOutcome.REFUSED_NOT_INTERESTED_PARTY.value
INVALID = RequestOutcome.REFUSED_INVALID.value
EARLY = RequestOutcome.REFUSED_EARLY.value


def req(kind, in_favor_of, received_on=IN_TIME, *, name="Pat Doe", candidate=None, side=None) -> RecountRequest:
    return RecountRequest(name, kind, in_favor_of, received_on, candidate_choice=candidate, committee_side=side)


def case(description: str, *values):
    return pytest.param(*values, id=description)


@pytest.mark.parametrize(
    ("request_", "contest", "outcome", "citation", "problems"),
    [
        case("an eligible elector may request a recount of a candidate contest",
             req(ELECTOR, "Jones"), MAYOR, ACCEPTED, A, []),
        case("an eligible elector may request a recount of a ballot question",
             req(ELECTOR, "Yes"), QUESTION, ACCEPTED, A, []),
        case("an eligible elector may ask in favor of any choice, even a trailing one",
             req(ELECTOR, "Lee"), MAYOR, ACCEPTED, A, []),
        case("a candidate in this contest may request in their own favor",
             req(CANDIDATE, "Jones", candidate="Jones"), MAYOR, ACCEPTED, A, []),
        case("the issue committee for a side of this ballot question may request",
             req(COMMITTEE, "Yes", side="Yes"), QUESTION, ACCEPTED, A, []),
        case("a candidate not on this contest is not an interested party",
             req(CANDIDATE, "Jones", candidate="Garcia"), MAYOR, NOT_PARTY, A, [NOT_PARTY]),
        case("a candidate who does not say which candidate they are is not an interested party",
             req(CANDIDATE, "Jones"), MAYOR, NOT_PARTY, A, [NOT_PARTY]),
        case("for a ballot question a candidate is not an interested party",
             req(CANDIDATE, "Yes", candidate="Yes"), QUESTION, NOT_PARTY, A, [NOT_PARTY]),
        case("an issue committee is an interested party only for a ballot issue or question",
             req(COMMITTEE, "Jones", side="Jones"), MAYOR, NOT_PARTY, A, [NOT_PARTY]),
        case("an issue committee must support a choice of the question",
             req(COMMITTEE, "Yes", side="Maybe"), QUESTION, NOT_PARTY, A, [NOT_PARTY]),
        case("an unknown kind of requester is not an interested party",
             req("news_reporter", "Jones"), MAYOR, NOT_PARTY, A, [NOT_PARTY]),
        case("in favor of a name that is not a choice -> invalid",
             req(ELECTOR, "Garcia"), MAYOR, INVALID, A, [INVALID]),
        case("a candidate asking in favor of another candidate -> invalid",
             req(CANDIDATE, "Lee", candidate="Jones"), MAYOR, INVALID, A, [INVALID]),
        case("an issue committee asking in favor of the other side -> invalid",
             req(COMMITTEE, "No", side="Yes"), QUESTION, INVALID, A, [INVALID]),
        case("a request that names no requester -> invalid",
             req(ELECTOR, "Jones", name="  "), MAYOR, INVALID, A, [INVALID]),
        case("(1): a recount already required is automatic, not requested",
             req(ELECTOR, "Jones"), CLOSE, AUTOMATIC, ONE_AND_A, [AUTOMATIC]),
        case("(1): a candidate's request is refused too when the recount is automatic",
             req(CANDIDATE, "Jones", candidate="Jones"), CLOSE, AUTOMATIC, ONE_AND_A, [AUTOMATIC]),
        case("within seventeen days: the 17th day is in time",
             req(ELECTOR, "Jones", LAST_DAY), MAYOR, ACCEPTED, A, []),
        case("within seventeen days: the 18th day is late",
             req(ELECTOR, "Jones", DAY_AFTER), MAYOR, LATE, A, [LATE]),
        case("a request on election day is refused as early (the window has not opened)",
             req(ELECTOR, "Jones", ELECTION), MAYOR, EARLY, A, [EARLY]),
        case("every failure is listed, the first one decides: party, choice, automatic, late",
             req("news_reporter", "Garcia", DAY_AFTER), CLOSE, NOT_PARTY, A, [NOT_PARTY, INVALID, AUTOMATIC, LATE]),
        case("choice before automatic before late",
             req(ELECTOR, "Garcia", DAY_AFTER), CLOSE, INVALID, A, [INVALID, AUTOMATIC, LATE]),
        case("automatic before late",
             req(ELECTOR, "Jones", DAY_AFTER), CLOSE, AUTOMATIC, ONE_AND_A, [AUTOMATIC, LATE]),
    ],
)
def test_evaluate_request(request_, contest, outcome, citation, problems) -> None:
    decision = evaluate_request(request_, contest=contest, election_date=ELECTION)

    assert decision.outcome == outcome
    assert decision.citation == citation
    assert [p["outcome"] for p in decision.numbers["problems"]] == problems
    if problems:
        assert decision.numbers["problems"][0]["citation"] == citation
    assert decision.reading is not None and decision.reading.startswith(INTERESTED_PARTY_READING)


def test_accepted_reads_aloud_with_the_window_and_the_margin() -> None:
    decision = evaluate_request(req(ELECTOR, "Jones"), contest=MAYOR, election_date=ELECTION)

    assert decision.outcome == "accepted"
    assert decision.citation == A
    assert decision.reason == (
        "Accepted: Pat Doe, an eligible elector, requests a recount of Mayor in favor of Jones; received "
        "Tue 2026-11-10, within the window ending Fri 2026-11-20; margin 120 exceeds 1/2 of 1% of 5,000 (at most "
        "25), so no automatic recount — the recount is at the requester's expense.")
    n = decision.numbers
    assert (n["deadline"], n["margin"], n["max_margin_for_recount"], n["window_days"]) == (LAST_DAY, 120, 25, 17)
    assert n["in_favor_of"] == "Jones" and n["party_kind"] == "eligible_elector" and n["timely"] is True


def test_refused_automatic_says_it_is_automatic_and_paid_by_the_governing_body() -> None:
    decision = evaluate_request(req(ELECTOR, "Jones"), contest=CLOSE, election_date=ELECTION)

    assert decision.outcome == "refused_automatic"
    assert decision.citation == ONE_AND_A
    assert decision.reason == (
        "Refused: no request is needed for Fire Board — a recount is already required by (1): the margin of 2 "
        "between Smith (500) and Jones (498) is within 1/2 of 1% of 500 (at most 2); it is automatic and paid by "
        "the governing body.")
    n = decision.numbers
    assert (n["highest_votes"], n["next_highest_votes"], n["margin"], n["max_margin_for_recount"]) == (500, 498, 2, 2)
    assert n["automatic_recount"] is True


def test_refused_late_shows_the_deadline_and_how_it_was_counted() -> None:
    decision = evaluate_request(req(ELECTOR, "Jones", DAY_AFTER), contest=MAYOR, election_date=ELECTION)

    assert decision.outcome == "refused_late"
    assert decision.citation == A
    assert decision.reason == (
        "Refused as late: Pat Doe's request was received Sat 2026-11-21, after the deadline of Fri 2026-11-20 — "
        "17 days after the election of 2026-11-03 (election day excluded) is Fri 2026-11-20.")
    assert decision.numbers["deadline"] == LAST_DAY
    assert decision.numbers["timely"] is False


# Tue 2025-06-17 + 17 days = Fri 2025-07-04, Independence Day: the filing deadline moves to Mon 2025-07-07.
JUNE_ELECTION = dt.date(2025, 6, 17)


@pytest.mark.parametrize(
    ("received_on", "outcome"),
    [
        case("1-1-106(4): the rolled day, Mon 2025-07-07, is in time", dt.date(2025, 7, 7), ACCEPTED),
        case("1-1-106(4): Sat 2025-07-05 (between the unrolled and the rolled day) is in time",
             dt.date(2025, 7, 5), ACCEPTED),
        case("1-1-106(4): the day after the rolled day is late", dt.date(2025, 7, 8), LATE),
    ],
)
def test_a_window_ending_on_a_holiday_runs_to_the_next_business_day(received_on, outcome) -> None:
    decision = evaluate_request(req(ELECTOR, "Jones", received_on), contest=MAYOR, election_date=JUNE_ELECTION,
                                calendar=DEFAULT_CALENDAR)

    assert decision.outcome == outcome
    assert decision.citation == A
    assert decision.numbers["deadline"] == dt.date(2025, 7, 7)
    assert decision.numbers["rolled_from"] == dt.date(2025, 7, 4)
    if outcome == LATE:
        assert "Independence Day" in decision.reason and "Mon 2025-07-07" in decision.reason
    else:
        assert "moved from Fri 2025-07-04 under C.R.S. 1-1-106(4)" in decision.reason


# Three seats. Last winner Casey 800 vs first loser Drew 797: 3 * 200 = 600 <= 800, automatic under the default
# reading; the two highest, Avery 900 vs Blake 850: 50 * 200 > 900, not automatic under the literal reading.
BOARD = Contest.from_totals("Board", {"Avery": 900, "Blake": 850, "Casey": 800, "Drew": 797}, seats=3)


@pytest.mark.parametrize(
    ("rule", "outcome", "citation"),
    [
        case("multi-seat, default reading (last winner vs first loser) -> automatic",
             MultiSeatRule.LAST_WINNER_FIRST_LOSER, AUTOMATIC, ONE_AND_A),
        case("multi-seat, top-two reading -> not automatic, request accepted",
             MultiSeatRule.TOP_TWO, ACCEPTED, A),
    ],
)
def test_multi_seat_reading_is_passed_through_and_named(rule, outcome, citation) -> None:
    decision = evaluate_request(req(CANDIDATE, "Drew", candidate="Drew"), contest=BOARD, election_date=ELECTION,
                                multi_seat_rule=rule)
    assert decision.outcome == outcome
    assert decision.citation == citation
    assert rule.description in decision.reading


def test_the_readings_are_stated() -> None:
    elector = evaluate_request(req(ELECTOR, "Jones"), contest=MAYOR, election_date=ELECTION)
    assert "'including'" in elector.reading and "three kinds only" in elector.reading
    assert OWN_FAVOR_READING not in elector.reading
    candidate = evaluate_request(req(CANDIDATE, "Jones", candidate="Jones"), contest=MAYOR, election_date=ELECTION)
    assert OWN_FAVOR_READING in candidate.reading
    early = evaluate_request(req(ELECTOR, "Jones", ELECTION), contest=MAYOR, election_date=ELECTION)
    assert "window opens the day after the election" in early.reading
    assert "Wed 2026-11-04 through Fri 2026-11-20" in early.reason


def test_not_interested_party_reasons_say_why() -> None:
    d = evaluate_request(req(CANDIDATE, "Yes", candidate="Yes"), contest=QUESTION, election_date=ELECTION)
    assert d.reason == (
        "Refused: Pat Doe is not an interested party in Question 2A: 'Question 2A' is a ballot question; a "
        "candidate is not an interested party in it (request as an eligible elector or as the issue committee for a "
        "ballot issue or question).")
    d = evaluate_request(req("news_reporter", "Garcia", DAY_AFTER), contest=CLOSE, election_date=ELECTION)
    assert d.reason.endswith("(3 more problems listed).")


def test_kinds_and_choices_are_matched_forgivingly_but_exactly_reported() -> None:
    assert party_kind_of("Eligible Elector") is ELECTOR
    assert party_kind_of("issue-committee") is COMMITTEE
    assert party_kind_of("mayor") is None and party_kind_of(None) is None  # type: ignore[arg-type]
    d = evaluate_request(req("Candidate", " jones ", candidate="JONES"), contest=MAYOR, election_date=ELECTION)
    assert d.outcome == ACCEPTED and d.citation == A
    assert d.numbers["in_favor_of"] == "Jones" and d.numbers["party_kind"] == "candidate"


def test_a_datetime_is_not_a_day_of_filing() -> None:
    with pytest.raises(TypeError, match="received_on"):
        evaluate_request(req(ELECTOR, "Jones", dt.datetime(2026, 11, 10, 9, 0)), contest=MAYOR,
                         election_date=ELECTION)


def test_a_decision_serialises() -> None:
    data = evaluate_request(req(ELECTOR, "Jones", DAY_AFTER), contest=CLOSE, election_date=ELECTION).as_dict()
    assert data["outcome"] == "refused_automatic"
    assert data["numbers"]["deadline"] == "2026-11-20"
    assert [p["outcome"] for p in data["numbers"]["problems"]] == ["refused_automatic", "refused_late"]


def test_an_uncontested_contest_is_never_automatic_so_a_request_is_heard() -> None:
    alone = Contest.from_totals("Treasurer", {"Kim": 700})
    decision = evaluate_request(req(ELECTOR, "Kim"), contest=alone, election_date=ELECTION)
    assert decision.outcome == ACCEPTED
    assert decision.citation == A
    assert "the contest is uncontested, so no automatic recount" in decision.reason
