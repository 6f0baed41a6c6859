"""Long commands show their progress on a terminal (issue 25): `import`, `backup`, `restore` and `audit verify` draw
a bar of rows done, with the rate and the time left, on stderr when it is a terminal (a pseudo-terminal here, as a
person's shell gives them); nothing when stderr is a pipe or a file, or with --quiet, so scripts and logs read
what they read before. Through the real CLI."""
from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios
import threading

from tests.bot.test_cli_db import ROOT
from tests.bot.test_cli_serve import command, environment

EXAMPLE = ROOT / "examples" / "survey-of-returns.csv"
IMPORT = ["import", str(EXAMPLE), "--election-date", "2026-11-03", "--name", "Regular Special District Election",
          "--local-government", "Front Range Districts", "--team", "T0PROGRESS"]


def on_terminal(args: list[str], url: str) -> tuple[int, str, str]:
    """Run the CLI with stderr on a pseudo-terminal of 120 columns: (status, stdout, what the terminal showed)."""
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    process = subprocess.Popen([*command(), *args], stdout=subprocess.PIPE, stderr=side, text=True,
                               env=environment(DATABASE_URL=url), cwd=ROOT)
    os.close(side)
    shown: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other side has closed
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    out, _ = process.communicate(timeout=120)
    reader.join(5)
    os.close(main)
    return process.returncode, out, b"".join(shown).decode("utf-8", "replace")


def piped(args: list[str], url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), *args], capture_output=True, text=True, env=environment(DATABASE_URL=url),
                          cwd=ROOT, timeout=120)


def test_each_long_command_shows_its_progress_on_a_terminal(empty_database_url, tmp_path) -> None:
    status, out, shown = on_terminal(IMPORT, empty_database_url)
    assert status == 0 and "survey of returns version 1 recorded" in out
    assert "reading survey-of-returns.csv" in shown and "writing vote counts" in shown and "100%" in shown
    assert "row/s" in shown

    status, out, shown = on_terminal(["audit", "verify"], empty_database_url)
    assert status == 0 and "audit log intact" in out
    assert "verifying the audit log" in shown and "100%" in shown

    backup = tmp_path / "backup.tar"
    status, out, shown = on_terminal(["backup", str(backup)], empty_database_url)
    assert status == 0 and "backup written" in out
    assert "backing up" in shown and "100%" in shown

    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    status, out, shown = on_terminal(["restore", str(backup)], restored)
    assert status == 0 and "audit log intact" in out
    assert "restoring" in shown and "verifying the audit log" in shown and "100%" in shown


def test_no_progress_on_a_pipe_or_with_quiet(empty_database_url, tmp_path) -> None:
    imported = piped(IMPORT, empty_database_url)
    assert imported.returncode == 0 and imported.stderr == ""
    verified = piped(["audit", "verify"], empty_database_url)
    assert verified.returncode == 0 and verified.stderr == ""
    status, out, shown = on_terminal(["audit", "verify", "--quiet"], empty_database_url)
    assert status == 0 and "audit log intact" in out and shown.strip() == ""
    status, out, shown = on_terminal(["backup", str(tmp_path / "b.tar"), "--quiet"], empty_database_url)
    assert status == 0 and shown.strip() == ""
