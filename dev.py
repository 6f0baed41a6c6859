#!/usr/bin/env python3
"""One entry point for people and CI: sets up its own virtual environment, then runs.

    python3 dev.py run [ARGS...]    run the bot (see README); ARGS go to `recount-bot` (no command: `run`)
    python3 dev.py test [ARGS...]   run the whole test suite; ARGS go to pytest
    python3 dev.py lint             ruff (lint and import order) over the tree, then mypy over rules/ and services/
    python3 dev.py bench [NAME]     run the benchmarks in benchmarks/

Only the standard library is used here, because this file runs before anything is installed.
The environment lives in .venv/ and is reinstalled when pyproject.toml changes (a stamp file
holds the hash of the pyproject it was built from), so a fresh clone needs nothing but Python.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".recount-bot-installed"
MIN_PYTHON = (3, 11)


def _venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def _wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} python{sys.version_info[0]}.{sys.version_info[1]}"


def ensure_environment() -> Path:
    """Create .venv and install the project with its test extras, once per pyproject change."""
    if sys.version_info < MIN_PYTHON:
        sys.exit(f"recount-bot needs Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer; this is {sys.version.split()[0]}")
    python = _venv_python()
    if not python.exists():
        print("dev.py: creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    wanted = _wanted_stamp()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        print("dev.py: installing recount-bot and its dependencies into .venv ...", file=sys.stderr)
        quiet = [] if os.environ.get("DEV_VERBOSE") else ["--quiet"]
        subprocess.run([str(python), "-m", "pip", "install", *quiet, "--upgrade", "pip"], check=True)
        subprocess.run([str(python), "-m", "pip", "install", *quiet, "-e", f"{ROOT}[test]"], check=True)
        _checkout_on_path(python)
        STAMP.write_text(wanted + "\n")
    return python


def _checkout_on_path(python: Path) -> None:
    """Put the checkout itself on the environment's import path. The installed package is the product alone
    (rules, storage, services, handlers, bot: what an office's server runs); the rehearsal tooling (sandbox/:
    the offline page, the console, the Slack stand-in), the tests and the benchmarks are imported from the
    checkout, here and in every process the tests start (`.venv/bin/recount-bot sandbox`)."""
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "recount-bot-checkout.pth").write_text(f"{ROOT}\n")


GLOBAL_OPTIONS = {"--debug"}  # recount-bot's own options, before its command
HELP = {"-h", "--help"}


def cli_arguments(rest: list[str]) -> list[str]:
    """`dev.py run ARGS`: ARGS for `recount-bot`. Without a command (nothing, or only options such as
    `--console --page-port 4000`), the command is `run`, as the README's quick start has it:
    `python3 dev.py run --console` is `recount-bot run --console`; `dev.py run check FILE` is `check FILE`."""
    leading = 0
    while leading < len(rest) and rest[leading] in GLOBAL_OPTIONS:
        leading += 1
    following = rest[leading:]
    if following and (not following[0].startswith("-") or following[0] in HELP):
        return rest
    return [*rest[:leading], "run", *following]


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "bench", "lint"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    python = ensure_environment()
    os.chdir(ROOT)
    if command == "lint":
        # Both always run, so one report shows every finding; the exit status is the worse of the two.
        ruff = subprocess.call([str(python), "-m", "ruff", "check", ".", *rest])
        mypy = subprocess.call([str(python), "-m", "mypy"])  # files and options: [tool.mypy] in pyproject.toml
        return max(ruff, mypy)
    if command == "run":
        args = [str(python), "-m", "bot.cli", *cli_arguments(rest)]
    elif command == "test":
        args = [str(python), "-m", "pytest", *rest]
    else:
        args = [str(python), "-m", "benchmarks", *rest]
    # exec keeps signals (Ctrl-C) and the exit status those of the real program.
    if os.name == "nt":
        return subprocess.call(args)
    os.execv(args[0], args)
    return 0  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
