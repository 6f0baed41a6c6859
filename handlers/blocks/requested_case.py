"""The parts of a case card only a requested recount has: the request, the (2)(b) checklist, the money."""
from __future__ import annotations

from handlers.blocks.common import button, context, day, denver, esc, fields_section, section
from handlers.blocks.law_cites import cites
from handlers.ids import Action
from handlers.slack_text import mention
from rules.laws.profile import Part
from rules.money import format_money
from rules.requests import favored_label
from services.conduct.cases import CaseView
from services.conduct.money import received_on_of

# Every kind of interested party a law names (rules.parties), as a clerk writes it after a name.
PARTY_LABEL = {"eligible_elector": "eligible elector", "candidate": "candidate", "issue_committee": "issue committee",
               "petition_representative": "petition representative",
               "political_party": "political party or political organization of a candidate",
               "governing_body": "governing body that referred the measure"}
CHECK_LABEL = {
    "(2)(b)(I)": "Notice of the recount given as (1) requires",
    "(2)(b)(II)": "Cost of the recount determined",
    "(2)(b)(III)": "Requester notified of the cost",
    "(2)(b)(IV)": "Cost collected from the requester",
}


def request_fields(case: CaseView) -> list[str]:
    request = case.request
    if request is None:
        return []
    return [
        f"*Requested by*\n{esc(request.requester_name)} ({PARTY_LABEL.get(request.party_kind, request.party_kind)})",
        f"*In favor of*\n{esc(favored_label(request.in_favor_of))}",
        f"*Written request received*\n{day(request.received_on)} · ref. {esc(request.received_reference)}",
        f"*Approved by*\n{mention(request.decided_by)}: {esc(request.decision_note or '')}" if request.decided_by
        else "*Approved by*\n—",
    ]


# Under a law that lists the four steps in one provision (31-10-1207(2), 1-10.5-106(2)) rules.checklist names a
# missing step "<provision> <step>"; its (2)(b) numeral here, longest name first ("cost notice" before "notice").
_STEP_NUMERAL = (("cost notice", "(2)(b)(III)"), ("collection", "(2)(b)(IV)"), ("notice", "(2)(b)(I)"),
                 ("cost", "(2)(b)(II)"))


def _step_of(item: str) -> str:
    if item in CHECK_LABEL:
        return item
    return next((numeral for name, numeral in _STEP_NUMERAL if item.endswith(" " + name)), item)


def checklist_block(case: CaseView) -> dict:
    missing = {_step_of(m["item"]) for m in (case.checklist.numbers.get("missing", []) if case.checklist else [])}
    under_1306 = case.law is None or case.law.key == "1-13.5-1306"
    lines = []
    for item, label in CHECK_LABEL.items():
        mark = ":hourglass_flowing_sand:" if item in missing else ":white_check_mark:"
        lines.append(f"{mark} {item} {label}" if under_1306 else f"{mark} {label}")
    # The steps are 1-13.5-1306(2)(b)'s; under another law the card names its own provision for them.
    law = case.law.profile if case.law is not None else None
    cited = law.cite(Part.PRE_COUNT) if law is not None and law.key != "1-13.5-1306" else "C.R.S. 1-13.5-1306(2)(b)"
    head = (f"*Before counting, {cited}:* ready to count" if not missing
            else f"*Before counting, {cited}:* {len(missing)} of 4 steps outstanding")
    if case.counting_started_at:
        head = f"*Counting began* {denver(case.counting_started_at)} ({mention(case.counting_started_by)})"
    return section(head + "\n" + "\n".join(lines))


def money_blocks(case: CaseView) -> list[dict]:
    money = case.money
    if money is None:
        return []
    cost = format_money(money.cost_determined) if money.cost_determined is not None else "not determined"
    notified = "—"
    if money.cost_notices:
        latest = money.cost_notices[-1]
        stale = "" if money.requester_notified_of_current_cost else " (of an earlier cost: notify the new one)"
        notified = f"{format_money(latest.cost)} by {esc(latest.method)}, {denver(latest.notified_at)}{stale}"
    paid = format_money(money.paid)
    if money.cost_determined is not None and money.paid > money.cost_determined:
        paid += f"\n{format_money(money.paid - money.cost_determined)} more than the cost"
    due = format_money(money.due) if money.cost_determined is not None else "—"
    if money.cost_determined is not None and money.due:
        due = f"*{due}*"
    c = cites(case)
    short = c.law.short  # "(2)(b)(II)" under 1306; another law's provision whole ("C.R.S. 31-10-1207(2)")
    blocks = [fields_section([
        f"*Cost determined* {short(c.cost)}\n{cost}",
        f"*Requester notified* {short(c.cost_notice)}\n{notified}",
        f"*Paid* {short(c.collection)}\n{paid}",
        f"*Due*\n{due}",
        f"*Held for expenses* {short(c.payment)}\n{format_money(money.held)}",
    ])]
    notes = []
    if money.cost_items:
        notes.append("Cost: " + esc("; ".join(money.cost_items)))
    payments = [line for line in money.lines if line.kind == "payment"]
    if payments:
        notes.append("Payments: " + esc("; ".join(
            f"{format_money(p.amount)} by {p.details.get('method', '')}, ref. {p.details.get('reference', '')}, "
            f"received by {p.details.get('received_by', '')} on {received_on_of(p.details, p.recorded_at):%Y-%m-%d}"
            for p in payments)))
    if notes:
        blocks.append(context(*notes))
    return blocks


def action_buttons(case: CaseView) -> dict | None:
    """What can be done next; nothing once counting has begun (the cost, its notice and the payment before
    the recount can no longer change). A cost notice and a payment follow a determined cost."""
    if case.counting_started_at is not None:
        return None
    money = case.money
    determined = money is not None and money.cost_determined is not None
    elements = [button("Redetermine cost" if determined else "Determine cost", Action.DETERMINE_COST.value,
                       str(case.id))]
    if determined and not money.requester_notified_of_current_cost:
        elements.append(button("Record cost notice", Action.RECORD_COST_NOTICE.value, str(case.id)))
    if determined:
        elements.append(button("Record payment", Action.RECORD_PAYMENT.value, str(case.id)))
    elements.append(
        button("Start counting", Action.START_COUNTING.value, str(case.id), style="primary", confirm={
            "title": {"type": "plain_text", "text": "Start counting?"},
            "text": {"type": "mrkdwn", "text": "Counting may begin only when (2)(b)(I)-(IV) are all done. "
                                               "The bot checks before it records the start."},
            "confirm": {"type": "plain_text", "text": "Start"}, "deny": {"type": "plain_text", "text": "Not yet"}}))
    return {"type": "actions", "elements": elements}
