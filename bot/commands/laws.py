"""`recount-bot laws`: the recount laws the bot knows, side by side, as the reference page docs/reference/
recount-laws.md (generated from the profiles in rules/laws; `--output FILE` writes it there)."""
from __future__ import annotations

import argparse
from pathlib import Path

from bot.commands.errors import UsageError
from rules.laws.table import comparison_markdown


def register(subparsers) -> None:
    parser = subparsers.add_parser("laws", help="the recount laws side by side (Markdown)")
    parser.add_argument("--output", type=Path, default=None,
                        help="write the page to this file (e.g. docs/reference/recount-laws.md) instead of stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    page = comparison_markdown()
    if args.output is None:
        print(page, end="")
        return 0
    try:
        args.output.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--output {args.output}: cannot write ({exc.strerror})") from None
    print(f"Wrote {args.output} ({len(page.splitlines())} lines).")
    return 0
