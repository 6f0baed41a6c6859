"""The lot for a tie the completed recount did not break (1-13.5-1304), from the case card: "Record the lot" opens
the modal (the official's: the canvass board's drawing, certified by the designated election official); the
modal records it (services.completion.lot). The thread then gets the drawing's record, the amended notice of the results
(6) ready to send, and the certificate of election for the winner of the lot with its link and PDF.

A second click or a retried submission records nothing more and says what was recorded.
"""
from __future__ import annotations

from handlers.blocks.common import denver
from handlers.blocks.law_cites import cites
from handlers.blocks.lot_modal import TIED_SHOWN, lot_modal
from handlers.blocks.lot_report import lot_blocks, lot_result, lot_text
from handlers.blocks.recount_report import (
    certificate_link_line,
    results_notice_blocks,
    results_notice_letter,
    results_notice_text,
)
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.completion import upload_certificates
from handlers.cost import letter_signer
from handlers.ids import Action, Block, View
from handlers.interaction import Interaction, field_errors
from handlers.registry import Registry
from handlers.slack_text import mention
from handlers.view_state import metadata_of, moment_picked, selected, typed, value_of
from rules.conflicts import CaseStep
from rules.lot import CandidateNotice
from services.completion import lot as lots
from services.completion.certificates import certificate_link
from services.conduct import cases
from services.errors import UserError
from services.office import conflicts
from storage.models import Role

FIELDS = {"drawn_at": Block.LOT_DRAWN_AT, "place": Block.LOT_PLACE, "conducted_by": Block.LOT_CONDUCTED_BY,
          "witnesses": Block.LOT_WITNESSES, "method": Block.LOT_METHOD, "method_details": Block.LOT_METHOD_DETAILS,
          "winners": Block.LOT_WINNERS}


def register(registry: Registry) -> None:
    registry.action(Action.RECORD_LOT.value, needs=Role.OFFICIAL, changes_state=False)(open_lot)
    registry.view(View.LOT.value, needs=Role.OFFICIAL)(submit_lot)


def already_recorded(case: cases.CaseView) -> str:
    lot = case.completion.lot
    return (f"The lot for this tie was already recorded by {mention(lot.recorded_by)} ({denver(lot.recorded_at)}): "
            f"{lot_result(lot)}. Nothing changed ({cites(case).tie}).")


def open_lot(ix: Interaction) -> None:
    workspace_id = ix.member.workspace_id
    case = cases.case_view(ix.services, int(ix.body["actions"][0]["value"]), workspace_id=workspace_id)
    if case.completion is not None and case.completion.lot is not None:
        ix.tell(already_recorded(case))
        return
    conflicts.check_case_step(ix.services, workspace_id=workspace_id, case_id=case.id, actor=ix.user_id,
                              step=CaseStep.CERTIFY)  # a candidate or the requester is told who may, first
    tie = lots.lot_owed(ix.services, workspace_id=workspace_id, case_id=case.id)
    if tie is None:
        ix.tell(f"This recount left no tie to decide by lot ({cites(case).tie}); nothing to record.")
        return
    ix.client.views_open(trigger_id=ix.trigger_id, view=lot_modal(case, tie, now=ix.services.now()))


def _winners(state: dict, tied: tuple[str, ...]) -> tuple[str, ...]:
    element = value_of(state, Block.LOT_WINNERS)
    chosen = [o.get("value") for o in element.get("selected_options") or []]
    if element.get("selected_option"):
        chosen.append(element["selected_option"].get("value"))
    # An option's value is the candidate's position in the tie; anything else is no candidate of this tie.
    return tuple(tied[int(v)] if (v or "").isdigit() and int(v) < len(tied) else f"(option {v})" for v in chosen)


