"""Telling a person that the work after their command's acknowledgement did not (or may not have) come.

Slack had its answer at once; the work ran after, in the deferred-work process (bot/deferred/process.py). When
that process dies while running a job, the job may have done part of its work (a check records itself in the
audit log and posts its verdict; `/recount record` uploads files) and is not run again, since a second run could
post or record twice: the person is told instead, with what to look for before typing the command again. When
`serve` stops before a queued job was begun, the person is told it was not done.

Where it goes: the command's `response_url` first (ephemeral; Slack keeps it 30 minutes for five uses, and the
work may have used some), else an ephemeral message in the channel, else a direct message.

What the text names: the subcommand as declared in handlers/subcommands.py, never what the person typed (a
contest name may carry `<!channel>`; nothing typed is echoed).
"""
from __future__ import annotations

import logging

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.webhook import WebhookClient

log = logging.getLogger("recount_bot.deferred")

# What to look for, per subcommand, before typing it again: each says what a second run does.
ADVICE = {
    "check": "Look in this channel for its verdict; if it is not there, type the command again (checking again "
             "never opens a second case).",
    "requests": "Type `/recount requests` again for the list.",
    "record": "If the case record is not in your direct messages, type the command again.",
}
GENERIC_ADVICE = "If you see no answer to it, type the command again."
RESPONSE_URL_TIMEOUT = 15  # seconds, as the Web API client's


def _what(body: dict) -> tuple[str, str | None]:
    """("`/recount check`", "check") from the declared tables; ("your command", None) for anything else."""
    from handlers import commands  # noqa: F401  (importing it declares every subcommand)
    from handlers.ids import Command
    from handlers.subcommands import SUBCOMMANDS

    if body.get("command") != Command.RECOUNT.value:
        return "command", None
    sub = SUBCOMMANDS.find(body)
    if sub is None:
        return f"`{Command.RECOUNT.value}`", None
    return f"`{Command.RECOUNT.value} {sub.name}`", sub.name


def notice_text(body: dict, *, begun: bool) -> str:
    what, name = _what(body)
    if begun:
        return (f":warning: Your {what} was interrupted: the process doing recount-bot's work after its answer "
                f"stopped part-way, so it may not have finished. {ADVICE.get(name or '', GENERIC_ADVICE)}")
    return (f":warning: Your {what} was not done: recount-bot was stopping and did not get to it. Type the "
            "command again in a moment.")


def _people(body: dict) -> tuple[str | None, str | None]:
    """(user, channel) of a slash command's flat payload, or of an interaction's nested one."""
    user = body.get("user_id") or (body.get("user") or {}).get("id")
    channel = body.get("channel_id") or (body.get("channel") or {}).get("id")
    return user, channel


def tell(client: WebClient, body: dict, text: str) -> str:
    """Send `text` to the person who typed the command, ephemeral where possible. Returns the way it went
    ("response_url", "ephemeral", "dm"); raises when none worked."""
    url = body.get("response_url")
    if url:
        try:
            sent = WebhookClient(url, timeout=RESPONSE_URL_TIMEOUT).send(
                text=text, response_type="ephemeral", replace_original=False)
            if sent.status_code == 200:
                return "response_url"
            log.info("the response_url refused the notice (HTTP %s); trying the channel", sent.status_code)
        except OSError as exc:  # unreachable, timed out
            log.info("the response_url could not be reached (%s); trying the channel", exc)
    user, channel = _people(body)
    if not user:
        raise ValueError("the payload names no user to tell")
    if channel:
        try:
            client.chat_postEphemeral(channel=channel, user=user, text=text)
            return "ephemeral"
        except SlackApiError as exc:
            log.info("no ephemeral notice in %s (%s); sending it directly", channel, exc.response.get("error"))
    dm = client.conversations_open(users=user)["channel"]["id"]
    client.chat_postMessage(channel=dm, text=text)
    return "dm"
