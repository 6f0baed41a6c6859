"""(2)(b)(II): the cost, item by item, with the 1-13.5-1301(4) floor for daily fees."""
from __future__ import annotations

from decimal import Decimal

import pytest

from rules.cost import CostItem, CostItemKind, determine_cost


def test_an_itemised_cost_adds_up_exactly_in_cents() -> None:
    result = determine_cost([
        CostItem(CostItemKind.STAFF_HOURS, "two clerks", rate=Decimal("28.75"), quantity=Decimal("7.5")),
        CostItem(CostItemKind.CANVASS_BOARD, "", rate=Decimal("15.00"), quantity=2, persons=3),
        CostItem(CostItemKind.ASSISTANTS, "counting judges", rate=Decimal("120.00"), quantity=1, persons=4),
        CostItem(CostItemKind.SUPPLIES, "tally sheets, seals", rate=Decimal("42.10")),
    ])
    assert result.determined and result.citation == "C.R.S. 1-13.5-1306(2)(b)(II)"
    # 7.5 h x $28.75 = $215.625 -> $215.63; 3 x 2 x $15 = $90; 4 x $120 = $480; $42.10
    assert [i.amount for i in result.items] == [
        Decimal("215.63"), Decimal("90.00"), Decimal("480.00"), Decimal("42.10")]
    assert result.total == Decimal("827.73")
    assert "Cost of the recount determined at $827.73" in result.reason
    assert result.numbers["lines"][1] == "Canvass board fees: 3 × 2 day(s) × $15.00 = $90.00"


@pytest.mark.parametrize("kind", [CostItemKind.CANVASS_BOARD, CostItemKind.ASSISTANTS])
def test_a_daily_fee_under_fifteen_dollars_is_refused_citing_1301_4(kind) -> None:
    result = determine_cost([CostItem(kind, "", rate=Decimal("14.99"), quantity=1, persons=2)])
    assert not result.determined
    assert result.citation == "C.R.S. 1-13.5-1301(4)"
    assert "$14.99 a day is below the $15.00" in result.reason
    assert result.problems[0]["item"] == 1 and result.problems[0]["field"] == "rate"


def test_governing_body_members_have_no_floor() -> None:
    result = determine_cost([CostItem(CostItemKind.CANVASS_BOARD, "", rate=Decimal("0.00"), quantity=1,
                                      persons=2, governing_body_members=2)])
    assert result.determined and result.total == Decimal("0.00")


def test_bad_items_are_refused_with_the_field_named() -> None:
    with pytest.raises(TypeError):
        CostItem(CostItemKind.STAFF_HOURS, "", rate=12.5)  # a float
    with pytest.raises(ValueError, match="more than two decimal places"):
        CostItem(CostItemKind.STAFF_HOURS, "", rate=Decimal("12.505"))
    with pytest.raises(ValueError, match="whole days"):
        CostItem(CostItemKind.ASSISTANTS, "", rate=Decimal("15"), quantity=Decimal("1.5"))
    with pytest.raises(ValueError, match="zero or more"):
        CostItem(CostItemKind.STAFF_HOURS, "", rate=Decimal("15"), quantity=-1)
    assert not determine_cost([]).determined
