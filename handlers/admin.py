"""`/recount admin ...`: roles and office settings, for the designated election official."""
from __future__ import annotations

import re

from bot.services import access
from bot.services.errors import UserError
from handlers.interaction import Interaction
from handlers.subcommands import SUBCOMMANDS, split_args
from rules.deadlines import CompletionRollover
from rules.margin import MultiSeatRule
from storage.models import Role

USER = re.compile(r"^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$|^([UW][A-Z0-9]{2,})$")
SETTINGS = {
    "multi-seat-rule": ("multi_seat_rule", [r.value for r in MultiSeatRule]),
    "completion-rollover": ("completion_rollover", [r.value for r in CompletionRollover]),
}
USAGE = ("`/recount admin role @person official|staff|viewer|none` · `/recount admin roles` · "
         "`/recount admin setting multi-seat-rule last-winner-first-loser|top-two` · "
         "`/recount admin setting completion-rollover none|next-business-day`")


def _user(token: str) -> str:
    match = USER.match(token)
    if not match:
        raise UserError(f"“{token}” is not a person: mention them, like @jane.")
    return match.group(1) or match.group(2)


@SUBCOMMANDS.add("admin", needs=Role.OFFICIAL, usage="/recount admin role|roles|setting ...",
                 summary="Roles (official, staff, viewer) and office settings.")
def admin_command(ix: Interaction, args: str) -> None:
    words = split_args(args)
    if not words:
        raise UserError(USAGE)
    what = words[0].lower()
    if what == "roles":
        members = access.list_members(ix.services, ix.team_id)
        lines = [f"<@{user}> — {role.value}" for user, role in members] or ["nobody yet"]
        settings = ix.member.settings
        ix.tell("Roles in this office:\n" + "\n".join(lines) +
                f"\nSettings: multi-seat-rule {settings.multi_seat_rule.value}; "
                f"completion-rollover {settings.completion_rollover.value}.")
        return
    if what == "role" and len(words) == 3:
        user = _user(words[1])
        wanted = words[2].lower()
        if wanted not in {r.value for r in Role} | {"none"}:
            raise UserError(f"“{words[2]}” is not a role: official, staff, viewer or none.")
        role = None if wanted == "none" else Role(wanted)
        before, after = access.set_role(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                        user_id=user, role=role)
        if before == after:
            ix.tell(f"<@{user}> already has {after or 'no role'}; nothing changed.")
        else:
            ix.tell(f"<@{user}>: {before or 'no role'} → {after or 'no role'}. Recorded in the audit log.")
        return
    if what == "setting" and len(words) == 3 and words[1] in SETTINGS:
        field, allowed = SETTINGS[words[1]]
        if words[2] not in allowed:
            raise UserError(f"{words[1]} must be one of: {', '.join(allowed)}.")
        settings = access.update_settings(ix.services, team_id=ix.team_id, actor=ix.user_id, actor_role=ix.role,
                                          changes={field: words[2]})
        ix.tell(f"{words[1]} is now {getattr(settings, field).value}. Recorded in the audit log; it applies to "
                "checks and cases from now on.")
        return
    raise UserError(USAGE)
