"""A correction of the survey of returns under C.R.S. 1-13.5-1306(4) made while the recount is counting: the case
follows the corrected version. Its thread says so, its card names the version, the observers' page shows the
corrected counts and completion compares the recount with them. Through signed requests into the real app."""
from __future__ import annotations

import html
import re

from sqlalchemy import select

from storage.models import AuditEntry, RecountCase, SurveyVersion
from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    complete,
    counting_case,
    current,
    harness,
    tally,
    thread_texts,
)
from tests.flows.test_returns_modal import correction_form, counts, reason
from tests.support.slack_app import STAFF, text_of

OBSERVE = re.compile(r"<https?://[^/|>]+(/observe/[A-Za-z0-9_-]{43})\|")


def test_a_correction_during_counting_is_followed_by_the_case(harness) -> None:
    case_id, card = counting_case(harness)
    before = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "observers.share", user=STAFF)
    [path] = OBSERVE.findall(harness.wait("response_url", count=before + 1)[-1].args["text"])
    assert "1,547" in html.unescape(harness.get(path).body.decode())  # Dana Whitfield's total in version 1

    # Precinct 1: five of Dana Whitfield's ballots found not legal on the evidence presented (4).
    view = correction_form(harness)
    harness.submit(view, {**counts(view, **{"Dana Whitfield": 840}), **reason("five ballots cast by non-electors")})
    harness.settle()
    note = thread_texts(harness, card)[-1]
    assert "corrected after the case opened (on version 1): survey version 2" in note
    assert "The recount now follows version 2" in note
    assert "survey of returns version 2" in text_of(current(harness, card))
    page = html.unescape(harness.get(path).body.decode())
    assert "1,542" in page and "1,547" not in page
    with harness.db.transaction() as s:
        case = s.get(RecountCase, case_id)
        assert s.get(SurveyVersion, case.survey_version_id).number == 2
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "case.returns_followed")).all()
        assert entry.before == {"survey_version": 1} and entry.after["survey_version"] == 2

    # The recount finds what the corrected survey says: no vote changed against version 2.
    tally(harness, case_id, (840, 611), (702, 590))
    posted = len(harness.thread(card["ts"]))
    complete(harness, card, "400.00")
    report = thread_texts(harness, card)[posted]
    assert "No vote changed in any unit: the recount matches the survey of returns." in report
    assert "845" not in report
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completion["original_totals"]["Dana Whitfield"] == 1542
