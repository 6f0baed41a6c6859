"""Determining the cost of a requested recount (2)(b)(II) from its card: the cost modal, read item by item
into the core's `CostItem`s (each refusal on the block its item came from), then the cost posted in the case's
thread with its notice, as a letter ready to send to the requester."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from slack_sdk.errors import SlackApiError

from handlers.blocks.common import esc
from handlers.blocks.cost_modal import ASSISTANTS, BOARD, GB_DESCRIPTION, PerDayGroup, cost_modal
from handlers.blocks.cost_notice import cost_notice_letter, letter_blocks, letter_text
from handlers.blocks.law_cites import cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.case_money import clicked_case
from handlers.conduct_common import after_modal
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import case_form, typed
from rules.cost import CostItem, CostItemKind
from rules.money import format_money, money
from services.conduct import cases
from services.conduct import money as case_money
from services.conduct.cases import CaseView
from services.conduct.money import CostRefused
from services.errors import UserError
from storage.models import Role


def register(registry: Registry) -> None:
    registry.action(Action.DETERMINE_COST.value, needs=Role.STAFF, changes_state=False)(open_cost)
    registry.view(View.COST.value, needs=Role.STAFF)(submit_cost)


def open_cost(ix: Interaction) -> None:
    case = clicked_case(ix)
    if case is None:
        return
    previous = case_money.latest_cost_items(ix.services, workspace_id=ix.member.workspace_id, case_id=case.id)
    ix.client.views_open(trigger_id=ix.trigger_id, view=cost_modal(case, previous=previous))


class _CostForm:
    """Reads the cost modal into `CostItem`s, remembering which block each item's rate and count came from."""

    def __init__(self, state: dict) -> None:
        self.state = state
        self.items: list[CostItem] = []
        self.rate_blocks: list[Block] = []
        self.first_blocks: list[Block] = []
        self.errors: dict[str, str] = {}

    # -------------------------------------------------------------- fields
    def text(self, block: Block) -> str:
        return typed(self.state, block)

    def error(self, block: Block, message: str) -> None:
        self.errors.setdefault(block.value, message)

    def amount(self, block: Block, label: str) -> Decimal | None:
        raw = self.text(block)
        if not raw:
            return None
        try:
            return case_money.within_limit(money(raw, field=label), label=label, field=block.value)
        except ValueError as exc:
            self.error(block, str(exc))
        except UserError as exc:
            self.error(block, exc.message)
        return None

    def whole(self, block: Block, label: str, minimum: int) -> int | None:
        raw = self.text(block)
        if not raw:
            return None
        try:
            number = Decimal(raw)
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or number != number.to_integral_value() or number < minimum:
            self.error(block, f"{label}: a whole number of at least {minimum}, not “{raw}”.")
            return None
        if number > 10_000:
            self.error(block, f"{label}: {raw} is implausibly large.")
            return None
        return int(number)

    def hours(self, block: Block) -> Decimal | None:
        raw = self.text(block)
        if not raw:
            return None
        try:
            number = Decimal(raw)
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or number <= 0:
            self.error(block, f"Hours: a number more than 0, like 7.5, not “{raw}”.")
            return None
        if number != number.quantize(Decimal("0.01")):
            self.error(block, f"Hours: at most two decimal places (“{raw}”).")
            return None
        return number

    def add(self, item_args: dict, *, rate_block: Block, first_block: Block) -> None:
        try:
            item = CostItem(**item_args)
            case_money.within_limit(item.amount, label=item.kind.label, field=first_block.value)
        except (TypeError, ValueError) as exc:
            self.error(first_block, str(exc))
            return
        except UserError as exc:  # a rate within bounds times persons and days beyond them
            self.error(first_block, exc.message)
            return
        self.items.append(item)
        self.rate_blocks.append(rate_block)
        self.first_blocks.append(first_block)

    # -------------------------------------------------------------- groups
    def read(self) -> _CostForm:
        self.staff()
        self.per_day(BOARD, "Canvass board")
        self.per_day(ASSISTANTS, "Assistants")
        self.supplies()
        self.other()
        if not self.items and not self.errors:
            self.error(Block.COST_STAFF_HOURS, "Enter at least one item of the cost.")
        if not self.errors:
            try:
                case_money.within_limit(sum((item.amount for item in self.items), Decimal(0)),
                                        label="The total cost", field="total")
            except UserError as exc:
                self.error(self.first_blocks[0], exc.message)
        return self

    def staff(self) -> None:
        if not any(self.text(b) for b in (Block.COST_STAFF_HOURS, Block.COST_STAFF_RATE, Block.COST_STAFF_DESCRIPTION)):
            return
        hours = self.hours(Block.COST_STAFF_HOURS)
        rate = self.amount(Block.COST_STAFF_RATE, "Hourly rate")
        if not self.text(Block.COST_STAFF_HOURS):
            self.error(Block.COST_STAFF_HOURS, "Enter the staff hours, or clear the staff time.")
        if not self.text(Block.COST_STAFF_RATE):
            self.error(Block.COST_STAFF_RATE, "Enter the hourly rate.")
        if hours is not None and rate is not None:
            self.add({"kind": CostItemKind.STAFF_HOURS, "description": self.text(Block.COST_STAFF_DESCRIPTION),
                      "rate": rate, "quantity": hours}, rate_block=Block.COST_STAFF_RATE,
                     first_block=Block.COST_STAFF_HOURS)

    def per_day(self, group: PerDayGroup, label: str) -> None:
        filled = [self.text(b) for b in (group.persons, group.days, group.rate, group.gb_rate)]
        if not any(filled) and self.text(group.gb_members) in ("", "0"):
            return
        persons = self.whole(group.persons, f"{label}: persons paid", 1)
        days = self.whole(group.days, f"{label}: days", 1)
        members = self.whole(group.gb_members, f"{label}: members of the governing body", 0)
        rate = self.amount(group.rate, "Daily fee per person")
        gb_rate = self.amount(group.gb_rate, "Daily fee of governing-body members")
        members = members or 0
        for block, what in ((group.persons, "how many persons are paid"), (group.days, "for how many days")):
            if not self.text(block):
                self.error(block, f"Say {what}, or clear the {label.lower()} fees.")
        if persons is not None and members > persons:
            self.error(group.gb_members, f"At most {persons}: the persons paid.")
            return
        if self.text(group.gb_rate) and members == 0:
            self.error(group.gb_members, "Say how many are members of the governing body, or clear their fee.")
            return
        all_members_at_own_fee = gb_rate is not None and persons is not None and members == persons
        if not self.text(group.rate) and not all_members_at_own_fee:
            self.error(group.rate, "Enter the daily fee per person.")
        if persons is None or days is None or self.errors.get(group.rate.value) or self.errors.get(group.gb_rate.value):
            return
        kind = group.kind
        if gb_rate is None:
            self.add({"kind": kind, "description": "", "rate": rate, "quantity": days, "persons": persons,
                      "governing_body_members": members}, rate_block=group.rate, first_block=group.persons)
            return
        if persons > members:
            self.add({"kind": kind, "description": "not members of the governing body", "rate": rate,
                      "quantity": days, "persons": persons - members, "governing_body_members": 0},
                     rate_block=group.rate, first_block=group.persons)
        self.add({"kind": kind, "description": GB_DESCRIPTION, "rate": gb_rate, "quantity": days,
                  "persons": members, "governing_body_members": members},
                 rate_block=group.gb_rate, first_block=group.gb_members)

    def supplies(self) -> None:
        if not (self.text(Block.COST_SUPPLIES) or self.text(Block.COST_SUPPLIES_DESCRIPTION)):
            return
        amount = self.amount(Block.COST_SUPPLIES, "Supplies")
        if not self.text(Block.COST_SUPPLIES):
            self.error(Block.COST_SUPPLIES, "Enter the amount for supplies, or clear what they are.")
        if amount is not None:
            self.add({"kind": CostItemKind.SUPPLIES, "description": self.text(Block.COST_SUPPLIES_DESCRIPTION),
                      "rate": amount}, rate_block=Block.COST_SUPPLIES, first_block=Block.COST_SUPPLIES)

    def other(self) -> None:
        if not (self.text(Block.COST_OTHER_AMOUNT) or self.text(Block.COST_OTHER_DESCRIPTION)):
            return
        amount = self.amount(Block.COST_OTHER_AMOUNT, "Other amount")
        if not self.text(Block.COST_OTHER_AMOUNT):
            self.error(Block.COST_OTHER_AMOUNT, "Enter the amount, or clear the description.")
        if not self.text(Block.COST_OTHER_DESCRIPTION):
            self.error(Block.COST_OTHER_DESCRIPTION, "Say what this amount is for.")
            return
        if amount is not None:
            self.add({"kind": CostItemKind.OTHER, "description": self.text(Block.COST_OTHER_DESCRIPTION),
                      "rate": amount}, rate_block=Block.COST_OTHER_AMOUNT, first_block=Block.COST_OTHER_AMOUNT)

    def refusal_errors(self, refused: CostRefused) -> dict[str, str]:
        """Each problem of the refusal on the block its item came from."""
        errors: dict[str, str] = {}
        for problem in refused.determination.problems:
            index = int(problem["item"]) - 1
            if not 0 <= index < len(self.items):
                continue
            block = self.rate_blocks[index] if problem["field"] == "rate" else self.first_blocks[index]
            message = problem["message"]
            text = message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
            errors[block.value] = f"{errors[block.value]} {text}" if block.value in errors else text
        return errors


