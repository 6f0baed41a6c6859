"""The card of a recount request (1306(2)(a)) in the approvals channel: the request's facts, the statute
core's reason and citation, the request window, and Approve / Reject until it is decided. Pure builders."""
from __future__ import annotations

import datetime as dt

from handlers.blocks.common import (
    MESSAGE_BLOCKS_LIMIT,
    button,
    context,
    day,
    denver,
    esc,
    fields_section,
    header,
    section,
)
from handlers.blocks.conflicts import conflict_blocks
from handlers.blocks.requested_case import PARTY_LABEL
from handlers.ids import Action
from handlers.slack_text import mention
from rules.requests import favored_label
from services.requests.views import RequestView

STATUS_LABEL = {"pending": ":hourglass_flowing_sand: awaiting a decision", "approved": ":white_check_mark: approved",
                "rejected": ":no_entry_sign: rejected", "withdrawn": ":leftwards_arrow_with_hook: withdrawn by the requester"}
WHO_DECIDES = ("A designated election official or a delegated approver decides; neither the requester nor whoever "
               "entered the request may decide it (unless no one else in the office may: the official then records "
               "why). Discuss it in this thread.")


def _window(request: RequestView) -> str:
    numbers = request.evaluation.get("numbers", {})
    deadline = numbers.get("deadline")
    if not deadline:
        return "*Request window*\n—"
    text = f"*Request window closes*\n{day(dt.date.fromisoformat(deadline))}"
    if numbers.get("rolled_from"):
        text += f" (moved from {day(dt.date.fromisoformat(numbers['rolled_from']))})"
    return text + f"\n{esc(numbers.get('deadline_citation') or request.evaluation.get('citation', ''))}"


def _requester(request: RequestView) -> str:
    party = PARTY_LABEL.get(request.party_kind, request.party_kind)
    slack = f" · {mention(request.requester_slack_user)}" if request.requester_slack_user else ""
    return f"*Requested by*\n{esc(request.requester_name)} ({party}){slack}"


def decision_line(request: RequestView) -> str:
    when = f", {denver(request.decided_at)}" if request.decided_at else ""
    if request.status == "withdrawn":
        return (f":leftwards_arrow_with_hook: *Withdrawn by the requester*, recorded by {mention(request.decided_by)}"
                f"{when}: {esc(request.decision_note or '')}")
    verb = "Approved" if request.status == "approved" else "Rejected"
    icon = ":white_check_mark:" if request.status == "approved" else ":no_entry_sign:"
    return f"{icon} *{verb}* by {mention(request.decided_by)}{when}: {esc(request.decision_note or '')}"


def _evaluation_line(request: RequestView) -> str:
    """The statute core's check of the request when it was entered. Its words "Accepted: ..." say the request is
    valid under the law; only once the office approved it may the card read as if it had been accepted: while it
    waits for a decision, and once rejected or withdrawn, it says what the check found."""
    reason = request.evaluation.get("reason", "")
    if reason.startswith("Accepted: ") and request.status != "approved":
        found = ("When entered, the request met the statute's conditions: "
                 if request.status in ("rejected", "withdrawn") else "The request meets the statute's conditions: ")
        reason = found + reason.removeprefix("Accepted: ")
    return esc(reason)


def request_card(request: RequestView) -> list[dict]:
    evaluation = request.evaluation
    blocks = [
        header(f"Recount request: {request.contest}"),
        fields_section([
            _requester(request),
            f"*Contact*\n{esc(request.requester_contact)}",
            f"*In favor of*\n{esc(favored_label(request.in_favor_of))}",
            f"*Written request received*\n{day(request.received_on)} · ref. {esc(request.received_reference)}",
            f"*Election*\n{esc(request.election)} ({day(request.election_date)})",
            _window(request),
            f"*Entered by*\n{mention(request.entered_by)}, {denver(request.entered_at)}",
            f"*Status*\n{STATUS_LABEL.get(request.status, request.status)}",
        ]),
        *conflict_blocks(request.conflicts),
        section(_evaluation_line(request)),
        context(f"*{esc(evaluation.get('citation', ''))}*"
                + (f" · Reading: {esc(evaluation['reading'])}" if evaluation.get("reading") else "")),
    ]
    if request.status == "pending":
        blocks.append({"type": "actions", "elements": [
            button("Approve", Action.APPROVE_REQUEST.value, str(request.id), style="primary"),
            button("Reject", Action.REJECT_REQUEST.value, str(request.id), style="danger"),
            button("Record withdrawal", Action.WITHDRAW_REQUEST.value, str(request.id)),
        ]})
        blocks.append(context(WHO_DECIDES))
    else:
        blocks.append(section(decision_line(request)))
        if request.decision_reading:
            blocks.append(context(f"Decided under the reading {esc(request.decision_reading)}"))
        if request.case_id is not None:
            blocks.append(context(f"Recount case #{request.case_id} opened; its card is linked in this thread."))
    blocks.append(context(f"Request #{request.id}"))
    return blocks[:MESSAGE_BLOCKS_LIMIT]


def request_text(request: RequestView) -> str:
    party = PARTY_LABEL.get(request.party_kind, request.party_kind)
    status = {"pending": "awaiting a decision"}.get(request.status, request.status)
    return f"Recount request: {esc(request.contest)} — {esc(request.requester_name)} ({party}), {status}."
