"""Subsection (2)(b): the four things the designated election official does before a requested recount.

"(b) Before conducting the recount, the designated election official shall:
 (I) Give notice of the recount in accordance with subsection (1) of this section;
 (II) Determine the cost of the recount;
 (III) Notify the interested party that requested the recount of such cost; and
 (IV) Collect the actual cost of conducting the recount from such interested party."

`counting_may_start()` is the guard: "ready" only when all four are done, else "blocked" with every
missing item listed (not just the first), each with its own citation and what to do.

Readings:
- (III) and (IV) refer to "such cost", the cost determined under (II). While no cost is determined, the
  requester cannot have been notified of it nor have paid it, so (III) and (IV) are reported missing
  too, whatever the flags say.
- (IV) is met when the amount collected is at least the cost determined. Collecting more than the cost
  does not block counting; the surplus is held under (2)(c) and settled afterwards.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.money import ZERO, format_money, money
from rules.statute import cite

CHECKLIST_CITATION = cite("(2)(b)")
NO_COST_READING = (
    "(2)(b)(III) and (IV) refer to 'such cost', the cost determined under (II): until a cost is "
    "determined the requester cannot have been notified of it or paid it, so both are missing too"
)


@dataclass(frozen=True)
class PreCountChecklist:
    """What the official has done so far. Money is `Decimal` cents (text and ints are parsed too)."""

    notice_given: bool
    cost_determined: Decimal | None
    requester_notified_of_cost: bool
    collected: Decimal = ZERO

    def __post_init__(self) -> None:
        for name in ("notice_given", "requester_notified_of_cost"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if self.cost_determined is not None:
            object.__setattr__(self, "cost_determined", money(self.cost_determined, field="cost_determined"))
        object.__setattr__(self, "collected", money(self.collected, field="collected"))


_STEPS = {"I": "notice", "II": "cost", "III": "cost notice", "IV": "collection"}


def _item(roman: str, what: str, law: LawProfile = DEFAULT_LAW) -> dict[str, str]:
    """One missing step: under 1306 its own subsection ((2)(b)(I)-(IV)); under a law that lists the four steps in one
    sentence (31-10-1207(2); 1-10.5-106(2)), that provision, with the step named."""
    if law is DEFAULT_LAW:
        return {"item": f"(2)(b)({roman})", "citation": cite(f"(2)(b)({roman})"), "what": what}
    citation = law.cite(Part.PRE_COUNT)
    return {"item": f"{law.short(citation)} {_STEPS[roman]}", "citation": citation, "what": what}


def counting_may_start(checklist: PreCountChecklist, law: LawProfile = DEFAULT_LAW) -> Decision:
    """(2)(b) (or the law's like provision): "ready" when (I)-(IV) are all done, else "blocked" listing every
    missing item."""
    citation = CHECKLIST_CITATION if law is DEFAULT_LAW else law.cite(Part.PRE_COUNT)
    cost = checklist.cost_determined
    collected = checklist.collected
    missing: list[dict[str, str]] = []
    reading = None

    if not checklist.notice_given:
        who = ("subsection (1) requires (governing body, candidates, issue committees affected)" if law is DEFAULT_LAW
               else f"{law.notice.provision.citation} requires ({'; '.join(law.notice.recipients)})")
        missing.append(_item("I", f"give notice of the recount as {who}", law))
    if cost is None:
        missing.append(_item("II", "determine the cost of the recount", law))
        missing.append(_item("III", "notify the requester of the cost (once it is determined)", law))
        missing.append(_item("IV", f"collect the cost from the requester (collected {format_money(collected)} "
                                   "so far; no cost determined yet)", law))
        reading = NO_COST_READING
    else:
        if not checklist.requester_notified_of_cost:
            missing.append(_item("III", f"notify the requester of the cost, {format_money(cost)}", law))
        if collected < cost:
            missing.append(_item("IV", f"collect the cost: collected {format_money(collected)} of "
                                       f"{format_money(cost)}", law))

    still_due = None if cost is None else max(cost - collected, ZERO)
    numbers = {
        "notice_given": checklist.notice_given,
        "cost_determined": cost,
        "requester_notified_of_cost": checklist.requester_notified_of_cost,
        "collected": collected,
        "still_due": still_due,
        "surplus": None if cost is None else max(collected - cost, ZERO),
        "missing": missing,
    }
    if missing:
        listed = "; ".join(f"{m['item']} {m['what']}" for m in missing)
        reason = f"Counting may not start — {len(missing)} of 4 steps before the recount missing: {listed}."
        return Decision(outcome="blocked", citation=citation, reason=reason, numbers=numbers, reading=reading)

    assert cost is not None
    held = "(2)(c)" if law is DEFAULT_LAW else law.payment.provision.citation
    extra = f" ({format_money(collected - cost)} more than the cost, held under {held})" if collected > cost else ""
    reason = (f"Counting may start: notice given, cost {format_money(cost)} determined and notified to the "
              f"requester, {format_money(collected)} collected{extra}.")
    return Decision(outcome="ready", citation=citation, reason=reason, numbers=numbers)
