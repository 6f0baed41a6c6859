"""`python -m benchmarks.outbox_lookup`: what it costs the outbox to look for a post before posting it again.

Against the Slack stand-in over loopback HTTP (bot/slack_standin), for a thread of N older replies (posted an
hour before the first attempt) with the bot's post as the newest reply, and for a channel where M messages
were posted after the bot's post: the Web API calls, messages read and milliseconds of
`handlers.slack_io.lookup.find_post`, best of --repeat. Baseline, in the same run: the lookup before issue 14 (one
read of 200 messages, no time bound: oldest first in a thread, newest first in a channel) and whether it
finds the post at all.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from pathlib import Path

from slack_sdk import WebClient

from handlers.slack_io.lookup import LookupInconclusive, find_post, metadata_matches
from sandbox.slack_standin import SlackStandIn

OUT = Path(__file__).resolve().parent / "out" / "outbox_lookup.json"
CHANNEL = "C0ELECTION"
META = {"event_type": "recount_bot_outbox", "event_payload": {"outbox_id": 1}}


def _old_lookup(client: WebClient, thread_ts: str | None) -> bool:
    if thread_ts:
        messages = client.conversations_replies(channel=CHANNEL, ts=thread_ts, include_all_metadata=True,
                                                limit=200)["messages"]
    else:
        messages = client.conversations_history(channel=CHANNEL, include_all_metadata=True, limit=200)["messages"]
    return any((m.get("metadata") or {}).get("event_payload", {}).get("outbox_id") == 1 for m in messages)


def _measure(size: int, threaded: bool, repeat: int) -> dict:
    offset = [dt.timedelta(hours=1)]
    with SlackStandIn(clock=lambda: dt.datetime.now(dt.timezone.utc) - offset[0]) as slack:
        client = WebClient(token="xoxb-bench", base_url=slack.base_url, retry_handlers=[])
        parent = slack.state.post_message(CHANNEL, text="Recount case #1")[1]["ts"] if threaded else None
        if threaded:
            for i in range(size):
                slack.state.post_message(CHANNEL, thread_ts=parent, user="U0CLERK01", text=f"reply {i}")
        offset[0] = dt.timedelta(0)
        first_attempt = dt.datetime.now(dt.timezone.utc)
        slack.state.post_message(CHANNEL, thread_ts=parent, text="the post", metadata=META)
        if not threaded:
            for i in range(size):
                slack.state.post_message(CHANNEL, user="U0CLERK01", text=f"chatter {i}")
        best, calls, read = float("inf"), 0, 0
        for _ in range(repeat):
            slack.clear()
            start = time.perf_counter()
            try:
                found = "found" if find_post(client, channel=CHANNEL, thread_ts=parent, since=first_attempt,
                                             match=metadata_matches("recount_bot_outbox", outbox_id=1)) else "MISSED"
            except LookupInconclusive:
                found = "undecided"  # more than MAX_PAGES pages since the first attempt: held back, tried later
            best = min(best, time.perf_counter() - start)
            made = slack.calls
            calls, read = len(made), sum(len((c.response or {}).get("messages", [])) for c in made)
        old_found = _old_lookup(client, parent)
    return {"where": "thread" if threaded else "channel", "size": size, "lookup": found, "calls": calls,
            "messages_read": read, "ms": round(best * 1000, 1), "old_lookup_finds_it": old_found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.outbox_lookup", description=__doc__)
    parser.add_argument("--thread-sizes", default="250,2500,25000", help="older replies in the thread")
    parser.add_argument("--channel-sizes", default="50,450,5000,12000", help="messages posted after the post")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rows = [_measure(int(size), True, args.repeat) for size in args.thread_sizes.split(",")]
    rows += [_measure(int(size), False, args.repeat) for size in args.channel_sizes.split(",")]
    print(f"{'where':8} {'size':>7} {'lookup':>9} {'calls':>6} {'read':>7} {'ms':>8}  old lookup finds it")
    for r in rows:
        print(f"{r['where']:8} {r['size']:>7} {r['lookup']:>9} {r['calls']:>6} {r['messages_read']:>7} {r['ms']:>8}  "
              f"{r['old_lookup_finds_it']}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
