"""A read in a child process, as an upload is to be parsed outside the web process: the outcome crosses the pipe."""
from __future__ import annotations

import multiprocessing
from pathlib import Path

from rules.returns.limits import ReadLimits
from rules.returns.outcome import ReadOutcome, read_outcome
from rules.verdicts import decide_returns
from tests.support.workbooks import far_cell

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "returns" / "dominion_sovc_siskiyou_2025.xlsx"


def _in_child(data: bytes, **options) -> ReadOutcome:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(read_outcome, (data,), options)


def test_a_workbook_read_in_a_child_process_comes_back_whole() -> None:
    outcome = _in_child(FIXTURE.read_bytes(), strict=True)
    assert outcome.ok and outcome.strict
    here = read_outcome(FIXTURE.read_bytes(), strict=True)
    assert outcome.returns == here.returns
    assert [d.contest for d in decide_returns(outcome.returns).decisions] == [
        d.contest for d in decide_returns(here.returns).decisions]


def test_a_refusal_comes_back_as_problems_not_an_exception() -> None:
    outcome = _in_child(far_cell(), limits=ReadLimits())
    assert outcome.returns is None and not outcome.ok
    [problem] = outcome.problems
    assert "over the limit of 3,000,000 (ReadLimits.max_sheet_area)" in problem.message


def test_a_contest_whose_totals_were_read_still_pickles() -> None:
    import pickle

    outcome = read_outcome(b"contest,choice,votes\nMayor,Ann,5\nMayor,Bo,3\n", strict=True)
    mayor = outcome.returns.contest("Mayor")
    assert dict(mayor.totals) == {"Ann": 5, "Bo": 3}  # now cached on it as a read-only view
    copy = pickle.loads(pickle.dumps(outcome))
    assert copy == outcome and dict(copy.returns.contest("Mayor").totals) == {"Ann": 5, "Bo": 3}


def test_running_out_of_memory_is_raised_as_itself_not_a_problem_of_the_file(monkeypatch) -> None:
    import pytest

    import rules.returns

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(rules.returns, "finish", exhausted)  # where every CSV reader's rows become contests
    with pytest.raises(MemoryError):
        read_outcome(b"contest,choice,votes\nMayor,Ann,5\nMayor,Bo,3\n")
    monkeypatch.undo()
    assert read_outcome(b"contest,choice,votes\nMayor,Ann,5\n").ok