@as_one_unit
def submit_cost(ix: Interaction) -> None:
    state, case_id = case_form(ix.body["view"])
    form = _CostForm(state).read()
    if form.errors:
        ix.ack(response_action="errors", errors=form.errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        determination = case_money.record_cost(ix.services, workspace_id=workspace_id, case_id=case_id,
                                               items=form.items, actor=ix.user_id)
    except CostRefused as refused:
        errors = form.refusal_errors(refused)
        if not errors:
            raise
        ix.ack(response_action="errors", errors=errors)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, _cost_message(case, determination.total, ix.user_id))
    letter = cost_notice_letter(case, today=ix.services.today(), signer=letter_signer(ix))
    post_in_thread(ix.services, case, letter_text(case), blocks=letter_blocks(case, letter))


def _cost_message(case: CaseView, total: Decimal, actor: str) -> str:
    money_view = case.money
    lines = "\n".join(f"• {esc(line)}" for line in money_view.cost_items)
    text = (f":abacus: *Cost of the recount determined: {format_money(total)}* by {mention(actor)} "
            f"({cites(case).cost})\n{lines}\n*Total: {format_money(total)}*")
    earlier = [line.amount for line in money_view.lines if line.kind == "cost_determined"][:-1]
    if earlier:
        text += f"\nThis replaces the cost determined before, {format_money(earlier[-1])}."
        if money_view.cost_notices:
            text += " The requester was notified of the earlier cost: send them the notice below as well."
    if money_view.paid:
        if money_view.paid >= total:
            surplus = money_view.paid - total
            text += (f"\nPaid so far: {format_money(money_view.paid)}, the cost in full"
                     + (f" and {format_money(surplus)} more, held under {cites(case).payment}" if surplus else "") + ".")
        else:
            text += f"\nPaid so far: {format_money(money_view.paid)}; {format_money(money_view.due)} due."
    return text + (f"\nNext: send the requester the notice below and record it with *Record cost notice* "
                   f"({cites(case).cost_notice}).")


def letter_signer(ix: Interaction) -> str | None:
    """The letter is signed by the designated election official: the person determining the cost, when
    they hold that role here; otherwise the signature line is left for the official to fill in."""
    if ix.role is not Role.OFFICIAL:
        return None
    try:
        user = ix.client.users_info(user=ix.user_id)["user"]
    except SlackApiError:
        return None
    profile = user.get("profile") or {}
    return profile.get("real_name") or user.get("real_name") or None
