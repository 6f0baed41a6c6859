"""`python -m benchmarks [NAME [ARGS...]]`: run one benchmark by name, or all of them.

    python -m benchmarks                 every benchmark, each with its defaults
    python -m benchmarks --repeat 5      every benchmark, each given the same options
    python -m benchmarks check --rows 100000
    python -m benchmarks ack --requests 1000 --concurrency 20
    python -m benchmarks --list

To add a benchmark: write a module here with `main(argv: list[str]) -> int` and add it to BENCHMARKS.
Modules are imported only when run, so one benchmark's imports never slow down or break another.
"""
from __future__ import annotations

import importlib
import sys

# name -> module (in this package) with main(argv) -> int
BENCHMARKS: dict[str, str] = {
    "check": "benchmarks.check_throughput",
    "ack": "benchmarks.ack_latency",
    "reminders": "benchmarks.reminder_poll",
    "app-home": "benchmarks.app_home",
    "import": "benchmarks.import_cost",
    "clarity-detail": "benchmarks.clarity_detail",
    "nist": "benchmarks.nist_reading",
    "serve-memory": "benchmarks.serve_memory",
    "outbox-lookup": "benchmarks.outbox_lookup",
    "audit-seals": "benchmarks.audit_seals",
    "ack-child-kill": "benchmarks.ack_child_kill",
    "workbook": "benchmarks.workbook_reading",
}


def run(name: str, argv: list[str]) -> int:
    module = importlib.import_module(BENCHMARKS[name])
    return module.main(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv[:1] == ["--list"]:
        for name, module in BENCHMARKS.items():
            print(f"{name}\t{module}")
        return 0
    if argv and not argv[0].startswith("-"):
        name, rest = argv[0], argv[1:]
        if name not in BENCHMARKS:
            print(f"benchmarks: unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}", file=sys.stderr)
            return 2
        return run(name, rest)
    status = 0
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        status = status or run(name, argv)
    return status


if __name__ == "__main__":
    sys.exit(main())
