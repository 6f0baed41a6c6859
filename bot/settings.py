"""Process settings from the environment, validated by pydantic.

A missing or malformed setting stops start-up with one clear line per setting, naming it; no
traceback. Secrets are `SecretStr` so they never appear in logs or error messages.
"""
from __future__ import annotations

import os
import re
from typing import Iterable

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from handlers.slack_io.reading_child import (
    DEFAULT_MEMORY_MIB,
    DEFAULT_SECONDS,
    MEMORY_ENV,
    MIN_MEMORY_MIB,
    SECONDS_ENV,
    ParseLimits,
)
from services.public_url import check_public_base_url
from storage.db import DEFAULT_DATABASE_URL, DatabaseUrlError, normalise_url

SLACK_API_DEFAULT = "https://slack.com/api/"
LOG_FORMATS = ("text", "json")
MIN_METRICS_TOKEN = 16


class SettingsError(Exception):
    """One line per bad setting, each naming the environment variable."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        super().__init__("; ".join(self.lines))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(case_sensitive=True, extra="ignore", populate_by_name=False)

    # Exactly one of two modes (checked in load_settings): one office, one workspace's bot token; or many
    # offices on one install, each workspace installing the app through Slack's OAuth flow (bot/slack/oauth.py).
    slack_bot_token: SecretStr | None = Field(default=None, alias="SLACK_BOT_TOKEN")
    slack_client_id: str | None = Field(default=None, alias="SLACK_CLIENT_ID")
    slack_client_secret: SecretStr | None = Field(default=None, alias="SLACK_CLIENT_SECRET")
    slack_signing_secret: SecretStr = Field(alias="SLACK_SIGNING_SECRET")
    slack_app_token: SecretStr | None = Field(default=None, alias="SLACK_APP_TOKEN")
    database_url: str = Field(default=DEFAULT_DATABASE_URL, alias="DATABASE_URL")
    port: int = Field(default=3000, ge=1, le=65535, alias="PORT")
    slack_api_base_url: str = Field(default=SLACK_API_DEFAULT, alias="SLACK_API_BASE_URL")
    # Where people reach `recount-bot serve` from outside (certificate links); default http://localhost:PORT.
    public_base_url: str | None = Field(default=None, alias="PUBLIC_BASE_URL")
    # A bearer token GET /metrics requires when set; unset, /metrics answers only on this machine (bot/web/metrics.py).
    metrics_token: SecretStr | None = Field(default=None, alias="METRICS_TOKEN")
    # "json": every log line a JSON object (bot/commands/log_formats.py). Read by logging before the other
    # settings (log_format()); here so that a bad value is named with them.
    log_format: str = Field(default="text", alias="LOG_FORMAT")
    # How much reading an uploaded results file may take, in a process of its own (handlers/slack_io/
    # reading_child.py): the child's memory (MiB of address space) and the whole read's time (seconds).
    upload_read_memory_mib: int = Field(default=DEFAULT_MEMORY_MIB, ge=MIN_MEMORY_MIB, le=1 << 20, alias=MEMORY_ENV)
    upload_read_seconds: int = Field(default=DEFAULT_SECONDS, ge=1, le=3600, alias=SECONDS_ENV)

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith("xoxb-"):
            raise ValueError("must be a bot token starting with xoxb-")
        return value

    @field_validator("slack_client_id")
    @classmethod
    def _client_id(cls, value: str | None) -> str | None:
        # Slack's client ids are digits, a dot, digits ("1234567890.0987654321"); the installation store keeps
        # at most 32 characters of it.
        if value is not None and not re.fullmatch(r"[0-9]{1,15}\.[0-9]{1,16}", value.strip()):
            raise ValueError("must be the app's Client ID from Basic Information, like 1234567890.0987654321")
        return value.strip() if value is not None else None

    @field_validator("slack_client_secret")
    @classmethod
    def _client_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().strip()) < 8:
            raise ValueError("is too short to be a Slack client secret")
        return value

    @field_validator("slack_signing_secret")
    @classmethod
    def _signing_secret(cls, value: SecretStr) -> SecretStr:
        if len(value.get_secret_value().strip()) < 8:
            raise ValueError("is too short to be a Slack signing secret")
        return value

    @field_validator("slack_app_token")
    @classmethod
    def _app_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith("xapp-"):
            raise ValueError("must be an app-level token starting with xapp-")
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        try:
            return normalise_url(value)
        except DatabaseUrlError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("slack_api_base_url")
    @classmethod
    def _base_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value if value.endswith("/") else value + "/"

    @field_validator("public_base_url")
    @classmethod
    def _public_base_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return check_public_base_url(value)

    @field_validator("metrics_token")
    @classmethod
    def _metrics_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        token = value.get_secret_value()
        if len(token) < MIN_METRICS_TOKEN or any(c.isspace() or not c.isprintable() for c in token):
            raise ValueError(f"must be at least {MIN_METRICS_TOKEN} characters with no spaces (for instance the "
                             "output of: python3 -c 'import secrets; print(secrets.token_urlsafe(32))')")
        return value

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, value: str) -> str:
        return check_log_format(value)

    @property
    def metrics_token_value(self) -> str | None:
        return self.metrics_token.get_secret_value() if self.metrics_token is not None else None

    @property
    def parse_limits(self) -> ParseLimits:
        return ParseLimits(memory_mib=self.upload_read_memory_mib, seconds=self.upload_read_seconds)

    @property
    def many_offices(self) -> bool:
        """Many offices on one install (Slack's OAuth flow), not one office's SLACK_BOT_TOKEN."""
        return self.slack_client_id is not None

    @property
    def links_base_url(self) -> str:
        """The start of every link the bot posts to its own HTTP server."""
        return self.public_base_url or f"http://localhost:{self.port}"


def check_log_format(value: str) -> str:
    chosen = (value or "").strip().lower() or "text"
    if chosen not in LOG_FORMATS:
        raise ValueError(f"expected one of {', '.join(LOG_FORMATS)}")
    return chosen


def log_format(environ: dict[str, str] | None = None) -> str:
    """LOG_FORMAT as logging reads it, before the other settings are loaded; ValueError when it is neither."""
    return check_log_format((os.environ if environ is None else environ).get("LOG_FORMAT", ""))


def _describe(error: dict) -> str:
    name = error["loc"][0] if error["loc"] else "setting"
    if error["type"] == "missing":
        return f"{name} is not set"
    message = error["msg"].removeprefix("Value error, ")
    value = error.get("input")
    if "TOKEN" in str(name) or "SECRET" in str(name) or not isinstance(value, str):
        shown = ""
    elif name == "DATABASE_URL":
        shown = f" {_without_password(value)!r}"
    elif name == "PUBLIC_BASE_URL" and "@" in value:
        shown = ""  # it may carry a user and password
    else:
        shown = f" {value!r}"
    return f"{name}{shown}: {message}"


def _without_password(url: str) -> str:
    """A database URL as it may be shown in an error: never with its password."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not parseable as a URL: show only the scheme
        return url.split("://", 1)[0] + "://…" if "://" in url else "…"


ONE_OFFICE = "SLACK_BOT_TOKEN"
MANY_OFFICES = ("SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET")


def mode_problems(source: dict[str, str] | os._Environ, *, socket_mode: bool = False) -> list[str]:
    """Exactly one mode: SLACK_BOT_TOKEN (one office), or SLACK_CLIENT_ID with SLACK_CLIENT_SECRET (many
    offices, each installing through /slack/install). Lines naming the settings when both or neither are set."""
    has_token = bool((source.get(ONE_OFFICE) or "").strip())
    given = [name for name in MANY_OFFICES if (source.get(name) or "").strip()]
    if has_token and given:
        return [f"{ONE_OFFICE} and {' and '.join(given)} are both set: set {ONE_OFFICE} for one office's "
                f"workspace, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET for many offices installing through "
                f"/slack/install, not both"]
    if not has_token and not given:
        return [f"{ONE_OFFICE} is not set, nor SLACK_CLIENT_ID and SLACK_CLIENT_SECRET: set {ONE_OFFICE} (xoxb-...) "
                f"for one office's workspace, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET for many offices "
                f"installing through /slack/install"]
    if given and len(given) < len(MANY_OFFICES):
        missing = next(name for name in MANY_OFFICES if name not in given)
        return [f"{missing} is not set ({given[0]} is: many offices on one install need both)"]
    if given and not (source.get("PUBLIC_BASE_URL") or "").strip():
        return ["PUBLIC_BASE_URL is not set: many offices on one install need it, because Slack sends each "
                "installer back to PUBLIC_BASE_URL/slack/oauth_redirect (the Redirect URL in the app's OAuth & "
                "Permissions)"]
    if given and socket_mode:
        return ["SLACK_CLIENT_ID: Socket Mode serves one workspace; many offices on one install need "
                "`recount-bot serve` behind a public HTTPS address (unset SLACK_CLIENT_ID and "
                "SLACK_CLIENT_SECRET and set SLACK_BOT_TOKEN)"]
    return []


def load_settings(*, require_app_token: bool = False, environ: dict[str, str] | None = None) -> Settings:
    """Read settings from the environment (or `environ`); raise SettingsError naming each bad one."""
    missing_app_token = "SLACK_APP_TOKEN is not set (Socket Mode needs an app-level token, xapp-...)"
    source = os.environ if environ is None else environ
    modes = mode_problems(source, socket_mode=require_app_token)  # every problem at once, not one round each
    try:
        if environ is None:
            settings = Settings()
        else:
            settings = Settings.model_validate({k: v for k, v in environ.items()})
    except ValidationError as exc:
        lines = [_describe(e) for e in exc.errors()]
        if require_app_token and not source.get("SLACK_APP_TOKEN"):
            lines.append(missing_app_token)
        raise SettingsError(modes + lines) from None
    if modes:
        raise SettingsError(modes)
    if require_app_token and settings.slack_app_token is None:
        raise SettingsError([missing_app_token])
    return settings
