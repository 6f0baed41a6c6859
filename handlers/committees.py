"""`/recount committee "<ballot question>" "<committee>" [for <choice>]`."""
from __future__ import annotations

from handlers.blocks.law_cites import cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.interaction import Interaction
from handlers.slack_text import esc, mention
from handlers.subcommands import SUBCOMMANDS, split_args
from services.conduct import cases, committees
from services.errors import UserError
from storage.models import Role

USAGE = '`/recount committee "Ballot Issue 6A" "Citizens for 6A" for Yes`'


@SUBCOMMANDS.add("committee", needs=Role.STAFF, usage='/recount committee "<question>" "<committee>" [for <choice>]',
                 summary="Record an issue committee of a ballot issue or question (owed notice under (1)).")
@as_one_unit
def committee_command(ix: Interaction, args: str) -> None:
    words = split_args(args)
    side = None
    if len(words) == 4 and words[2].lower() == "for":
        side = words[3]
    elif len(words) != 2:
        raise UserError(f"Usage: {USAGE}")
    added = committees.add_issue_committee(ix.services, team_id=ix.team_id, contest_name=words[0],
                                           committee=words[1], side=side, contact=None, actor=ix.user_id)
    supports = f" (supports {esc(added.side)})" if added.side else ""
    ix.tell(f"Issue committee {esc(added.committee)}{supports} recorded for {esc(added.contest)}.")
    if added.case_id is not None:
        case = cases.case_view(ix.services, added.case_id)
        refresh_card(ix.services, case)
        post_in_thread(ix.services, case, f"Issue committee {esc(added.committee)}{supports} added by "
                                          f"{mention(ix.user_id)}; it is owed notice of the recount "
                                          f"({cites(case).notice}).")
