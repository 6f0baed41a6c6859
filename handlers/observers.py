"""Observers' links from the case card (C.R.S. 1-13.5-1306(1)): share a read-only link to the recount's web page,
and revoke one.

Staff may do both (the role that runs the count; the statute gives candidates and committees the right to observe,
so sharing the page is no discretionary decision). The link is shown once, only to the person who clicked
(ephemeral), never in the channel: they choose whom to give it to. The case's thread and the audit log say that a
link was made or revoked, by its number, never its token. Tokens are never logged.
"""
from __future__ import annotations

from handlers.blocks.common import denver
from handlers.blocks.law_cites import cites
from handlers.cards import as_one_unit, post_in_thread, refresh_card
from handlers.ids import Action
from handlers.interaction import Interaction
from handlers.registry import Registry
from handlers.slack_text import link, mention
from services.conduct import cases
from services.observers import links
from storage.models import Role


def register(registry: Registry) -> None:
    registry.action(Action.SHARE_OBSERVER_LINK.value, needs=Role.STAFF)(share)
    registry.action(Action.REVOKE_OBSERVER_LINK.value, needs=Role.STAFF)(revoke)


def _value(ix: Interaction) -> int:
    return int(ix.body["actions"][0]["value"])


@as_one_unit
def share(ix: Interaction) -> None:
    workspace_id = ix.member.workspace_id
    shared = links.share_link(ix.services, workspace_id=workspace_id, case_id=_value(ix), actor=ix.user_id)
    made = shared.link
    if not shared.newly_made:  # only the hash is stored: the link itself is in the message shown moments ago
        ix.tell(f"You made observers' link #{made.id} for this recount moments ago; it is in the message Slack showed "
                "only you. Nothing changed.")
        return
    case = cases.case_view(ix.services, made.case_id, workspace_id=workspace_id)
    url = links.observer_link(made.token)
    # The token leaves the bot only here, to the person who asked (were this message lost, the link would be one
    # nobody has: shown on the card, harmless, revocable).
    ix.tell(f":eyes: *Observers' link #{made.id}* for the recount of the contest on this card — only you see this "
            f"message:\n{link(url, url)}\nIt shows the recount's status, the count as it proceeds, the result and "
            f"the certificates, read-only and without a Slack account ({cites(case).notice}). It works until "
            f"{denver(made.expires_at)} unless revoked from the card. Give it to the candidates, issue committees "
            "and watchers who may observe; anyone who has it can open it.")
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, f":eyes: Observers' link #{made.id} made by {mention(ix.user_id)}, works until "
                                      f"{denver(made.expires_at)}; the link was shown only to them ({cites(case).notice}).")


@as_one_unit
def revoke(ix: Interaction) -> None:
    workspace_id = ix.member.workspace_id
    revoked = links.revoke_link(ix.services, workspace_id=workspace_id, link_id=_value(ix), actor=ix.user_id)
    gone = revoked.link
    if not revoked.newly_revoked:
        ix.tell(f"Observers' link #{gone.id} was already revoked ({denver(gone.revoked_at)}, by "
                f"{mention(gone.revoked_by)}); nothing changed.")
        return
    case = cases.case_view(ix.services, gone.case_id, workspace_id=workspace_id)
    refresh_card(ix.services, case)
    post_in_thread(ix.services, case, f":no_entry: Observers' link #{gone.id} revoked by {mention(ix.user_id)}: its "
                                      "page now says the link is no longer valid.")
    ix.tell(f"Observers' link #{gone.id} is revoked; whoever opens it is told it is no longer valid.")
