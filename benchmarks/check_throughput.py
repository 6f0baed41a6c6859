"""Throughput of `recount-bot check FILE --format json` on a synthetic statewide file, against a csv baseline.

    python -m benchmarks check [--rows N] [--repeat N] [--seed N] [--out PATH] [--keep]

1. Generates (benchmarks/synthetic.py, fixed seed) a precinct-level file in the project CSV template
   with at least --rows data rows (default 500,000) into benchmarks/out/.
2. Runs, --repeat times each (default 3), alternating, every run in a fresh subprocess:
   - baseline: the standard library alone: `csv.reader` over the file (opened as UTF-8 text,
     newline=""), iterating every row and touching every field (summing their lengths);
   - check: `bot.cli.main(["check", FILE, "--format", "json"])` in-process in the child, stdout sent to
     an in-memory sink: reading the bytes, `parse_returns`, `check_all` and the JSON rendering, exactly
     what the command does. The output is then parsed and the verdicts compared with what the generator
     made (three recounts, one just outside), so a fast wrong answer fails the benchmark.
   The child times only the work (imports done before the clock starts) with `time.perf_counter`, and its
   own CPU time with `time.process_time` (steadier when other work shares the machine), and
   reports its peak resident set size read at its end: the peak of that whole fresh process,
   interpreter and imports included, plus the peak before the work started, so the growth due to the
   work is shown too. On Linux the peak is VmHWM from /proc/self/status, not `getrusage().ru_maxrss`:
   Linux carries the parent's high-water mark into a child's ru_maxrss across fork and exec (so both
   RUSAGE_SELF in the child and RUSAGE_CHILDREN in the parent would report at least the parent's size),
   while VmHWM belongs to the new process image alone. Elsewhere ru_maxrss is used (and the file is
   generated in its own subprocess, so the parent stays small).
3. Prints a table (best and median wall time, rows/s, peak RSS; the check/baseline ratios of wall time, CPU
   time and peak RSS) and writes
   everything, every run included, to benchmarks/out/check_throughput.json (--out to change).
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT_DIR = HERE / "out"
NAME = "check_throughput"


# ------------------------------------------------------------------------------------- in the child

def _max_rss_bytes() -> int:
    """This process's peak resident set size, in bytes (see the module docstring for why VmHWM)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024  # kB
    except OSError:
        pass
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024  # Linux reports KiB, macOS bytes


def memory_measure() -> str:
    if Path("/proc/self/status").exists():
        return "VmHWM (peak RSS) from /proc/self/status of each fresh child process, read after the work"
    return "resource.getrusage(RUSAGE_SELF).ru_maxrss of each fresh child process, read after the work"


def _baseline(path: Path) -> dict:
    import csv

    before = _max_rss_bytes()
    start, cpu = time.perf_counter(), time.process_time()
    rows = touched = 0
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        next(reader)  # header
        for row in reader:
            rows += 1
            for cell in row:
                touched += len(cell)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"seconds": seconds, "cpu_seconds": cpu, "rows": rows, "chars_touched": touched, "rss_before_work": before,
            "peak_rss": _max_rss_bytes()}


