"""Subsection (3): who assists the designated election official in the recount, and their pay.

"The designated election official is responsible for conducting the recount and shall be assisted
by those persons who assisted in preparing the official abstract of votes. If those persons cannot
participate in the recount, other persons shall be appointed as provided in section 1-13.5-1301.
The designated election official may appoint additional persons qualified to be the election judges
who did not serve as judges in the election as assistants in conducting the recount. Persons
assisting in the conduct of the recount shall be compensated as provided in section 1-13.5-1301 (4)."

1-13.5-1301(4): members who are not members of the governing body are paid not less than fifteen
dollars per day (`rules.statute.DAILY_COMPENSATION_FLOOR`).

`review_assistants` returns one decision per finding ("warning"), or a single "ok" when there is
none. Warnings do not stop a recount: the clerk decides; the bot shows what (3) expects.

Readings (the text is silent; each is applied on purpose):

- Names are matched after folding case and collapsing spaces ("Ann  Lee" is "ann lee").
- An additional assistant must be shown to be qualified as an election judge and shown not to have
  served as a judge in the election: "not recorded" (None) is a warning as well, since (3) allows the
  appointment only of persons who meet both conditions.
- A preparer of the abstract who is listed as assisting in another capacity is assisting, but the
  capacity is flagged so the record says why they are there.
- A replacement replaces a named preparer; replacing someone who is not a preparer, or a preparer who
  is assisting anyway, is flagged: "other persons shall be appointed" only "if those persons cannot
  participate".
- Pay comes in through `rules.money.money` (Decimal cents; text and ints parsed, floats refused).
- The floor is $15.00 per day served for anyone not on the governing body; 1301(4) sets no floor for
  members of the governing body, so for them the floor is $0.00. A day is a day served, whole days.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.money import ZERO, money
from rules.money import format_money as money_str
from rules.statute import DAILY_COMPENSATION_FLOOR, cite

CITATION = cite("(3)")
PAY_CITATION = DAILY_COMPENSATION_FLOOR.citation  # "C.R.S. 1-13.5-1301(4)", applied to assistants by (3)


class Capacity(str, enum.Enum):
    PREPARED_ABSTRACT = "prepared_abstract"  # assisted in preparing the official abstract of votes
    APPOINTED_REPLACEMENT = "appointed_1301"  # appointed under 1-13.5-1301 for a preparer who cannot participate
    ADDITIONAL_QUALIFIED = "additional_qualified"  # qualified to be an election judge, did not serve as one

    @property
    def label(self) -> str:
        return {
            Capacity.PREPARED_ABSTRACT: "preparer of the abstract",
            Capacity.APPOINTED_REPLACEMENT: "replacement appointed under 1-13.5-1301",
            Capacity.ADDITIONAL_QUALIFIED: "additional qualified assistant",
        }[self]


class Finding(str, enum.Enum):
    OK = "ok"
    NOT_QUALIFIED = "not_qualified_as_judge"
    SERVED_AS_JUDGE = "served_as_judge"
    REPLACES_NON_PREPARER = "replaces_non_preparer"
    REPLACES_PARTICIPATING_PREPARER = "replaces_participating_preparer"
    NOT_A_PREPARER = "not_a_preparer"
    PREPARER_IN_OTHER_CAPACITY = "preparer_in_other_capacity"
    PREPARER_ABSENT = "preparer_absent"
    NO_PREPARERS_RECORDED = "no_preparers_recorded"
    LISTED_TWICE = "listed_twice"
    UNDERPAID = "underpaid"


def _key(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip().casefold()


@dataclass(frozen=True)
class Assistant:
    name: str
    capacity: Capacity
    days_served: int = 0
    compensation: Decimal = ZERO  # Decimal cents; text and ints go through rules.money.money, floats are refused
    on_governing_body: bool = False
    qualified_as_judge: bool | None = None
    served_as_judge: bool | None = None
    replaces: str | None = None  # for APPOINTED_REPLACEMENT: the preparer who cannot participate

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError("an assistant has a name")
        object.__setattr__(self, "capacity", Capacity(self.capacity))
        if type(self.days_served) is not int or self.days_served < 0:
            raise ValueError(f"{self.name}: days served is a whole number >= 0, not {self.days_served!r}")
        object.__setattr__(self, "compensation", money(self.compensation, field=f"{self.name}: compensation"))


@dataclass(frozen=True, kw_only=True)
class AssistantFinding(Decision):
    """A `Decision` about one person (or the list as a whole when `person` is None)."""

    finding: Finding
    person: str | None = None


def compensation_floor(days: int, on_governing_body: bool, law: LawProfile = DEFAULT_LAW) -> Decimal:
    """The least the law allows for `days` days: under 1306, 1-13.5-1301(4)'s $15.00 a day, none for governing-body
    members; under 31-10-1207, 31-10-1206's $10.00 a day; under 1-10.5, no daily floor (0)."""
    if type(days) is not int or days < 0:
        raise ValueError(f"days is a whole number >= 0, not {days!r}")
    daily = law.assistant_pay.daily_floor
    if on_governing_body or daily is None:
        return ZERO
    return money(daily * days, field="compensation floor")


