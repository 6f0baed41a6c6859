"""A Slack that stalls after the record is committed (issue 14, item 7): the person is told what was recorded,
and every post is made once.

`/recount check` records the check (and opens cases) before it posts the verdict. Slack may take that post and
answer after the client's timeout (shortened here from 15 s to 2 s), take it only later, or fail it with a 5xx.
Before, the person was told "Something went wrong and nothing was saved" although the check and its cases were
recorded and the verdict was in the channel.
"""
from __future__ import annotations

import time

from sqlalchemy import func, select

from handlers.cards import CARD_METADATA
from handlers.requests import REQUEST_CARD_METADATA
from handlers.slack_io.delivery import SETTLE
from storage.models import AuditEntry, OutboxMessage, RecountCase, RecountRequestRow
from tests.flows.conftest import load_example
from tests.flows.test_request_flow import APPROVALS, admin, enter_request, ready
from tests.support.slack_app import OFFICIAL, STAFF, text_of

TIMEOUT = 2.0  # the app's Web API client timeout, 15 s in production


def slow_client(harness) -> None:
    harness.app.client.timeout = TIMEOUT  # every request's client is made from the app's


def verdicts(harness) -> list[dict]:
    return [m for m in harness.posted() if (m.get("metadata") or {}).get("event_type") == "recount_bot_outbox"]


def cards(harness) -> dict[int, list[dict]]:
    found: dict[int, list[dict]] = {}
    for message in harness.posted():
        meta = message.get("metadata") or {}
        if meta.get("event_type") == CARD_METADATA:
            found.setdefault(meta["event_payload"]["case_id"], []).append(message)
    return found


def told(harness) -> list[str]:
    return [text_of(m) for m in harness.ephemerals(OFFICIAL)]


def wait_until(condition, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def case_cards(harness) -> dict[int, str | None]:
    with harness.db.transaction() as s:
        return dict(s.execute(select(RecountCase.id, RecountCase.card_ts)).all())


def checks_recorded(harness) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "survey.checked"))