class _Sink:
    """Stands in for stdout: keeps what is written (to check the verdicts after the clock stops)."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def _check(path: Path) -> dict:
    import bot.cli  # imported before the clock starts: we time the work, not the imports
    from rules.returns.registry import READERS, module

    for name in READERS:  # the readers too, which `check` imports on first use (format detection asks them all)
        module(name)

    sink = _Sink()
    before = _max_rss_bytes()
    real_stdout = sys.stdout
    sys.stdout = sink
    try:
        start, cpu = time.perf_counter(), time.process_time()
        status = bot.cli.main(["check", str(path), "--format", "json"])
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        sys.stdout = real_stdout
    peak = _max_rss_bytes()
    output = json.loads("".join(sink.parts))
    return {
        "seconds": seconds, "cpu_seconds": cpu, "exit_status": status, "rss_before_work": before, "peak_rss": peak,
        "contests": len(output["contests"]),
        "recounts": sorted(c["contest"] for c in output["contests"] if c["automatic_recount"]),
        "no_recount": sorted(c["contest"] for c in output["contests"] if not c["automatic_recount"]),
        "output_chars": sum(map(len, sink.parts)),
    }


def _child(mode: str, path: str) -> int:
    result = _baseline(Path(path)) if mode == "baseline" else _check(Path(path))
    print(json.dumps(result))
    return 0


# ------------------------------------------------------------------------------------- in the parent

def _run_child(mode: str, path: Path) -> dict:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "benchmarks.check_throughput", "--child", mode, str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env())
    process_seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} run failed (exit {proc.returncode}):\n{proc.stderr}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_seconds"] = process_seconds  # including interpreter start-up and imports
    return result


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _generate(path: Path, rows: int, seed: int) -> dict:
    """Write the synthetic file in a subprocess (its vote tables must not swell this process)."""
    proc = subprocess.run([sys.executable, "-m", "benchmarks.synthetic", str(path), str(rows), str(seed)],
                          capture_output=True, text=True, cwd=ROOT, env=_child_env())
    if proc.returncode != 0:
        raise RuntimeError(f"generating {path} failed (exit {proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def _summary(runs: list[dict], rows: int) -> dict:
    seconds = [r["seconds"] for r in runs]
    best, median = min(seconds), statistics.median(seconds)
    peaks = [r["peak_rss"] for r in runs]
    befores = [r["rss_before_work"] for r in runs]
    return {
        "best_seconds": best, "median_seconds": median,
        "rows_per_second_best": rows / best, "rows_per_second_median": rows / median,
        "peak_rss_bytes": max(peaks), "rss_before_work_bytes": max(befores),
        "peak_rss_growth_bytes": max(p - b for p, b in zip(peaks, befores)),
        "median_process_seconds": statistics.median(r["process_seconds"] for r in runs),
        "best_cpu_seconds": min(r["cpu_seconds"] for r in runs),
        "median_cpu_seconds": statistics.median(r["cpu_seconds"] for r in runs),
    }


def _mib(n: int) -> str:
    return f"{n / 2**20:,.0f} MiB"


def _table(results: dict) -> str:
    rows = results["rows"]
    header = ("", "best s", "median s", "rows/s (best)", "rows/s (median)", "peak RSS", "growth", "process s")
    lines = [header]
    for name in ("baseline", "check"):
        s = results[name]
        lines.append((name, f"{s['best_seconds']:.3f}", f"{s['median_seconds']:.3f}",
                      f"{s['rows_per_second_best']:,.0f}", f"{s['rows_per_second_median']:,.0f}",
                      _mib(s["peak_rss_bytes"]), _mib(s["peak_rss_growth_bytes"]),
                      f"{s['median_process_seconds']:.3f}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
           for line in lines]
    out.insert(1, "  ".join("-" * w for w in widths))
    ratio = results["ratio_check_to_baseline"]
    out += ["", f"check / baseline wall time: {ratio['best']:.2f}x (best), {ratio['median']:.2f}x (median); "
                f"peak RSS {ratio['peak_rss']:.1f}x",
            f"check / baseline CPU time (the child's own, steadier on a loaded machine): {ratio['cpu_best']:.2f}x "
            f"(best), {ratio['cpu_median']:.2f}x (median); check {results['check']['best_cpu_seconds']:.3f} s, "
            f"baseline {results['baseline']['best_cpu_seconds']:.3f} s (best)",
            f"{rows:,} rows, {results['file']['bytes'] / 2**20:,.1f} MiB, {results['file']['contests']} contests, "
            f"{results['repeat']} runs each; peak RSS: {results['memory_measure']}; growth = peak minus the peak "
            "before the timed work; process s = child wall time including start-up"]
    return "\n".join(out)


def _verify(file: dict, runs: list[dict]) -> None:
    """The verdicts must be those the generator built in: a fast wrong answer is a failure."""
    for run in runs:
        problems = []
        if run["exit_status"] != 0:
            problems.append(f"exit status {run['exit_status']}")
        if run["contests"] != file["contests"]:
            problems.append(f"{run['contests']} contests, expected {file['contests']}")
        if run["recounts"] != file["expected_recounts"]:
            problems.append(f"recounts {run['recounts']}, expected {file['expected_recounts']}")
        if not set(file["expected_no_recount"]) <= set(run["no_recount"]):
            problems.append(f"{file['expected_no_recount']} should not be recounted")
        if problems:
            raise RuntimeError("check gave wrong answers on the synthetic file: " + "; ".join(problems))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks check", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="data rows in the synthetic file (default 500,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (default %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the synthetic file (default 2026)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / f"{NAME}.json", help="JSON results (default %(default)s)")
    parser.add_argument("--keep", action="store_true", help="keep the synthetic file in benchmarks/out/")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(*args.child)

    from benchmarks import synthetic  # for its defaults; the file is written by a subprocess

    rows = args.rows if args.rows is not None else synthetic.DEFAULT_ROWS
    seed = args.seed if args.seed is not None else synthetic.DEFAULT_SEED
    if rows < 1 or args.repeat < 1:
        parser.error("--rows and --repeat must be at least 1")
    path = OUT_DIR / f"synthetic-{rows}-seed{seed}-v{synthetic.GENERATOR_VERSION}.csv"
    print(f"check_throughput: generating {rows:,} rows (seed {seed}) ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    data = _generate(path, rows, seed)
    generate_seconds = time.perf_counter() - start
    try:
        runs: dict[str, list[dict]] = {"baseline": [], "check": []}
        for i in range(args.repeat):
            for mode in ("baseline", "check"):
                print(f"check_throughput: run {i + 1}/{args.repeat}: {mode} ...", file=sys.stderr, flush=True)
                runs[mode].append(_run_child(mode, path))
        for run in runs["baseline"]:
            if run["rows"] != data["rows"]:
                raise RuntimeError(f"baseline read {run['rows']} rows, the file has {data['rows']}")
        _verify(data, runs["check"])
    finally:
        if not args.keep:
            path.unlink(missing_ok=True)

    baseline, check = _summary(runs["baseline"], data["rows"]), _summary(runs["check"], data["rows"])
    results = {
        "benchmark": NAME,
        "date": dt.datetime.now(dt.timezone.utc).astimezone().isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "python": platform.python_version(),
                    "implementation": platform.python_implementation(), "cpus": os.cpu_count(),
                    "processor": platform.processor() or platform.machine()},
        "rows": data["rows"], "repeat": args.repeat, "generate_seconds": generate_seconds,
        "file": data,
        "memory_measure": memory_measure(),
        "baseline": baseline, "check": check,
        "ratio_check_to_baseline": {
            "best": check["best_seconds"] / baseline["best_seconds"],
            "median": check["median_seconds"] / baseline["median_seconds"],
            "peak_rss": check["peak_rss_bytes"] / baseline["peak_rss_bytes"],
            "cpu_best": check["best_cpu_seconds"] / baseline["best_cpu_seconds"],
            "cpu_median": check["median_cpu_seconds"] / baseline["median_cpu_seconds"],
        },
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(_table(results))
    print(f"results: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
