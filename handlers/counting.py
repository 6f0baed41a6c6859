"""The card's "Start counting" button.

A requested recount starts only when (2)(b)(I)-(IV) are all done: otherwise the person is told, privately,
every step still missing with its citation, and nothing changes. An automatic recount has no such list:
the designated election official orders it and the governing body pays (1). Starting is recorded once;
a second click (or a colleague's) is told when and by whom it had started.
"""
from __future__ import annotations

from handlers.blocks.common import day, denver, esc
from handlers.blocks.law_cites import cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.ids import Action
from handlers.interaction import Interaction
from handlers.registry import Registry
from handlers.slack_text import mention
from rules.money import format_money
from services.conduct import cases, counting
from services.conduct.cases import CaseView
from services.conduct.counting import CountingBlocked
from storage.models import Role


def register(registry: Registry) -> None:
    registry.action(Action.START_COUNTING.value, needs=Role.STAFF)(start_counting)


def blocked_text(blocked: CountingBlocked) -> str:
    missing = blocked.decision.numbers.get("missing") or []
    steps = "\n".join(f"• *{m['item']}* {esc(m['what'])} — {m['citation']}" for m in missing)
    return (f":no_entry: Counting cannot start yet: before a requested recount the designated election official "
            f"must do four things ({blocked.decision.citation}); {len(missing)} of 4 "
            f"{'is' if len(missing) == 1 else 'are'} not done:\n{steps}\nNothing was recorded.")


@as_one_unit
def start_counting(ix: Interaction) -> None:
    case_id = int(ix.body["actions"][0]["value"])
    workspace_id = ix.member.workspace_id
    try:
        started = counting.start_counting(ix.services, workspace_id=workspace_id, case_id=case_id, actor=ix.user_id)
    except CountingBlocked as blocked:
        ix.tell(blocked_text(blocked))
        return
    case = cases.case_view(ix.services, case_id, workspace_id=workspace_id)
    if not started:
        ix.tell(f"Counting had already started: {denver(case.counting_started_at)}, by "
                f"{mention(case.counting_started_by)}. Nothing changed.")
        return
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, started_text(case))


def started_text(case: CaseView) -> str:
    text = (f":arrow_forward: *Counting began* {denver(case.counting_started_at)}, started by "
            f"{mention(case.counting_started_by)}.")
    if case.requested:
        money = case.money
        text += (f" All four steps before a requested recount are done ({cites(case).pre_count}): notice given, cost "
                 f"{format_money(money.cost_determined)} determined and notified, {format_money(money.paid)} "
                 f"collected and held for the recount's expenses ({cites(case).payment}).")
        name = "requested_recount_deadline"
    else:
        payer = cites(case).law.automatic_payer
        text += f" Ordered by the designated election official; {payer.who} pays ({payer.provision.citation})."
        name = "automatic_recount_deadline"
        if case.notices_outstanding:
            text += (f"\n:warning: {case.notices_outstanding} notice(s) of the recount owed under {cites(case).notice} are "
                     "not recorded as given: affected candidates and issue committees may be present and observe.")
    deadline = case.deadline(name)
    if deadline is not None:
        text += f"\nComplete no later than *{day(deadline.due_date)}*" + (" (estimate)" if deadline.estimated else "") \
            + f" ({deadline.citation})."
    observers = cites(case).law.notice.observers
    return text + (f"\n{observers[:1].upper()}{observers[1:]} may be present and observe ({cites(case).notice}). Tally on "
                   f"sheets other than those used at the election ({cites(case).tally}).")
