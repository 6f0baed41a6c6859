"""`python3 dev.py run --console` and `python3 dev.py run --page-port N`, as the README's quick start says: dev.py
hands options without a command to `recount-bot run`. Through the real dev.py, in a terminal (a pseudo-terminal)
for the console."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.bot.test_cli_serve import environment, free_port, stop

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import dev  # noqa: E402  (dev.py is a script at the root)


@pytest.mark.parametrize("given, handed", [
    ([], ["run"]),
    (["--console"], ["run", "--console"]),
    (["--page-port", "4000", "--fresh"], ["run", "--page-port", "4000", "--fresh"]),
    (["--debug", "--console"], ["--debug", "run", "--console"]),
    (["--debug"], ["--debug", "run"]),
    (["check", "examples/survey-of-returns.csv"], ["check", "examples/survey-of-returns.csv"]),
    (["--debug", "serve"], ["--debug", "serve"]),
    (["--help"], ["--help"]),
])
def test_dev_run_hands_options_without_a_command_to_run(given, handed) -> None:
    assert dev.cli_arguments(given) == handed


def read_until(fd: int, wanted: str, timeout: float = 90) -> str:
    seen = ""
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {wanted!r} within {timeout}s; saw: {seen[-2000:]}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536).decode("utf-8", "replace")
            except OSError:  # the terminal closed: the process ended
                raise AssertionError(f"ended before {wanted!r}; saw: {seen[-2000:]}") from None
            if not chunk:
                raise AssertionError(f"ended before {wanted!r}; saw: {seen[-2000:]}")
            seen += chunk
    return seen


def test_dev_run_console_gives_a_console_at_the_terminal() -> None:
    main, secondary = pty.openpty()
    process = subprocess.Popen([sys.executable, str(ROOT / "dev.py"), "run", "--console", "--fresh"],
                               stdin=secondary, stdout=secondary, stderr=secondary, close_fds=True,
                               env=environment(PORT=str(free_port())))
    os.close(secondary)
    try:
        shown = read_until(main, "(official)> ")
        assert "recount-bot offline" in shown and "page:" not in shown  # the console, not the web page
        os.write(main, b"/recount check\n")
        answered = read_until(main, "(official)> ")
        assert "Bear Creek Fire Protection District - Ballot Issue 6A" in answered
        os.write(main, b"quit\n")
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)


def test_dev_run_page_port_serves_the_page_on_that_port(tmp_path) -> None:
    page_port = free_port()
    process = subprocess.Popen([sys.executable, str(ROOT / "dev.py"), "run", "--page-port", str(page_port), "--fresh"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment(PORT=str(free_port())))
    try:
        lines = []
        while "serving until interrupted" not in "".join(lines):
            line = process.stdout.readline()
            assert line, f"ended early: {lines} {process.stderr.read()}"
            lines.append(line)
        assert f"page:        http://127.0.0.1:{page_port}/" in "".join(lines), lines
        with urllib.request.urlopen(f"http://127.0.0.1:{page_port}/", timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
    finally:
        assert stop(process)[0] == 0
