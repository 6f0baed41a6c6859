"""What Slack's client knows about the app from its manifest: its slash commands (for the composer's
autocomplete) and its global shortcuts (for the composer's shortcut menu).

Read from `manifest.yml` when it is next to the code (a checkout); an installed package has no manifest,
so the same is derived from the app's own declarations then.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

MANIFEST = Path(__file__).resolve().parents[2] / "manifest.yml"


@functools.lru_cache(maxsize=1)
def app_info(manifest: Path = MANIFEST) -> dict[str, Any]:
    try:
        import yaml

        features = (yaml.safe_load(manifest.read_text(encoding="utf-8")) or {}).get("features") or {}
    except Exception:  # no manifest (an installed package) or an unreadable one: derived below
        features = {}
    commands = [{"command": c.get("command", ""), "description": c.get("description", ""),
                 "usage_hint": c.get("usage_hint", "")} for c in features.get("slash_commands") or []]
    shortcuts = [{"name": s.get("name", ""), "callback_id": s.get("callback_id", ""),
                  "description": s.get("description", "")}
                 for s in features.get("shortcuts") or [] if s.get("type") == "global"]
    if not commands or not shortcuts:
        derived = _from_registry()
        commands = commands or derived["commands"]
        shortcuts = shortcuts or derived["shortcuts"]
    return {"commands": commands, "shortcuts": shortcuts, "subcommands": _subcommands()}


def _from_registry() -> dict[str, Any]:
    from handlers import build_registry
    from handlers.registry import Surface

    registry = build_registry()
    commands, shortcuts = [], []
    for route in registry.routes:
        if route.surface is Surface.COMMAND and isinstance(route.key, str):
            usage = " | ".join(sub["usage"].split(" ", 1)[-1] for sub in _subcommands())
            commands.append({"command": route.key, "description": "", "usage_hint": usage})
        elif route.surface is Surface.SHORTCUT and isinstance(route.key, str):
            shortcuts.append({"name": route.key.replace("_", " ").capitalize(), "callback_id": route.key,
                              "description": ""})
    return {"commands": commands, "shortcuts": shortcuts}


def _subcommands() -> list[dict[str, str]]:
    """`/recount help`'s list, for the composer's suggestions."""
    from handlers import build_registry
    from handlers.subcommands import SUBCOMMANDS

    build_registry()  # importing the handlers declares the subcommands
    return [{"name": sub.name, "usage": sub.usage, "summary": sub.summary}
            for sub in sorted(SUBCOMMANDS.table.values(), key=lambda s: s.name)]
