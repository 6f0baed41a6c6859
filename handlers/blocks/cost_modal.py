"""The "Determine cost" modal, (2)(b)(II): the cost itemised the way `rules.cost` reckons it.

Five groups, each optional, each filled in whole or not at all: staff time (hours at an hourly rate),
canvass board fees and assistants' fees (persons × days × a daily fee; how many of them sit on the
governing body, with an optional fee of their own, since 1-13.5-1301(4)'s $15 floor is for the others
only), supplies, and anything else (an amount with what it is for). Amounts are text, read by
`rules.money.money` ("$1,234.50"); counts are Slack number inputs.

`BOARD` and `ASSISTANTS` name a per-day group's blocks; the handler (handlers.case_money) reads the form back
into `rules.cost.CostItem`s and maps a refusal on "item<N>.rate" to the block the rate was typed in. Pure
builders only.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from handlers.blocks.common import context, esc, metadata, modal, section
from handlers.blocks.inputs import date_input, number_input, text_input
from handlers.blocks.law_cites import case_law, cites
from handlers.ids import Block, View
from rules.cost import CostItem, CostItemKind
from rules.laws import DEFAULT_LAW
from rules.money import format_money
from rules.statute import DAILY_COMPENSATION_FLOOR, cite
from services.conduct.cases import CaseView

DESCRIPTION_LIMIT = 200
AMOUNT_LIMIT = 20


@dataclass(frozen=True)
class PerDayGroup:
    """The blocks of a per-day fee group (canvass board or assistants)."""

    kind: CostItemKind
    persons: Block
    days: Block
    rate: Block
    gb_members: Block
    gb_rate: Block


BOARD = PerDayGroup(CostItemKind.CANVASS_BOARD, Block.COST_BOARD_PERSONS, Block.COST_BOARD_DAYS,
                    Block.COST_BOARD_RATE, Block.COST_BOARD_GB_MEMBERS, Block.COST_BOARD_GB_RATE)
ASSISTANTS = PerDayGroup(CostItemKind.ASSISTANTS, Block.COST_ASSISTANTS_PERSONS, Block.COST_ASSISTANTS_DAYS,
                         Block.COST_ASSISTANTS_RATE, Block.COST_ASSISTANTS_GB_MEMBERS,
                         Block.COST_ASSISTANTS_GB_RATE)
GB_DESCRIPTION = "members of the governing body"


# ------------------------------------------------------------------ elements
def amount_input(block: Block, label: str, *, optional: bool = True, hint: str | None = None,
                 initial: str | None = None) -> dict[str, Any]:
    """An amount of money typed as text (Decimal, never a float: a number_input would round it); optional by
    default, as the cost form's items are."""
    return text_input(block, label, optional=optional, max_length=AMOUNT_LIMIT, placeholder="e.g. 1,234.50",
                      hint=hint, initial=initial)


def received_on_input(block: Block, label: str, today: dt.date, *, hint: str | None = None) -> dict[str, Any]:
    """The day money was received (or a step done), recorded after the fact: a date picker set to today in
    Colorado; the service refuses a day after today."""
    return date_input(block, label, initial=today, placeholder="The day it was received",
                      hint=hint or "The day it was received, not the day it is recorded; today unless you change it.")


def _plain_amount(amount) -> str:
    return f"{amount:.2f}"


def _number(value) -> str:
    return f"{value.normalize():f}"


# ------------------------------------------------------------------ prefill from the cost determined last
def initial_values(items: list[CostItem]) -> dict[Block, str]:
    """The form as the clerk would have filled it for `items` (as `handlers.case_money` builds them);
    items that do not fit the form (a second staff line, say) leave the form empty rather than half-right."""
    values: dict[Block, str] = {}
    by_kind: dict[CostItemKind, list[CostItem]] = {}
    for item in items:
        by_kind.setdefault(item.kind, []).append(item)
    for kind, found in by_kind.items():
        if len(found) > (2 if kind.per_day else 1):
            return {}
    if staff := by_kind.get(CostItemKind.STAFF_HOURS):
        values[Block.COST_STAFF_HOURS] = _number(staff[0].quantity)
        values[Block.COST_STAFF_RATE] = _plain_amount(staff[0].rate)
        if staff[0].description:
            values[Block.COST_STAFF_DESCRIPTION] = staff[0].description
    for group in (BOARD, ASSISTANTS):
        found = by_kind.get(group.kind)
        if not found:
            continue
        others = [i for i in found if i.governing_body_members < i.persons]
        members = [i for i in found if i.governing_body_members == i.persons]
        if len(found) == 2 and not (len(others) == 1 and len(members) == 1
                                    and others[0].governing_body_members == 0
                                    and others[0].quantity == members[0].quantity):
            return {}
        first = others[0] if others else members[0]
        values[group.days] = _number(first.quantity)
        if len(found) == 2:
            values[group.persons] = str(others[0].persons + members[0].persons)
            values[group.rate] = _plain_amount(others[0].rate)
            values[group.gb_members] = str(members[0].persons)
            values[group.gb_rate] = _plain_amount(members[0].rate)
        else:
            values[group.persons] = str(first.persons)
            values[group.rate] = _plain_amount(first.rate)
            values[group.gb_members] = str(first.governing_body_members)
    if supplies := by_kind.get(CostItemKind.SUPPLIES):
        values[Block.COST_SUPPLIES] = _plain_amount(supplies[0].rate)
        if supplies[0].description:
            values[Block.COST_SUPPLIES_DESCRIPTION] = supplies[0].description
    if other := by_kind.get(CostItemKind.OTHER):
        values[Block.COST_OTHER_AMOUNT] = _plain_amount(other[0].rate)
        values[Block.COST_OTHER_DESCRIPTION] = other[0].description
    return values


