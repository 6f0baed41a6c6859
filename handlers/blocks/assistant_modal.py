"""The assistants form (3): the election's abstract preparers, and one assistant to add or update. Pure.

`private_metadata`: {"k": case id}
"""
from __future__ import annotations

from handlers.blocks.common import context, divider, esc, metadata, modal, option, section
from handlers.blocks.inputs import input_block, number_input, select_input, text_input
from handlers.blocks.law_cites import cites
from handlers.ids import Block, View
from rules.assistants import Capacity
from rules.money import format_money
from rules.statute import DAILY_COMPENSATION_FLOOR
from services.conduct.assistants import AssistantsSummary, FindingLine, describe
from services.conduct.cases import CaseView

YES, NO = "yes", "no"
GOVERNING_BODY = "governing_body"
CAPACITY_OPTIONS = [
    (Capacity.PREPARED_ABSTRACT.value, "Prepared the official abstract"),
    (Capacity.APPOINTED_REPLACEMENT.value, "Appointed under 1-13.5-1301 in place of a preparer"),
    (Capacity.ADDITIONAL_QUALIFIED.value, "Additional: qualified as an election judge"),
]


def finding_line(f: FindingLine) -> str:
    mark = ":warning:" if f.outcome == "warning" else ":white_check_mark:"
    return f"{mark} {esc(f.reason)} — _{f.citation}_"


def _yes_no(block: Block, label: str, hint: str) -> dict:
    return input_block(block, label, {"type": "radio_buttons", "options": [option("Yes", YES), option("No", NO)]},
                       optional=True, hint=hint)


def assistants_modal(case: CaseView, summary: AssistantsSummary) -> dict:
    floor = format_money(DAILY_COMPENSATION_FLOOR.value)
    blocks: list[dict] = [
        section(f"Who assists in the recount of *{esc(case.contest)}* (case #{case.id})."),
        context(f"{cites(case).conduct}: those who assisted in preparing the official abstract of votes assist; if they "
                "cannot participate, others are appointed as provided in 1-13.5-1301; additional persons qualified "
                "to be election judges who did not serve as judges may be appointed. Pay: at least "
                f"{floor} a day ({DAILY_COMPENSATION_FLOOR.citation}), except members of the governing body."),
    ]
    if summary.assistants:
        lines = "\n".join(f"• {esc(describe(a))}" for a in summary.assistants[:20])
        more = f"\n…and {len(summary.assistants) - 20} more" if len(summary.assistants) > 20 else ""
        blocks.append(section(f"*Recorded so far*\n{lines}{more}"))
    blocks += [
        text_input(Block.ABSTRACT_PREPARERS, "Those who prepared the official abstract (one name a line)",
                   initial="\n".join(summary.preparers) or None, multiline=True, max_length=3000, optional=True,
                   hint="Recorded for the election: every recount of it is checked against this list."),
        divider(),
        section("*Add an assistant* — or update one: the same name replaces their details."),
        text_input(Block.ASSISTANT_NAME, "Name", max_length=200, optional=True),
        select_input(Block.ASSISTANT_CAPACITY, "Capacity", [option(label, value) for value, label in CAPACITY_OPTIONS],
                     placeholder="In which capacity they assist", optional=True),
        text_input(Block.ASSISTANT_REPLACES, "In place of (an appointed replacement)", max_length=200,
                   optional=True, hint="The preparer of the abstract who cannot participate."),
        number_input(Block.ASSISTANT_DAYS, "Days served", minimum=0, optional=True),
        text_input(Block.ASSISTANT_PAY, "Compensation for those days ($)", max_length=20, optional=True,
                   placeholder="e.g. 45.00"),
        input_block(Block.ASSISTANT_FLAGS, "Governing body", {"type": "checkboxes", "options": [
            option("A member of the governing body (no pay floor)", GOVERNING_BODY)]}, optional=True),
        _yes_no(Block.ASSISTANT_QUALIFIED, "Qualified to be an election judge?",
                "Asked of additional assistants (3)."),
        _yes_no(Block.ASSISTANT_SERVED, "Served as a judge in this election?",
                "Additional assistants must not have served as judges (3)."),
    ]
    return modal("Assistants", blocks, callback_id=View.ASSISTANTS.value, submit="Record",
                 private_metadata=metadata({"k": case.id}))
