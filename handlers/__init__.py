"""Slack listeners, split by surface, all declared through `handlers.registry`."""
from __future__ import annotations

from handlers.registry import Registry


def build_registry() -> Registry:
    from handlers import commands, notices, returns

    registry = Registry()
    commands.register(registry)
    notices.register(registry)
    returns.register(registry)
    return registry
