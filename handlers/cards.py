"""Posting and refreshing a case's card; later updates go into its thread."""
from __future__ import annotations

import logging

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.services import cases
from bot.services.cases import CaseView
from bot.services.context import Services
from handlers.blocks.case_card import case_card, case_text

log = logging.getLogger("recount_bot.cards")


def post_case_card(client: WebClient, services: Services, case_id: int, *, channel_id: str,
                   actor: str) -> CaseView | None:
    """Post the case's card once. Returns None when it was already posted (or another check is posting
    it right now): the existing card stays where the team's thread is."""
    if not cases.claim_card(services, case_id):
        return None
    try:
        case = cases.case_view(services, case_id)
        response = client.chat_postMessage(channel=channel_id, text=case_text(case), blocks=case_card(case),
                                           unfurl_links=False)
    except BaseException:
        cases.release_card(services, case_id)
        raise
    cases.set_card(services, case_id, channel_id=response["channel"], ts=response["ts"], actor=actor)
    return cases.case_view(services, case_id)


def refresh_card(client: WebClient, case: CaseView) -> None:
    if not case.card_ts or not case.channel_id or case.card_ts.startswith(cases.CLAIM):
        return
    try:
        client.chat_update(channel=case.channel_id, ts=case.card_ts, text=case_text(case), blocks=case_card(case))
    except SlackApiError as exc:
        # The record is already committed; a card that cannot be edited (deleted, archived channel) is
        # logged, and the thread post that follows still tells the team.
        log.warning("could not edit the card of case %s: %s", case.id, exc.response.get("error"))


def post_in_thread(client: WebClient, case: CaseView, text: str, blocks: list[dict] | None = None) -> None:
    if not case.card_ts or not case.channel_id or case.card_ts.startswith(cases.CLAIM):
        return
    client.chat_postMessage(channel=case.channel_id, thread_ts=case.card_ts, text=text, blocks=blocks)
