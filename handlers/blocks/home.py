"""The App Home tab and the `/recount deadlines` list, from `services.office.dashboard`."""
from __future__ import annotations

from handlers.blocks.common import context, day, divider, esc, header, section
from rules.laws import LAWS
from services.office.dashboard import Dashboard, DeadlineItem

MAX_ITEMS = 25


def deadline_line(d: DeadlineItem) -> str:
    when = ("today" if d.days_left == 0 else f"in {d.days_left} day{'s' if d.days_left != 1 else ''}"
            if d.days_left > 0 else f"{-d.days_left} day{'s' if d.days_left != -1 else ''} ago")
    held = f" · held under {esc(d.law)}" if d.law else ""
    return f"*{day(d.due)}* ({when}) — {esc(d.subject)}: {esc(d.what)} _({d.citation})_{held}"


def deadline_blocks(board: Dashboard) -> list[dict]:
    if not board.deadlines:
        return [section("No deadlines in the next 60 days.")]
    lines = [deadline_line(d) for d in board.deadlines[:MAX_ITEMS]]
    blocks = [section("\n".join(lines))]
    if len(board.deadlines) > MAX_ITEMS:
        blocks.append(context(f"{len(board.deadlines) - MAX_ITEMS} more not shown."))
    return blocks


def home_view(board: Dashboard, *, role: str | None) -> dict:
    blocks = [header(f"recount-bot — {board.office}"),
              context(f"Your role: {role or 'none (ask a designated election official)'} · each election under its "
                      f"own recount law ({', '.join(LAWS[k].citation for k in LAWS)})")]
    if role is None:
        blocks.append(section("You have no role in this office's recount-bot yet. A designated election official "
                              "can grant one with `/recount admin role @you staff`."))
        return {"type": "home", "blocks": blocks}
    blocks += [divider(), section("*Waiting on you*")]
    blocks.append(section("\n".join(f"• {esc(w)}" for w in board.waiting_on_you[:MAX_ITEMS]) if board.waiting_on_you
                          else "Nothing right now."))
    blocks += [divider(), section("*Open recount cases*")]
    open_cases = [c for c in board.cases if c.status != "completed"]
    if not open_cases:
        blocks.append(section("No open cases. `/recount check` tests the latest survey of returns."))
    for case in open_cases[:MAX_ITEMS]:
        due = f" · complete by *{day(case.due)}*" if case.due else ""
        notices = f" · {case.notices_outstanding} notice(s) outstanding" if case.notices_outstanding else ""
        blocks.append(section(f"#{case.id} *{esc(case.contest)}* — {case.kind} recount{due}\n{esc(case.progress)}"
                              f"{notices}"))
    blocks += [divider(), section("*Coming deadlines*"), *deadline_blocks(board)]
    return {"type": "home", "blocks": blocks[:100]}
