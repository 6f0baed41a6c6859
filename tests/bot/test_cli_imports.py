"""`recount-bot` loads only what the command it runs needs (issue 25 item 3's memory): bot/cli.py imports every
command module to list them all in `--help`, so a module's top may import only what is cheap; a command's heavy
libraries are imported by the function that runs it. `check` held 33 MiB before it read a byte while the listing
carried holidays, jsonschema and OpenSSL, 21.5 MiB without them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "returns"

# The libraries no command should load just by being listed, nor `check` of a CSV file by running.
HEAVY = ("jsonschema", "referencing", "rpds", "holidays", "_hashlib", "sqlalchemy", "alembic", "slack_bolt",
         "slack_sdk", "openpyxl", "python_calamine", "fpdf", "waitress", "tqdm", "pythonjsonlogger", "webbrowser",
         "storage", "handlers")


def loaded_after(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_listing_the_commands_loads_no_heavy_library() -> None:
    loaded = loaded_after("import bot.cli\nbot.cli.build_parser().format_help()")
    assert loaded.isdisjoint(HEAVY), sorted(loaded.intersection(HEAVY))


def test_check_of_a_csv_file_loads_no_heavy_library() -> None:
    csv_file = FIXTURES / "template_small.csv"
    code = ("import contextlib, io\nimport bot.cli\nwith contextlib.redirect_stdout(io.StringIO()):\n"
            f"    bot.cli.main(['check', {str(csv_file)!r}, '--format', 'json'])")
    loaded = loaded_after(code)
    assert loaded.isdisjoint(HEAVY), sorted(loaded.intersection(HEAVY))


def test_check_of_a_nist_file_still_validates_with_jsonschema() -> None:
    nist = FIXTURES / "nist_small.json"
    code = ("import contextlib, io\nimport bot.cli\nwith contextlib.redirect_stdout(io.StringIO()):\n"
            f"    bot.cli.main(['check', {str(nist)!r}, '--format', 'json'])")
    assert "jsonschema" in loaded_after(code)
