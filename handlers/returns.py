"""`/recount returns`: enter or correct a contest's returns in a modal (placeholder module; see below)."""
from __future__ import annotations

from handlers.registry import Registry


def register(registry: Registry) -> None:
    """Registered by the returns modal flow."""
