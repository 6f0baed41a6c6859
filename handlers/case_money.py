"""The money of a requested recount from its card: determine the cost (2)(b)(II) (`handlers.cost`), record the
notice of it (2)(b)(III) (`handlers.cost_notice`), record payments (2)(b)(IV), (2)(c) (`handlers.payments`).

Each is a button on the card that opens a modal (in the request thread: the trigger expires in 3 seconds);
the modal's submission is checked field by field, recorded by `services.conduct.money`, then the modal
closes, the card is edited and the case's thread says what was recorded. Determining the cost also posts
the notice of it, as a letter ready to send. This module holds what the three share.
"""
from __future__ import annotations

from handlers.blocks.common import denver
from handlers.blocks.law_cites import case_law
from handlers.interaction import Interaction
from handlers.slack_text import mention
from services.conduct import cases
from services.conduct.cases import CaseView


def automatic(case: CaseView) -> str:
    """Who pays an automatic recount, under the election's law (1306(1): the governing body)."""
    payer = case_law(case).automatic_payer
    return (f"This is an automatic recount: {payer.who} pays for it ({payer.provision.citation}); there is no "
            "cost to determine or collect from anyone.")


def clicked_case(ix: Interaction) -> CaseView | None:
    """The case of the clicked button, or None (the person was told why) when its money cannot change."""
    case = cases.case_view(ix.services, int(ix.body["actions"][0]["value"]), workspace_id=ix.member.workspace_id)
    if not case.requested:
        ix.tell(automatic(case))
        return None
    if case.counting_started_at is not None:
        ix.tell(f"Counting began {denver(case.counting_started_at)} ({mention(case.counting_started_by)}); the cost "
                "determined before the recount, its notice and the payment before it can no longer change.")
        return None
    return case


