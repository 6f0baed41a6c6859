"""Reading a large Clarity detail.xml: our reader against a bare `xml.etree.ElementTree.parse` of the same bytes.

    python -m benchmarks clarity-detail [--sizes 5,50] [--repeat N] [--out PATH] [--keep]

1. Synthesizes, for each size in MB (default 5 and 50), a precinct-level detail.xml built from a real
   file's structure: the Atkinson County, Georgia 2020 file in tests/fixtures/returns/ (a VoterTurnout of
   precincts; per contest, Undervotes and Overvotes VoteTypes of precincts, then Choices with four vote
   types of precincts each). Its contests are repeated under new names and its 4 precincts widened to 40
   (votes taken from the real ones in turn), until the file reaches the size. Every VoteType's votes and
   Choice's totalVotes are the sums of what they hold, so the reader's cross-checks all pass.
2. Runs, --repeat times each (default 3), alternating, every run in a fresh subprocess:
   - baseline: `ET.parse(io.BytesIO(data))`, the least any reader built on the standard library does
     (the whole tree, nothing read from it);
   - reader: `rules.returns.read_returns(data)`: detection, the streaming parse of every contest, the
     cross-checks and `build.finish`, exactly what `check` does before deciding. Its totals are then
     compared with the generator's, so a fast wrong answer fails the benchmark.
   The child reads the file before the clock starts and times only the work (`time.perf_counter`); its
   peak RSS is VmHWM (see benchmarks/check_throughput.py for why not ru_maxrss), with the peak before
   the work, so the growth due to the work is shown too.
3. Prints a table per size (best and median seconds, MB/s, peak RSS, growth; reader/baseline ratios) and
   writes everything to benchmarks/out/clarity_detail.json.
"""
from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import quoteattr

from benchmarks.check_throughput import _child_env, _max_rss_bytes, memory_measure

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT_DIR = HERE / "out"
NAME = "clarity_detail"
SOURCE = ROOT / "tests" / "fixtures" / "returns" / "clarity_ga_atkinson_2020_detail_small.xml"
PRECINCTS = 40


# ------------------------------------------------------------------------------------- the file

def generate(path: Path, megabytes: float) -> dict:
    """Write the synthetic file; return what the reader must find (contests, sum of every choice's votes)."""
    real = ET.parse(SOURCE).getroot()
    names = [p.get("name") for p in real.find("VoterTurnout").iter("Precinct")]
    precincts = [f"{names[i % len(names)]} {i // len(names) + 1}" for i in range(PRECINCTS)]
    target = int(megabytes * 1_000_000)
    out = ['<?xml version="1.0"?>\n<!--Election result snapshot imported from Tabulation System\n-->\n',
           "<ElectionResult>\n    <Timestamp>11/6/2020 1:05:50 PM EST</Timestamp>\n",
           "    <ElectionName>November 3,2020-General Election</ElectionName>\n",
           "    <ElectionDate>11/3/2020</ElectionDate>\n    <Region>Atkinson</Region>\n",
           '    <VoterTurnout totalVoters="48000" ballotsCast="31720" voterTurnout="66.10">\n        <Precincts>\n']
    out += [f'            <Precinct name={quoteattr(p)} totalVoters="1200" ballotsCast="793" voterTurnout="66.10" '
            'percentReporting="4" />\n' for p in precincts]
    out.append("        </Precincts>\n    </VoterTurnout>\n")
    size = sum(map(len, out))
    contests = grand_total = 0
    while size < target:
        for contest in real.iter("Contest"):
            contests += 1
            part, votes = _contest(contest, contests, precincts)
            out.append(part)
            size += len(part)
            grand_total += votes
            if size >= target:
                break
    out.append("</ElectionResult>\n")
    data = "".join(out).encode("utf-8")
    path.write_bytes(data)
    return {"path": str(path), "bytes": len(data), "contests": contests, "precincts": PRECINCTS,
            "total_votes": grand_total}


def _contest(contest: ET.Element, n: int, precincts: list[str]) -> tuple[str, int]:
    text = quoteattr(f"{contest.get('text')} #{n}")
    lines = [f'    <Contest key="{n}" text={text} voteFor="1" isQuestion="false" '
             f'precinctsReporting="{len(precincts)}" precinctsReported="{len(precincts)}">\n']
    for vote_type in contest.findall("VoteType"):
        lines += _vote_type(vote_type, precincts, "        ")
    total = 0
    for choice in contest.findall("Choice"):
        body: list[str] = []
        choice_total = 0
        for vote_type in choice.findall("VoteType"):
            part = _vote_type(vote_type, precincts, "            ")
            body += part
            choice_total += int(part[0].rsplit('votes="', 1)[1].split('"')[0])
        lines.append(f'        <Choice key="{choice.get("key")}" text={quoteattr(choice.get("text"))} '
                     f'party="{choice.get("party")}" totalVotes="{choice_total}">\n')
        lines += body
        lines.append("        </Choice>\n")
        total += choice_total
    lines.append("    </Contest>\n")
    return "".join(lines), total


def _vote_type(vote_type: ET.Element, precincts: list[str], indent: str) -> list[str]:
    real = [int(p.get("votes")) for p in vote_type.iter("Precinct")] or [0]
    votes = [real[i % len(real)] + i % 3 for i in range(len(precincts))]  # the real figures, a little varied
    return ([f"{indent}<VoteType name={quoteattr(vote_type.get('name'))} votes=\"{sum(votes)}\">\n"]
            + [f'{indent}    <Precinct name={quoteattr(p)} votes="{v}" />\n' for p, v in zip(precincts, votes)]
            + [f"{indent}</VoteType>\n"])


# ------------------------------------------------------------------------------------- in the child

