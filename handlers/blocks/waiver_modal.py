"""The form that records the waiver of an automatic recount (C.R.S. 1-10.5-103). A pure builder."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import context, day, esc, metadata, modal, section
from handlers.blocks.inputs import date_input, text_input
from handlers.ids import Block, View
from rules.laws import LawProfile
from rules.waiver import REFERENCE_LIMIT, WHO_LIMIT
from services.conduct.cases import CaseView
from services.conduct.waiver import WaiverView


def waiver_modal(case: CaseView, law: LawProfile, *, deadline: dt.date | None, today: dt.date) -> dict:
    waiver = law.waiver
    assert waiver is not None  # the card offers the button only under a law that has a waiver
    by = f" by *{day(deadline)}*" if deadline is not None else ""
    blocks = [
        section(f"The automatic recount of *{esc(case.contest)}* is not held if {esc(waiver.who)} waives it in "
                f"writing{by}."),
        context(f"{waiver.provision.citation}: “{esc(waiver.provision.words)}”"),
        text_input(Block.WAIVED_BY, "Waived by", max_length=WHO_LIMIT,
                   placeholder="The political subdivision that referred the measure"),
        text_input(Block.WAIVER_CAPACITY, "Signed in what capacity", max_length=WHO_LIMIT,
                   placeholder="e.g. president of the board of education, by its resolution"),
        date_input(Block.WAIVER_RECEIVED_ON, "Written notice received on", initial=today,
                   hint="The day the county clerk and recorder received it (Colorado time)."),
        text_input(Block.WAIVER_REFERENCE, "The written waiver", max_length=REFERENCE_LIMIT, multiline=True,
                   placeholder="e.g. Resolution 2026-41, received by e-mail, filed as W-12"),
    ]
    return modal("Record waiver", blocks, callback_id=View.WAIVER.value, submit="Record",
                 private_metadata=metadata({"case_id": case.id}))


def waived_line(recorded: WaiverView) -> str:
    """How the card and the thread say a waiver (names escaped)."""
    return (f"Automatic recount waived under {recorded.citation} by {esc(recorded.waived_by)} "
            f"({esc(recorded.capacity)}): written notice received {day(recorded.received_on)}.")