def _warn(finding: Finding, person: str | None, reason: str, citation: str = CITATION, **numbers) -> AssistantFinding:
    return AssistantFinding(outcome="warning", citation=citation, reason=reason, numbers=numbers,
                            finding=finding, person=person)


def review_assistants(assistants: Sequence[Assistant], *, abstract_preparers: Sequence[str],
                      law: LawProfile = DEFAULT_LAW) -> list[AssistantFinding]:
    """Check the assistants against (3) and their pay against 1-13.5-1301(4) (the law's own pay floor under
    another law: 31-10-1206 under 31-10-1207; none under 1-10.5); warnings, or a single "ok"."""
    pay_citation = PAY_CITATION if law is DEFAULT_LAW else law.assistant_pay.provision.citation
    daily = law.assistant_pay.daily_floor
    conduct = CITATION if law is DEFAULT_LAW else law.cite(Part.CONDUCT)
    if isinstance(abstract_preparers, str):
        raise TypeError("abstract_preparers is a sequence of names, not one string")
    preparers = {_key(p): p.strip() for p in abstract_preparers}
    by_key: dict[str, list[Assistant]] = {}
    for a in assistants:
        by_key.setdefault(_key(a.name), []).append(a)
    replaced = {_key(a.replaces) for a in assistants
                if a.capacity is Capacity.APPOINTED_REPLACEMENT and a.replaces}
    findings: list[AssistantFinding] = []

    if not preparers:
        findings.append(_warn(
            Finding.NO_PREPARERS_RECORDED, None,
            "The persons who assisted in preparing the official abstract are not recorded; (3) says they assist "
            "in the recount, so who must assist cannot be checked."))

    for entries in by_key.values():
        if len(entries) > 1:
            findings.append(_warn(
                Finding.LISTED_TWICE, entries[0].name,
                f"{entries[0].name} is listed {len(entries)} times as an assistant; list each person once.",
                times=len(entries)))

    for a in assistants:
        key = _key(a.name)
        if a.capacity is Capacity.ADDITIONAL_QUALIFIED:
            if a.qualified_as_judge is not True:
                status = "is not" if a.qualified_as_judge is False else "is not recorded as"
                findings.append(_warn(
                    Finding.NOT_QUALIFIED, a.name,
                    f"{a.name} {status} qualified to be an election judge; (3) allows additional assistants "
                    f"only if qualified to be election judges."))
            if a.served_as_judge is not False:
                status = "served" if a.served_as_judge else "is not recorded as not having served"
                findings.append(_warn(
                    Finding.SERVED_AS_JUDGE, a.name,
                    f"{a.name} {status} as a judge in the election; (3) allows additional assistants only "
                    f"who did not serve as judges in the election."))
        elif a.capacity is Capacity.APPOINTED_REPLACEMENT:
            target = _key(a.replaces) if a.replaces else ""
            if target not in preparers:
                whom = f"replaces {a.replaces}, who is not on" if a.replaces else "replaces no one on"
                findings.append(_warn(
                    Finding.REPLACES_NON_PREPARER, a.name,
                    f"{a.name} {whom} the list of those who prepared the abstract; (3) appoints others "
                    f"only if those persons cannot participate."))
            elif target in by_key:
                findings.append(_warn(
                    Finding.REPLACES_PARTICIPATING_PREPARER, a.name,
                    f"{a.name} replaces {preparers[target]}, who is assisting in the recount; (3) appoints others "
                    f"only if those persons cannot participate."))
        elif a.capacity is Capacity.PREPARED_ABSTRACT and key not in preparers:
            findings.append(_warn(
                Finding.NOT_A_PREPARER, a.name,
                f"{a.name} is listed as a preparer of the abstract but is not on the list of those who prepared "
                f"it; record them as a replacement or an additional qualified assistant."))
        if key in preparers and a.capacity is not Capacity.PREPARED_ABSTRACT:
            findings.append(_warn(
                Finding.PREPARER_IN_OTHER_CAPACITY, a.name,
                f"{a.name} prepared the abstract but is listed as {a.capacity.label}; (3) has them assist "
                f"as a preparer of the abstract."))

    for key, name in preparers.items():
        if key not in by_key and key not in replaced:
            findings.append(_warn(
                Finding.PREPARER_ABSENT, name,
                f"{name} assisted in preparing the abstract but neither assists in the recount nor is replaced; "
                f"(3) says they assist, or others are appointed under 1-13.5-1301 if they cannot."))

    for a in assistants:
        floor = compensation_floor(a.days_served, a.on_governing_body, law)
        if daily is not None and a.compensation < floor:
            days = f"{a.days_served} day" + ("" if a.days_served == 1 else "s")
            findings.append(_warn(
                Finding.UNDERPAID, a.name,
                f"{a.name}: paid {money_str(a.compensation)} for {days}; the floor is {money_str(floor)} "
                f"({money_str(daily)} a day under {pay_citation}, as (3) applies it "
                f"to recount assistants).",
                citation=pay_citation, paid=a.compensation, days=a.days_served, floor=floor,
                daily_floor=daily, shortfall=floor - a.compensation,
                applied_by=conduct))

    if findings:
        return findings
    total_pay = sum((a.compensation for a in assistants), ZERO)
    counts = {c.value: sum(1 for a in assistants if a.capacity is c) for c in Capacity}
    paid_as = (f"all paid at least {money_str(daily)} a day where {pay_citation} requires it" if daily is not None
               else f"{pay_citation} sets no daily floor")
    return [AssistantFinding(
        outcome="ok", citation=conduct, finding=Finding.OK,
        reason=(f"{len(assistants)} assistant{'s' if len(assistants) != 1 else ''} as (3) provides: "
                f"{counts[Capacity.PREPARED_ABSTRACT.value]} who prepared the abstract, "
                f"{counts[Capacity.APPOINTED_REPLACEMENT.value]} appointed in their place, "
                f"{counts[Capacity.ADDITIONAL_QUALIFIED.value]} additional; {paid_as} "
                f"(total {money_str(total_pay)})."),
        numbers={"assistants": len(assistants), **counts, "total_compensation": total_pay},
    )]


# Completing a recount no one is recorded as assisting: (3) says the official "shall be assisted by those persons
# who assisted in preparing the official abstract of votes" (or others appointed when they cannot). A recount
# with no assistant on record cannot show it was conducted as (3) requires, so completion waits for them.
NO_ASSISTANTS_REASON = (
    "Not completed: no one is recorded as assisting in the recount. Under {citation} the designated election "
    "official “shall be assisted by those persons who assisted in preparing the official abstract of votes” (or, "
    "if they cannot participate, by others appointed as provided in 1-13.5-1301). Record who assisted with "
    "*Assistants* on the card, then complete.")


def assistance_before_completion(assistants: int) -> Decision:
    """(3) before completion: "ok" when at least one assistant is recorded for the recount, else "refused"."""
    if assistants < 0:
        raise ValueError("a number of assistants is never negative")
    if assistants:
        return Decision(outcome="ok", citation=CITATION, numbers={"assistants": assistants},
                        reason=f"{assistants} assistant{'' if assistants == 1 else 's'} recorded as assisting ({CITATION}).")
    return Decision(outcome="refused", citation=CITATION, numbers={"assistants": 0},
                    reason=NO_ASSISTANTS_REASON.format(citation=CITATION))
