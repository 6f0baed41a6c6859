"""Where people reach the bot's HTTP server, for the links a use case makes (observers' pages, certificates).

Read from the environment when a link is made, as every process (serve, worker, the deferred child) sees it;
bot/settings.py validates the same setting at start-up.
"""
from __future__ import annotations

import os
from urllib.parse import urlsplit


def check_public_base_url(value: str) -> str:
    """PUBLIC_BASE_URL as links are built from it: http(s)://host[:port][/path], without a trailing slash."""
    cleaned = value.strip()
    try:
        parts = urlsplit(cleaned)
        parts.port  # noqa: B018 - a malformed port raises here
    except ValueError:
        raise ValueError("must be an http:// or https:// URL like https://recount.example.org") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an http:// or https:// URL like https://recount.example.org")
    if parts.query or parts.fragment or parts.username or parts.password or any(c.isspace() for c in cleaned):
        raise ValueError("must be a plain base URL (no spaces, user, query or #fragment), like "
                         "https://recount.example.org")
    return cleaned.rstrip("/")


def public_base_url(environ: dict[str, str] | None = None) -> str:
    """Where people reach this process's HTTP server, read when a link is made: PUBLIC_BASE_URL, else
    http://localhost:PORT (PORT default 3000). `serve` refuses a malformed PUBLIC_BASE_URL at start-up, so
    a bad value here (a process that never validated its settings) falls back to the default."""
    source = os.environ if environ is None else environ
    raw = source.get("PUBLIC_BASE_URL") or ""
    if raw.strip():
        try:
            return check_public_base_url(raw)
        except ValueError:
            pass
    port = (source.get("PORT") or "").strip()
    port = port if port.isdigit() and 1 <= int(port) <= 65535 else "3000"
    return f"http://localhost:{port}"
