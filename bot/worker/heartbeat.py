"""The worker's heartbeat: a row per worker, written at every tick (storage.models.WorkerHeartbeat).

`recount-bot doctor` reads the newest one: a worker that stopped, hung or cannot reach the database stops
beating, and nothing else would say so until a reminder failed to arrive.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from storage.db import Database
from storage.models import WorkerHeartbeat

# A worker that has not beaten for this long is gone (stopped, or a pid of a former run): its row is removed.
FORGET_AFTER = dt.timedelta(days=7)
# A heartbeat is late after this many polls missed, and never sooner than LATE_FLOOR: a tick that delivers a
# burst of posts at Slack's one a second per channel may take a while.
LATE_POLLS = 6
LATE_FLOOR = dt.timedelta(minutes=2)


def beat(db: Database, worker_id: str, *, interval: float, started_at: dt.datetime, now: dt.datetime) -> None:
    """Record that `worker_id` is alive now (its own row: workers never contend for one)."""
    interval_ms = max(int(round(interval * 1000)), 1)
    with db.transaction() as session:
        row = session.get(WorkerHeartbeat, worker_id)
        if row is None:
            session.add(WorkerHeartbeat(worker_id=worker_id, interval_ms=interval_ms, started_at=started_at,
                                        beat_at=now))
        else:
            row.interval_ms, row.beat_at = interval_ms, now
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.beat_at < now - FORGET_AFTER))


def newest(session: Session) -> WorkerHeartbeat | None:
    return session.scalar(select(WorkerHeartbeat).order_by(WorkerHeartbeat.beat_at.desc()).limit(1))


def late_after(row: WorkerHeartbeat) -> dt.timedelta:
    """How old this worker's last beat may be before it counts as not running."""
    return max(dt.timedelta(milliseconds=row.interval_ms * LATE_POLLS), LATE_FLOOR)