def _child(mode: str, path: str) -> int:
    data = Path(path).read_bytes()
    if mode == "reader":
        from rules.returns import read_returns
        from rules.returns.registry import READERS, module

        for name in READERS:  # every reader module imported before the clock starts (detection imports lazily)
            module(name)
    before = _max_rss_bytes()
    start = time.perf_counter()
    if mode == "baseline":
        tree = ET.parse(io.BytesIO(data))
        seconds = time.perf_counter() - start
        result = {"elements": sum(1 for _ in tree.iter())}
    else:
        returns = read_returns(data)
        seconds = time.perf_counter() - start
        result = {"contests": len(returns.contests), "undecided": len(returns.undecided),
                  "total_votes": sum(sum(c.totals.values()) for c in returns.contests),
                  "source_format": returns.source_format}
    result.update(seconds=seconds, rss_before_work=before, peak_rss=_max_rss_bytes())
    print(json.dumps(result))
    return 0


# ------------------------------------------------------------------------------------- in the parent

def _run(args: list[str]) -> dict:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "benchmarks.clarity_detail", *args], capture_output=True, text=True,
                          cwd=ROOT, env=_child_env())
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed (exit {proc.returncode}):\n{proc.stderr}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_seconds"] = time.perf_counter() - start
    return result


def _summary(runs: list[dict], size: int) -> dict:
    seconds = [r["seconds"] for r in runs]
    peaks, befores = [r["peak_rss"] for r in runs], [r["rss_before_work"] for r in runs]
    return {"best_seconds": min(seconds), "median_seconds": statistics.median(seconds),
            "mb_per_second_best": size / 1e6 / min(seconds), "peak_rss_bytes": max(peaks),
            "peak_rss_growth_bytes": max(p - b for p, b in zip(peaks, befores))}


def _table(entry: dict) -> str:
    file = entry["file"]
    rows = [("", "best s", "median s", "MB/s (best)", "peak RSS", "growth")]
    for name in ("baseline", "reader"):
        s = entry[name]
        rows.append((name if name == "reader" else "ET.parse", f"{s['best_seconds']:.3f}", f"{s['median_seconds']:.3f}",
                     f"{s['mb_per_second_best']:.1f}", f"{s['peak_rss_bytes'] / 2**20:,.0f} MiB",
                     f"{s['peak_rss_growth_bytes'] / 2**20:,.0f} MiB"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    ratio = entry["ratio_reader_to_baseline"]
    return "\n".join([f"{file['bytes'] / 1e6:,.1f} MB, {file['contests']:,} contests x {file['precincts']} precincts",
                      *lines, f"reader / ET.parse: {ratio['best']:.2f}x (best), {ratio['median']:.2f}x (median) "
                      f"wall time; peak RSS {ratio['peak_rss']:.2f}x, growth {ratio['growth']:.2f}x"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks clarity-detail", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5,50", help="file sizes in MB, comma-separated (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (default %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT_DIR / f"{NAME}.json", help="JSON results (default %(default)s)")
    parser.add_argument("--keep", action="store_true", help="keep the synthetic files in benchmarks/out/")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--generate", nargs=2, metavar=("FILE", "MB"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(*args.child)
    if args.generate:
        print(json.dumps(generate(Path(args.generate[0]), float(args.generate[1]))))
        return 0
    sizes = [float(s) for s in args.sizes.split(",") if s.strip()]
    if args.repeat < 1 or not sizes or min(sizes) <= 0:
        parser.error("--repeat must be at least 1 and --sizes positive")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    entries = []
    for mb in sizes:
        path = OUT_DIR / f"clarity-detail-{mb:g}MB.xml"
        print(f"clarity_detail: generating {mb:g} MB ...", file=sys.stderr, flush=True)
        file = _run(["--generate", str(path), str(mb)])  # its own process: the parent stays small
        try:
            runs: dict[str, list[dict]] = {"baseline": [], "reader": []}
            for i in range(args.repeat):
                for mode in runs:
                    print(f"clarity_detail: {mb:g} MB, run {i + 1}/{args.repeat}: {mode} ...", file=sys.stderr,
                          flush=True)
                    runs[mode].append(_run(["--child", mode, str(path)]))
        finally:
            if not args.keep:
                path.unlink(missing_ok=True)
        for run in runs["reader"]:
            got = (run["source_format"], run["contests"], run["undecided"], run["total_votes"])
            if got != ("clarity-detail", file["contests"], 0, file["total_votes"]):
                raise RuntimeError(f"the reader read {got}, the file has {file['contests']} contests and "
                                   f"{file['total_votes']} votes, none undecided")
        baseline, reader = _summary(runs["baseline"], file["bytes"]), _summary(runs["reader"], file["bytes"])
        entry = {"file": file, "baseline": baseline, "reader": reader, "runs": runs, "ratio_reader_to_baseline": {
            "best": reader["best_seconds"] / baseline["best_seconds"],
            "median": reader["median_seconds"] / baseline["median_seconds"],
            "peak_rss": reader["peak_rss_bytes"] / baseline["peak_rss_bytes"],
            "growth": reader["peak_rss_growth_bytes"] / max(1, baseline["peak_rss_growth_bytes"])}}
        entries.append(entry)
        print(_table(entry) + "\n", flush=True)
    results = {"benchmark": NAME, "date": dt.datetime.now(dt.timezone.utc).astimezone().isoformat(timespec="seconds"),
               "machine": {"platform": platform.platform(), "python": platform.python_version(),
                           "cpus": os.cpu_count()},
               "repeat": args.repeat, "memory_measure": memory_measure(), "sizes": entries}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"peak RSS: {memory_measure()}; growth = peak minus the peak before the timed work\nresults: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
