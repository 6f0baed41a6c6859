"""(2)(b)(II): determining the cost of a requested recount, item by item.

The statute says only "determine the cost". The office itemises it so the requester can see what
they pay for: staff hours at an hourly rate; canvass board members and assistants per day, each at a
daily fee that 1-13.5-1301(4) (applied to assistants by 1306(3)) puts at no less than fifteen dollars
for anyone who is not a member of the governing body; supplies; anything else. A fee below that floor
is refused rather than warned about: a cost built on an unlawful fee would be collected wrongly.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import TypedDict

from rules.decision import Decision
from rules.money import CENT, ZERO, format_money, money
from rules.statute import DAILY_COMPENSATION_FLOOR, cite

COST_CITATION = cite("(2)(b)(II)")
ASSISTANTS_CITATION = cite("(3)")
MAX_HOURS = Decimal("10000")


class CostItemKind(str, enum.Enum):
    STAFF_HOURS = "staff_hours"  # quantity = hours, rate = per hour
    CANVASS_BOARD = "canvass_board"  # quantity = days, persons, rate = per person per day (1301(4) floor)
    ASSISTANTS = "assistants"  # quantity = days, persons, rate = per person per day (1306(3), 1301(4))
    SUPPLIES = "supplies"  # rate = the amount
    OTHER = "other"  # rate = the amount

    @property
    def per_day(self) -> bool:
        return self in (CostItemKind.CANVASS_BOARD, CostItemKind.ASSISTANTS)

    @property
    def label(self) -> str:
        return {
            CostItemKind.STAFF_HOURS: "Staff time", CostItemKind.CANVASS_BOARD: "Canvass board fees",
            CostItemKind.ASSISTANTS: "Assistants' fees", CostItemKind.SUPPLIES: "Supplies",
            CostItemKind.OTHER: "Other",
        }[self]


def _quantity(value: Decimal | int | str, field: str) -> Decimal:
    if isinstance(value, float) or isinstance(value, bool):
        raise TypeError(f"{field}: {value!r} must be a whole or decimal number, not a float or bool")
    try:
        quantity = Decimal(str(value).strip())
    except Exception:
        raise ValueError(f"{field}: {value!r} is not a number") from None
    if not quantity.is_finite() or quantity < 0:
        raise ValueError(f"{field}: {value!r} must be zero or more")
    if quantity != quantity.quantize(CENT):
        raise ValueError(f"{field}: {value!r} has more than two decimal places")
    if quantity > MAX_HOURS:
        raise ValueError(f"{field}: {value!r} is implausibly large")
    return quantity


@dataclass(frozen=True)
class CostItem:
    kind: CostItemKind
    description: str
    rate: Decimal  # per hour, per person per day, or the amount
    quantity: Decimal = Decimal(1)  # hours or days
    persons: int = 1  # for per-day fees
    governing_body_members: int = 0  # of `persons`, how many sit on the governing body (no floor for them)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", CostItemKind(self.kind))
        object.__setattr__(self, "rate", money(self.rate, field=f"{self.kind.value} rate"))
        object.__setattr__(self, "quantity", _quantity(self.quantity, f"{self.kind.value} quantity"))
        if type(self.persons) is not int or self.persons < 1:
            raise ValueError(f"{self.kind.value}: persons must be a whole number of at least 1")
        if type(self.governing_body_members) is not int or not 0 <= self.governing_body_members <= self.persons:
            raise ValueError(f"{self.kind.value}: governing-body members must be between 0 and {self.persons}")
        if self.kind.per_day and self.quantity != self.quantity.to_integral_value():
            raise ValueError(f"{self.kind.value}: days must be whole days")

    @property
    def amount(self) -> Decimal:
        if self.kind.per_day:
            raw = self.rate * self.quantity * self.persons
        elif self.kind is CostItemKind.STAFF_HOURS:
            raw = self.rate * self.quantity
        else:
            raw = self.rate
        return raw.quantize(CENT, rounding=ROUND_HALF_UP)

    def describe(self) -> str:
        what = f"{self.kind.label}" + (f" — {self.description}" if self.description else "")
        if self.kind.per_day:
            return (f"{what}: {self.persons} × {self.quantity.normalize():f} day(s) × {format_money(self.rate)} "
                    f"= {format_money(self.amount)}")
        if self.kind is CostItemKind.STAFF_HOURS:
            return f"{what}: {self.quantity.normalize():f} h × {format_money(self.rate)} = {format_money(self.amount)}"
        return f"{what}: {format_money(self.amount)}"


class CostProblem(TypedDict):
    """A fee or the list of items the cost cannot be determined with: which item (1-based; 0 for the list),
    which of its fields, the law it breaks and what is wrong."""

    item: int
    field: str
    citation: str
    message: str


@dataclass(frozen=True, kw_only=True)
class CostDetermination(Decision):
    items: tuple[CostItem, ...]
    total: Decimal
    problems: tuple[CostProblem, ...] = ()

    @property
    def determined(self) -> bool:
        return self.outcome == "determined"


def determine_cost(items: list[CostItem] | tuple[CostItem, ...]) -> CostDetermination:
    """The cost of the recount: every item, its amount, the total; refused if a fee is under the floor."""
    items = tuple(items)
    floor = DAILY_COMPENSATION_FLOOR.value
    problems: list[CostProblem] = []
    for index, item in enumerate(items, start=1):
        if item.kind.per_day and item.persons > item.governing_body_members and item.rate < floor:
            problems.append({
                "item": index, "field": "rate", "citation": DAILY_COMPENSATION_FLOOR.citation,
                "message": (f"{item.kind.label}: {format_money(item.rate)} a day is below the "
                            f"{format_money(floor)} a day that {DAILY_COMPENSATION_FLOOR.citation} requires for "
                            "anyone not on the governing body" +
                            (f" (applied to assistants by {ASSISTANTS_CITATION})"
                             if item.kind is CostItemKind.ASSISTANTS else "")),
            })
    total = sum((item.amount for item in items), ZERO)
    numbers = {"total": total, "lines": [item.describe() for item in items], "items": len(items)}
    if not items:
        problems.append({"item": 0, "field": "items", "citation": COST_CITATION,
                         "message": "list at least one item of the cost"})
    if problems:
        return CostDetermination(
            outcome="refused", citation=problems[0]["citation"],
            reason="The cost cannot be determined: " + "; ".join(p["message"] for p in problems) + ".",
            numbers=numbers, items=items, total=total, problems=tuple(problems))
    return CostDetermination(
        outcome="determined", citation=COST_CITATION,
        reason=f"Cost of the recount determined at {format_money(total)} ({len(items)} item"
               f"{'s' if len(items) != 1 else ''}).",
        numbers=numbers, items=items, total=total)
