"""The checks of `recount-bot doctor` that read the database: reachable and migrated, a worker alive, the
outbox moving, the audit chain intact. Nothing here writes: doctor never migrates or creates a database."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from bot.doctor.findings import Finding, age
from storage.db import Database, DatabaseUrlError, normalise_url

# A post still waiting after this long is stuck: the outbox's longest back-off is 15 minutes (handlers/slack_io/outbox.py),
# so a healthy worker has tried it twice by then.
STUCK_AFTER = dt.timedelta(minutes=30)
# Posts given up (dead) within this long make the outbox check fail; older ones are only counted.
DEAD_RECENT = dt.timedelta(days=7)


def open_database(url: str) -> tuple[Database | None, Finding | None]:
    """The database at `url` without creating it (a missing SQLite file stays missing), or why not."""
    try:
        url = normalise_url(url)
    except DatabaseUrlError as exc:
        return None, Finding.fail("database", f"DATABASE_URL {exc}",
                                  "set DATABASE_URL like postgresql://user:password@host:5432/name")
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(parsed.database).expanduser()
        if not path.is_file():
            return None, Finding.fail("database", f"no database file at {path.resolve()}",
                                      "check DATABASE_URL (and the service's working directory), or create it "
                                      "with `recount-bot db upgrade`")
    try:
        return Database(url), None
    except ImportError as exc:
        return None, Finding.fail("database", f"DATABASE_URL names a driver that is not installed ({exc.name})",
                                  "install recount-bot with its dependencies")


def check_migrated(db: Database) -> Finding:
    from alembic.script import ScriptDirectory

    from storage.migrate import alembic_config, current_revision, head_revision

    try:
        db.ping()
        current = current_revision(db)
    except DBAPIError as exc:
        cause = getattr(exc, "orig", None) or exc
        detail = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        return Finding.fail("database", f"cannot use the database at {db.describe()}: {detail}",
                            "start the database server, or correct DATABASE_URL (host, user, password)")
    head = head_revision()
    if current == head:
        return Finding.ok("database", f"{db.describe()} answers, at revision {head} (the latest)")
    known = {rev.revision for rev in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if current is not None and current not in known:
        return Finding.fail("database", f"{db.describe()} is at revision {current}, which this recount-bot does "
                                        f"not know (a newer version migrated it)",
                            "upgrade recount-bot on this machine to the version the database was migrated by")
    return Finding.fail("database", f"{db.describe()} is at revision {current or '(empty)'}, not {head}",
                        "run `recount-bot db upgrade` (serve and worker also migrate when they start)")


def check_worker(db: Database, now: dt.datetime) -> Finding:
    from bot.worker.heartbeat import late_after, newest

    with db.read() as session:
        row = newest(session)
        if row is not None:
            worker_id, beat_at, late = row.worker_id, row.beat_at, late_after(row)
    if row is None:
        return Finding.fail("worker", "no worker has ever run against this database",
                            "start `recount-bot serve` (it runs a worker unless --no-worker) or `recount-bot worker`")
    since = (now - beat_at).total_seconds()
    if now - beat_at > late:
        return Finding.fail("worker", f"the last heartbeat ({worker_id}) was {age(since)} ago: reminders and "
                                      f"queued posts are not being delivered",
                            "start the worker (`systemctl start recount-bot-worker`, or serve without "
                            "--no-worker) and read its log (`journalctl -u recount-bot-worker`)")
    return Finding.ok("worker", f"{worker_id} beat {age(max(since, 0))} ago")


def check_outbox(db: Database, now: dt.datetime) -> Finding:
    from storage.models import OutboxMessage, OutboxStatus

    waiting = (OutboxStatus.PENDING.value, OutboxStatus.SENDING.value)
    with db.read() as session:
        count, oldest = session.execute(select(func.count(OutboxMessage.id), func.min(OutboxMessage.created_at))
                                        .where(OutboxMessage.status.in_(waiting))).one()
        dead_recent = session.scalar(select(func.count(OutboxMessage.id)).where(
            OutboxMessage.status == OutboxStatus.DEAD.value, OutboxMessage.created_at >= now - DEAD_RECENT))
        last_dead = session.execute(select(OutboxMessage.id, OutboxMessage.method, OutboxMessage.last_error)
                                    .where(OutboxMessage.status == OutboxStatus.DEAD.value)
                                    .order_by(OutboxMessage.id.desc()).limit(1)).first()
    if oldest is not None and oldest.tzinfo is None:  # func.min() bypasses UTCDateTime on SQLite
        oldest = oldest.replace(tzinfo=dt.timezone.utc)
    waiting_text = (f"{count} post{'s' if count != 1 else ''} waiting, the oldest {age((now - oldest).total_seconds())}"
                    if count else "no post waiting")
    if count and now - oldest > STUCK_AFTER:
        return Finding.fail("outbox", f"{waiting_text} old: delivery is stuck",
                            "check the worker check above and the worker's log for what Slack answers "
                            "(a revoked token, a missing scope, Slack unreachable)")
    if dead_recent:
        return Finding.fail("outbox", f"{waiting_text}; {dead_recent} post{'s' if dead_recent != 1 else ''} given "
                                      f"up in the last {DEAD_RECENT.days} days, the latest (#{last_dead.id}, "
                                      f"{last_dead.method}): {last_dead.last_error or 'no error recorded'}",
                            "fix what the error says (invite the bot to the channel, restore the token); the "
                            "person who acted was sent what the channel did not get where the post allowed it")
    return Finding.ok("outbox", waiting_text)


def check_audit(db: Database) -> Finding:
    from bot.commands.audit import verify_snapshot
    from bot.commands.errors import CommandFailed

    try:
        result, _ = verify_snapshot(db)
    except CommandFailed as exc:
        return Finding.fail("audit log", str(exc), "see the database check")
    if result.ok:
        return Finding.ok("audit log", result.describe())
    return Finding.fail("audit log", result.describe(),
                        "do not write to the database; compare with your latest checkpoint "
                        "(`recount-bot audit verify --against FILE`) and a backup, and tell the official")
