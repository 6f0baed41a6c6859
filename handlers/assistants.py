"""Assistants (3) in Slack: the card's *Assistants* button or `/recount assistants [case#]` opens a form to
record the election's abstract preparers and to add (or update) one assistant; the core's review is posted
in the case's thread with its citations, and the card shows the count and the warnings."""
from __future__ import annotations

import re

from handlers.blocks.assistant_modal import NO, YES, assistants_modal, finding_line
from handlers.blocks.common import esc
from handlers.blocks.law_cites import cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.conduct_common import after_modal, case_number, clicked_case, metadata_case, open_modal
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.subcommands import SUBCOMMANDS
from handlers.view_state import selected, typed, value_of
from rules.money import money
from services.conduct import assistants, cases
from services.conduct.assistants import AssistantInput, AssistantsRecorded
from services.conduct.cases import CaseView
from services.errors import UserError
from storage.models import Role

USAGE = "/recount assistants [case#]"
FIELDS = {"name": Block.ASSISTANT_NAME.value, "capacity": Block.ASSISTANT_CAPACITY.value,
          "days_served": Block.ASSISTANT_DAYS.value, "compensation": Block.ASSISTANT_PAY.value,
          "replaces": Block.ASSISTANT_REPLACES.value, "preparers": Block.ABSTRACT_PREPARERS.value}


def register(registry: Registry) -> None:
    registry.action(Action.ASSISTANTS.value, needs=Role.STAFF, changes_state=False)(open_assistants)
    registry.view(View.ASSISTANTS.value, needs=Role.STAFF)(submit_assistants)


def _open(ix: Interaction, case_id: int, again: str) -> None:
    case = cases.case_view(ix.services, case_id, workspace_id=ix.member.workspace_id)
    if case.conduct.completed:
        raise UserError(f"The recount of {case.contest} (case #{case.id}) is complete; its assistants can no "
                        "longer change.")
    open_modal(ix, assistants_modal(case, case.conduct.assistants), again)


def one_open_case(ix: Interaction, usage: str) -> int:
    """The office's only open recount; with several, the person is asked which."""
    found = cases_open(ix)
    if not found:
        raise UserError("No recount case is open in this office.")
    if len(found) > 1:
        raise UserError(f"Which recount? `{usage}` with its number: "
                        + "; ".join(f"#{case_id} {contest}" for case_id, contest in found) + ".")
    return found[0][0]


def cases_open(ix: Interaction) -> list[tuple[int, str]]:
    return assistants.open_cases(ix.services, workspace_id=ix.member.workspace_id)


@SUBCOMMANDS.add("assistants", needs=Role.STAFF, usage=USAGE,
                 summary="Record who assists in a recount — capacity, days served, pay — and who prepared the "
                         "official abstract (1306(3)); warns where (3) or the $15/day floor of 1-13.5-1301(4) is "
                         "not met.")
def assistants_command(ix: Interaction, args: str) -> None:
    case_id = case_number(args, USAGE)
    _open(ix, case_id if case_id is not None else one_open_case(ix, USAGE), "type `/recount assistants`")


def open_assistants(ix: Interaction) -> None:
    _open(ix, clicked_case(ix), "click *Assistants*")


def _days(raw: str) -> tuple[int | None, str | None]:
    if not raw:
        return None, "Say how many days they served (0 if none yet)."
    if not re.fullmatch(r"\d{1,3}", raw):
        return None, f"Days served: a whole number from 0 to {assistants.MAX_DAYS}, not “{raw}”."
    return int(raw), None


def _yes_no(state: dict, block: Block) -> bool | None:
    return {YES: True, NO: False}.get(selected(state, block) or "")


