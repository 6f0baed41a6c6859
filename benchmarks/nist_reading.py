"""Reading NIST SP 1500-100 v2 JSON: time against `json.load` of the same file, growth with size, memory.

    python -m benchmarks nist [--sizes 5,50] [--repeat N] [--out PATH] [--keep]

1. Generates (benchmarks/nist_synthetic.py) a file of about each size in MiB (default 5 and 50) from the
   structure of Cambridge MA's real export: more precincts (in every district that lists them) and more
   contests, every selection also counted for the whole city (a level to cross-check and set aside).
2. Runs, --repeat times each (default 3), alternating, every run in a fresh subprocess that does its
   imports before the clock starts:
   - json.load: the standard library, `json.load` of the opened file (floats as float): the least any
     JSON reader in Python can do;
   - read: `rules.returns.read_returns(path.read_bytes())`, what `check` does before deciding: decoding,
     `json.loads` with Decimal numbers, schema validation, the reading (names, levels, cross-checks,
     set-asides) and the shared `finish`. The verdicts are then computed outside the clock and compared
     with what the generator built in (each SECRETARY OF STATE (DEMOCRAT) a recount, nothing undecided),
     so a fast wrong answer fails the benchmark;
   - validate: `json.loads` with Decimal numbers and `nist_schema.schema_errors`, the part that used to
     grow worse than linearly (for the breakdown).
3. Prints, per size, best and median seconds, read / json.load (best), and peak RSS (VmHWM of the fresh
   child, as in benchmarks/check_throughput.py); then the growth: read time of the largest file over the
   smallest's, beside their size ratio (the target: 10x the size costs at most 12x the time). Writes
   everything to benchmarks/out/nist_reading.json (--out to change).
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
NAME = "nist_reading"
MODES = ("json.load", "read", "validate")


# ------------------------------------------------------------------------------------- in the child

def _child(mode: str, path: Path) -> dict:
    if mode == "json.load":
        before = _max_rss_bytes()
        start = time.perf_counter()
        with path.open(encoding="utf-8") as f:
            json.load(f)
        return {"seconds": time.perf_counter() - start, "rss_before_work": before, "peak_rss": _max_rss_bytes()}
    if mode == "validate":
        from decimal import Decimal

        from rules.returns.nist_schema import schema_errors, validator

        validator()  # built once per process, like the reader's: not what a file costs
        before = _max_rss_bytes()
        start = time.perf_counter()
        errors = schema_errors(json.loads(path.read_bytes(), parse_float=Decimal))
        return {"seconds": time.perf_counter() - start, "rss_before_work": before, "peak_rss": _max_rss_bytes(),
                "schema_errors": len(errors)}
    from rules.returns import read_returns
    from rules.returns.nist_schema import validator
    from rules.verdicts import decide_returns

    validator()
    before = _max_rss_bytes()
    start = time.perf_counter()
    returns = read_returns(path.read_bytes())
    seconds = time.perf_counter() - start
    peak = _max_rss_bytes()
    verdicts = decide_returns(returns)
    return {"seconds": seconds, "rss_before_work": before, "peak_rss": peak, "contests": len(returns.contests),
            "undecided": [u.contest for u in verdicts.undecided],
            "recounts": sorted(d.contest for d in verdicts.decisions if d.automatic_recount)}


# ------------------------------------------------------------------------------------- in the parent

def _run_child(mode: str, path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "benchmarks.nist_reading", "--child", mode, str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env())
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} run failed (exit {proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _generate(path: Path, mib: float) -> dict:
    from benchmarks.nist_synthetic import copies_for

    precincts, contests = copies_for(int(mib * 2**20))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.nist_synthetic", str(path), str(precincts), str(contests)],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env())
    if proc.returncode != 0:
        raise RuntimeError(f"generating {path} failed (exit {proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def _verify(file: dict, runs: list[dict]) -> None:
    for run in runs:
        if run["contests"] != file["contests"] or run["undecided"] or run["recounts"] != file["expected_recounts"]:
            raise RuntimeError(f"the reader gave wrong answers on {file['path']}: {run['contests']} contests "
                               f"(expected {file['contests']}), undecided {run['undecided'][:3]}, recounts "
                               f"{run['recounts'][:3]}... (expected {file['expected_recounts'][:3]}...)")


def _summary(runs: list[dict]) -> dict:
    seconds = [r["seconds"] for r in runs]
    return {"best_seconds": min(seconds), "median_seconds": statistics.median(seconds),
            "peak_rss_bytes": max(r["peak_rss"] for r in runs),
            "peak_rss_growth_bytes": max(r["peak_rss"] - r["rss_before_work"] for r in runs)}


def _mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


def _table(results: dict) -> str:
    header = ("file", "mode", "best s", "median s", "x json.load", "peak RSS", "growth")
    lines = [header]
    for size in results["sizes"]:
        base = size["json.load"]["best_seconds"]
        for mode in MODES:
            s = size[mode]
            lines.append((_mib(size["file"]["bytes"]), mode, f"{s['best_seconds']:.3f}", f"{s['median_seconds']:.3f}",
                          f"{s['best_seconds'] / base:.1f}", _mib(s["peak_rss_bytes"]), _mib(s["peak_rss_growth_bytes"])))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
           for line in lines]
    out.insert(1, "  ".join("-" * w for w in widths))
    g = results["growth"]
    out += ["", f"growth, largest / smallest file: size {g['bytes']:.2f}x; read {g['read']:.2f}x; validate "
                f"{g['validate']:.2f}x; json.load {g['json.load']:.2f}x (best times); read time per size "
                f"{g['read_per_size']:.2f} (1.00 = linear; the target is at most 1.2)",
            f"{results['repeat']} runs each, fresh processes; x json.load = best / best json.load of the same file; "
            f"peak RSS: {results['memory_measure']}; growth = peak minus the peak before the timed work"]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks nist", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5,50", help="file sizes in MiB, comma-separated (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (default %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / f"{NAME}.json", help="JSON results (default %(default)s)")
    parser.add_argument("--keep", action="store_true", help="keep the synthetic files in benchmarks/out/")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args, _ = parser.parse_known_args(argv)  # options meant for other benchmarks (python -m benchmarks --rows) pass
    if args.child:
        print(json.dumps(_child(args.child[0], Path(args.child[1]))))
        return 0
    sizes = sorted(float(s) for s in args.sizes.split(","))
    if args.repeat < 1 or not sizes or sizes[0] <= 0:
        parser.error("--repeat must be at least 1 and --sizes positive")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    measured = []
    for mib in sizes:
        path = OUT_DIR / f"nist-synthetic-{mib:g}MiB.json"
        print(f"{NAME}: generating about {mib:g} MiB ...", file=sys.stderr, flush=True)
        file = _generate(path, mib)
        try:
            runs: dict[str, list[dict]] = {mode: [] for mode in MODES}
            for i in range(args.repeat):
                for mode in MODES:
                    print(f"{NAME}: {_mib(file['bytes'])} run {i + 1}/{args.repeat}: {mode} ...", file=sys.stderr, flush=True)
                    runs[mode].append(_run_child(mode, path))
            _verify(file, runs["read"])
        finally:
            if not args.keep:
                path.unlink(missing_ok=True)
        measured.append({"file": file, **{mode: _summary(runs[mode]) for mode in MODES}, "runs": runs})
    first, last = measured[0], measured[-1]
    growth = {mode: last[mode]["best_seconds"] / first[mode]["best_seconds"] for mode in MODES}
    growth["bytes"] = last["file"]["bytes"] / first["file"]["bytes"]
    growth["read_per_size"] = growth["read"] / growth["bytes"]
    results = {
        "benchmark": NAME,
        "date": dt.datetime.now(dt.timezone.utc).astimezone().isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()},
        "repeat": args.repeat, "memory_measure": memory_measure(), "sizes": measured, "growth": growth,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(_table(results))
    print(f"results: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
