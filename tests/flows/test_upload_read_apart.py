"""An uploaded file is read in a process of its own (handlers/slack_io/reading_child.py): the hostile files of issue
21 are refused in the modal, a read that runs out of the memory it is given is named with its limits, nothing is
saved, and the app goes on answering."""
from __future__ import annotations

import os
import time
from multiprocessing import forkserver

import pytest

from handlers.slack_io.reading_child import ParseLimits
from tests.flows.upload_support import (
    EXAMPLE,
    FILE,
    attach,
    files,
    new_election,
    open_upload,
    read,
    shown,
    version_count,
)
from tests.support.slack_app import SlackHarness, text_of
from tests.support.workbooks import far_cell, huge_string, many_rows


def _file_field(view: dict) -> str:
    return next(b for b in view["blocks"] if b.get("block_id") == FILE)["hint"]["text"]


def _still_answers(harness) -> None:
    """The same app, a moment later, reads a good file to its preview."""
    preview = read(harness, open_upload(harness), {FILE: files(attach(harness, EXAMPLE)), **new_election()})
    assert preview["callback_id"] == "returns.upload_preview"
    assert "This file can be saved as survey version 1" in shown(preview)


def _readers_left() -> set[int]:
    """The fork server's children a moment after the modal showed the outcome: the upload's readers, if any
    lingered (each exits, or is killed, before the outcome is shown; the fork server reaps it)."""
    server = forkserver._forkserver._forkserver_pid
    assert server, "the upload was not read by the fork server's children"
    deadline, found = time.monotonic() + 3, set()
    while time.monotonic() < deadline:
        found = set()
        for task in os.listdir(f"/proc/{server}/task"):
            with open(f"/proc/{server}/task/{task}/children") as children:
                found.update(int(pid) for pid in children.read().split())
        if not found:
            break
        time.sleep(0.1)
    return found


@pytest.mark.parametrize("hostile, refusal", [
    (far_cell, "spanning 1,048,576 rows by 16,384 columns"),
    (huge_string, "whose text is longer than 1 MiB"),
    (many_rows, "has more than 5,000,000 cells (worksheet 'Sheet1'), over the limit"),
])
def test_a_hostile_workbook_is_refused_in_the_modal_and_the_app_keeps_answering(harness, hostile, refusal) -> None:
    form = read(harness, open_upload(harness), {FILE: files(attach(harness, hostile(), "county.xlsx")),
                                                **new_election(name="Spring Election")})
    assert form["callback_id"] == "returns.upload"  # the form again, with what was typed
    assert "*county.xlsx* could not be read, so nothing was saved" in shown(form)
    assert refusal in _file_field(form)
    assert version_count(harness) == 0
    assert _readers_left() == set()
    _still_answers(harness)


@pytest.fixture
def small_harness(db):
    """The app with 64 MiB for reading an upload: a 27 MB CSV needs more."""
    harness = SlackHarness(db, parse_limits=ParseLimits(memory_mib=64, seconds=60))
    try:
        yield harness
        assert harness.slack.server_errors == []
    finally:
        harness.close()


def test_a_read_that_runs_out_of_memory_is_named_with_the_limits_and_nothing_is_saved(small_harness) -> None:
    rows = b"".join(b"Board of Directors %d,Candidate %d,%d\n" % (i % 50, i, i) for i in range(600_000))
    big = attach(small_harness, b"contest,choice,votes\n" + rows, "statewide.csv")
    form = read(small_harness, open_upload(small_harness), {FILE: files(big), **new_election()})
    assert form["callback_id"] == "returns.upload"
    assert "*statewide.csv* could not be read, so nothing was saved" in shown(form)
    assert _file_field(form).startswith(
        "statewide.csv could not be read within 64 MiB / 60 s (it ran out of memory); nothing was saved.")
    assert version_count(small_harness) == 0
    _still_answers(small_harness)  # a file of ordinary size reads within the same 64 MiB


def test_a_large_file_shows_in_its_modal_how_long_it_has_been_read(harness) -> None:
    rows = b"".join(b"Board of Directors %d,Candidate %d,%d\n" % (i % 50, i, i) for i in range(300_000))
    big = attach(harness, b"contest,choice,votes\n" + rows, "statewide.csv")  # 13 MB: seconds to read
    before = len(harness.slack.calls_to("views.update"))
    preview = read(harness, open_upload(harness), {FILE: files(big), **new_election()})
    assert preview["callback_id"] == "returns.upload_preview"
    said = [text_of({"blocks": call.args["view"]["blocks"]})
            for call in harness.slack.calls_to("views.update")[before:]]
    progress = [s for s in said if "Reading *statewide.csv*" in s and "s so far" in s]
    assert progress, said
    assert all(s.endswith("s so far; I stop at 60 s or 512 MiB.") for s in progress)