@as_one_unit
def submit_assistants(ix: Interaction) -> None:
    state = ix.body["view"].get("state", {})
    case_id = metadata_case(ix)
    workspace_id = ix.member.workspace_id
    # Slack sends every input of the form (an untouched one with its initial value); without the block, the
    # list is left as it is.
    shown = Block.ABSTRACT_PREPARERS.value in state.get("values", {})
    preparers = typed(state, Block.ABSTRACT_PREPARERS).splitlines() if shown else None
    name = typed(state, Block.ASSISTANT_NAME)
    capacity = selected(state, Block.ASSISTANT_CAPACITY)
    replaces = typed(state, Block.ASSISTANT_REPLACES)
    raw_days = typed(state, Block.ASSISTANT_DAYS)
    raw_pay = typed(state, Block.ASSISTANT_PAY)
    on_body = bool(value_of(state, Block.ASSISTANT_FLAGS).get("selected_options"))
    qualified, served = _yes_no(state, Block.ASSISTANT_QUALIFIED), _yes_no(state, Block.ASSISTANT_SERVED)
    given = any([name, capacity, replaces, raw_days, raw_pay, on_body, qualified is not None, served is not None])
    errors: dict[str, str] = {}
    assistant = None
    if given:
        if not name:
            errors[Block.ASSISTANT_NAME.value] = "Give the assistant's name."
        if not capacity:
            errors[Block.ASSISTANT_CAPACITY.value] = (
                "Choose the capacity in which they assist "
                f"({cites(cases.case_view(ix.services, case_id, workspace_id=workspace_id)).conduct}).")
        days, problem = _days(raw_days)
        if problem:
            errors[Block.ASSISTANT_DAYS.value] = problem
        pay = None
        if not raw_pay:
            errors[Block.ASSISTANT_PAY.value] = "Enter their compensation for those days ($0 if none)."
        else:
            try:
                pay = money(raw_pay, field="Compensation")
            except ValueError as exc:
                errors[Block.ASSISTANT_PAY.value] = str(exc)
        if not errors:
            assistant = AssistantInput(name=name, capacity=capacity, days_served=days, compensation=pay,
                                       on_governing_body=on_body, qualified_as_judge=qualified,
                                       served_as_judge=served, replaces=replaces or None)
    else:
        current = cases.case_view(ix.services, case_id, workspace_id=workspace_id).conduct.assistants.preparers
        try:
            unchanged = preparers is None or assistants.clean_preparers(preparers) == list(current)
        except UserError as exc:
            errors[Block.ABSTRACT_PREPARERS.value], unchanged = exc.message, False
        if unchanged:
            errors[Block.ASSISTANT_NAME.value] = ("Enter an assistant, or change the list of those who prepared the "
                                                  "official abstract.")
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    try:
        result = assistants.record_assistants(ix.services, workspace_id=workspace_id, case_id=case_id,
                                              actor=ix.user_id, assistant=assistant, preparers=preparers)
    except UserError as exc:
        field_errors(ix, exc, FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    if not result.changed:
        ix.later(lambda: ix.tell("Those details were already recorded; nothing changed."))
        return
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, review_text(case, result, ix.user_id))
    if result.preparers_changed:
        for other_id in result.other_cases:  # reviewed against the same preparers
            other = cases.case_view(ix.services, other_id, workspace_id=workspace_id)
            refresh_card(ix.services, other)
            if other.conduct.assistants.assistants:
                post_in_thread(ix.services, other, f":busts_in_silhouette: The persons who prepared the official "
                               f"abstract of {esc(other.election)} were changed by {mention(ix.user_id)} (in case "
                               f"#{case.id}): {_names(result.summary.preparers)}. The card shows the new review "
                               f"({cites(case).conduct}).")


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(esc(n) for n in names) if names else "none"


def review_text(case: CaseView, result: AssistantsRecorded, actor: str) -> str:
    done = []
    if result.assistant_change and result.assistant:
        done.append(f"{result.assistant_change} {esc(assistants.describe(result.assistant))}")
    if result.preparers_changed:
        done.append(f"set those who prepared the official abstract: {_names(result.summary.preparers)} (were: "
                    f"{_names(result.preparers_before)})")
    summary = result.summary
    lines = [f":busts_in_silhouette: *Assistants* of the recount of {esc(case.contest)} — {mention(actor)} "
             + "; ".join(done) + "."]
    if summary.assistants:
        lines.append(f"*Review under {cites(case).conduct}* — {len(summary.assistants)} assistant"
                     f"{'s' if len(summary.assistants) != 1 else ''}:")
        lines += [f"• {finding_line(f)}" for f in summary.findings[:15]]
        if len(summary.findings) > 15:
            lines.append(f"…and {len(summary.findings) - 15} more")
    return "\n".join(lines)
