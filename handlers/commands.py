"""The `/recount` slash command: one Bolt listener that dispatches to declared subcommands."""
from __future__ import annotations

# Importing the subcommand modules declares them in SUBCOMMANDS.
from handlers import (  # noqa: F401  # noqa: F401  (/recount assistants, evidence, tally)
    admin,
    assistants,
    canvass,  # noqa: F401  (/recount canvass)
    case_record,  # noqa: F401  (/recount record)
    check,
    committees,
    evidence,
    help,
    home,  # noqa: F401  (/recount deadlines)
    requests,  # noqa: F401  (/recount request)
    returns,
    tally_sheets,
)
from handlers.ids import Command
from handlers.interaction import Interaction
from handlers.registry import ANYONE, Registry
from handlers.subcommands import SUBCOMMANDS


def register(registry: Registry) -> None:
    SUBCOMMANDS.validate()
    # The command itself is open to anyone; each subcommand enforces its own role before it runs.
    registry.command(Command.RECOUNT.value, needs=ANYONE, changes_state=False,
                     deferred=SUBCOMMANDS.is_deferred)(recount)


def recount(ix: Interaction) -> None:
    SUBCOMMANDS.dispatch(ix)
