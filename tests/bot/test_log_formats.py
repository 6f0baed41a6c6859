"""Log lines in either LOG_FORMAT keep a hostile contest name on its line (through the formatter the commands
install), and the two new settings are checked like the others: named, the token never echoed."""
from __future__ import annotations

import datetime as dt
import io
import json
import logging

import pytest

from bot.commands.log_formats import formatter
from bot.settings import SettingsError, load_settings
from tests.bot.test_cli_db import assert_refused
from tests.bot.test_cli_serve import run_with

HOSTILE = "Pine Ridge\n2026-11-10 09:00:00,000 ERROR recount_bot.check: forged\x1b[2J\u2028\u202eevil\r\x00"
BASE = {"SLACK_BOT_TOKEN": "xoxb-good", "SLACK_SIGNING_SECRET": "a-signing-secret"}


def logged(log_format: str) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter(log_format))
    logger = logging.getLogger(f"recount_bot.test_log_formats.{log_format}")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("contest %s: 3 rows skipped", HOSTILE)
        try:
            raise ValueError(f"no candidates in {HOSTILE}")
        except ValueError:
            logger.exception("checking %s failed; reference ABCD1234", HOSTILE)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_json_lines_carry_a_hostile_contest_name_whole_and_on_one_line() -> None:
    lines = logged("json").split("\n")
    assert lines[-1] == "" and len(lines) == 3  # two records, two lines
    warning, error = (json.loads(line) for line in lines[:2])
    assert warning["message"] == f"contest {HOSTILE}: 3 rows skipped"  # as it was, once parsed
    assert warning["level"] == "WARNING" and warning["logger"] == "recount_bot.test_log_formats.json"
    when = dt.datetime.fromisoformat(warning["time"])
    assert when.utcoffset() is not None and abs(dt.datetime.now(dt.timezone.utc) - when) < dt.timedelta(minutes=1)
    assert "exception" not in warning
    assert error["exception"].startswith("Traceback (most recent call last):")
    assert error["exception"].endswith(f"ValueError: no candidates in {HOSTILE}")
    assert all(line.isascii() and line.isprintable() for line in lines)  # nothing a terminal or a reader acts on


def test_text_lines_escape_control_characters_and_indent_the_traceback() -> None:
    text = logged("text")
    lines = text.splitlines()
    assert lines[0].endswith("WARNING recount_bot.test_log_formats.text: contest Pine Ridge\\n2026-11-10 09:00:00,000 "
                             "ERROR recount_bot.check: forged\\x1b[2J\\u2028\\u202eevil\\r\\x00: 3 rows skipped")
    assert "ERROR recount_bot.test_log_formats.text: checking Pine Ridge\\n2026" in lines[1]
    # The traceback keeps its lines, each indented: none of them (even the hostile name's) starts like a record.
    assert lines[2] == "    Traceback (most recent call last):"
    assert all(line.startswith("    ") for line in lines[2:])
    assert sum(1 for line in lines if line[:4].isdigit()) == 2
    assert "\x1b" not in text and "\x00" not in text and "\u202e" not in text


def test_the_new_settings_are_checked_and_named() -> None:
    with pytest.raises(SettingsError) as bad:
        load_settings(environ={**BASE, "LOG_FORMAT": "xml", "METRICS_TOKEN": "short secret"})
    assert "LOG_FORMAT 'xml': expected one of text, json" in bad.value.lines
    [token_line] = [line for line in bad.value.lines if line.startswith("METRICS_TOKEN")]
    assert "at least 16 characters" in token_line and "short secret" not in token_line
    settings = load_settings(environ={**BASE, "LOG_FORMAT": " JSON ", "METRICS_TOKEN": ""})
    assert settings.log_format == "json" and settings.metrics_token_value is None
    assert load_settings(environ=BASE).log_format == "text"


def test_serve_names_a_bad_log_format_before_anything_else() -> None:
    assert_refused(run_with("serve", LOG_FORMAT="xml"), 2, "LOG_FORMAT 'xml': expected one of text, json")
