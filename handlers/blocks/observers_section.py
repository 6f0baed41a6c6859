"""The case card's observers' part (C.R.S. 1-13.5-1306(1)): who may observe, the read-only links shared, and the
buttons to share one and to revoke one. Pure; at most 2 blocks."""
from __future__ import annotations

from handlers.blocks.common import button, denver, section
from handlers.blocks.law_cites import cites
from handlers.ids import Action
from handlers.slack_text import mention
from services.conduct.cases import CaseView

SHOWN_LINKS = 5  # a revoke button each; older ones are counted


def _link_line(link) -> str:
    views = f"viewed {link.views:,} time{'s' if link.views != 1 else ''}" if link.views else "not viewed yet"
    return f"• Link #{link.id} by {mention(link.created_by)}, works until {denver(link.expires_at)} · {views}"


def observers_section(case: CaseView) -> list[dict]:
    head = (f"*Observers* ({cites(case).notice}) — affected candidates and issue committees may be present during and "
            "observe the recount. A read-only web page follows it live, without a Slack account: *Share observers' "
            "link* shows you a link (only you see it) to pass on.")
    links = case.observers
    lines = [_link_line(link) for link in links[:SHOWN_LINKS]]
    if len(links) > SHOWN_LINKS:
        lines.append(f"…and {len(links) - SHOWN_LINKS:,} older links not revoked")
    text = head + ("\n" + "\n".join(lines) if lines else "\nNo observers' link shared yet.")
    blocks = [section(text, accessory=button("Share observers' link", Action.SHARE_OBSERVER_LINK.value, str(case.id)))]
    if links:
        blocks.append({"type": "actions", "elements": [
            button(f"Revoke link #{link.id}", Action.REVOKE_OBSERVER_LINK.value, str(link.id), style="danger",
                   confirm={"title": {"type": "plain_text", "text": "Revoke this link?"},
                            "text": {"type": "mrkdwn", "text": f"Link #{link.id} stops working at once: its page "
                                                              "says the link is no longer valid."},
                            "confirm": {"type": "plain_text", "text": "Revoke"},
                            "deny": {"type": "plain_text", "text": "Keep it"}})
            for link in links[:SHOWN_LINKS]]})
    return blocks
