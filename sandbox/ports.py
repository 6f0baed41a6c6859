"""The page's port, remembered between sessions.

The page asks for port 3001 (`--page-port`). When another program holds it, the page takes a free port and
says which; the next session would take yet another one, and a page left open in the browser would lose the
sandbox. So the port the page ended up on is kept next to the sandbox's SQLite file
(`recount-bot-offline.sqlite3.page-port`, git-ignored like the clock file) and preferred, after the wanted
port, the next time. No file for other databases or `--fresh`.
"""
from __future__ import annotations

from pathlib import Path


def page_port_file(database_url: str) -> Path | None:
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database + ".page-port")


def saved_port(path: Path | None) -> int | None:
    try:
        text = path.read_text(encoding="utf-8").strip() if path else ""
    except OSError:
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else None


def save_port(path: Path | None, port: int) -> None:
    if path is not None:
        try:
            path.write_text(f"{port}\n", encoding="utf-8")
        except OSError:
            pass  # a read-only folder: the next session falls back to any free port
