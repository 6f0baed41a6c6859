"""Seats never silently one, in Slack (issue 21, item 4): a contest whose file does not state its seats, where another
number would change the verdict, comes first in the upload's preview with a seats input; the preview reads the file
again with the seats given, and "Back to the form" opens the form with everything typed kept."""
from __future__ import annotations

from sqlalchemy import select

from storage.models import Contest
from tests.flows.upload_support import (
    AGAIN,
    FILE,
    attach,
    click_in_view,
    files,
    new_election,
    open_upload,
    read,
    shown,
    submitted,
    text,
    version_count,
)

COUNCIL = "Town of Aspen City Council"
# 1st vs 2nd is far apart; 4th vs 5th (700 vs 698) is inside ½ of 1% of 700: a recount if the council fills 4 seats.
FILE_BYTES = f"""contest,choice,votes
{COUNCIL},Ann Lee,1000
{COUNCIL},Bo Park,900
{COUNCIL},Cy Diaz,800
{COUNCIL},Di Moss,700
{COUNCIL},Ed Fry,698
Bear Creek Fire Protection District - Ballot Issue 6A,Yes,500
Bear Creek Fire Protection District - Ballot Issue 6A,No,400
""".encode()
SEATS = "returns.upload_seats_for.0"


def _preview(harness) -> dict:
    return read(harness, open_upload(harness), {FILE: files(attach(harness, FILE_BYTES, "council.csv")),
                                                **new_election(name="Municipal Election")})


def _block_ids(view: dict) -> list[str]:
    return [b.get("block_id", b["type"]) for b in view["blocks"]]


def test_a_contest_whose_seats_are_not_stated_comes_first_with_a_seats_input(harness) -> None:
    preview = _preview(harness)
    text_shown = shown(preview)
    assert "*Seats not stated (1)*" in text_shown
    seats = next(b for b in preview["blocks"] if b.get("block_id") == SEATS)
    assert seats["label"]["text"] == f"Seats: {COUNCIL}" and seats["element"]["type"] == "number_input"
    assert seats["element"]["min_value"] == "1" and seats["optional"]
    assert "as 4 seats, automatic recount (Di Moss vs Ed Fry)" in seats["hint"]["text"]
    assert "--seats" not in seats["hint"]["text"]  # the input stands for the command line's option
    # First: before any verdict, and no longer among the undecided further down.
    assert text_shown.index("Seats not stated") < text_shown.index("decided, closest first")
    assert "*Undecided" not in text_shown
    assert preview["submit"]["text"] == "Read with these seats"
    assert version_count(harness) == 0


def test_the_preview_reads_the_file_again_with_the_seats_given_and_then_saves(harness) -> None:
    preview = _preview(harness)
    answer, again = submitted(harness, preview, {SEATS: {"type": "number_input", "value": "4"}})
    assert answer["response_action"] == "update" and "Reading *council.csv*" in shown(answer["view"])
    assert again["callback_id"] == "returns.upload_preview"
    text_shown = shown(again)
    assert "Seats not stated" not in text_shown and SEATS not in _block_ids(again)
    assert f":rotating_light: *RECOUNT* · *{COUNCIL}* · 4 seats" in text_shown
    assert "Di Moss — 700 vs Ed Fry — 698 · margin 2" in text_shown
    assert "This file can be saved as survey version 1 of *Municipal Election*" in text_shown
    assert version_count(harness) == 0  # read again, nothing saved yet
    submitted(harness, again, {})
    assert version_count(harness) == 1
    with harness.db.transaction() as s:
        assert s.scalar(select(Contest.seats).where(Contest.name == COUNCIL)) == 4


def test_seats_that_are_not_a_whole_number_are_refused_on_their_input(harness) -> None:
    preview = _preview(harness)
    answer, _ = submitted(harness, preview, {SEATS: {"type": "number_input", "value": "0"}})
    assert answer == {"response_action": "errors", "errors": {SEATS: "A whole number of seats, from 1 to 99."}}
    answer, _ = submitted(harness, preview, {})  # none given: the file as it is cannot be saved
    assert list(answer["errors"]) == [AGAIN] and "seats not stated" in answer["errors"][AGAIN]
    assert version_count(harness) == 0


def test_back_to_the_form_keeps_everything_typed_and_the_seats_given(harness) -> None:
    preview = _preview(harness)
    click_in_view(harness, preview, "returns.upload_back", "back",
                  values={SEATS: {"type": "number_input", "value": "4"}})
    form = harness.open_view()
    assert form["callback_id"] == "returns.upload" and form["id"] == preview["id"]  # the same modal
    initial = {b["block_id"]: b["element"].get("initial_value") or b["element"].get("initial_date")
               for b in form["blocks"] if b["type"] == "input"}
    assert initial["returns.new_election_name"] == "Municipal Election"
    assert initial["returns.new_election_date"] == "2026-11-03"
    assert initial["returns.local_government"] == "Front Range Special Districts"
    assert initial["returns.governing_body"] == "Board of Directors"
    assert initial["returns.upload_seats"] == f"{COUNCIL}=4"
    assert "Back from the preview of *council.csv*" in shown(form)
    # Only the file is attached again; the seats carried over decide the council.
    preview = read(harness, form, {FILE: files(attach(harness, FILE_BYTES, "council.csv")),
                                   **new_election(name="Municipal Election"),
                                   "returns.upload_seats": text(f"{COUNCIL}=4")})
    assert f"*{COUNCIL}* · 4 seats" in shown(preview) and "Seats not stated" not in shown(preview)
