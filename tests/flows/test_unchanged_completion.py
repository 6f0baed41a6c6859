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


def test_a_recount_by_machines_that_changes_no_total_keeps_the_surveys_precincts(harness) -> None:
    """Counted by voting machine (other units than the survey's precincts) with every choice's total as the survey
    has it: no vote changed, so no new version, and the latest version keeps its precinct breakdown."""
    from services.conduct.tally_setup import set_up_count
    from services.conduct.tally_sheets import enter_sheet
    from services.office import access
    from storage.models import VoteCount
    from tests.flows.test_completion_flow import DANA, SAM
    from tests.support.slack_app import OFFICIAL, STAFF, TEAM

    case_id, card = counting_case(harness)
    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    set_up_count(harness.services, workspace_id=workspace_id, case_id=case_id, method="voting_machine",
                 units=["M-01", "M-02"], double_entry=False, actor=STAFF)
    for sheet, unit, votes in (("T-1", "M-01", (1000, 700)), ("T-2", "M-02", (547, 501))):  # 1,547 and 1,201
        enter_sheet(harness.services, workspace_id=workspace_id, case_id=case_id, sheet_id=sheet, unit=unit,
                    counts={DANA: votes[0], SAM: votes[1]}, entry=1, actor=STAFF)
    from handlers.cards import refresh_card
    from services.conduct import cases

    refresh_card(harness.services, cases.case_view(harness.services, case_id))
    harness.settle()
    before = versions(harness)
    posted = len(harness.thread(card["ts"]))
    complete(harness, card, "400.00")
    assert versions(harness) == before
    report = thread_texts(harness, card)[posted]
    assert "No choice's total changed." in report and "→ 0" not in report
    assert "no new version of it was written" in report
    with harness.db.transaction() as s:
        latest = s.scalars(select(SurveyVersion).order_by(SurveyVersion.number.desc())).first()
        units = set(s.scalars(select(VoteCount.unit).where(VoteCount.survey_version_id == latest.id)))
        assert {"Precinct 1", "Precinct 2"} <= units and not units & {"M-01", "M-02"}
        assert s.get(RecountCase, case_id).amended_version_id is None
