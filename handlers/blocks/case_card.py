"""The recount case's card: deadline, notices owed under (1) with buttons, observers' right and links."""
from __future__ import annotations

from handlers.blocks.common import (
    MESSAGE_BLOCKS_LIMIT,
    button,
    context,
    day,
    denver,
    divider,
    esc,
    fields_section,
    header,
    section,
)
from handlers.blocks.completion_section import completion_section
from handlers.blocks.conduct_section import conduct_section
from handlers.blocks.conflicts import conflict_blocks
from handlers.blocks.observers_section import observers_section
from handlers.blocks.requested_case import action_buttons, checklist_block, money_blocks, request_fields
from handlers.blocks.waiver_modal import waived_line
from handlers.ids import Action
from handlers.slack_text import mention
from rules.laws import DEFAULT_LAW, LawProfile
from services.conduct.cases import CaseView, NoticeView

RECIPIENT_LABEL = {"governing_body": "Governing body", "candidate": "Candidate", "issue_committee": "Issue committee"}


def _deadline_text(case: CaseView) -> str:
    if case.waiver is not None:
        return f"—: not held, waived ({case.waiver.citation})"
    name = "automatic_recount_deadline" if case.kind == "automatic" else "requested_recount_deadline"
    deadline = case.deadline(name)
    if deadline is None:
        return "—"
    text = f"*{day(deadline.due_date)}*"
    if deadline.estimated:
        text += " (estimate)"
    if deadline.rolled_from:
        text += f"\nrolled from {day(deadline.rolled_from)}"
    if deadline.falls_on:
        text += f"\n:warning: falls on {esc(deadline.falls_on)}: finish by the business day before"
    return text + f"\n{deadline.citation}"


def _notice_line(notice: NoticeView) -> str:
    who = f"*{RECIPIENT_LABEL.get(notice.recipient_kind, notice.recipient_kind)}:* {esc(notice.recipient_name)}"
    if not notice.given:
        return f":hourglass_flowing_sand: {who} — not yet given"
    recorded = f" · recorded by {mention(notice.recorded_by)}" if notice.recorded_by else ""
    details = f" ({esc(notice.details)})" if notice.details else ""
    return (f":white_check_mark: {who} — given by {esc(notice.given_by or '')} by {esc(notice.method or '')}"
            f"{details}, {denver(notice.given_at)}{recorded}")


def notice_block(notice: NoticeView) -> dict:
    if notice.given:
        return section(_notice_line(notice))
    return section(_notice_line(notice), accessory=button("Record notice", Action.RECORD_NOTICE.value, str(notice.id)))


def _automatic_head(case: CaseView) -> list[dict]:
    verdict = case.verdict
    margin = verdict.get("margin")
    return [
        fields_section([
            f"*Election*\n{esc(case.election)} ({day(case.election_date)})",
            f"*Local government*\n{esc(case.local_government)}",
            f"*Margin*\n{margin:,} votes (triggers at ≤ {verdict.get('max_margin_for_recount', 0):,})"
            if margin is not None else "*Margin*\n—",
            f"*Complete no later than*\n{_deadline_text(case)}",
            f"*Status*\n{case.status}",
            f"*Paid for by*\n{esc(_law(case).automatic_payer.who)} ({_law(case).automatic_payer.provision.citation})",
        ]),
        section(f"{esc(verdict.get('reason', ''))}"),
        context(f"*{verdict.get('citation', '')}* · Reading: {esc(verdict.get('rule') or '')}"),
        _automatic_counting(case),
    ]


def _automatic_counting(case: CaseView) -> dict:
    """(1): the designated election official orders the recount; there is no (2)(b) list to wait for. Under
    1-10.5-103 the referring subdivision may waive it first: the card then says so, and offers nothing to count."""
    if case.waiver is not None:
        return section(f":no_entry: *{waived_line(case.waiver)}* The recount is not held.")
    if case.counting_started_at is not None:
        return section(f"*Counting began* {denver(case.counting_started_at)} ({mention(case.counting_started_by)})")
    outstanding = case.notices_outstanding
    warning = (f" {outstanding} notice{'s' if outstanding != 1 else ''} below {'are' if outstanding != 1 else 'is'} "
               "not yet recorded as given: affected candidates and issue committees may be present and observe."
               if outstanding else "")
    return {"type": "actions", "elements": [
        button("Start counting", Action.START_COUNTING.value, str(case.id), style="primary", confirm={
            "title": {"type": "plain_text", "text": "Start counting?"},
            "text": {"type": "mrkdwn", "text": "The designated election official orders this recount; "
                                               f"{esc(_law(case).automatic_payer.who)} pays "
                                               f"({_law(case).automatic_payer.provision.citation}).{warning}"},
            "confirm": {"type": "plain_text", "text": "Start"}, "deny": {"type": "plain_text", "text": "Not yet"}}),
        *([button("Record waiver", Action.RECORD_WAIVER.value, str(case.id))] if case.waiver_offered else []),
    ]}


