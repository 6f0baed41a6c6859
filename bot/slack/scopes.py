"""The bot scopes recount-bot's Slack app asks for: `oauth_config.scopes.bot` of manifest.yml, in its order.

`recount-bot doctor` compares the token's scopes with these (an installed copy has no manifest.yml beside it);
tests/handlers/test_manifest.py fails when the two lists differ, and manifest.yml says which feature and which Web API
method needs each one.
"""
from __future__ import annotations

BOT_SCOPES: tuple[str, ...] = (
    "commands",
    "chat:write",
    "users:read",
    "im:write",
    "files:write",
    "files:read",
    "channels:history",
    "groups:history",
    "im:history",
)
