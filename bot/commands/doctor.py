"""`recount-bot doctor`: check an install end to end, one line per check with what to fix.

Exit 0 only when every check holds; 1 when any fails or could not be checked (bad settings included: doctor's
job is to list them, with everything else it can still check); 2 for bad arguments.
"""
from __future__ import annotations

import argparse
import json


def register(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help="check this install end to end: settings, database, Slack token "
                                                  "and scopes, approvals channel, public URL, worker, outbox, "
                                                  "audit log (exit 0 only when all hold)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or json")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.doctor.findings import Status
    from bot.doctor.run import run_checks

    findings = run_checks()
    healthy = all(f.status is Status.OK for f in findings)
    if args.format == "json":
        print(json.dumps({"ok": healthy, "checks": [f.as_json() for f in findings]}, indent=2))
    else:
        for finding in findings:
            print(finding.line())
        failed = sum(f.status is Status.FAIL for f in findings)
        skipped = sum(f.status is Status.SKIPPED for f in findings)
        print(f"doctor: all {len(findings)} checks hold" if healthy else
              f"doctor: {failed} of {len(findings)} checks failed" + (f", {skipped} not checked" if skipped else ""))
    return 0 if healthy else 1