def _law(case: CaseView) -> LawProfile:
    return case.law.profile if case.law is not None else DEFAULT_LAW


def _requested_payer(case: CaseView) -> str:
    law = _law(case)
    if law.key == DEFAULT_LAW.key:
        return ("*Paid for by*\nthe requester (C.R.S. 1-13.5-1306(2)(a)); refunded under (2)(d) if the result is "
                "reversed in their favor or the amended count falls within (1)")
    return (f"*Paid for by*\nthe requester ({law.payment.provision.citation}); refunded under "
            f"{law.refund.citation} as that law provides")


def _held_under(case: CaseView) -> dict | None:
    """The law the election is held under, named on every card (issue 22)."""
    return context(esc(case.law.held_under)) if case.law is not None else None


def _notices_heading(case: CaseView) -> str:
    law = _law(case)
    if law.key == DEFAULT_LAW.key:
        return f"C.R.S. 1-13.5-1306{'(2)(b)(I) and (1)' if case.requested else '(1)'}"
    cited = list(dict.fromkeys(n.citation for n in case.notices)) or [law.notice.provision.citation]
    return "; ".join(cited)


def _requested_head(case: CaseView) -> list[dict]:
    blocks = [
        fields_section([
            f"*Election*\n{esc(case.election)} ({day(case.election_date)})",
            f"*Local government*\n{esc(case.local_government)}",
            f"*Complete no later than*\n{_deadline_text(case)}",
            f"*Status*\n{case.status}",
            _requested_payer(case),
        ]),
        fields_section(request_fields(case)),
        checklist_block(case),
        *money_blocks(case),
    ]
    buttons = action_buttons(case)
    if buttons:
        blocks.append(buttons)
    return blocks


def case_card(case: CaseView) -> list[dict]:
    kind = "Automatic recount" if case.kind == "automatic" else "Requested recount"
    given = sum(n.given for n in case.notices)
    held = _held_under(case)
    blocks = [
        header(f"{kind}: {case.contest}"),
        *([held] if held else []),
        *conflict_blocks(case.conflicts),
        *(_requested_head(case) if case.requested else _automatic_head(case)),
        # A waived recount is not held: nothing to count or complete.
        *(conduct_section(case) if case.waiver is None else []),
        *(completion_section(case) if case.waiver is None else []),
        divider(),
    ]
    if case.waiver is not None:
        # No recount is held, so the notices of the recount are not owed; what was given stays on the record.
        blocks.append(section(f"*Notices under {_notices_heading(case)}* — not owed: the automatic recount was waived "
                              f"({case.waiver.citation}). {given} of {len(case.notices)} had been given."))
        blocks += observers_section(case)
        blocks.append(context(f"Case #{case.id} · opened {denver(case.opened_at)} by {mention(case.opened_by)} · "
                              f"survey of returns version {case.returns_version}"))
        return blocks[:MESSAGE_BLOCKS_LIMIT]
    blocks.append(section(f"*Notices owed under {_notices_heading(case)}* — {given} of {len(case.notices)} given. "
                          "Notice must be given by any means reasonably expected to notify."))
    room = MESSAGE_BLOCKS_LIMIT - len(blocks) - 5  # below: up to 2 notes, the observers (2), the case line
    outstanding = [n for n in case.notices if not n.given]
    done = [n for n in case.notices if n.given]
    # Outstanding notices keep their buttons; if there are too many to show, given ones are summarised.
    shown = outstanding[:room]
    blocks += [notice_block(n) for n in shown]
    if len(outstanding) > len(shown):
        blocks.append(context(f"{len(outstanding) - len(shown)} more outstanding notices do not fit in one Slack "
                              "message; they are listed in the case's thread."))
    space = MESSAGE_BLOCKS_LIMIT - len(blocks) - 4
    if done and space >= len(done):
        blocks += [notice_block(n) for n in done]
    elif done:
        blocks.append(section("\n".join(_notice_line(n) for n in done)))
    if case.contest_kind == "question" and not any(n.recipient_kind == "issue_committee" for n in case.notices):
        blocks.append(section(":warning: No issue committee is recorded for this ballot question. Any committee "
                              "affected by the result is owed notice: add it with `/recount committee`."))
    blocks += observers_section(case)
    blocks.append(context(f"Case #{case.id} · opened {denver(case.opened_at)} by {mention(case.opened_by)} · survey of "
                          f"returns version {case.returns_version}"))
    return blocks[:MESSAGE_BLOCKS_LIMIT]


def case_text(case: CaseView) -> str:
    kind = "Automatic recount" if case.kind == "automatic" else "Requested recount"
    if case.waiver is not None:
        return f"{kind}: {esc(case.contest)} — waived under {case.waiver.citation}."
    outstanding = case.notices_outstanding
    return f"{kind}: {esc(case.contest)} — {outstanding} notice{'s' if outstanding != 1 else ''} outstanding."
