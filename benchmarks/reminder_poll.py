"""`python -m benchmarks reminders`: the worker's poll for due reminders must cost what is due, not what is pending,
nor what the office did in past years (the history part: benchmarks/history_cost.py).

The poll is `bot.worker.reminders.due_query` (pending reminders due by now, oldest first, LIMIT 200),
run against a database holding PENDING reminders in all, DUE of them due. For each combination it reports
the best time of --repeat polls and the rows the database read to answer it:

- PostgreSQL (when --database-url or TEST_DATABASE_URL names one): EXPLAIN (ANALYZE, BUFFERS) of the
  real statement — the rows the plan's scan produced plus the rows its filter removed, and shared
  buffers touched;
- SQLite: the plan (EXPLAIN QUERY PLAN must show a SEARCH on ix_reminders_due, not a SCAN), and rows
  read counted by a per-row progress probe of the same statement with and without the index.

Baseline, measured in the same run: the same statement forced to scan the table (SQLite `NOT INDEXED`,
PostgreSQL `enable_indexscan/bitmapscan off`), whose cost grows with PENDING.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert, text

OUT = Path(__file__).resolve().parent / "out" / "reminder_poll.json"
HISTORY_OUT = OUT.with_name("reminder_history.json")
NOW = dt.datetime(2026, 11, 24, 16, 0, tzinfo=dt.timezone.utc)


def _seed(db, pending: int, due: int) -> None:
    from storage.models import (
        Choice,
        Contest,
        Election,
        LocalGovernment,
        RecountCase,
        Reminder,
        SurveyVersion,
        Workspace,
    )

    with db.transaction() as s:
        s.add(Workspace(id=1, slack_team_id="T0BENCH", name="bench", settings={}))
        s.add(LocalGovernment(id=1, workspace_id=1, name="District", governing_body="Board"))
        s.add(Election(id=1, local_government_id=1, name="Election", election_date=dt.date(2026, 11, 3)))
        s.add(Contest(id=1, election_id=1, name="Contest", kind="candidate", seats=1))
        s.add(Choice(id=1, contest_id=1, name="A"))
        s.add(SurveyVersion(id=1, election_id=1, number=1, reason="bench", source_format="bench", created_by="bench"))
        s.add(RecountCase(id=1, workspace_id=1, contest_id=1, kind="automatic", opened_by="bench",
                          survey_version_id=1, multi_seat_rule="last-winner-first-loser", verdict={}))
        s.flush()
        rows = []
        for i in range(pending):
            # `due` rows fire in the past; the rest spread over the next 60 days.
            fire = NOW - dt.timedelta(minutes=i + 1) if i < due else NOW + dt.timedelta(minutes=1 + i * 8640 // pending)
            rows.append({"workspace_id": 1, "case_id": 1, "election_id": 1, "deadline_name": "bench",
                         "due_date": dt.date(2026, 12, 1), "kind": "before", "days": 1, "fire_at": fire,
                         "status": "pending", "late": False, "created_at": NOW})
        for start in range(0, len(rows), 5000):
            s.execute(insert(Reminder), rows[start:start + 5000])


def _compiled(db, session, now):
    from bot.worker.reminders import due_query

    statement = due_query(session, now)
    compiled = statement.compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": False})
    return statement, compiled


def _time_poll(db, repeat: int) -> tuple[float, int]:
    from bot.worker.reminders import due_query

    best, found = float("inf"), 0
    for _ in range(repeat):
        with db.transaction() as session:
            start = time.perf_counter()
            found = len(list(session.scalars(due_query(session, NOW))))
            best = min(best, time.perf_counter() - start)
            session.rollback()
    return best, found


def _sqlite_probe(db, indexed: bool) -> dict:
    """Plan and rows read for the poll on SQLite, with the index or forced to scan."""
    raw = db.engine.raw_connection()
    try:
        cursor = raw.cursor()
        sql = ("SELECT id FROM reminders {hint} WHERE status = ? AND fire_at <= ? ORDER BY fire_at, id LIMIT 200")
        sql = sql.format(hint="" if indexed else "NOT INDEXED")
        params = ("pending", NOW.replace(tzinfo=None).isoformat(sep=" "))
        plan = [row[-1] for row in cursor.execute("EXPLAIN QUERY PLAN " + sql, params)]
        steps = {"n": 0}

        def tick() -> int:
            steps["n"] += 1
            return 0

        raw.driver_connection.set_progress_handler(tick, 1)  # one call per virtual-machine instruction
        start = time.perf_counter()
        found = len(cursor.execute(sql, params).fetchall())
        elapsed = time.perf_counter() - start
        raw.driver_connection.set_progress_handler(None, 1)
        return {"plan": plan, "vm_steps": steps["n"], "found": found, "seconds": elapsed}
    finally:
        raw.close()


def _postgres_probe(db, indexed: bool) -> dict:
    with db.engine.connect() as conn:
        if not indexed:
            conn.execute(text("SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off"))
        plan = conn.execute(text(
            "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM reminders WHERE status = 'pending' "
            "AND fire_at <= :now ORDER BY fire_at, id LIMIT 200 FOR UPDATE SKIP LOCKED"), {"now": NOW}).scalar()
        conn.rollback()
    node = plan[0]["Plan"]
    read, buffers, kinds = 0, 0, []
    stack = [node]
    while stack:
        n = stack.pop()
        kinds.append(n["Node Type"] + (f" using {n['Index Name']}" if "Index Name" in n else ""))
        if n["Node Type"] in ("Index Scan", "Seq Scan", "Bitmap Heap Scan", "Index Only Scan"):
            read += n.get("Actual Rows", 0) + n.get("Rows Removed by Filter", 0)
        buffers = max(buffers, n.get("Shared Hit Blocks", 0) + n.get("Shared Read Blocks", 0))
        stack.extend(n.get("Plans", []))
    return {"plan": kinds, "rows_read": read, "buffers": buffers, "seconds": plan[0]["Execution Time"] / 1000}


def measure(url: str, pending: int, due: int, repeat: int) -> dict:
    from storage.db import Database
    from storage.migrate import upgrade

    db = Database(url)
    try:
        upgrade(db)
        _seed(db, pending, due)
        with db.engine.connect() as conn:
            conn.execute(text("ANALYZE"))
            conn.commit()
        seconds, found = _time_poll(db, repeat)
        probe = _postgres_probe if db.dialect == "postgresql" else _sqlite_probe
        return {"backend": db.dialect, "pending": pending, "due": due, "poll_best_s": seconds, "found": found,
                "indexed": probe(db, True), "forced_scan": probe(db, False)}
    finally:
        db.dispose()


def _fresh_url(backend: str, tmp: Path, label: str, base: str | None):
    if backend == "sqlite":
        return f"sqlite:///{tmp / f'{label}.sqlite3'}", None
    import uuid

    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from storage.db import normalise_url

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(normalise_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(normalise_url(base)).update_query_dict({"options": f"-csearch_path={schema}"})

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return url.render_as_string(hide_password=False), drop


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks reminders", description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["all", "poll", "history"], default="all",
                        help="poll: the due-reminders query against pending rows; history: the worker's whole tick "
                             "against completed cases (benchmarks/history_cost.py); all: both")
    parser.add_argument("--pending", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--due", type=int, nargs="+", default=[10, 100, 200])
    parser.add_argument("--completed", type=int, nargs="+", default=[10, 1_000, 10_000],
                        help="completed cases in the office's history (the history part)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs of each measurement (default 5 for the poll part, 15 for the history part)")
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL"),
                        help="also measure on this PostgreSQL server (default: $TEST_DATABASE_URL)")
    args = parser.parse_args(argv)
    status = 0
    if args.part in ("all", "poll"):
        status |= _poll(args, args.repeat or 5)
    if args.part in ("all", "history"):
        from benchmarks.history_cost import run

        print("the worker's tick against the office's history of completed cases:", flush=True)
        status |= run("reminders", args.completed, args.repeat or 15, args.database_url, HISTORY_OUT)
    return status


def _poll(args, repeat: int) -> int:
    backends = ["sqlite"] + (["postgresql"] if args.database_url else [])
    results = []
    with tempfile.TemporaryDirectory(prefix="recount-reminders-") as tmp:
        for backend in backends:
            for pending in args.pending:
                for due in args.due:
                    url, drop = _fresh_url(backend, Path(tmp), f"{pending}-{due}", args.database_url)
                    try:
                        results.append(measure(url, pending, due, repeat))
                    finally:
                        if drop:
                            drop()
                    r = results[-1]
                    if backend == "sqlite":
                        detail = (f"vm steps {r['indexed']['vm_steps']:>9,} (forced scan {r['forced_scan']['vm_steps']:>11,})"
                                  f"  plan: {'; '.join(r['indexed']['plan'])}")
                    else:
                        detail = (f"rows read {r['indexed']['rows_read']:>7,} (forced scan "
                                  f"{r['forced_scan']['rows_read']:>8,})  plan: {'; '.join(r['indexed']['plan'])}")
                    print(f"{backend:10} pending {pending:>7,} due {due:>5,}: poll {r['poll_best_s'] * 1e3:7.2f} ms, "
                          f"found {r['found']:>4}; {detail}", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"measured_at": dt.datetime.now(dt.timezone.utc).isoformat(), "results": results},
                              indent=2, default=str))
    print(f"results: {OUT}")
    return 0