def test_a_verdict_slack_took_without_answering_in_time_is_found_and_nothing_false_is_said(harness) -> None:
    load_example(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", stall=3 * TIMEOUT)  # in the channel at once; the answer is late
    harness.command("check")
    [verdict] = verdicts(harness)
    assert {case: len(posts) for case, posts in cards(harness).items()} == {1: 1, 2: 1}  # its cards follow it
    assert told(harness) == []  # no error: everything the person asked for is in the channel
    with harness.db.transaction() as s:
        [row] = s.scalars(select(OutboxMessage)).all()
        assert row.status == "sent" and row.result["ts"] == verdict["ts"]
    assert checks_recorded(harness) == 1


def test_a_verdict_slack_takes_only_later_is_told_as_recorded_and_posted_once(harness) -> None:
    load_example(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", delay=2 * TIMEOUT)  # Slack does it after the bot has looked
    harness.command("check")
    [said] = told(harness)
    assert "The check is recorded" in said and "The verdict will appear in this channel" in said
    assert "nothing was saved" not in said
    assert checks_recorded(harness) == 1 and set(case_cards(harness)) == {1, 2}
    assert {case: len(posts) for case, posts in cards(harness).items()} == {1: 1, 2: 1}

    wait_until(lambda: verdicts(harness))  # it lands, late: the outbox row is still pending
    harness.clock.advance(seconds=SETTLE.total_seconds() + 1)
    harness.services.outbox_wake.set()
    harness.settle()
    wait_until(lambda: _row_status(harness) == "sent")
    assert len(verdicts(harness)) == 1  # found, not posted again
    posts = [c for c in harness.slack.calls_to("chat.postMessage")
             if (c.args.get("metadata") or {}).get("event_type") == "recount_bot_outbox"]
    assert len(posts) == 1


def _row_status(harness) -> str:
    with harness.db.transaction() as s:
        return s.scalar(select(OutboxMessage.status))


def test_a_card_slack_took_without_answering_in_time_is_found_and_remembered(harness) -> None:
    load_example(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", delay=0.01)  # the verdict goes through
    harness.slack.fail_next("chat.postMessage", stall=3 * TIMEOUT)  # the first card: taken, answered too late
    harness.command("check")
    assert told(harness) == []
    posted = cards(harness)
    assert {case: len(posts) for case, posts in posted.items()} == {1: 1, 2: 1}
    assert case_cards(harness) == {case: posts[0]["ts"] for case, posts in posted.items()}


def test_a_card_slack_takes_only_later_is_found_by_the_next_check_not_posted_again(harness) -> None:
    load_example(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", delay=0.01)
    harness.slack.fail_next("chat.postMessage", delay=2 * TIMEOUT)
    harness.command("check")
    [said] = told(harness)
    assert "The check is recorded" in said and "The card of recount case #1 may not show yet" in said
    assert case_cards(harness)[1].startswith("posting:")  # held: no check posts a second card meanwhile
    wait_until(lambda: 1 in cards(harness))

    harness.command("check")  # at once: the card's claim is fresh, so it is left alone
    assert len(cards(harness)[1]) == 1 and case_cards(harness)[1].startswith("posting:")
    harness.clock.advance(minutes=3)
    harness.command("check")  # later: the claim is taken over, the card looked for first, and found
    [card] = cards(harness)[1]
    assert case_cards(harness)[1] == card["ts"]
    assert len(told(harness)) == 1


def test_a_500_and_a_429_on_the_verdict_still_post_it_once(harness) -> None:
    load_example(harness)
    harness.slack.fail_next("chat.postMessage", status=500)
    harness.command("check")
    assert len(verdicts(harness)) == 1 and told(harness) == []
    assert len(harness.slack.calls_to("conversations.history")) == 1  # looked for before the second try
    harness.slack.fail_next("chat.postMessage", status=429, retry_after=1)
    harness.command("check")
    assert len(verdicts(harness)) == 2 and told(harness) == []  # one for each check


def test_a_setting_whose_announcement_stalls_is_told_as_recorded(harness) -> None:
    load_example(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", delay=2 * TIMEOUT)
    said = admin(harness, f"setting approvals-channel <#{APPROVALS}|recount-approvals>")
    assert "Your change was recorded" in said and "Do not enter it again" in said
    assert "nothing was saved" not in said
    assert admin(harness, f"setting approvals-channel <#{APPROVALS}|recount-approvals>").startswith(
        f"approvals-channel is already <#{APPROVALS}>")


# ------------------------------------------------------------------ a request's card
def request_cards(harness) -> list[dict]:
    return [m for m in harness.posted() if (m.get("metadata") or {}).get("event_type") == REQUEST_CARD_METADATA]


def request_card_ts(harness) -> str | None:
    with harness.db.transaction() as s:
        return s.scalar(select(RecountRequestRow.card_ts))


def test_a_request_card_slack_took_without_answering_in_time_is_found_not_posted_again(harness) -> None:
    ready(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", stall=3 * TIMEOUT)  # taken at once; the answer is late
    enter_request(harness)
    [card] = request_cards(harness)
    assert request_card_ts(harness) == card["ts"]  # remembered: its thread and its edits find it
    assert not [m for m in harness.ephemerals(STAFF) if "may appear" in text_of(m)]


def test_a_request_card_answered_with_a_500_is_looked_for_before_a_second_try(harness) -> None:
    ready(harness)
    harness.slack.fail_next("chat.postMessage", status=500)
    enter_request(harness)
    assert len(request_cards(harness)) == 1
    assert len(harness.slack.calls_to("conversations.history")) >= 1


def test_a_request_card_slack_takes_only_later_is_told_and_found_by_the_list(harness) -> None:
    ready(harness)
    slow_client(harness)
    harness.slack.fail_next("chat.postMessage", delay=2 * TIMEOUT)  # Slack posts it after the bot has looked
    enter_request(harness)
    said = [text_of(m) for m in harness.ephemerals(STAFF)]
    assert any("is recorded and awaits a decision" in t and "may appear there in a moment" in t for t in said)
    assert request_card_ts(harness).startswith("posting:")  # held: nothing posts a second card meanwhile
    wait_until(lambda: len(request_cards(harness)) == 1)

    harness.command("requests", user=STAFF)  # at once: the claim is fresh, so it is left alone
    assert len(request_cards(harness)) == 1 and request_card_ts(harness).startswith("posting:")
    harness.clock.advance(minutes=3)
    harness.command("requests", user=STAFF)  # later: taken over, looked for first, and found
    [card] = request_cards(harness)
    assert request_card_ts(harness) == card["ts"]
