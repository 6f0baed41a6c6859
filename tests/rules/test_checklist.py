"""(2)(b): "Before conducting the recount, the designated election official shall: (I) give notice ...;
(II) determine the cost ...; (III) notify the interested party ... of such cost; and (IV) collect the actual
cost ... from such interested party." """
from __future__ import annotations

from decimal import Decimal

import pytest

from rules.checklist import PreCountChecklist, counting_may_start

CITATION = "C.R.S. 1-13.5-1306(2)(b)"
D = Decimal


def case(description: str, *values):
    return pytest.param(*values, id=description)


@pytest.mark.parametrize(
    ("checklist", "outcome", "missing"),
    [
        case("(2)(b): all four done -> counting may start",
         PreCountChecklist(True, D("450.00"), True, D("450.00")), "ready", []),
        case("(2)(b)(IV): collected more than the cost -> ready, the surplus is held",
         PreCountChecklist(True, D("450.00"), True, D("500.00")), "ready", []),
        case("(2)(b)(II): a cost of $0.00 is a cost determined; nothing to collect",
         PreCountChecklist(True, D("0.00"), True, D("0.00")), "ready", []),
        case("(2)(b)(I): no notice under (1) -> blocked",
         PreCountChecklist(False, D("450.00"), True, D("450.00")), "blocked", ["(2)(b)(I)"]),
        case("(2)(b)(III): requester not told the cost -> blocked",
         PreCountChecklist(True, D("450.00"), False, D("450.00")), "blocked", ["(2)(b)(III)"]),
        case("(2)(b)(IV): cost determined, nothing collected -> blocked",
         PreCountChecklist(True, D("450.00"), True, D("0.00")), "blocked", ["(2)(b)(IV)"]),
        case("(2)(b)(IV): one cent short -> blocked",
         PreCountChecklist(True, D("450.00"), True, D("449.99")), "blocked", ["(2)(b)(IV)"]),
        case("(2)(b)(II): no cost determined -> (III) and (IV) cannot be done either",
         PreCountChecklist(True, None, True, D("100.00")), "blocked", ["(2)(b)(II)", "(2)(b)(III)", "(2)(b)(IV)"]),
        case("(2)(b): nothing done -> every item listed",
         PreCountChecklist(False, None, False, D("0.00")), "blocked",
         ["(2)(b)(I)", "(2)(b)(II)", "(2)(b)(III)", "(2)(b)(IV)"]),
        case("(2)(b)(I) and (IV): two missing, both listed",
         PreCountChecklist(False, D("450.00"), True, D("200.00")), "blocked", ["(2)(b)(I)", "(2)(b)(IV)"]),
    ],

)
def test_counting_may_start_only_when_all_four_are_done(checklist, outcome, missing) -> None:
    decision = counting_may_start(checklist)

    assert decision.outcome == outcome
    assert decision.citation == CITATION
    assert [m["item"] for m in decision.numbers["missing"]] == missing
    for m in decision.numbers["missing"]:
        assert m["citation"] == f"C.R.S. 1-13.5-1306{m['item']}"
        assert m["item"] in decision.reason  # every missing item is read aloud
        assert m["what"]


def test_nothing_collected_reads_collected_zero_of_the_cost() -> None:
    decision = counting_may_start(PreCountChecklist(True, D("450.00"), True, D("0")))

    assert decision.outcome == "blocked"
    assert decision.citation == CITATION
    assert decision.numbers["missing"] == [{
        "item": "(2)(b)(IV)", "citation": "C.R.S. 1-13.5-1306(2)(b)(IV)",
        "what": "collect the cost: collected $0.00 of $450.00"}]
    assert "collected $0.00 of $450.00" in decision.reason
    assert decision.numbers["still_due"] == D("450.00")
    assert decision.numbers["collected"] == D("0.00")


def test_requester_not_notified_reads_the_cost() -> None:
    decision = counting_may_start(PreCountChecklist(True, D("450"), False, D("450")))
    assert decision.numbers["missing"][0] == {
        "item": "(2)(b)(III)", "citation": "C.R.S. 1-13.5-1306(2)(b)(III)",
        "what": "notify the requester of the cost, $450.00"}
    assert decision.reason.startswith("Counting may not start — 1 of 4 steps before the recount missing: (2)(b)(III)")


def test_ready_reads_the_figures_and_the_surplus() -> None:
    decision = counting_may_start(PreCountChecklist(True, D("450.00"), True, D("500.00")))
    assert decision.outcome == "ready"
    assert decision.citation == CITATION
    assert decision.reason == ("Counting may start: notice given, cost $450.00 determined and notified to the "
                               "requester, $500.00 collected ($50.00 more than the cost, held under (2)(c)).")
    assert decision.numbers["surplus"] == D("50.00")
    assert decision.numbers["still_due"] == D("0.00")
    assert decision.reading is None


def test_no_cost_determined_states_its_reading() -> None:
    decision = counting_may_start(PreCountChecklist(True, None, True, D("0")))
    assert decision.reading and "such cost" in decision.reading
    assert decision.numbers["still_due"] is None


def test_money_is_parsed_and_floats_are_refused() -> None:
    assert PreCountChecklist(True, "$450", True, 100).collected == D("100.00")
    with pytest.raises(TypeError, match="float"):
        PreCountChecklist(True, 450.0, True, D("0"))
    with pytest.raises(TypeError, match="float"):
        PreCountChecklist(True, D("450"), True, 450.0)
    with pytest.raises(ValueError, match="collected: '-1' is negative"):
        PreCountChecklist(True, D("450"), True, D("-1"))
    with pytest.raises(TypeError, match="notice_given"):
        PreCountChecklist("yes", D("450"), True, D("450"))


def test_a_decision_serialises_without_floats() -> None:
    data = counting_may_start(PreCountChecklist(True, D("450.00"), True, D("0"))).as_dict()
    assert data["numbers"]["cost_determined"] == "450.00"
    assert data["numbers"]["missing"][0]["item"] == "(2)(b)(IV)"
