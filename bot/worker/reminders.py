"""Deadline reminders: which deadlines are live, their reminder rows, and turning due ones into outbox posts.

Reminders are rows, so they survive restarts; `queue_due` claims due rows, writes their posts to the outbox and
marks them queued in one transaction, so each is sent exactly once however many workers run. Several workers on
PostgreSQL take turns (`take_turn`, a transaction-scoped advisory lock): two `sync`s at once would each find a new
deadline without reminders and both add them, and a `sync` beside a `queue_due` would both add the next daily
reminder, so each would be sent twice. SQLite's single writer already takes turns. Reminders missed while no
worker ran are sent once when one returns, marked late; several missed reminders of one deadline are folded into the latest one's post.
"""
from __future__ import annotations

import datetime as dt
import re

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from handlers.slack_io.outbox import enqueue
from handlers.slack_text import esc
from rules.calendar import DENVER
from rules.duties import DUTIES_READING, summary_lines
from rules.money import format_money
from rules.reminders import ReminderKind, next_overdue, schedule
from services.completion.view import chunks
from services.conduct.duties import duties_of_case
from services.conduct.money import money_view
from services.office.deadlines import DUTIES_OWED, LABEL, LiveDeadline, live_deadlines, read_live
from services.office.office_settings import OfficeSettings
from storage.models import (
    Election,
    Membership,
    RecountCase,
    Reminder,
    ReminderStatus,
    Role,
    Workspace,
)

LATE_AFTER = dt.timedelta(minutes=30)
POLL_LIMIT = 200
SLACK_USER = re.compile(r"^[UW][A-Z0-9]{2,}$")
ADVISORY_LOCK_KEY = 0x52454D44  # "REMD": the reminder schedule, one worker at a time (storage.audit's is "RCNT")


def take_turn(session: Session) -> None:
    """Wait for the other workers' reminder transactions to end, and hold the schedule until this one does. Taken
    before anything is read, so what this one reads includes what theirs wrote (READ COMMITTED reads afresh at each
    statement). Taking it again in the same transaction is harmless."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK_KEY})


def _slots(deadline: LiveDeadline, settings: OfficeSettings) -> list[tuple[str, int, dt.datetime]]:
    """The reminders owed before the deadline and on its day, from when the deadline came to be."""
    return [(s.kind.value, s.days, s.fire_at) for s in schedule(deadline.due, offsets=settings.reminder_offsets,
                                                                 hour=settings.reminder_hour)
            if s.fire_at > deadline.since]


Live = dict[tuple[int | None, int, str], LiveDeadline]  # (case_id, election_id, name) -> the deadline


def live_of(session: Session, workspace: Workspace, now: dt.datetime) -> Live:
    return {(d.case_id, d.election_id, d.name): d for d in live_deadlines(session, workspace, now)}


def _reminder_rows(session: Session, workspace: Workspace, live: Live) -> list[Reminder]:
    """What `sync` compares with the live deadlines: the office's pending reminders (each to be kept or cancelled)
    and those already sent of the deadlines still live (so none is scheduled twice). The sent reminders of what is
    over are never read: they only grow with the office's history."""
    rows = {r.id: r for r in session.scalars(select(Reminder).where(
        Reminder.workspace_id == workspace.id, Reminder.status == ReminderStatus.PENDING.value))}
    # Looked up by the case (or the election) alone, its statuses sorted here: a condition on the status too
    # would let SQLite, which has no statistics, walk the status index through every reminder ever sent.
    case_ids = [case_id for case_id, _, _ in live if case_id is not None]
    election_ids = [election_id for case_id, election_id, _ in live if case_id is None]
    for chunk in chunks(case_ids):
        rows.update((r.id, r) for r in session.scalars(select(Reminder).where(Reminder.case_id.in_(chunk))))
    for chunk in chunks(election_ids):
        rows.update((r.id, r) for r in session.scalars(select(Reminder).where(Reminder.election_id.in_(chunk)))
                    if r.case_id is None and r.workspace_id == workspace.id)
    return [r for r in rows.values() if r.status != ReminderStatus.CANCELLED.value]


