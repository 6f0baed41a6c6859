"""`audit-seals`: what sealing business rows into the audit chain costs (storage/seals.py).

Imports a survey of returns of `--units` precincts x 2 choices into a fresh SQLite database through the real
use case (services.returns.versions.import_returns), once with the seal hooks and once without them (removed from
that database's sessionmaker for the run), best of `--repeat`; then `audit.verify` on the sealed database,
which recomputes every row. The sealed database must verify intact, or the benchmark fails.

    .venv/bin/python -m benchmarks.audit_seals --units 25000 --repeat 2
"""
from __future__ import annotations

import argparse
import datetime as dt
import tempfile
import time
from pathlib import Path


def _returns(units: int):
    from rules.returns import parse_returns

    rows = ["contest,choice,votes,kind,unit"]
    rows += [f"Water District - Director,{who},{7 + unit % 5},candidate,Precinct {unit}"
             for unit in range(1, units + 1) for who in ("Ada", "Ben")]
    return parse_returns("\n".join(rows).encode())


def _run(returns, folder: Path, sealed: bool) -> tuple[float, float, str, bool]:
    from sqlalchemy import event

    from services.returns.versions import import_returns
    from services.services import Services
    from storage import audit, seals
    from storage.db import Database
    from storage.migrate import upgrade

    hooks = (("after_flush", seals._collect), ("before_commit", seals._seal_at_commit))
    db = Database(f"sqlite:///{folder / ('sealed' if sealed else 'plain')}-{time.monotonic_ns()}.sqlite3")
    if not sealed:  # the hooks are on each Database's sessionmaker (storage/db.py calls seals.install)
        for name, hook in hooks:
            event.remove(db.sessionmaker, name, hook)
    try:
        upgrade(db)
        services = Services(db, clock=lambda: dt.datetime(2026, 11, 10, 17, 0, tzinfo=dt.timezone.utc))
        start = time.perf_counter()
        import_returns(services, team_id="T0BENCH01", returns=returns, election_name="E",
                       election_date=dt.date(2026, 11, 3), local_government="W", governing_body="B", actor="bench")
        took = time.perf_counter() - start
        start = time.perf_counter()
        with db.read() as session:
            result = audit.verify(session)
        return took, time.perf_counter() - start, result.describe(), result.ok
    finally:
        db.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="audit-seals")
    parser.add_argument("--units", type=int, default=25000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    returns = _returns(args.units)
    with tempfile.TemporaryDirectory() as folder:
        sealed = min(_run(returns, Path(folder), True) for _ in range(args.repeat))
        plain = min(_run(returns, Path(folder), False) for _ in range(args.repeat))
    if not sealed[3]:
        print(f"FAILED: the sealed database does not verify: {sealed[2]}")
        return 1
    print(f"{2 * args.units:,} vote counts imported: {plain[0]:.2f} s without seals, {sealed[0]:.2f} s with "
          f"(+{sealed[0] - plain[0]:.2f} s); audit verify {sealed[1]:.2f} s: {sealed[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
