"""`/recount check [contest]`: post the (1) verdict to the channel and open cases inside the margin."""
from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from bot.outbox import CHANNEL_REFUSED
from bot.services import checking
from handlers.blocks.verdicts import all_verdicts, one_verdict, verdict_text
from handlers.cards import post_case_card
from handlers.interaction import Interaction
from handlers.subcommands import SUBCOMMANDS
from storage.models import Role

log = logging.getLogger("recount_bot.check")


@SUBCOMMANDS.add("check", needs=Role.STAFF, usage="/recount check [contest]", deferred=True,
                 summary="Check the latest survey of returns for automatic recounts (1306(1)); a contest inside "
                         "the margin opens a recount case.")
def check_command(ix: Interaction, args: str) -> None:
    outcome = checking.check(ix.services, team_id=ix.team_id, actor=ix.user_id, settings=ix.member.settings,
                             contest_name=args.strip().strip('"') or None)
    if args.strip() and outcome.verdicts:
        messages = [one_verdict(outcome, outcome.verdicts[0], checked_by=ix.user_id)]
    else:
        messages = all_verdicts(outcome, checked_by=ix.user_id)
    text = verdict_text(outcome)
    try:
        first = ix.client.chat_postMessage(channel=ix.channel_id, text=text, blocks=messages[0])
        for more in messages[1:]:
            ix.client.chat_postMessage(channel=ix.channel_id, thread_ts=first["ts"], text=text, blocks=more)
    except SlackApiError as exc:
        if exc.response.get("error") not in CHANNEL_REFUSED:
            raise
        # The bot is not in this channel: the verdict still reaches the channel through the command's
        # response URL; cards need the bot in the channel, so say how to get it there.
        for blocks in messages:
            ix.respond(text=text, blocks=blocks, response_type="in_channel", replace_original=False)
        if any(v.case_id for v in outcome.verdicts):
            ix.tell(":information_source: Invite me to this channel (`/invite @recount-bot`) and check again "
                    "to post the recount case cards here.")
        return
    for verdict in outcome.verdicts:
        if verdict.case_id is not None and verdict.decision.automatic_recount and not verdict.card_posted:
            post_case_card(ix.client, ix.services, verdict.case_id, channel_id=ix.channel_id, actor=ix.user_id)