def sync(session: Session, workspace: Workspace, now: dt.datetime) -> tuple[int, Live]:
    """Make the reminders match the live deadlines: a new deadline gets its reminders (those whose time
    passed while no worker ran are created too, and go out late), a moved one is rescheduled, a finished
    one's pending reminders are cancelled. Idempotent: run on every tick. Returns the rows changed, and the live
    deadlines it read (for `queue_due` in the same tick). Completed cases found owing nothing are marked so
    (services/conduct/owed.py): no tick reads them again."""
    take_turn(session)
    settings = OfficeSettings.of(workspace.settings)
    office = read_live(session, workspace, now)
    for case in office.settled:
        case.duties_done = True
    live: Live = {(d.case_id, d.election_id, d.name): d for d in office.deadlines}
    rows = _reminder_rows(session, workspace, live)
    changed = 0
    kept: dict[tuple, list[Reminder]] = {}
    for row in rows:
        key = (row.case_id, row.election_id, row.deadline_name)
        deadline = live.get(key)
        moved = deadline is not None and not deadline.daily and row.due_date != deadline.due
        if row.status == ReminderStatus.PENDING.value and (deadline is None or moved):
            row.status = ReminderStatus.CANCELLED.value  # the step is done, or its date moved
            changed += 1
        elif not moved:
            kept.setdefault(key, []).append(row)
    for key, deadline in live.items():
        mine = kept.get(key, [])
        if deadline.daily:
            if not any(r.status == ReminderStatus.PENDING.value for r in mine):
                last = max((r.fire_at for r in mine), default=deadline.since)
                nxt = next_overdue(deadline.due, last, hour=settings.reminder_hour)
                session.add(Reminder(workspace_id=workspace.id, case_id=deadline.case_id,
                                     election_id=deadline.election_id, deadline_name=deadline.name,
                                     due_date=deadline.due, kind=nxt.kind.value, days=nxt.days, fire_at=nxt.fire_at,
                                     created_at=now))
                changed += 1
            continue
        have = {(r.kind, r.days) for r in mine}
        for kind, days, fire_at in _slots(deadline, settings):
            if (kind, days) not in have:
                session.add(Reminder(workspace_id=workspace.id, case_id=deadline.case_id,
                                     election_id=deadline.election_id, deadline_name=deadline.name,
                                     due_date=deadline.due, kind=kind, days=days, fire_at=fire_at, created_at=now))
                changed += 1
        if deadline.overdue and not _slots(deadline, settings) and not mine:
            nxt = next_overdue(deadline.due, max(now, deadline.since), hour=settings.reminder_hour)
            session.add(Reminder(workspace_id=workspace.id, case_id=deadline.case_id, election_id=deadline.election_id,
                                 deadline_name=deadline.name, due_date=deadline.due, kind=nxt.kind.value,
                                 days=nxt.days, fire_at=nxt.fire_at, created_at=now))
            changed += 1
    session.flush()
    return changed, live


def _recipients(session: Session, workspace_id: int, case: RecountCase | None) -> list[str]:
    officials = session.scalars(select(Membership.slack_user_id).where(
        Membership.workspace_id == workspace_id, Membership.role == Role.OFFICIAL.value)).all()
    people = ([case.opened_by] if case is not None and SLACK_USER.match(case.opened_by or "") else []) + list(officials)
    return list(dict.fromkeys(people))


def _text(row: Reminder, folded: list[Reminder], case: RecountCase | None, election: Election, now: dt.datetime,
          citation: str, session: Session) -> str:
    what = LABEL.get(row.deadline_name, esc(row.deadline_name))
    if row.deadline_name == "payment_pending" and case is not None:
        what += f" ({format_money(money_view(session, case).due)} still due)"
    subject = f"*{esc(case.contest.name)}* (case #{case.id})" if case else f"*{esc(election.name)}*"
    if row.deadline_name == DUTIES_OWED and case is not None:
        lines = summary_lines(duties_of_case(session, case), subject=f"case #{case.id}")
        return (f":alarm_clock: Reminder — {subject}: {LABEL[DUTIES_OWED]} ({row.days} day"
                f"{'s' if row.days != 1 else ''} since it was completed; {citation}):\n"
                + "\n".join(f"• {esc(line)}" for line in lines)
                + f"\n_{esc(DUTIES_READING)}._")
    if row.deadline_name == "payment_pending":
        when = f"{row.days} day{'s' if row.days != 1 else ''} since the cost notice"
    else:
        late_by = (now.astimezone(DENVER).date() - row.due_date).days
        if late_by > 0:  # whatever reminder this was, it goes out after the deadline: say so
            when = f"OVERDUE by {late_by} day{'s' if late_by != 1 else ''}"
        else:
            when = {"before": f"{row.days} day{'s' if row.days != 1 else ''} before",
                    "on_the_day": "due today", "overdue": f"OVERDUE by {row.days} day{'s' if row.days != 1 else ''}"}[
                row.kind]
    text = (f":alarm_clock: Reminder — {subject}: {what} on {row.due_date:%a %Y-%m-%d} ({when}; {citation}).")
    if row.fire_at < now - LATE_AFTER:
        text += (f" _Late: this reminder was due {row.fire_at.astimezone(DENVER):%a %Y-%m-%d %H:%M %Z}, while the "
                 "bot was not running._")
    if folded:
        text += " Also missed meanwhile: " + ", ".join(
            f"the {r.fire_at.astimezone(DENVER):%a %m-%d} reminder" for r in folded) + "."
    return text


