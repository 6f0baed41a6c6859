"""One office (SLACK_BOT_TOKEN) or many offices on one install (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET): exactly
one, and a line naming the settings when both or neither are set."""
from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings

BASE = {"SLACK_SIGNING_SECRET": "test-signing-secret-0123456789"}
MANY = {"SLACK_CLIENT_ID": "1234567890.0987654321", "SLACK_CLIENT_SECRET": "client-secret-0123456789",
        "PUBLIC_BASE_URL": "https://recount.example.org"}


def _lines(environ: dict[str, str], **kwargs) -> list[str]:
    with pytest.raises(SettingsError) as caught:
        load_settings(environ={**BASE, **environ}, **kwargs)
    return caught.value.lines


def test_one_office_is_its_bot_token() -> None:
    settings = load_settings(environ={**BASE, "SLACK_BOT_TOKEN": "xoxb-1-2"})
    assert not settings.many_offices and settings.slack_bot_token.get_secret_value() == "xoxb-1-2"


def test_many_offices_are_the_apps_client_id_and_secret() -> None:
    settings = load_settings(environ={**BASE, **MANY})
    assert settings.many_offices and settings.slack_bot_token is None


def test_both_modes_at_once_are_refused_naming_the_settings() -> None:
    [line] = _lines({"SLACK_BOT_TOKEN": "xoxb-1-2", **MANY})
    assert line.startswith("SLACK_BOT_TOKEN and SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are both set")


def test_neither_mode_is_refused_naming_the_settings() -> None:
    [line] = _lines({})
    assert line.startswith("SLACK_BOT_TOKEN is not set, nor SLACK_CLIENT_ID and SLACK_CLIENT_SECRET")


def test_half_of_the_many_offices_settings_names_the_other_half() -> None:
    assert _lines({"SLACK_CLIENT_ID": MANY["SLACK_CLIENT_ID"], "PUBLIC_BASE_URL": MANY["PUBLIC_BASE_URL"]}) == [
        "SLACK_CLIENT_SECRET is not set (SLACK_CLIENT_ID is: many offices on one install need both)"]


def test_many_offices_need_the_public_address_slack_sends_installers_back_to() -> None:
    [line] = _lines({k: v for k, v in MANY.items() if k != "PUBLIC_BASE_URL"})
    assert line.startswith("PUBLIC_BASE_URL is not set: many offices on one install need it")


def test_a_malformed_client_id_is_named_with_the_mode_problems_at_once() -> None:
    lines = _lines({**MANY, "SLACK_CLIENT_ID": "not-an-id", "SLACK_SIGNING_SECRET": "short"})
    assert any(line.startswith("SLACK_CLIENT_ID 'not-an-id': must be the app's Client ID") for line in lines)
    assert any(line.startswith("SLACK_SIGNING_SECRET") for line in lines)


def test_socket_mode_serves_one_office_only() -> None:
    lines = _lines({**MANY, "SLACK_APP_TOKEN": "xapp-1-2"}, require_app_token=True)
    assert lines[0].startswith("SLACK_CLIENT_ID: Socket Mode serves one workspace")


def test_an_uploads_reading_limits_have_defaults_and_are_checked() -> None:
    settings = load_settings(environ={**BASE, "SLACK_BOT_TOKEN": "xoxb-1-2"})
    assert (settings.parse_limits.memory_mib, settings.parse_limits.seconds) == (512, 60)
    settings = load_settings(environ={**BASE, "SLACK_BOT_TOKEN": "xoxb-1-2", "UPLOAD_READ_MEMORY_MIB": "1024",
                                      "UPLOAD_READ_SECONDS": "20"})
    assert settings.parse_limits.named == "1,024 MiB / 20 s"
    lines = _lines({"SLACK_BOT_TOKEN": "xoxb-1-2", "UPLOAD_READ_MEMORY_MIB": "64", "UPLOAD_READ_SECONDS": "0"})
    assert lines == ["UPLOAD_READ_MEMORY_MIB '64': Input should be greater than or equal to 128",
                     "UPLOAD_READ_SECONDS '0': Input should be greater than or equal to 1"]
