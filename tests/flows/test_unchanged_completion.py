"""Completing a recount that changed no vote writes no new version of the survey of returns (1306(6)): the
survey stands as it was, and the report and the card say so. A recount that changed a vote still writes one."""
from __future__ import annotations

from sqlalchemy import func, select

from storage.models import AuditEntry, RecountCase, SurveyVersion
from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    complete,
    counting_case,
    current,
    harness,
    tally,
    thread_texts,
)
from tests.support.slack_app import text_of


def versions(harness) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(SurveyVersion))


def test_a_recount_that_matches_the_survey_writes_no_new_version(harness) -> None:
    case_id, card = counting_case(harness)
    before = versions(harness)
    tally(harness, case_id, (845, 611), (702, 590))  # exactly the survey's counts, unit by unit
    posted = len(harness.thread(card["ts"]))
    complete(harness, card, "400.00")
    assert versions(harness) == before
    report = thread_texts(harness, card)[posted]
    assert "No vote changed in any unit: the recount matches the survey of returns." in report
    assert "No vote changed, so the survey of returns stands as it was: no new version of it was written." in report
    assert "now has version" not in report
    assert "*Survey of returns*\nunchanged: no vote changed, no new version" in text_of(current(harness, card))
    with harness.db.transaction() as s:
        case = s.get(RecountCase, case_id)
        assert case.completed_at is not None and case.amended_version_id is None
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "case.completed")).all()
        assert entry.after["amended_survey_version"] is None


def test_a_recount_that_changes_a_vote_writes_the_amended_version(harness) -> None:
    case_id, card = counting_case(harness)
    before = versions(harness)
    tally(harness, case_id, (845, 612), (702, 590))  # one more vote for Sam in Precinct 1
    complete(harness, card, "400.00")
    assert versions(harness) == before + 1
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).amended_version_id is not None
