"""Evidence (4) in Slack: *Demand evidence* (the card, or `/recount evidence [case#]`) records a demand for
documentary evidence regarding the legality of a vote — what, of whom, when; *Record what was produced* (the
card, the demand's thread post) records the answer. Both are posted in the case's thread with the citation
and the survey versions (a correction based on the evidence is a new version, made with `/recount returns`).

Demanding is the designated election official's act under (4) ("may require the production"), so it needs the
official role, as correcting the survey does; recording what was produced is staff's.
"""
from __future__ import annotations

from handlers.assistants import one_open_case
from handlers.blocks.common import context, denver, esc, section
from handlers.blocks.evidence_modal import (
    demand_modal,
    production_button,
    production_modal,
    versions_text,
)
from handlers.blocks.law_cites import cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.conduct_common import after_modal, case_number, clicked_case, metadata_case, open_modal
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.subcommands import SUBCOMMANDS
from handlers.view_state import metadata_of, moment_picked, typed
from services.conduct import cases, evidence
from services.conduct.cases import CaseView
from services.errors import UserError
from services.wording import Person, words
from storage.models import Role

USAGE = "/recount evidence [case#]"
DEMAND_FIELDS = {"description": Block.EVIDENCE_WHAT.value, "demanded_of": Block.EVIDENCE_OF_WHOM.value,
                 "demanded_at": Block.EVIDENCE_WHEN.value}
PRODUCTION_FIELDS = {"produced": Block.EVIDENCE_PRODUCED.value, "produced_at": Block.EVIDENCE_PRODUCED_AT.value}


def register(registry: Registry) -> None:
    registry.action(Action.DEMAND_EVIDENCE.value, needs=Role.OFFICIAL, changes_state=False)(open_demand)
    registry.view(View.DEMAND_EVIDENCE.value, needs=Role.OFFICIAL)(submit_demand)
    registry.action(Action.RECORD_PRODUCTION.value, needs=Role.STAFF, changes_state=False)(open_production)
    registry.view(View.RECORD_PRODUCTION.value, needs=Role.STAFF)(submit_production)


# ------------------------------------------------------------------ the demand
def _open_demand(ix: Interaction, case_id: int, again: str) -> None:
    case = cases.case_view(ix.services, case_id, workspace_id=ix.member.workspace_id)
    if case.conduct.completed:
        raise UserError(f"The recount of {case.contest} (case #{case.id}) is complete; no more evidence can be "
                        "demanded in it.")
    open_modal(ix, demand_modal(case, now=ix.services.now()), again)


@SUBCOMMANDS.add("evidence", needs=Role.OFFICIAL, usage=USAGE,
                 summary="Demand documentary evidence regarding the legality of a vote in a recount — what, of "
                         "whom, when (1306(4)); what is produced is recorded from the card.")
def evidence_command(ix: Interaction, args: str) -> None:
    case_id = case_number(args, USAGE)
    _open_demand(ix, case_id if case_id is not None else one_open_case(ix, USAGE), "type `/recount evidence`")


def open_demand(ix: Interaction) -> None:
    _open_demand(ix, clicked_case(ix), "click *Demand evidence*")


@as_one_unit
def submit_demand(ix: Interaction) -> None:
    state = ix.body["view"].get("state", {})
    case_id = metadata_case(ix)
    what, whom = typed(state, Block.EVIDENCE_WHAT), typed(state, Block.EVIDENCE_OF_WHOM)
    when = moment_picked(state, Block.EVIDENCE_WHEN)
    errors = {}
    if not what:
        errors[Block.EVIDENCE_WHAT.value] = "Say what documentary evidence is demanded."
    if not whom:
        errors[Block.EVIDENCE_OF_WHOM.value] = "Say of whom it is demanded."
    if when is None:
        errors[Block.EVIDENCE_WHEN.value] = "Say when it was demanded."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        result = evidence.demand_evidence(ix.services, workspace_id=workspace_id, case_id=case_id, description=what,
                                          demanded_of=whom, demanded_at=when, actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, DEMAND_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    if not result.newly_recorded:
        ix.later(lambda: ix.tell("That demand was already recorded; it is stored once."))
        return
    refresh_card(ix.services, case)
    demand = result.demand
    text = (f":page_facing_up: *Documentary evidence demanded* by {mention(ix.user_id)} ({cites(case).evidence}): "
            f"“{esc(demand.description)}” — of {esc(demand.demanded_of)}, {denver(demand.demanded_at)}. "
            f"{len(result.summary.outstanding)} demand{'s' if len(result.summary.outstanding) != 1 else ''} "
            "outstanding.")
    post_in_thread(ix.services, case, text, blocks=[section(text, accessory=production_button(demand)),
                                                    context(versions_text(result.summary))])


# ------------------------------------------------------------------ what was produced
def open_production(ix: Interaction) -> None:
    demand = evidence.demand_view(ix.services, workspace_id=ix.member.workspace_id,
                                  demand_id=int(ix.body["actions"][0]["value"]))
    if not demand.outstanding:
        raise UserError(words(f"What was produced for this demand was already recorded ({denver(demand.produced_at)}, "
                              "by ", Person(demand.recorded_by), f"): “{demand.produced or ''}”."))
    case = cases.case_view(ix.services, demand.case_id, workspace_id=ix.member.workspace_id)
    open_modal(ix, production_modal(demand, contest=case.contest, now=ix.services.now(),
                                    cited=cites(case).evidence),
               "click *Record what was produced*")


@as_one_unit
def submit_production(ix: Interaction) -> None:
    state = ix.body["view"].get("state", {})
    demand_id = int(metadata_of(ix.body["view"])["d"])
    produced = typed(state, Block.EVIDENCE_PRODUCED)
    when = moment_picked(state, Block.EVIDENCE_PRODUCED_AT)
    errors = {}
    if not produced:
        errors[Block.EVIDENCE_PRODUCED.value] = "Say what was produced."
    if when is None:
        errors[Block.EVIDENCE_PRODUCED_AT.value] = "Say when it was produced."
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    workspace_id = ix.member.workspace_id
    try:
        result = evidence.record_production(ix.services, workspace_id=workspace_id, demand_id=demand_id,
                                            produced=produced, produced_at=when, actor=ix.user_id)
    except UserError as exc:
        field_errors(ix, exc, PRODUCTION_FIELDS)
        return
    ix.ack()
    case = cases.case_view(ix.services, result.demand.case_id, workspace_id=workspace_id)
    after_modal(ix, case)
    if not result.newly_recorded:
        ix.later(lambda: ix.tell("That was already recorded as produced; nothing changed."))
        return
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, production_text(case, result, ix.user_id))


def production_text(case: CaseView, result: evidence.EvidenceRecorded, actor: str) -> str:
    demand, summary = result.demand, result.summary
    left = len(summary.outstanding)
    return (f":inbox_tray: *Evidence produced* for the demand “{esc(demand.description)}” "
            f"(of {esc(demand.demanded_of)}, "
            f"{denver(demand.demanded_at)}): “{esc(demand.produced or '')}”, {denver(demand.produced_at)}; recorded by "
            f"{mention(actor)} ({cites(case).evidence}). {left} demand{'s' if left != 1 else ''} outstanding.\n"
            f"{versions_text(summary)}")
