"""The App Home tab (published on app_home_opened) and `/recount deadlines`."""
from __future__ import annotations

from handlers.blocks.common import header
from handlers.blocks.home import deadline_blocks, home_view
from handlers.interaction import Interaction
from handlers.registry import ANYONE, Registry
from handlers.subcommands import SUBCOMMANDS
from services.office.dashboard import dashboard
from storage.models import Role


def register(registry: Registry) -> None:
    # Read-only: the view itself shows a person without a role how to get one.
    registry.event("app_home_opened", needs=ANYONE)(publish_home)


def publish_home(ix: Interaction) -> None:
    event = ix.body.get("event", {})
    if event.get("tab") not in (None, "home"):
        return
    board = dashboard(ix.services, team_id=ix.team_id, user_id=ix.user_id)
    ix.client.views_publish(user_id=ix.user_id, view=home_view(board, role=ix.role.value if ix.role else None))


@SUBCOMMANDS.add("deadlines", needs=Role.VIEWER, usage="/recount deadlines", changes_state=False,
                 summary="The office's coming deadlines: completion, the request window, election contests.")
def deadlines_command(ix: Interaction, args: str) -> None:
    board = dashboard(ix.services, team_id=ix.team_id, user_id=ix.user_id)
    ix.tell("Coming deadlines", blocks=[header("Coming deadlines"), *deadline_blocks(board)])
