"""docs/admin/deploying.md and deploy/ stay true: every `recount-bot ...` command they give parses with the real CLI
parser, every setting they name is one recount-bot reads (and the settings file lists them all), and the
systemd units parse and run commands that exist."""
from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path

import pytest

from tests.docs.pages import DOCS, README, ROOT, command_lines, known_settings, parses

GUIDE = DOCS / "admin" / "deploying.md"
DEPLOY = ROOT / "deploy"
ENV_EXAMPLE = DEPLOY / "recount-bot.env.example"
UNITS = sorted(DEPLOY.glob("*.service"))


def test_the_command_finder_finds_commands_and_not_paths() -> None:
    text = ("  ```sh\n  sudo -u recount recount-bot doctor --format json | head\n"
            "mkdir -p /etc/recount-bot /var/lib/recount-bot\n/invite @recount-bot\n"
            "0 * * * * recount /usr/local/bin/recount-bot audit checkpoint /x.json  # hourly\n  ```\n"
            "Then `recount-bot db upgrade` and `recount-bot-serve`.\n")
    assert command_lines(text) == [["doctor", "--format", "json"], ["audit", "checkpoint", "/x.json"],
                                   ["db", "upgrade"]]
    with pytest.raises(AssertionError, match="does not parse"):
        parses(["doctor", "--colour"])


def test_every_command_in_the_guide_parses() -> None:
    lines = command_lines(GUIDE.read_text(encoding="utf-8"))
    commands = {getattr(parses(args), "command_name", None) or args[0] for args in lines}
    # The guide walks through all of these; a lost section would leave one out.
    assert {"doctor", "db upgrade", "audit checkpoint", "audit verify"} <= commands, commands


def test_every_setting_the_guide_names_is_read_and_every_one_is_there() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    named = set(re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT)(?:=[^`]*)?`", text))
    assert named - known_settings() == set(), "settings the guide names that recount-bot does not read"
    assert known_settings() - named == set(), "settings recount-bot reads that the guide's table leaves out"


def test_the_settings_file_lists_exactly_the_settings() -> None:
    names = re.findall(r"^#?([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(encoding="utf-8"), re.M)
    assert len(names) == len(set(names)), names
    assert set(names) == known_settings()


def _unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",),
                                       comment_prefixes=("#", ";"))
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read_string(path.read_text(encoding="utf-8"), source=str(path))
    return parser


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_each_unit_parses_and_runs_a_command_that_exists(path: Path) -> None:
    unit = _unit(path)
    assert {"Unit", "Service"} <= set(unit.sections())
    service = unit["Service"]
    executable, *args = shlex.split(service["ExecStart"])
    assert executable == "/opt/recount-bot/.venv/bin/recount-bot"
    parses(args)
    assert service["User"] == "recount" and service["EnvironmentFile"] == "/etc/recount-bot/recount-bot.env"
    assert service["NoNewPrivileges"] == "true" and service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == "/var/lib/recount-bot"
    assert path.name in GUIDE.read_text(encoding="utf-8")


def test_the_units_are_the_three_the_guide_installs() -> None:
    assert [p.name for p in UNITS] == ["recount-bot-checkpoint.service", "recount-bot-serve.service",
                                       "recount-bot-worker.service"]
    serve = _unit(DEPLOY / "recount-bot-serve.service")["Service"]["ExecStart"]
    assert "--no-worker" in serve, "the worker unit delivers; serve must not run a second worker"
    timer = _unit(DEPLOY / "recount-bot-checkpoint.timer")
    assert timer["Timer"]["OnCalendar"] == "hourly"


def test_the_readme_links_the_guide() -> None:
    assert "(docs/admin/deploying.md)" in README.read_text(encoding="utf-8")
