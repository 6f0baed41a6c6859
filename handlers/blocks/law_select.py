"""The required "Recount law" select of a new election, in both returns forms (typed and from a file).

Slack asks rather than assuming a law (issue 22): each option names the kind of election in plain words and the
law's citation, so a clerk picks by what the election is and sees what will be applied.
"""
from __future__ import annotations

from typing import Any

from handlers.blocks.common import option
from handlers.blocks.inputs import select_input
from handlers.ids import Block
from rules.laws import LAWS


def law_label(key: str) -> str:
    """"Coordinated election — C.R.S. 1-10.5": the plain words first (Slack cuts a long option at its end)."""
    law = LAWS[key]
    return f"{law.plain_name[:1].upper()}{law.plain_name[1:]} — {law.citation}"


def law_select(initial: str | None = None) -> dict[str, Any]:
    return select_input(
        Block.RETURNS_NEW_ELECTION_LAW, "Recount law the election runs under",
        [option(law_label(key), key) for key in LAWS], placeholder="Choose the law",
        initial=initial if initial in LAWS else None,
        hint="Its deadlines, margins, who may request a recount and who pays all follow the law chosen here; it "
             "stays with the election.")
