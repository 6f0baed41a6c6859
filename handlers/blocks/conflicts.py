"""The conflict-of-interest flag (rules.conflicts) shown on every card of a contest's recount: its request card
and its case card. A pure builder."""
from __future__ import annotations

from handlers.blocks.common import context, esc, section
from handlers.slack_text import mention
from rules.conflicts import CONFLICT_READING, Conflicted


def conflict_blocks(conflicts: tuple[Conflicted, ...]) -> list[dict]:
    """Who may not decide, complete or certify this contest's recount; nothing when no one is conflicted."""
    if not conflicts:
        return []
    lines = "\n".join(f"• {mention(c.person)} is {esc(c.describe())}" for c in conflicts)
    return [section(f":warning: *Conflict of interest*\n{lines}\nThey may not approve or decide this contest's "
                    "recount request, complete the recount or certify it: another official must."),
            context(f"Reading: {esc(CONFLICT_READING)}.")]
