"""Every Slack listener is declared here with the role it needs; nothing is registered any other way.

`needs` is a required keyword: a listener that does not declare its access cannot be written, and
`validate()` (run by the app factory at start-up) refuses any value that is not a role or ANYONE.
State-changing listeners must need at least STAFF; ANYONE is for read-only help.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Callable, Pattern

from storage.models.office import Role


class Surface(str, enum.Enum):
    COMMAND = "command"
    ACTION = "action"
    VIEW = "view"
    VIEW_CLOSED = "view_closed"
    SHORTCUT = "shortcut"
    EVENT = "event"


class Anyone(enum.Enum):
    """Anyone in the workspace, member or not: read-only listeners only."""

    ANYONE = "anyone"


ANYONE = Anyone.ANYONE
Needs = Role | Anyone


def never(body: dict) -> bool:
    return False


def always(body: dict) -> bool:
    return True


@dataclass(frozen=True)
class Route:
    surface: Surface
    key: str | Pattern[str]
    needs: Needs
    func: Callable
    changes_state: bool = True
    # Whether this delivery's work runs after the acknowledgement (see handlers.interaction).
    deferred: Callable[[dict], bool] = never

    @property
    def label(self) -> str:
        key = self.key.pattern if isinstance(self.key, re.Pattern) else self.key
        return f"{self.surface.value}:{key}"


class RegistryError(Exception):
    pass


@dataclass
class Registry:
    routes: list[Route] = field(default_factory=list)

    def _add(self, surface: Surface, key, needs: Needs, changes_state: bool,
             deferred: Callable[[dict], bool] = never) -> Callable:
        def decorator(func: Callable) -> Callable:
            self.routes.append(Route(surface, key, needs, func, changes_state, deferred))
            return func

        return decorator

    def command(self, name: str, *, needs: Needs, changes_state: bool = True,
                deferred: Callable[[dict], bool] = never) -> Callable:
        return self._add(Surface.COMMAND, name, needs, changes_state, deferred)

    def action(self, action_id: str | Pattern[str], *, needs: Needs, changes_state: bool = True) -> Callable:
        return self._add(Surface.ACTION, action_id, needs, changes_state)

    def view(self, callback_id: str | Pattern[str], *, needs: Needs, changes_state: bool = True) -> Callable:
        return self._add(Surface.VIEW, callback_id, needs, changes_state)

    def view_closed(self, callback_id: str, *, needs: Needs, changes_state: bool = False) -> Callable:
        return self._add(Surface.VIEW_CLOSED, callback_id, needs, changes_state)

    def shortcut(self, callback_id: str, *, needs: Needs, changes_state: bool = True) -> Callable:
        return self._add(Surface.SHORTCUT, callback_id, needs, changes_state)

    def event(self, event_type: str, *, needs: Needs, changes_state: bool = False) -> Callable:
        return self._add(Surface.EVENT, event_type, needs, changes_state, always)

    def validate(self) -> None:
        """Start-up check: every listener declares a real access level; state changes need a role."""
        seen: set[str] = set()
        for route in self.routes:
            if not isinstance(route.needs, (Role, Anyone)):
                raise RegistryError(f"listener {route.label} ({route.func.__qualname__}) does not declare the "
                                    f"role it needs (got {route.needs!r})")
            if route.changes_state and route.needs in (ANYONE, Role.VIEWER):
                raise RegistryError(f"listener {route.label} changes state but is open to {route.needs.value}; "
                                    "state-changing listeners need staff or official")
            if route.label in seen:
                raise RegistryError(f"listener {route.label} is registered twice; Bolt would run only the first")
            seen.add(route.label)