# ------------------------------------------------------------------ the modal
def _per_day_blocks(group: PerDayGroup, title: str, note: str, values: dict[Block, str]) -> list[dict]:
    floor = format_money(DAILY_COMPENSATION_FLOOR.value)
    return [
        section(f"*{title}*"),
        context(note),
        number_input(group.persons, "Persons paid", minimum=1, optional=True, initial=values.get(group.persons)),
        number_input(group.days, "Days (whole days)", minimum=1, optional=True, initial=values.get(group.days)),
        amount_input(group.rate, "Daily fee per person ($)", initial=values.get(group.rate),
                     hint=f"At least {floor} a day for anyone not on the governing body "
                          f"({DAILY_COMPENSATION_FLOOR.citation})."),
        number_input(group.gb_members, "Of them, members of the governing body", minimum=0, optional=True,
                     initial=values.get(group.gb_members)),
        amount_input(group.gb_rate, "Their daily fee, if different ($)", initial=values.get(group.gb_rate),
                     hint="No floor for members of the governing body; leave empty to pay them the fee above."),
    ]


def cost_modal(case: CaseView, *, previous: list[CostItem] | None = None) -> dict:
    values = initial_values(previous or [])
    request = case.request
    who = f" requested by *{esc(request.requester_name)}*" if request else ""
    blocks: list[dict] = [
        section(f"The cost of the recount of *{esc(case.contest)}*{who}, item by item. Fill in the items that "
                "apply; leave the others empty."),
        context(f"{cites(case).cost}: before the recount the designated election official determines its cost; "
                f"the requester is then notified of it {cites(case).cost_notice} and pays it {cites(case).collection}."),
    ]
    money = case.money
    if money is not None and money.cost_determined is not None:
        lines = "\n".join(f"• {esc(line)}" for line in money.cost_items)
        blocks.append(context(f"Determined now: *{format_money(money.cost_determined)}*\n{lines}\nSubmitting "
                              "replaces it; the requester must then be notified of the new cost."))
    blocks += [
        section("*Staff time*"),
        number_input(Block.COST_STAFF_HOURS, "Hours", decimal=True, optional=True,
                     initial=values.get(Block.COST_STAFF_HOURS), hint="Decimal hours are fine: 7.5"),
        amount_input(Block.COST_STAFF_RATE, "Hourly rate ($)", initial=values.get(Block.COST_STAFF_RATE)),
        text_input(Block.COST_STAFF_DESCRIPTION, "Who", optional=True, max_length=DESCRIPTION_LIMIT,
                   placeholder="e.g. two election clerks",
                   initial=values.get(Block.COST_STAFF_DESCRIPTION)),
        *_per_day_blocks(BOARD, "Canvass board fees",
                         _who_assists(case), values),
        *_per_day_blocks(ASSISTANTS, "Assistants' fees",
                         f"Persons appointed to assist are compensated as {case_law(case).assistant_pay.provision.citation} "
                         f"provides ({cites(case).conduct}).", values),
        section("*Supplies*"),
        amount_input(Block.COST_SUPPLIES, "Supplies ($)", initial=values.get(Block.COST_SUPPLIES)),
        text_input(Block.COST_SUPPLIES_DESCRIPTION, "What", optional=True, max_length=DESCRIPTION_LIMIT,
                   placeholder="e.g. tally sheets, seals",
                   initial=values.get(Block.COST_SUPPLIES_DESCRIPTION)),
        section("*Other*"),
        amount_input(Block.COST_OTHER_AMOUNT, "Amount ($)", initial=values.get(Block.COST_OTHER_AMOUNT)),
        text_input(Block.COST_OTHER_DESCRIPTION, "What it is for", optional=True, max_length=DESCRIPTION_LIMIT,
                   placeholder="e.g. ballot transport",
                   hint="Required with an amount.", initial=values.get(Block.COST_OTHER_DESCRIPTION)),
    ]
    return modal("Determine cost", blocks, callback_id=View.COST.value, submit="Determine",
                 private_metadata=metadata({"case_id": case.id}))


def _who_assists(case: CaseView) -> str:
    """Who assists in the recount, as the election's law says it (1306(3): the canvass board of 1-13.5-1301)."""
    law = case_law(case)
    if law.key == DEFAULT_LAW.key:
        return f"The canvass board of {cite(section='1-13.5-1301')} assists in the recount ({cites(case).conduct})."
    return f"The recount is conducted by {law.conducted_by} ({cites(case).conduct})."
