"""(5): "the votes must be tallied on sheets other than those used at the election" — through signed requests.

The office lists the election's own tally sheets when it sets up the count; a recount sheet with one of those
identifiers (in any case) is refused on the sheet id, naming it and citing 1-13.5-1306(5), and nothing is stored.
A sheet already entered as a recount sheet cannot be listed afterwards as one of the election's.
"""
from __future__ import annotations

from sqlalchemy import select

from storage.models import AuditEntry, RecountCase, TallySheetRow
from tests.flows.test_conduct_flow import (
    card_text,
    count,
    current,
    issue_card,
    open_by_command,
    open_from,
    select_,
    sheet_values,
    start_counting,
    submit,
    text,
    thread_texts,
)
from tests.support.slack_app import OFFICIAL, STAFF

S5 = "C.R.S. 1-13.5-1306(5)"


def set_up_paper(harness, card: dict, election_sheets: str | None):
    view = open_from(harness, current(harness, card), "tally.set_up", user=STAFF)
    values = {"tally.method": select_("paper"), "tally.units": text(""),
              "tally.double_entry": {"type": "checkboxes", "selected_options": []}}
    if election_sheets is not None:
        values["tally.election_sheets"] = text(election_sheets)
    return view, submit(harness, view, values)


def test_a_recount_sheet_that_is_one_of_the_elections_own_is_refused_naming_it(harness) -> None:
    card = issue_card(harness)
    start_counting(harness, card)
    view, reply = set_up_paper(harness, card, "E-1\n E-2 , E-3\nE-1\n")
    assert "Tally sheets used at the election (one per line)" in [
        b["label"]["text"] for b in view["blocks"] if b["type"] == "input"]
    assert reply.body in (b"", b"{}")
    with harness.db.transaction() as s:
        case = s.scalars(select(RecountCase).where(RecountCase.count_method.is_not(None))).one()
        assert case.election_sheet_ids == ["E-1", "E-2", "E-3"]  # trimmed, split on commas, listed once
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "tally.set_up")).all()
        assert entry.after["election_sheet_ids"] == ["E-1", "E-2", "E-3"] and entry.after["citation"] == S5
    assert "3 tally sheets of the election on record (refused as recount sheets)" in card_text(harness, card)
    assert "Tally sheets used at the election (3): E-1, E-2, E-3; a recount sheet with one of these identifiers " \
           "is refused." in thread_texts(harness, card)[-1]

    # Entering the election's sheet E-2 (typed in lower case) as a recount sheet: refused on the sheet id.
    form = open_by_command(harness, "tally")
    assert "3 of the election's sheet ids on record" in str(form["blocks"])
    reply = submit(harness, form, sheet_values(form, "e-2", "Precinct 1", "2208", "2190"))
    error = reply.json()["errors"]["tally.sheet_id"]
    assert error.startswith("Sheet e-2 is one of the tally sheets used at the election; the votes must be tallied "
                            "on sheets other than those used at the election")
    assert S5 in error
    assert count(harness, TallySheetRow) == 0

    # A sheet of the recount's own is taken.
    assert submit(harness, form, sheet_values(form, "R-1", "Precinct 1", "2208", "2190")).body in (b"", b"{}")
    assert count(harness, TallySheetRow) == 1

    # The set-up form shows the list again; listing R-1 as an election sheet now is refused, naming it.
    view, reply = set_up_paper(harness, card, None)
    [field] = [b for b in view["blocks"] if b.get("block_id") == "tally.election_sheets"]
    assert field["element"]["initial_value"] == "E-1\nE-2\nE-3"
    assert reply.body in (b"", b"{}")  # sent unchanged: nothing changes, no second audit row
    assert count(harness, AuditEntry, AuditEntry.action == "tally.set_up") == 1
    view, reply = set_up_paper(harness, card, "E-1\nR-1")
    message = reply.json()["errors"]["tally.election_sheets"]
    assert message.startswith("Already entered as recount tally sheets: R-1 (Precinct 1).") and S5 in message
    with harness.db.transaction() as s:
        assert s.scalars(select(RecountCase.election_sheet_ids).where(
            RecountCase.count_method.is_not(None))).one() == ["E-1", "E-2", "E-3"]


def test_without_the_elections_sheets_listed_the_card_says_they_are_not_checked(harness) -> None:
    card = issue_card(harness)
    start_counting(harness, card)
    assert set_up_paper(harness, card, "")[1].body in (b"", b"{}")
    assert "the election's tally sheets not listed" in card_text(harness, card)
    form = open_by_command(harness, "tally", user=OFFICIAL)
    assert "the election's sheet ids are not on record" in str(form["blocks"])
    assert submit(harness, form, sheet_values(form, "E-2", "Precinct 1", "2208", "2190"),
                  user=OFFICIAL).body in (b"", b"{}")