def due_query(session: Session, now: dt.datetime, limit: int = POLL_LIMIT):
    """The poll: pending reminders due by `now`, oldest first. It walks the (status, fire_at) index from
    the start of the pending range to `now`, so it reads the due rows, not every pending one
    (benchmarks/reminder_poll.py measures it)."""
    query = (select(Reminder).where(Reminder.status == ReminderStatus.PENDING.value, Reminder.fire_at <= now)
             .order_by(Reminder.fire_at, Reminder.id).limit(limit))
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return query


def queue_due(session: Session, now: dt.datetime, limit: int = POLL_LIMIT, live: dict[int, Live] | None = None) -> int:
    """Turn due reminders into outbox posts (case thread and a DM to each person responsible). `live`: each
    office's live deadlines as `sync` read them this tick; an office's are read here, once, when not given."""
    take_turn(session)
    due = list(session.scalars(due_query(session, now, limit)))
    groups: dict[tuple, list[Reminder]] = {}
    for row in due:
        groups.setdefault((row.case_id, row.election_id, row.deadline_name), []).append(row)
    live = dict(live or {})
    queued = 0
    for rows in groups.values():
        rows.sort(key=lambda r: r.fire_at)
        latest, folded = rows[-1], rows[:-1]
        for row in folded:
            row.status = ReminderStatus.SUPERSEDED.value
        case = session.get(RecountCase, latest.case_id) if latest.case_id else None
        election = session.get(Election, latest.election_id)
        workspace = session.get(Workspace, latest.workspace_id)
        if workspace.id not in live:
            live[workspace.id] = live_of(session, workspace, now)
        deadline = live[workspace.id].get((latest.case_id, latest.election_id, latest.deadline_name))
        if deadline is None:  # done since it was scheduled
            latest.status = ReminderStatus.CANCELLED.value
            continue
        text = _text(latest, folded, case, election, now, deadline.citation, session)
        key = f"reminder:{latest.id}"
        if case is not None and case.channel_id and case.card_ts and not case.card_ts.startswith("posting:"):
            enqueue(session, method="chat.postMessage", workspace_id=workspace.id, dedupe_key=f"{key}:thread", now=now,
                    payload={"channel": case.channel_id, "thread_ts": case.card_ts, "text": text})
        elif case is None and OfficeSettings.of(workspace.settings).approvals_channel:
            enqueue(session, method="chat.postMessage", workspace_id=workspace.id, dedupe_key=f"{key}:channel",
                    now=now, payload={"channel": OfficeSettings.of(workspace.settings).approvals_channel, "text": text})
        for user in _recipients(session, workspace.id, case):
            enqueue(session, method="chat.postMessage", workspace_id=workspace.id, dm_user=user,
                    dedupe_key=f"{key}:dm:{user}", now=now, payload={"text": text})
        latest.status, latest.queued_at = ReminderStatus.QUEUED.value, now
        latest.late = latest.fire_at < now - LATE_AFTER
        queued += 1
        chained = latest.kind in (ReminderKind.ON_THE_DAY.value, ReminderKind.OVERDUE.value)
        pending = session.scalar(select(Reminder.id).where(
            Reminder.case_id.is_(None) if latest.case_id is None else Reminder.case_id == latest.case_id,
            Reminder.election_id == latest.election_id, Reminder.deadline_name == latest.deadline_name,
            Reminder.status == ReminderStatus.PENDING.value).limit(1))
        if (deadline.daily or (deadline.overdue and chained)) and pending is None:
            # The next daily reminder while the step stays undone (unless `sync` already scheduled it).
            hour = OfficeSettings.of(workspace.settings).reminder_hour
            nxt = next_overdue(deadline.due, max(now, latest.fire_at), hour=hour)
            session.add(Reminder(workspace_id=workspace.id, case_id=latest.case_id, election_id=latest.election_id,
                                 deadline_name=latest.deadline_name, due_date=latest.due_date, kind=nxt.kind.value,
                                 days=nxt.days, fire_at=nxt.fire_at, created_at=now))
    session.flush()
    return queued

