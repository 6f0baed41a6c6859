"""A case whose duties are all done is marked so (RecountCase.duties_done), and the worker's poll and App Home stop
reading it (issue 25: they read every completed case of an office's history on every tick). The mark must follow
the records both ways: set by the recording of the last duty, cleared by anything that makes a duty owed again,
or the bot would fall silent about something still owed. And a database upgraded from before the mark (every case
unmarked) is marked by the worker's first tick, with nothing owed lost.

Through signed requests into the real app, the Web API stand-in and the worker's own tick, on each database."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from storage.models import RecountCase
from tests.flows.test_completion_flow import automatic_card, current, enter, harness, open_modal, select_, text, when
from tests.flows.test_duties_flow import home, remind

__all__ = ["harness"]

ISSUE = "Bear Creek Fire Protection District - Ballot Issue 6A"
RESULTS = "Notify Board of Directors of Front Range Special Districts of the results of the recount"


def marked(harness, case_id: int) -> bool:
    with harness.db.transaction() as s:
        return s.get(RecountCase, case_id).duties_done


def completed_and_notified(harness) -> tuple[int, dict]:
    """An automatic recount of a ballot issue, every notice of the recount given, completed, and its results
    notified: nothing is owed any more (a ballot question elects no one, so there is no certificate)."""
    case_id, card = automatic_card(harness, ISSUE)
    enter(harness, case_id, {"Precinct 1": {"Yes": 2208, "No": 2190}, "Precinct 2": {"Yes": 2131, "No": 2128}})
    harness.click(current(harness, card), "case.complete")
    assert RESULTS in home(harness) and not marked(harness, case_id)
    view = open_modal(harness, card, "case.results_notice")
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                          "results.given_at": when(harness.services.now())})
    return case_id, card


def test_recording_the_last_duty_marks_the_case_and_a_duty_owed_again_clears_the_mark(harness) -> None:
    case_id, card = completed_and_notified(harness)
    assert marked(harness, case_id)
    assert f"case #{case_id}" not in home(harness)
    assert remind(harness, dt.date(2026, 11, 7)) == []

    # An issue committee recorded after the completion is owed the notice of the recount (1): owed again.
    harness.command(f'committee "{ISSUE}" "Citizens for 6A" for Yes')
    assert not marked(harness, case_id)
    owed = f"Record 1 outstanding notice of case #{case_id} ({ISSUE}) (C.R.S. 1-13.5-1306(1))"
    assert owed in home(harness)
    [reminder, *_] = remind(harness, dt.date(2026, 11, 8))
    assert f"Record 1 outstanding notice of case #{case_id}" in reminder


def test_the_first_tick_after_the_upgrade_marks_what_is_done_and_keeps_reminding_of_what_is_not(harness) -> None:
    done_id, _ = completed_and_notified(harness)
    with harness.db.transaction() as s:  # as migration 0013 leaves a database: no case marked
        s.execute(update(RecountCase).values(duties_done=False))
        owing_id = s.scalar(select(RecountCase.id).where(RecountCase.id != done_id, RecountCase.completed_at.is_(None))
                            .order_by(RecountCase.id).limit(1))
    assert owing_id is not None
    assert remind(harness, dt.date(2026, 11, 7)) == []  # the tick: nothing owed for the completed case
    assert marked(harness, done_id)
    assert not marked(harness, owing_id)  # not completed: never marked, whatever it owes
    assert f"case #{done_id}" not in home(harness)
