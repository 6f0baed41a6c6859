"""The evidence forms (4): a demand for documentary evidence, and what was produced. Pure.

`private_metadata`: demand {"k": case id}; production {"d": demand id}
"""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import button, context, denver, esc, metadata, modal, section
from handlers.blocks.inputs import moment_input, text_input
from handlers.blocks.law_cites import cites
from handlers.ids import Action, Block, View
from handlers.slack_text import mention
from services.conduct.cases import CaseView
from services.conduct.evidence import DemandLine, EvidenceSummary


def versions_text(summary: EvidenceSummary) -> str:
    """Which survey of returns the case uses, and how many versions exist (every one is kept)."""
    kept = f"{summary.returns_versions} version{'s' if summary.returns_versions != 1 else ''} kept"
    text = f"Survey of returns: this case uses version {summary.returns_version}; {kept}"
    if summary.latest_version > summary.returns_version:
        text += f" (the latest is version {summary.latest_version})"
    return text + (". A correction under (4) is a new version with its reason and evidence (`/recount returns`, an "
                   "official).")


def demand_modal(case: CaseView, *, now: dt.datetime) -> dict:
    blocks = [
        section(f"A demand for documentary evidence in the recount of *{esc(case.contest)}* (case #{case.id})."),
        context(f"{cites(case).evidence}: the designated election official may require the production of any documentary "
                "evidence regarding the legality of any vote cast or counted, and may correct the survey of returns "
                "in accordance with the findings based on the evidence presented."),
        text_input(Block.EVIDENCE_WHAT, "What is demanded", multiline=True, max_length=2000,
                   placeholder="e.g. the poll book pages of Precinct 2 for the voters challenged"),
        text_input(Block.EVIDENCE_OF_WHOM, "Of whom", max_length=300,
                   placeholder="Who must produce it (a person, an office)"),
        moment_input(Block.EVIDENCE_WHEN, "When it was demanded", initial=now),
    ]
    return modal("Demand evidence", blocks, callback_id=View.DEMAND_EVIDENCE.value, submit="Record",
                 private_metadata=metadata({"k": case.id}))


def production_modal(demand: DemandLine, *, contest: str, now: dt.datetime, cited: str) -> dict:
    blocks = [
        section(f"What was produced for the demand in the recount of *{esc(contest)}* (case #{demand.case_id}):\n"
                f">{esc(demand.description)}\nof {esc(demand.demanded_of)}, demanded {denver(demand.demanded_at)} "
                f"by {mention(demand.demanded_by)}."),
        text_input(Block.EVIDENCE_PRODUCED, "What was produced", multiline=True, max_length=2000,
                   placeholder="The documents produced (and where they are kept)"),
        moment_input(Block.EVIDENCE_PRODUCED_AT, "When it was produced", initial=now),
        context(f"{cited}: a correction of the survey based on the evidence is made with `/recount returns` (an "
                "official): a new version with its reason and evidence."),
    ]
    return modal("Evidence produced", blocks, callback_id=View.RECORD_PRODUCTION.value, submit="Record",
                 private_metadata=metadata({"d": demand.id}))


def demand_line(d: DemandLine) -> str:
    head = f"“{esc(d.description[:200])}{'…' if len(d.description) > 200 else ''}” — of {esc(d.demanded_of)}, " \
           f"demanded {denver(d.demanded_at)}"
    if d.outstanding:
        return f":hourglass_flowing_sand: {head}: outstanding"
    return f":white_check_mark: {head}: produced {denver(d.produced_at)}"


def production_button(d: DemandLine) -> dict:
    return button("Record what was produced", Action.RECORD_PRODUCTION.value, str(d.id))
