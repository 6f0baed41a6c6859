"""A slow Slack never duplicates a request (issue 23, item 10): signed HTTP into the real app, with the Slack
stand-in's faults.

Slack waits 3 seconds for the answer to a submission or a click, whatever its own Web API is doing; then it shows
the clerk an error with the modal still open, and the clerk submits again. So: with Slack's chat.postMessage
delayed 6 seconds, or answering 429 with Retry-After 4, the request form is answered at once and its card comes
later; the same form submitted again (or twice at once) records one request and posts one card; a click is
answered at once while the modal it opens waits on Slack.
"""
from __future__ import annotations

import threading
import time

from sqlalchemy import func, select

from storage.models import RecountRequestRow
from tests.flows.test_request_flow import (
    PINE_RIDGE,
    choose_contest,
    details,
    enter_request,
    open_form,
    ready,
    request_card,
)
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF

SLACK_PATIENCE = 3.0  # seconds Slack waits for an answer before it shows the person an error


def _requests(harness) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(RecountRequestRow))


def _cards(harness) -> list[dict]:
    return [m for m in harness.posted(CHANNEL) if m["text"].startswith("Recount request:")]


def _form(harness) -> tuple[dict, dict]:
    ready(harness)
    view = choose_contest(harness, open_form(harness), PINE_RIDGE)
    return view, details(view, contest=PINE_RIDGE)


def _submit_timed(harness, view: dict, values: dict) -> tuple[float, object]:
    started = time.monotonic()
    reply = harness.submit(view, values, user=STAFF, settle=False)
    return time.monotonic() - started, reply


def test_a_delayed_post_neither_delays_the_answer_nor_lets_a_second_submission_record_twice(harness) -> None:
    view, values = _form(harness)
    harness.slack.fail_next("chat.postMessage", delay=6)
    took, first = _submit_timed(harness, view, values)
    assert first.status == 200 and first.body in (b"", b"{}"), first.body  # the modal closes
    assert took < SLACK_PATIENCE, f"answered after {took:.1f}s: Slack would have shown an error"
    # The clerk submits the same form again while the card is still on its way (Slack dropped the first answer,
    # or a double click): the modal says it was recorded, and nothing more is.
    took, again = _submit_timed(harness, view, values)
    assert took < SLACK_PATIENCE and again.status == 200
    answer = again.json()
    assert answer["response_action"] == "update", answer
    shown = str(answer["view"]["blocks"])
    assert "was already recorded from this form; nothing was recorded twice" in shown, shown
    harness.settle(timeout=30)
    assert _requests(harness) == 1
    assert len(_cards(harness)) == 1


def test_a_rate_limited_post_is_retried_after_the_answer_and_posts_one_card(harness) -> None:
    view, values = _form(harness)
    harness.slack.fail_next("chat.postMessage", status=429, retry_after=4)
    took, reply = _submit_timed(harness, view, values)
    assert reply.status == 200 and reply.body in (b"", b"{}")
    assert took < SLACK_PATIENCE, f"answered after {took:.1f}s"
    assert _cards(harness) == []  # Slack asked to wait: the card comes after the answer
    harness.settle(timeout=30)
    assert _requests(harness) == 1
    [card] = _cards(harness)
    with harness.db.transaction() as s:
        assert s.scalar(select(RecountRequestRow.card_ts)) == card["ts"]


def test_the_same_form_submitted_twice_at_once_records_one_request(harness) -> None:
    view, values = _form(harness)
    harness.slack.fail_next("chat.postMessage", delay=1)
    replies: list = []
    go = threading.Barrier(2)

    def submit() -> None:
        go.wait()
        replies.append(harness.submit(view, values, user=STAFF, settle=False))

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    harness.settle(timeout=30)
    assert sorted(r.status for r in replies) == [200, 200]
    assert _requests(harness) == 1
    assert len(_cards(harness)) == 1
    told = [r.json() for r in replies if r.body not in (b"", b"{}")]
    assert len(told) == 1 and "already recorded from this form" in str(told[0]["view"]["blocks"])


def test_a_new_form_records_a_new_request(harness) -> None:
    # The key is the form, not what it says: a second request entered in a new form is recorded (two written
    # requests of one contest may well arrive; deciding them is the office's).
    view, values = _form(harness)
    assert harness.submit(view, values, user=STAFF).status == 200
    second = choose_contest(harness, open_form(harness), PINE_RIDGE)
    assert second["id"] != view["id"]
    harness.submit(second, details(second, contest=PINE_RIDGE, reference="Letter R-02"), user=STAFF)
    assert _requests(harness) == 2


def test_a_click_is_answered_at_once_while_the_modal_it_opens_waits_on_slack(harness) -> None:
    ready(harness)
    enter_request(harness)
    card = request_card(harness)
    harness.slack.fail_next("views.open", delay=5)
    started = time.monotonic()
    reply = harness.click(card, "request.approve", user=OFFICIAL, settle=False)
    took = time.monotonic() - started
    assert reply.status == 200 and took < SLACK_PATIENCE, f"answered after {took:.1f}s"
    harness.settle(timeout=30)
    assert harness.slack.calls_to("views.open")  # the decision form was still asked for
