"""`/recount help`: what the bot does, each subcommand with the role it needs."""
from __future__ import annotations

from handlers.blocks.common import SECTION_TEXT_LIMIT, clip, context, esc, header, section
from handlers.interaction import Interaction
from handlers.registry import ANYONE
from handlers.subcommands import SUBCOMMANDS
from rules.laws import LAWS
from rules.returns.registry import KNOWN_AS, READERS


def formats_text() -> str:
    """Every results format the readers know (rules/returns/registry.py), in the order they are recognised, each
    with where its files come from."""
    lines = ["*Results files I read* (`/recount returns upload`; `recount-bot check` and `import` at the console), "
             "recognised from their content:"]
    for name in READERS:
        known = KNOWN_AS[name]
        lines.append(f"• {esc(known.title)} (`{name}`) — {esc(known.source)}")
    return clip("\n".join(lines), SECTION_TEXT_LIMIT)


def help_blocks(role_text: str) -> list[dict]:
    lines = []
    for sub in sorted(SUBCOMMANDS.table.values(), key=lambda s: s.name):
        needs = "anyone" if sub.needs is ANYONE else sub.needs.value
        lines.append(f"`{sub.usage}` — {sub.summary} _({needs})_")
    return [
        header("recount-bot"),
        section("Recounts for Colorado local-government elections under the recount law each election runs under: "
                + "; ".join(law.named for law in LAWS.values())
                + ". Every decision shows its arithmetic and the subsection it applies."),
        section("\n".join(lines)),
        section(formats_text()),
        context(f"Your role here: {role_text}. A recount is automatic when the difference between the highest and "
                "the next highest is at most ½ of 1% of the highest (1306(1))."),
    ]


@SUBCOMMANDS.add("help", needs=ANYONE, usage="/recount help", summary="This list.", changes_state=False)
def help_command(ix: Interaction, args: str) -> None:
    role = ix.role.value if ix.role else "none yet (ask a designated election official)"
    ix.tell("recount-bot help", blocks=help_blocks(role))
