"""`python -m benchmarks import`: what `recount-bot import` of a statewide precinct file costs per row and at its
peak, and what `recount-bot audit verify` of the result costs, against the least the same work can cost, measured
in the same run, on SQLite and (with --database-url or $TEST_DATABASE_URL) PostgreSQL.

The files: benchmarks/synthetic.py's statewide survey (the project CSV template, 64 counties, 60 contests), a
large one of --rows rows (default 300,000) and a tiny one of --tiny rows (default 2,000).

Each run is a fresh child process on a fresh database, migrated before the clock starts:

- import: `bot.cli.main(["import", FILE, ..., "--quiet"])` in-process, as a person runs it: reading and checking
  the file, the version, every vote count written and sealed into the audit chain, the commit;
- bare: the least an import can do with the same rows: `csv.reader` over the file, each row's contest and choice
  numbered in a dict, and the DB-API's `executemany` of (version, contest, choice, unit, votes) into a table like
  vote_counts (same columns, same unique constraint and index, no foreign keys), one transaction;
- verify: `bot.cli.main(["audit", "verify"])` on the large import's database: the hash chain, then every sealed row
  recomputed against its seal;
- select: a bare `SELECT` of every vote count row of that database through the DB-API, each row fetched.
verify and select also run on the tiny import's database, for their cost per row with start-up excluded.

Per row, start-up and migrations excluded: (CPU of the large file - CPU of the tiny file) / (rows difference),
for import and bare alike; the target is import at most 4x bare. CPU is the child's own (user + system, from
`resource.getrusage`; on PostgreSQL the server's work is not in it, and is shown apart from /proc). Peak memory is
the child's VmHWM (see check_throughput.py for why not ru_maxrss); the target is under 200 MiB for the large file.
verify's target: at most 3x the bare SELECT's CPU. Each measurement runs --repeat times (default 3), alternating;
best and median are reported, the ratios from the best.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.check_throughput import ROOT, _child_env, _generate, _max_rss_bytes
from benchmarks.reminder_poll import _fresh_url

OUT = Path(__file__).resolve().parent / "out" / "import_cost.json"
TEAM = "T0IMPORT1"
TARGETS = {"per_row": 4.0, "peak_mib": 200.0, "verify": 3.0}


# ------------------------------------------------------------------------------------- in the child
def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _Server:
    """PostgreSQL: the CPU of the server processes serving this child (PostgreSQL being on this machine)."""

    def __init__(self, engine=None) -> None:
        self.pids: set[int] = set()
        if engine is not None:
            from sqlalchemy import event

            event.listen(engine, "connect", self._connect)

    def _connect(self, dbapi_connection, _record) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.pids.add(cursor.fetchone()[0])
        dbapi_connection.rollback()

    def cpu(self) -> float:
        total = 0
        for pid in self.pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except OSError:
                continue
        return total / os.sysconf("SC_CLK_TCK")


def _measure(work) -> dict:
    before = _max_rss_bytes()
    cpu, wall = _cpu(), time.perf_counter()
    extra = work()
    return {"cpu": _cpu() - cpu, "wall": time.perf_counter() - wall, "peak_rss": _max_rss_bytes(),
            "rss_before": before, **(extra or {})}


def _cli(args: list[str]) -> dict:
    """bot.cli.main in-process, its output kept (and checked by the parent)."""
    import contextlib
    import io

    from bot import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(args)
    return {"status": status, "stdout": out.getvalue()[-2000:], "stderr": err.getvalue()[-2000:]}


def _postgres_pids(url: str) -> _Server:
    """Watch the server processes of every connection this child makes (storage.db's engines included)."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    server = _Server()
    if url.startswith("postgresql"):
        event.listen(Engine, "connect", server._connect)
        # The command disposes of its engine at the end, and a server process gone is gone from /proc with its
        # CPU time: keep the connections open until they are read.
        from storage.db import Database

        Database.dispose = lambda self: None  # this child only
    return server


def child_import(url: str, path: str) -> dict:
    from storage.db import Database
    from storage.migrate import upgrade

    db = Database(url)
    upgrade(db)  # migrations before the clock
    db.dispose()
    os.environ["DATABASE_URL"] = url
    server = _postgres_pids(url)
    from bot import cli  # noqa: F401  (imports before the clock)
    from bot.commands import importing  # noqa: F401
    from services.returns import versions  # noqa: F401

    args = ["import", path, "--election-date", "2026-11-03", "--name", "Statewide General Election",
            "--local-government", "State of Colorado", "--governing-body", "Board of Canvassers", "--team", TEAM,
            "--quiet"]
    result = _measure(lambda: _cli(args))
    result["server_cpu"] = server.cpu()
    return result


def child_bare(url: str, path: str) -> dict:
    import csv

    if url.startswith("sqlite"):
        import sqlite3

        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        marker = "?"
    else:
        import psycopg
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        connection = psycopg.connect(host=parsed.host, port=parsed.port, user=parsed.username, dbname=parsed.database,
                                     options=parsed.query.get("options", ""))
        marker = "%s"
    cursor = connection.cursor()
    cursor.execute("CREATE TABLE bare_counts (id INTEGER PRIMARY KEY, survey_version_id INTEGER NOT NULL, "
                   "contest_id INTEGER NOT NULL, choice_id INTEGER NOT NULL, unit VARCHAR(200) NOT NULL, "
                   "votes BIGINT NOT NULL, UNIQUE (survey_version_id, choice_id, unit))"
                   if url.startswith("sqlite") else
                   "CREATE TABLE bare_counts (id SERIAL PRIMARY KEY, survey_version_id INTEGER NOT NULL, "
                   "contest_id INTEGER NOT NULL, choice_id INTEGER NOT NULL, unit VARCHAR(200) NOT NULL, "
                   "votes BIGINT NOT NULL, UNIQUE (survey_version_id, choice_id, unit))")
    cursor.execute("CREATE INDEX ix_bare_counts ON bare_counts (survey_version_id, contest_id)")
    connection.commit()
    server = _Server()
    if not url.startswith("sqlite"):
        cursor.execute("SELECT pg_backend_pid()")
        server.pids.add(cursor.fetchone()[0])
    sql = (f"INSERT INTO bare_counts (survey_version_id, contest_id, choice_id, unit, votes) "
           f"VALUES ({', '.join([marker] * 5)})")

    def work() -> dict:
        contests: dict[str, int] = {}
        choices: dict[tuple[str, str], int] = {}

        def rows():
            with open(path, newline="", encoding="utf-8") as handle:
                reader = csv.reader(handle)
                next(reader)  # contest,choice,votes,seats,kind,unit
                for contest, choice, votes, _seats, _kind, unit in reader:
                    contest_id = contests.setdefault(contest, len(contests) + 1)
                    choice_id = choices.setdefault((contest, choice), len(choices) + 1)
                    yield (1, contest_id, choice_id, unit, int(votes))

        cursor.executemany(sql, rows())
        connection.commit()
        return {}

    result = _measure(work)
    result["server_cpu"] = server.cpu()
    connection.close()
    return result


def child_verify(url: str) -> dict:
    os.environ["DATABASE_URL"] = url
    server = _postgres_pids(url)
    from bot import cli  # noqa: F401
    from bot.commands import audit  # noqa: F401

    result = _measure(lambda: _cli(["audit", "verify", "--quiet"]))
    result["server_cpu"] = server.cpu()
    return result


def child_select(url: str) -> dict:
    from sqlalchemy.engine import make_url

    if url.startswith("sqlite"):
        import sqlite3

        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
    else:
        import psycopg

        parsed = make_url(url)
        connection = psycopg.connect(host=parsed.host, port=parsed.port, user=parsed.username, dbname=parsed.database,
                                     options=parsed.query.get("options", ""))
    server = _Server()
    if not url.startswith("sqlite"):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            server.pids.add(cursor.fetchone()[0])

    def work() -> dict:
        cursor = connection.cursor()
        cursor.execute("SELECT * FROM vote_counts ORDER BY id")
        count = 0
        while True:
            rows = cursor.fetchmany(1000)
            if not rows:
                break
            count += len(rows)
        return {"rows": count}

    result = _measure(work)
    result["server_cpu"] = server.cpu()
    connection.close()
    return result


def child(argv: list[str]) -> int:
    mode, url, *rest = argv
    result = {"import": child_import, "bare": child_bare, "verify": child_verify, "select": child_select}[mode](
        url, *rest)
    print(json.dumps(result))
    return 0


# ------------------------------------------------------------------------------------- in the parent
def _run(mode: str, url: str, *rest: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "benchmarks.import_cost", "--child", mode, url, *rest],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env(), timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result.get("status") not in (None, 0):
        raise RuntimeError(f"{mode} exited {result['status']}: {result.get('stderr')}")
    return result


def _best(runs: list[dict], key: str = "cpu") -> float:
    return min(r[key] for r in runs)


def _median(runs: list[dict], key: str = "cpu") -> float:
    return statistics.median(r[key] for r in runs)


def measure_backend(backend: str, files: dict[str, tuple[Path, int]], repeat: int, base: str | None,
                    tmp: Path) -> dict:
    runs: dict[str, list[dict]] = {f"{mode}-{size}": [] for mode in ("import", "bare") for size in files}
    runs["verify"], runs["select"], runs["verify-tiny"], runs["select-tiny"] = [], [], [], []
    for attempt in range(repeat):
        for size, (path, _rows) in files.items():
            for mode in (("import", "bare") if attempt % 2 == 0 else ("bare", "import")):
                url, drop = _fresh_url(backend, tmp, f"{mode}-{size}-{attempt}", base)
                try:
                    runs[f"{mode}-{size}"].append(_run(mode, url, str(path)))
                    if mode == "import":
                        suffix = "" if size == "large" else f"-{size}"
                        for check in (("verify", "select") if attempt % 2 == 0 else ("select", "verify")):
                            runs[check + suffix].append(_run(check, url))
                        assert "audit log intact" in runs["verify" + suffix][-1]["stdout"], runs["verify" + suffix][-1]
                finally:
                    if drop:
                        drop()
                    elif backend == "sqlite":
                        Path(url.removeprefix("sqlite:///")).unlink(missing_ok=True)
    return runs


def _report(backend: str, runs: dict[str, list[dict]], files: dict[str, tuple[Path, int]]) -> dict:
    rows = files["large"][1] - files["tiny"][1]
    per_row = {mode: (_best(runs[f"{mode}-large"]) - _best(runs[f"{mode}-tiny"])) / rows * 1e6
               for mode in ("import", "bare")}
    per_row_median = {mode: (_median(runs[f"{mode}-large"]) - _median(runs[f"{mode}-tiny"])) / rows * 1e6
                      for mode in ("import", "bare")}
    peak = max(r["peak_rss"] for r in runs["import-large"]) / 2**20
    bare_peak = max(r["peak_rss"] for r in runs["bare-large"]) / 2**20
    summary = {
        "backend": backend, "rows": files["large"][1], "tiny_rows": files["tiny"][1],
        "per_row_us": per_row, "per_row_us_median": per_row_median,
        "per_row_ratio": per_row["import"] / per_row["bare"],
        "cpu_s": {k: {"best": _best(v), "median": _median(v)} for k, v in runs.items()},
        "wall_s": {k: {"best": _best(v, "wall"), "median": _median(v, "wall")} for k, v in runs.items()},
        "server_cpu_s": {k: min(r.get("server_cpu", 0.0) for r in v) for k, v in runs.items()},
        "peak_mib": peak, "bare_peak_mib": bare_peak,
        "verify_ratio": _best(runs["verify"]) / _best(runs["select"]),
        # Start-up (imports, the migration check) excluded, as for the import: the large database's CPU minus the
        # tiny one's, for both.
        "verify_per_row_ratio": (_best(runs["verify"]) - _best(runs["verify-tiny"]))
        / (_best(runs["select"]) - _best(runs["select-tiny"])),
        "verify_peak_mib": max(r["peak_rss"] for r in runs["verify"]) / 2**20,
        "selected_rows": runs["select"][-1]["rows"],
    }
    if backend == "postgresql":  # the server's work counted too (PostgreSQL on this machine), both sides
        def with_server(mode: str) -> float:
            return _best(runs[mode]) + min(r.get("server_cpu", 0.0) for r in runs[mode])

        summary["verify_per_row_ratio_with_server"] = ((with_server("verify") - with_server("verify-tiny"))
                                                       / (with_server("select") - with_server("select-tiny")))
    print(f"{backend:10} import {per_row['import']:6.1f} us/row CPU, bare {per_row['bare']:5.1f} us/row: "
          f"{summary['per_row_ratio']:.2f}x (median {per_row_median['import'] / per_row_median['bare']:.2f}x) "
          f"[{'ok' if summary['per_row_ratio'] <= TARGETS['per_row'] else 'FAIL'}: at most 4x]", flush=True)
    print(f"{backend:10} import of {files['large'][1]:,} rows: {_best(runs['import-large']):.2f} s CPU "
          f"({_best(runs['import-large'], 'wall'):.2f} s wall; server {summary['server_cpu_s']['import-large']:.2f} s "
          f"CPU), peak {peak:.0f} MiB (bare {bare_peak:.0f} MiB) "
          f"[{'ok' if peak < TARGETS['peak_mib'] else 'FAIL'}: under 200 MiB]", flush=True)
    print(f"{backend:10} audit verify {_best(runs['verify']):.2f} s CPU, bare SELECT of {summary['selected_rows']:,} "
          f"rows {_best(runs['select']):.2f} s: {summary['verify_ratio']:.2f}x, peak "
          f"{summary['verify_peak_mib']:.0f} MiB [{'ok' if summary['verify_ratio'] <= TARGETS['verify'] else 'FAIL'}: "
          f"at most 3x]", flush=True)
    server = (f"; with the server's CPU {summary['verify_per_row_ratio_with_server']:.2f}x"
              if "verify_per_row_ratio_with_server" in summary else "")
    print(f"{backend:10} audit verify per row (start-up excluded: large minus tiny database) "
          f"{summary['verify_per_row_ratio']:.2f}x the bare SELECT's{server} "
          f"[{'ok' if summary['verify_per_row_ratio'] <= TARGETS['verify'] else 'FAIL'}: at most 3x]; tiny database: "
          f"verify {_best(runs['verify-tiny']):.2f} s, SELECT {_best(runs['select-tiny']):.3f} s CPU", flush=True)
    summary["ok"] = (summary["per_row_ratio"] <= TARGETS["per_row"] and peak < TARGETS["peak_mib"]
                     and summary["verify_ratio"] <= TARGETS["verify"])
    return summary


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return child(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m benchmarks import", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--tiny", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--database-url", default=os.environ.get("TEST_DATABASE_URL"),
                        help="also measure on this PostgreSQL server (default: $TEST_DATABASE_URL)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), action="append",
                        help="only this database (repeatable; default SQLite, and PostgreSQL when a URL is given)")
    args = parser.parse_args(argv)
    backends = args.backend or (["sqlite"] + (["postgresql"] if args.database_url else []))
    summaries = []
    with tempfile.TemporaryDirectory(prefix="recount-import-") as tmp:
        files = {}
        for size, rows in (("tiny", args.tiny), ("large", args.rows)):
            path = Path(tmp) / f"returns-{size}.csv"
            made = _generate(path, rows, 2026)
            files[size] = (path, made["rows"])
        print(f"files: {files['tiny'][1]:,} and {files['large'][1]:,} rows "
              f"({files['large'][0].stat().st_size / 2**20:.1f} MiB); load average {os.getloadavg()[0]:.1f}", flush=True)
        for backend in backends:
            runs = measure_backend(backend, files, args.repeat, args.database_url, Path(tmp))
            summaries.append(_report(backend, runs, files))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"measured_at": dt.datetime.now(dt.timezone.utc).isoformat(),
                                    "load_average": os.getloadavg(), "results": summaries}, indent=2, default=str))
    print(f"results: {args.out}")
    return 0 if all(s["ok"] for s in summaries) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
