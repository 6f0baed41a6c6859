"""`/recount help`: what the bot does, each subcommand with the role it needs."""
from __future__ import annotations

from handlers.blocks.common import context, header, section
from handlers.interaction import Interaction
from handlers.registry import ANYONE
from handlers.subcommands import SUBCOMMANDS


def help_blocks(role_text: str) -> list[dict]:
    lines = []
    for sub in sorted(SUBCOMMANDS.table.values(), key=lambda s: s.name):
        needs = "anyone" if sub.needs is ANYONE else sub.needs.value
        lines.append(f"`{sub.usage}` — {sub.summary} _({needs})_")
    return [
        header("recount-bot"),
        section("Recounts for Colorado local-government elections under C.R.S. 1-13.5-1306. Every decision shows "
                "its arithmetic and the subsection it applies."),
        section("\n".join(lines)),
        context(f"Your role here: {role_text}. A recount is automatic when the difference between the highest and "
                "the next highest is at most ½ of 1% of the highest (1306(1))."),
    ]


@SUBCOMMANDS.add("help", needs=ANYONE, usage="/recount help", summary="This list.", changes_state=False)
def help_command(ix: Interaction, args: str) -> None:
    role = ix.role.value if ix.role else "none yet (ask a designated election official)"
    ix.tell("recount-bot help", blocks=help_blocks(role))
