"""`python -m tests.support.measured_cli LIMIT_MIB ARGS...`: the real `recount-bot ARGS...` (bot.cli.main, in this
process), its address space capped at LIMIT_MIB (RLIMIT_AS: an allocation past it fails instead of taking the
machine), and its peak resident memory (VmHWM, Linux) written as the last line of stderr:

    peak-rss-kib 41234

Tests of hostile files run it in a subprocess and assert the command answered within the cap and how much it
held at most. (Linux's ru_maxrss carries a parent's peak into its child: VmHWM is this process's own.)
"""
from __future__ import annotations

import resource
import sys


def peak_rss_kib() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> int:
    limit = int(sys.argv[1]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from bot.cli import main as cli

    try:
        status = cli(sys.argv[2:])
    finally:
        sys.stdout.flush()
        print(f"peak-rss-kib {peak_rss_kib()}", file=sys.stderr, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
