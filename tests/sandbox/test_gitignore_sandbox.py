"""What the offline sandbox leaves in the working directory is git-ignored: its database and the clock file kept
beside it (sandbox.clock.clock_file), so `git status` stays clean after `python3 dev.py run`."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bot.commands.sandbox import OFFLINE_DATABASE_URL
from sandbox.clock import clock_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_sandbox_database_and_its_clock_file_are_ignored_by_git() -> None:
    clock = clock_file(OFFLINE_DATABASE_URL)
    database = Path(OFFLINE_DATABASE_URL.removeprefix("sqlite:///"))
    for name in (database.name, clock.name):
        result = subprocess.run(["git", "check-ignore", "--no-index", "-q", name], cwd=ROOT)
        assert result.returncode == 0, f"{name} is not git-ignored"
