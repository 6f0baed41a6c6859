"""Reading a statewide-size Statement of Votes workbook, against python-calamine's own read; and the hostile files.

    python -m benchmarks workbook [--precincts N] [--repeat N] [--seed N] [--out PATH] [--keep] [--skip-hostile]

1. Generates (benchmarks/workbook_synthetic.py, fixed seed, in its own subprocess) a Dominion Statement of Votes
   Cast workbook of the state's size: 3,200 precincts, 40 contest worksheets, some 800,000 cells.
2. Runs, --repeat times each (default 3), alternating, every run in a fresh subprocess:
   - baseline, python-calamine's own read: open the workbook from its bytes and `to_python()` every worksheet
     (every cell a Python value): the least any reader of the workbook in Python can do;
   - read: `rules.returns.read_returns(bytes)`: measuring the workbook before anything is materialised
     (workbook_guard), calamine's read, every worksheet classified, every contest table read and checked
     against its total row (masked precincts from it), the shared steps (build.finish). The verdicts are then
     compared with those the generator built in (two recounts, one just outside), so a fast wrong answer fails.
   The child times only the work (imports first) and reports its peak resident set size (VmHWM on Linux, see
   check_throughput.py for why not ru_maxrss) and the peak before the work: growth = the work's own memory.
3. Targets (issue 21): read <= 3x the baseline's wall time, its memory growth <= 2x the baseline's.
4. The hostile files of the issue, each through the real command (`bot.cli.main(["check", FILE])`) in a fresh
   child: a cell at XFD1048576, a 2 GiB string in 2 MB, 20 million rows, a 500 MB CSV, a truncated workbook.
   Target: each refused (exit 2) within 5 s and 200 MB of growth.
Results: a table on stdout, everything (every run) in benchmarks/out/workbook_reading.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.check_throughput import _child_env, _max_rss_bytes, memory_measure

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT_DIR = HERE / "out"
NAME = "workbook_reading"
READ_TARGET, MEMORY_TARGET = 3.0, 2.0
HOSTILE_SECONDS, HOSTILE_GROWTH = 5.0, 200 * 10**6
HOSTILE = ("far-cell.xlsx", "huge-string.xlsx", "many-rows.xlsx", "statewide-500MB.csv", "truncated.xlsx")


# ------------------------------------------------------------------------------------- in the child

def _baseline(path: Path) -> dict:
    import io

    from python_calamine import CalamineWorkbook

    data = path.read_bytes()
    before = _max_rss_bytes()
    start = time.perf_counter()
    workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
    sheets = [workbook.get_sheet_by_name(name).to_python() for name in workbook.sheet_names]
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "cells": sum(len(row) for rows in sheets for row in rows), "rss_before_work": before,
            "peak_rss": _max_rss_bytes()}


def _read(path: Path) -> dict:
    from rules.returns import read_returns
    from rules.verdicts import decide_returns

    data = path.read_bytes()
    before = _max_rss_bytes()
    start = time.perf_counter()
    returns = read_returns(data)
    seconds = time.perf_counter() - start
    peak = _max_rss_bytes()
    verdicts = decide_returns(returns)
    return {"seconds": seconds, "rss_before_work": before, "peak_rss": peak, "contests": len(returns.contests),
            "recounts": sorted(d.contest for d in verdicts.decisions if d.automatic_recount),
            "decided": sorted(d.contest for d in verdicts.decisions),
            "undecided": [u.contest for u in verdicts.undecided]}


def _hostile(path: Path) -> dict:
    import io

    import bot.cli

    before = _max_rss_bytes()
    err, real = io.StringIO(), sys.stderr
    sys.stderr = err
    try:
        start = time.perf_counter()
        status = bot.cli.main(["check", str(path)])
        seconds = time.perf_counter() - start
    finally:
        sys.stderr = real
    return {"seconds": seconds, "exit_status": status, "rss_before_work": before, "peak_rss": _max_rss_bytes(),
            "message": err.getvalue().strip().splitlines()[-1][:300]}


def _child(mode: str, path: str) -> int:
    run = {"baseline": _baseline, "read": _read, "hostile": _hostile}[mode]
    print(json.dumps(run(Path(path))))
    return 0


# ------------------------------------------------------------------------------------- in the parent

def _run_child(mode: str, path: Path) -> dict:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "benchmarks.workbook_reading", "--child", mode, str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env(), timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} run on {path.name} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_seconds"] = time.perf_counter() - start
    return result


def _generate(path: Path, precincts: int, seed: int) -> dict:
    proc = subprocess.run([sys.executable, "-m", "benchmarks.workbook_synthetic", str(path), str(precincts), str(seed)],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env(), timeout=1200)
    if proc.returncode != 0:
        raise RuntimeError(f"generating {path} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def _write_hostile(directory: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.support.workbooks import far_cell, huge_string, many_rows

    (directory / "far-cell.xlsx").write_bytes(far_cell())
    (directory / "huge-string.xlsx").write_bytes(huge_string())
    (directory / "many-rows.xlsx").write_bytes(many_rows())
    with (directory / "statewide-500MB.csv").open("wb") as handle:  # sparse: only the header reaches the disk
        handle.write(b"contest,choice,votes\n")
        handle.truncate(500 * 10**6)
    good = (ROOT / "tests" / "fixtures" / "returns" / "dominion_sovc_siskiyou_2025.xlsx").read_bytes()
    (directory / "truncated.xlsx").write_bytes(good[: len(good) // 2])


def _summary(runs: list[dict]) -> dict:
    seconds = [r["seconds"] for r in runs]
    growth = [r["peak_rss"] - r["rss_before_work"] for r in runs]
    return {"best_seconds": min(seconds), "median_seconds": statistics.median(seconds),
            "peak_rss_bytes": max(r["peak_rss"] for r in runs), "peak_rss_growth_bytes": max(growth),
            "median_process_seconds": statistics.median(r["process_seconds"] for r in runs)}


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"
    except OSError:
        return "load average unknown"


def _mib(n: int) -> str:
    return f"{n / 2**20:,.0f} MiB"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        return _child(argv[1], argv[2])
    parser = argparse.ArgumentParser(prog="python -m benchmarks workbook", description=__doc__.split("\n\n")[0])
    parser.add_argument("--precincts", type=int, default=3_200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT_DIR / f"{NAME}.json")
    parser.add_argument("--keep", action="store_true", help="keep the generated files in benchmarks/out/")
    parser.add_argument("--skip-hostile", action="store_true")
    args = parser.parse_args(argv)
    OUT_DIR.mkdir(exist_ok=True)
    workdir = OUT_DIR / "workbook_files"
    workdir.mkdir(exist_ok=True)
    book = workdir / f"statewide-sovc-{args.precincts}-{args.seed}.xlsx"
    generated = _generate(book, args.precincts, args.seed)
    load_before = _load()
    runs: dict[str, list[dict]] = {"baseline": [], "read": []}
    for _ in range(args.repeat):
        for mode in ("baseline", "read"):
            runs[mode].append(_run_child(mode, book))
    wrong = [r for r in runs["read"] if r["recounts"] != sorted(generated["expected_recounts"]) or r["undecided"]
             or not set(generated["expected_no_recount"]) <= set(r["decided"])]
    results: dict = {
        "benchmark": NAME, "when": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
                   f"Python {platform.python_version()}", "load_before": load_before,
        "file": generated, "repeat": args.repeat, "memory_measure": memory_measure(), "runs": runs,
        "baseline": _summary(runs["baseline"]), "read": _summary(runs["read"]),
    }
    base, read = results["baseline"], results["read"]
    results["ratio"] = {"best": read["best_seconds"] / base["best_seconds"],
                        "median": read["median_seconds"] / base["median_seconds"],
                        "growth": read["peak_rss_growth_bytes"] / max(base["peak_rss_growth_bytes"], 1)}
    hostile: dict[str, dict] = {}
    if not args.skip_hostile:
        _write_hostile(workdir)
        for name in HOSTILE:
            hostile[name] = _run_child("hostile", workdir / name)
            hostile[name]["file_bytes"] = (workdir / name).stat().st_size
    results["hostile"] = hostile
    results["load_after"] = _load()
    args.out.write_text(json.dumps(results, indent=2))
    print(_table(results))
    if not args.keep:
        for path in workdir.iterdir():
            path.unlink()
    failed = bool(wrong) or results["ratio"]["best"] > READ_TARGET or results["ratio"]["growth"] > MEMORY_TARGET or any(
        h["exit_status"] != 2 or h["seconds"] > HOSTILE_SECONDS or h["peak_rss"] - h["rss_before_work"] > HOSTILE_GROWTH
        for h in hostile.values())
    if wrong:
        print(f"WRONG VERDICTS: {wrong[0]['recounts']} (expected {generated['expected_recounts']})", file=sys.stderr)
    return 1 if failed else 0


def _table(results: dict) -> str:
    base, read, ratio = results["baseline"], results["read"], results["ratio"]
    lines = [f"{results['file']['cells']:,} cells, {results['file']['contests']} contests, "
             f"{results['file']['precincts']:,} precincts, {results['file']['bytes'] / 2**20:.1f} MiB; "
             f"{results['repeat']} runs each; {results['machine']}; {results['load_before']} (before)",
             "", f"{'':10} {'best s':>8} {'median s':>9} {'peak RSS':>9} {'growth':>8}"]
    for name, s in (("calamine", base), ("read", read)):
        lines.append(f"{name:10} {s['best_seconds']:8.2f} {s['median_seconds']:9.2f} {_mib(s['peak_rss_bytes']):>9} "
                     f"{_mib(s['peak_rss_growth_bytes']):>8}")
    lines.append(f"read / calamine: {ratio['best']:.2f}x (best), {ratio['median']:.2f}x (median), memory growth "
                 f"{ratio['growth']:.2f}x (targets: {READ_TARGET:.0f}x, {MEMORY_TARGET:.0f}x)")
    if results["hostile"]:
        lines += ["", f"{'hostile file':22} {'bytes':>13} {'exit':>4} {'seconds':>8} {'growth':>8}  refusal"]
        for name, h in results["hostile"].items():
            lines.append(f"{name:22} {h['file_bytes']:13,} {h['exit_status']:4} {h['seconds']:8.2f} "
                         f"{_mib(h['peak_rss'] - h['rss_before_work']):>8}  {h['message'][:90]}")
    lines.append(f"({results['load_after']} after)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
