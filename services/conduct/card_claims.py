"""A card being posted: its ts column holds "posting:<epoch seconds>" until Slack confirms the post.

One claim format for a case's card and a request's card, so a post never confirmed is looked for from when it
was claimed (the earliest it can be in Slack), and a claim left by a crash is taken over after CLAIM_STALE."""
from __future__ import annotations

import datetime as dt

CLAIM = "posting:"
CLAIM_STALE = dt.timedelta(minutes=2)


def claimed_at(card_ts: str | None) -> dt.datetime | None:
    """When the claim in `card_ts` was taken; None when it holds no claim (no card, or a posted card's ts)."""
    if card_ts is None or not card_ts.startswith(CLAIM):
        return None
    return dt.datetime.fromtimestamp(float(card_ts[len(CLAIM):]), tz=dt.timezone.utc)
