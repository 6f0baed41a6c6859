"""Subsection (3): "shall be assisted by those persons who assisted in preparing the official abstract
of votes ... other persons shall be appointed as provided in section 1-13.5-1301 ... additional persons
qualified to be the election judges who did not serve as judges in the election ... compensated as
provided in section 1-13.5-1301 (4)."
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from rules.assistants import Assistant, Capacity, Finding, compensation_floor, review_assistants
from rules.serialize import to_jsonable

S3 = "C.R.S. 1-13.5-1306(3)"
PAY = "C.R.S. 1-13.5-1301(4)"
D = Decimal

PREPARERS = ["Ann Lee", "Bo Diaz"]


def preparer(name: str, days: int = 2, pay: str = "30.00", **kw) -> Assistant:
    return Assistant(name, Capacity.PREPARED_ABSTRACT, days_served=days, compensation=D(pay), **kw)


def replacement(name: str, replaces: str | None, days: int = 2, pay: str = "30.00") -> Assistant:
    return Assistant(name, Capacity.APPOINTED_REPLACEMENT, days_served=days, compensation=D(pay), replaces=replaces)


def additional(name: str, qualified: bool | None = True, served: bool | None = False,
               days: int = 2, pay: str = "30.00") -> Assistant:
    return Assistant(name, Capacity.ADDITIONAL_QUALIFIED, days_served=days, compensation=D(pay),
                     qualified_as_judge=qualified, served_as_judge=served)


# --- 1-13.5-1301(4): not less than fifteen dollars per day, for those not on the governing body -----------

@pytest.mark.parametrize("days, on_governing_body, floor", [
    (0, False, "0.00"),
    (1, False, "15.00"),
    (3, False, "45.00"),
    (28, False, "420.00"),
    (3, True, "0.00"),  # 1301(4) sets no floor for members of the governing body
])
def test_compensation_floor_is_fifteen_dollars_a_day_unless_on_the_governing_body(days, on_governing_body, floor):
    result = compensation_floor(days, on_governing_body)
    assert result == D(floor) and isinstance(result, Decimal) and str(result) == floor


@pytest.mark.parametrize("bad_days", [-1, 1.5, True, "3"])
def test_compensation_floor_takes_whole_days(bad_days):
    with pytest.raises(ValueError):
        compensation_floor(bad_days, False)


@pytest.mark.parametrize("pay, error", [(30.0, TypeError), (True, TypeError), (D("30.001"), ValueError),
                                        (D("-1.00"), ValueError), (D("NaN"), ValueError)])
def test_money_is_decimal_cents_and_floats_are_refused(pay, error):
    with pytest.raises(error):
        Assistant("Ann Lee", Capacity.PREPARED_ABSTRACT, days_served=2, compensation=pay)


@pytest.mark.parametrize("pay", [30, "30", "$30.00", D("30")])
def test_money_comes_in_through_rules_money_as_cents(pay):
    compensation = Assistant("Ann Lee", Capacity.PREPARED_ABSTRACT, compensation=pay).compensation
    assert compensation == D("30.00") and str(compensation) == "30.00"


# --- everything as (3) provides: one "ok" -----------------------------------------------------------------

@pytest.mark.parametrize("case, assistants", [
    ("the preparers of the abstract assist", [preparer("Ann Lee"), preparer("Bo Diaz")]),
    ("a preparer who cannot participate is replaced",
     [preparer("Ann Lee"), replacement("Cy Park", replaces="Bo Diaz")]),
    ("an additional assistant qualified as a judge who did not serve",
     [preparer("Ann Lee"), preparer("Bo Diaz"), additional("Di Ng")]),
    ("a governing-body member may be paid nothing",
     [preparer("Ann Lee", pay="0.00", on_governing_body=True), preparer("Bo Diaz")]),
    ("names match regardless of case and spacing", [preparer("ann  lee"), preparer(" BO DIAZ ")]),
    ("paid above the floor", [preparer("Ann Lee", days=3, pay="100.00"), preparer("Bo Diaz", days=0, pay="0")]),
])
def test_assistants_as_subsection_3_provides_give_a_single_ok(case, assistants):
    findings = review_assistants(assistants, abstract_preparers=PREPARERS)
    assert len(findings) == 1, [f.reason for f in findings]
    (ok,) = findings
    assert ok.outcome == "ok" and ok.finding is Finding.OK and ok.citation == S3
    assert f"{len(assistants)} assistant" in ok.reason


# --- warnings, each cited ------------------------------------------------------------------------------------

WARNINGS = [
    # (case, assistants, preparers, finding, person, citation, words in the reason)
    ("an additional assistant not qualified as an election judge",
     [preparer("Ann Lee"), preparer("Bo Diaz"), additional("Di Ng", qualified=False)], PREPARERS,
     Finding.NOT_QUALIFIED, "Di Ng", S3, "Di Ng is not qualified to be an election judge"),
    ("an additional assistant whose qualification is not recorded",
     [preparer("Ann Lee"), preparer("Bo Diaz"), additional("Di Ng", qualified=None)], PREPARERS,
     Finding.NOT_QUALIFIED, "Di Ng", S3, "is not recorded as qualified"),
    ("an additional assistant who served as a judge in the election",
     [preparer("Ann Lee"), preparer("Bo Diaz"), additional("Di Ng", served=True)], PREPARERS,
     Finding.SERVED_AS_JUDGE, "Di Ng", S3, "Di Ng served as a judge in the election"),
    ("an additional assistant with no record of service as a judge",
     [preparer("Ann Lee"), preparer("Bo Diaz"), additional("Di Ng", served=None)], PREPARERS,
     Finding.SERVED_AS_JUDGE, "Di Ng", S3, "not recorded as not having served"),
    ("a replacement who replaces nobody",
     [preparer("Ann Lee"), preparer("Bo Diaz"), replacement("Cy Park", replaces=None)], PREPARERS,
     Finding.REPLACES_NON_PREPARER, "Cy Park", S3, "only if those persons cannot participate"),
    ("a replacement for someone who did not prepare the abstract",
     [preparer("Ann Lee"), preparer("Bo Diaz"), replacement("Cy Park", replaces="Ed Fox")], PREPARERS,
     Finding.REPLACES_NON_PREPARER, "Cy Park", S3, "replaces Ed Fox, who is not"),
    ("a replacement for a preparer who is participating",
     [preparer("Ann Lee"), preparer("Bo Diaz"), replacement("Cy Park", replaces="Bo Diaz")], PREPARERS,
     Finding.REPLACES_PARTICIPATING_PREPARER, "Cy Park", S3, "Bo Diaz, who is assisting"),
    ("a preparer who neither assists nor is replaced",
     [preparer("Ann Lee")], PREPARERS,
     Finding.PREPARER_ABSENT, "Bo Diaz", S3, "neither assists in the recount nor is replaced"),
    ("someone listed as a preparer who did not prepare the abstract",
     [preparer("Ann Lee"), preparer("Bo Diaz"), preparer("Ed Fox")], PREPARERS,
     Finding.NOT_A_PREPARER, "Ed Fox", S3, "not on the list of those who prepared"),
    ("a preparer listed in another capacity",
     [preparer("Ann Lee"), additional("Bo Diaz")], PREPARERS,
     Finding.PREPARER_IN_OTHER_CAPACITY, "Bo Diaz", S3, "listed as additional qualified assistant"),
    ("the same person listed twice",
     [preparer("Ann Lee"), preparer("Bo Diaz"), preparer("ann lee")], PREPARERS,
     Finding.LISTED_TWICE, "Ann Lee", S3, "listed 2 times"),
    ("no record of who prepared the abstract",
     [additional("Di Ng")], [],
     Finding.NO_PREPARERS_RECORDED, None, S3, "not recorded"),
    ("paid below fifteen dollars a day (1301(4), applied by (3))",
     [preparer("Ann Lee", days=3, pay="30.00"), preparer("Bo Diaz")], PREPARERS,
     Finding.UNDERPAID, "Ann Lee", PAY, "Ann Lee: paid $30.00 for 3 days; the floor is $45.00"),
    ("one day, paid nothing",
     [preparer("Ann Lee"), preparer("Bo Diaz", days=1, pay="0.00")], PREPARERS,
     Finding.UNDERPAID, "Bo Diaz", PAY, "paid $0.00 for 1 day; the floor is $15.00"),
]


@pytest.mark.parametrize("case, assistants, preparers, finding, person, citation, words", WARNINGS,
                         ids=[w[0] for w in WARNINGS])
def test_each_departure_from_subsection_3_is_a_cited_warning(case, assistants, preparers, finding, person,
                                                             citation, words):
    findings = review_assistants(assistants, abstract_preparers=preparers)
    assert findings and all(f.outcome == "warning" for f in findings)
    assert not any(f.finding is Finding.OK for f in findings)
    matching = [f for f in findings if f.finding is finding]
    assert len(matching) == 1, [f.reason for f in findings]
    (warning,) = matching
    assert warning.person == person
    assert warning.citation == citation
    assert words in warning.reason
    assert "\n" not in warning.reason


def test_underpayment_carries_its_numbers_for_the_record():
    (warning,) = review_assistants([preparer("Ann Lee", days=3, pay="30.00"), preparer("Bo Diaz")],
                                   abstract_preparers=PREPARERS)
    assert warning.numbers["paid"] == D("30.00") and warning.numbers["floor"] == D("45.00")
    assert warning.numbers["shortfall"] == D("15.00") and warning.numbers["applied_by"] == S3
    assert to_jsonable(warning.as_dict())["numbers"]["floor"] == "45.00"


def test_several_findings_are_all_reported_in_a_stable_order():
    findings = review_assistants(
        [preparer("Ann Lee", days=2, pay="10.00"), additional("Di Ng", qualified=False, served=True)],
        abstract_preparers=PREPARERS)
    assert [f.finding for f in findings] == [
        Finding.NOT_QUALIFIED, Finding.SERVED_AS_JUDGE, Finding.PREPARER_ABSENT, Finding.UNDERPAID]


def test_a_replaced_preparer_is_not_missing():
    findings = review_assistants([preparer("Ann Lee"), replacement("Cy Park", replaces="bo diaz")],
                                 abstract_preparers=PREPARERS)
    assert [f.outcome for f in findings] == ["ok"]
