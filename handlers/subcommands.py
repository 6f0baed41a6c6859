"""`/recount <subcommand>`: each subcommand declares the role it needs, like every other listener."""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Callable

from handlers.interaction import DENIED, Interaction
from handlers.registry import ANYONE, Anyone, RegistryError
from services.errors import Denied, UserError
from services.wording import echoed
from storage.models import Role

SMART_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


@dataclass(frozen=True)
class Subcommand:
    name: str
    needs: Role | Anyone
    usage: str
    summary: str
    func: Callable[[Interaction, str], None]
    changes_state: bool = True
    # Slow work (many database rows, several Slack posts) runs after the acknowledgement. A
    # subcommand that opens a modal must not be deferred: its trigger_id expires in 3 seconds.
    deferred: bool = False


class Subcommands:
    def __init__(self) -> None:
        self.table: dict[str, Subcommand] = {}

    def add(self, name: str, *, needs: Role | Anyone, usage: str, summary: str, changes_state: bool = True,
            deferred: bool = False):
        def decorator(func: Callable[[Interaction, str], None]):
            if name in self.table:
                raise RegistryError(f"/recount {name} is declared twice")
            self.table[name] = Subcommand(name, needs, usage, summary, func, changes_state, deferred)
            return func

        return decorator

    def find(self, body: dict) -> Subcommand | None:
        name = (body.get("text") or "").strip().partition(" ")[0].lower() or "help"
        return self.table.get(name)

    def is_deferred(self, body: dict) -> bool:
        sub = self.find(body)
        return sub is not None and sub.deferred

    def validate(self) -> None:
        for sub in self.table.values():
            if not isinstance(sub.needs, (Role, Anyone)):
                raise RegistryError(f"/recount {sub.name} does not declare the role it needs")
            if sub.changes_state and sub.needs in (ANYONE, Role.VIEWER):
                raise RegistryError(f"/recount {sub.name} changes state but is open to {sub.needs.value}")

    def dispatch(self, ix: Interaction) -> None:
        text = (ix.body.get("text") or "").strip()
        name, _, rest = text.partition(" ")
        sub = self.find(ix.body)
        if sub is None:
            raise UserError(f"I don't know `/recount {echoed(name)}`. Try `/recount help`.")
        if sub.needs is not ANYONE and (ix.role is None or not ix.role.allows(sub.needs)):
            raise Denied(DENIED.format(needed=sub.needs.value, have=ix.role.value if ix.role else "no role"))
        sub.func(ix, rest.strip())


def split_args(text: str) -> list[str]:
    """Arguments as a clerk types them, with “smart quotes” from phones and Slack's editor."""
    try:
        return shlex.split(text.translate(SMART_QUOTES))
    except ValueError:
        raise UserError("A quotation mark is not closed.") from None


SUBCOMMANDS = Subcommands()