@as_one_unit
def submit_lot(ix: Interaction) -> None:
    view = ix.body["view"]
    state = view.get("state", {})
    case_id = int(metadata_of(view)["case_id"])
    workspace_id = ix.member.workspace_id
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    if case.completion is not None and case.completion.lot is not None:  # a retry, a second modal
        ix.ack()
        ix.channel_id = case.channel_id or ix.channel_id
        ix.tell(already_recorded(case))
        return
    tie = lots.lot_owed(ix.services, workspace_id=workspace_id, case_id=case_id)
    if tie is None:
        raise UserError(f"This recount left no tie to decide by lot ({cites(case).tie}); nothing was recorded.")
    tied = tie.tied[:TIED_SHOWN]
    text = {name: typed(state, block) for name, block in FIELDS.items()
            if name in ("place", "conducted_by", "witnesses", "method_details")}
    drawn_at = moment_picked(state, Block.LOT_DRAWN_AT)
    method = selected(state, Block.LOT_METHOD) or ""
    winners = _winners(state, tied)
    errors = {}
    for name, message in (("place", "Say where the lot was drawn."),
                          ("conducted_by", f"Say who drew the lot ({cites(case).law.tie.drawn_by})."),
                          ("witnesses", "Say who witnessed the drawing.")):
        if not text[name]:
            errors[FIELDS[name].value] = message
    if drawn_at is None:
        errors[Block.LOT_DRAWN_AT.value] = "Say when the lot was drawn."
    if not method:
        errors[Block.LOT_METHOD.value] = "Choose how the lot was drawn."
    if not winners:
        errors[Block.LOT_WINNERS.value] = "Choose who won the lot."
    notices = []
    for index, name in enumerate(tied):
        at_block = f"{Block.LOT_NOTICE_AT_PREFIX.value}{index}"
        how_block = f"{Block.LOT_NOTICE_METHOD_PREFIX.value}{index}"
        given_at, how = moment_picked(state, at_block), selected(state, how_block) or ""
        if given_at is None:
            errors[at_block] = f"Say when {name} was given notice of the drawing."
        if not how:
            errors[how_block] = f"Choose how {name} was given notice."
        if given_at is not None and how:
            notices.append(CandidateNotice(name, given_at, how))
    if errors:
        ix.ack(response_action="errors", errors=errors)
        return
    data = lots.LotInput(drawn_at=drawn_at, place=text["place"], conducted_by=text["conducted_by"],
                         witnesses=text["witnesses"], method=method, method_details=text["method_details"] or None,
                         winners=winners, notices=tuple(notices))
    try:
        recorded = lots.record_lot(ix.services, workspace_id=workspace_id, case_id=case_id, data=data,
                                   actor=ix.user_id)
    except UserError as exc:  # a refusal about the notices goes on the first tied candidate's
        field_errors(ix, exc, {**FIELDS, **({"notices": f"{Block.LOT_NOTICE_AT_PREFIX.value}0"} if tied else {})})
        return
    ix.ack()
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    ix.channel_id = case.channel_id or ix.channel_id
    if not recorded.newly_recorded:
        ix.tell(already_recorded(case))
        return
    announce_lot(ix, case, recorded.tokens)


def announce_lot(ix: Interaction, case: cases.CaseView, tokens: dict[int, str]) -> None:
    """The card shows the lot; the thread gets its record, the amended notice of the results and the certificate."""
    services, view = ix.services, case.completion
    refresh_card(services, case)
    post_in_thread(services, case, lot_text(case), blocks=lot_blocks(case, view))
    letter = results_notice_letter(case, view, today=services.today(), signer=letter_signer(ix))
    post_in_thread(services, case, results_notice_text(case, view), blocks=results_notice_blocks(case, view, letter))
    made = tuple(c for c in view.certificates if c.id in tokens)
    lines = [certificate_link_line(c, certificate_link(tokens[c.id])) for c in made]
    post_in_thread(services, case,
                   f":scroll: *Certificate of election* ({cites(case).certificate}) for the winner of the lot ({cites(case).tie}). "
                   "Print, sign as the designated election official and deliver it; then press *Record delivery* on "
                   "the card.\n" + "\n".join(lines)
                   + "\nAn expired link answers 410 Gone: press *New link* on the card for a fresh one.")
    if made:
        ix.later(lambda: upload_certificates(ix, case, made))

