"""`python -m benchmarks app-home`: what publishing App Home costs as the office's history grows (10, 1,000 and
10,000 completed cases by default), on SQLite and, with --database-url or $TEST_DATABASE_URL, PostgreSQL.
The measuring is benchmarks/history_cost.py's; the office, benchmarks/office_history.py's."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "app_home.json"


def main(argv: list[str]) -> int:
    from benchmarks.history_cost import run

    parser = argparse.ArgumentParser(prog="python -m benchmarks app-home", description=__doc__.splitlines()[0])
    parser.add_argument("--completed", type=int, nargs="+", default=[10, 1_000, 10_000])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL"),
                        help="also measure on this PostgreSQL server (default: $TEST_DATABASE_URL)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    return run("app-home", args.completed, args.repeat, args.database_url, args.out)
