"""`/recount check [contest]`: post the (1) verdict to the channel and open cases inside the margin."""
from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError

from handlers.blocks.verdicts import all_verdicts, one_verdict, verdict_text
from handlers.cards import CardUnconfirmed, post_case_card
from handlers.ids import Action
from handlers.interaction import Interaction
from handlers.registry import Registry
from handlers.slack_io.outbox import CHANNEL_REFUSED
from handlers.slack_io.posting import PostQueued, post_now, queue_in_thread_of
from handlers.slack_text import fallback
from handlers.subcommands import SUBCOMMANDS
from services.conduct import cases
from services.returns import checking
from storage.models import Role

log = logging.getLogger("recount_bot.check")


@SUBCOMMANDS.add("check", needs=Role.STAFF, usage="/recount check [contest]", deferred=True,
                 summary="Check the latest survey of returns for automatic recounts (1306(1)); a contest inside "
                         "the margin opens a recount case.")
def check_command(ix: Interaction, args: str) -> None:
    run_check(ix, contest_name=args.strip().strip('"') or None)


def register(registry: Registry) -> None:
    registry.action(Action.CHECK_ELECTION.value, needs=Role.STAFF)(check_election_clicked)


def check_election_clicked(ix: Interaction) -> None:
    """*Check this election* on an upload's record: the check of that election, whatever its day (an older
    election uploaded after a later one is not the latest day's, which `/recount check` takes). After Slack has its
    answer: the check posts several messages."""
    election_id = int(ix.body["actions"][0]["value"])
    ix.later(lambda: run_check(ix, election_id=election_id))


def run_check(ix: Interaction, *, contest_name: str | None = None, election_id: int | None = None) -> None:
    outcome = checking.check(ix.services, team_id=ix.team_id, actor=ix.user_id, settings=ix.member.settings,
                             contest_name=contest_name, election_id=election_id)
    if contest_name and outcome.verdicts:
        messages = [one_verdict(outcome, outcome.verdicts[0], checked_by=ix.user_id)]
    else:
        messages = all_verdicts(outcome, checked_by=ix.user_id)
    text = fallback(verdict_text(outcome))
    # The check is recorded (its audit row, any case it opened): the verdict is posted through the outbox, so a
    # post Slack takes but does not confirm is neither lost nor made twice, and the person hears the truth.
    workspace, verdict_waits, cards_wait = ix.member.workspace_id, False, []
    try:
        first = post_now(ix.services, ix.client, {"channel": ix.channel_id, "text": text, "blocks": messages[0]},
                         workspace_id=workspace)
        for more in messages[1:]:
            try:
                post_now(ix.services, ix.client, {"channel": ix.channel_id, "thread_ts": first["ts"], "text": text,
                                                  "blocks": more}, workspace_id=workspace)
            except PostQueued:
                pass  # the outbox posts it in the thread
    except PostQueued as queued:
        verdict_waits = True
        for more in messages[1:]:
            queue_in_thread_of(ix.services, queued.row_id, {"channel": ix.channel_id, "text": text, "blocks": more},
                               workspace_id=workspace)
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
        if _needs_card(ix, verdict):
            try:
                post_case_card(ix.client, ix.services, verdict.case_id, channel_id=ix.channel_id, actor=ix.user_id)
            except CardUnconfirmed as exc:
                cards_wait.append(exc.case_id)
    if verdict_waits or cards_wait:
        ix.tell(not_confirmed(verdict_waits, cards_wait))


def _needs_card(ix: Interaction, verdict: checking.ContestVerdict) -> bool:
    """A case inside the margin whose card is not posted, or only claimed: a post Slack never confirmed leaves
    its claim, and `post_case_card` takes a claim over once it is stale (looking for that post first)."""
    if verdict.case_id is None or not verdict.decision.automatic_recount:
        return False
    return not verdict.card_posted or (cases.case_view(ix.services, verdict.case_id).card_ts or "").startswith(
        cases.CLAIM)


def not_confirmed(verdict_waits: bool, cards_wait: list[int]) -> str:
    """What the person is told when Slack did not confirm a post: the check and its cases are recorded all
    the same, and what Slack has not confirmed is neither lost nor posted twice."""
    said = [":hourglass_flowing_sand: The check is recorded, but Slack did not confirm every post in time."]
    if verdict_waits:
        said.append("The verdict will appear in this channel as soon as Slack takes it (once: if Slack has it "
                    "already, it is not posted again).")
    if cards_wait:
        many = len(cards_wait) > 1
        numbers = ", ".join(f"#{case_id}" for case_id in cards_wait)
        said.append(f"The card{'s' if many else ''} of recount case{'s' if many else ''} {numbers} may not show yet: "
                    f"type `/recount check` again in a few minutes and I will find {'them' if many else 'it'} (or "
                    "post what Slack does not have) and keep the thread.")
    return " ".join(said)
