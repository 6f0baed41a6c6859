"""Where the record of entered returns is told (issue 6: a post that must not be lost goes through the outbox,
written in the entry's own transaction): in the channel where `/recount returns` was typed, or, when the bot
may not post there, to the clerk by direct message with the way to fix it."""
from __future__ import annotations

from storage.models import SurveyVersion
from tests.flows.conftest import load_example
from tests.flows.test_change_and_posts_together import outbox_fault  # noqa: F401 - the fixture
from tests.flows.test_conduct_flow import dms
from tests.flows.test_returns_modal import PINE_RIDGE, correction_form, counts, reason, versions
from tests.support.slack_app import CHANNEL, OFFICIAL, text_of


def test_returns_entered_where_the_bot_is_not_a_member_reach_the_clerk_with_the_fix(harness) -> None:
    load_example(harness)
    view = correction_form(harness)
    harness.slack.fail_next("chat.postMessage", status=200, error="not_in_channel")
    reply = harness.submit(view, {**counts(view, **{"Dana Whitfield": 840}), **reason("precinct 3 re-read")})
    assert reply.body in (b"", b"{}")  # recorded: the modal closes
    harness.wait("chat.postMessage", count=2)  # refused in the channel, then the direct message
    [told] = dms(harness, OFFICIAL)
    assert f"I could not post this in <#{CHANNEL}>: invite me there with `/invite @recount-bot`" in told
    assert f"Returns for {PINE_RIDGE} recorded as survey version 2" in told and "precinct 3 re-read" in told
    assert harness.posted(CHANNEL) == []
    assert [v.number for v in versions(harness)] == [1, 2]


def test_a_correction_whose_record_cannot_be_queued_is_not_recorded(harness, outbox_fault) -> None:  # noqa: F811
    load_example(harness)
    view = correction_form(harness)
    outbox_fault(True)
    reply = harness.submit(view, {**counts(view, **{"Dana Whitfield": 840}), **reason("precinct 3 re-read")})
    outbox_fault(False)
    answer = reply.json()
    assert answer["response_action"] == "update"
    assert "Something went wrong and nothing was saved" in text_of({"blocks": answer["view"]["blocks"]})
    assert [v.number for v in versions(harness)] == [1]
    with harness.db.transaction() as s:
        assert s.query(SurveyVersion).count() == 1
