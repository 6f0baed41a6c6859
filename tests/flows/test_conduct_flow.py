"""Conducting a recount from Slack, through signed requests into the real app: tally sheets (1306(5)) with a
double-entry disagreement shown to both people and resolved, assistants (3) with the core's warnings, and
evidence demanded and produced (4).

The issue's scenario: an automatic recount of Ballot Issue 6A (inside the margin) on voting machines M-01 and
M-02, a tally sheet per machine, double entry, a disagreement, a withdrawal and a re-entry, until the card says
"2 of 2 units tallied".
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import func, select

from services.office import access
from storage.models import (
    AssistantRow,
    AuditEntry,
    Contest,
    Election,
    EvidenceDemand,
    RecountCase,
    TallySheetRow,
)
from tests.flows.conftest import load_example
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM, VIEWER, text_of

BEAR_CREEK = "Bear Creek Fire Protection District - Ballot Issue 6A"  # inside the margin: automatic under (1)
DEMANDED_AT = int(dt.datetime(2026, 11, 6, 15, 0, tzinfo=dt.timezone.utc).timestamp())


# ---------------------------------------------------------------- setup and reading
def issue_card(harness) -> dict:
    """The example election checked; the official and a staff member; the card of Ballot Issue 6A."""
    load_example(harness)
    access.bootstrap_official(harness.services, TEAM, OFFICIAL, reason="test")
    access.set_role(harness.services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL, user_id=STAFF,
                    role=access.Role.STAFF)
    harness.command("check")
    return next(m for m in harness.posted() if m["text"].startswith("Automatic recount") and BEAR_CREEK in m["text"])


def current(harness, card: dict) -> dict:
    return harness.slack.state.message(CHANNEL, card["ts"])


def card_text(harness, card: dict) -> str:
    return text_of(current(harness, card))


def thread_texts(harness, card: dict) -> list[str]:
    return [text_of(m) for m in harness.thread(card["ts"])]


def case_id_of(harness, contest: str = BEAR_CREEK) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(RecountCase.id).join(Contest, RecountCase.contest_id == Contest.id).where(
            Contest.name == contest))


def count(harness, model, *where) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def open_from(harness, message: dict, action_id: str, *, user: str = STAFF, value: str | None = None) -> dict:
    opened = len(harness.slack.calls_to("views.open"))
    assert harness.click(message, action_id, user=user, value=value).status == 200
    harness.wait("views.open", count=opened + 1)
    return harness.open_view(user)


def open_by_command(harness, text: str, *, user: str = STAFF) -> dict:
    opened = len(harness.slack.calls_to("views.open"))
    assert harness.command(text, user=user).status == 200
    harness.wait("views.open", count=opened + 1)
    return harness.open_view(user)


def submit(harness, view: dict, values: dict, *, user: str = STAFF):
    """Submit a modal as the person who opened it (staff, unless said otherwise). Like Slack, an input left
    untouched is sent with its initial value."""
    state = dict(values)
    for block in view.get("blocks", []):
        element = block.get("element") or {}
        if block["type"] != "input" or block["block_id"] in state:
            continue
        if "initial_value" in element:
            state[block["block_id"]] = {"type": element["type"], "value": element["initial_value"]}
        elif "initial_option" in element:
            state[block["block_id"]] = {"type": element["type"], "selected_option": element["initial_option"]}
        elif "initial_options" in element:
            state[block["block_id"]] = {"type": element["type"], "selected_options": element["initial_options"]}
        elif "initial_date_time" in element:
            state[block["block_id"]] = {"type": element["type"], "selected_date_time": element["initial_date_time"]}
    return harness.submit(view, state, user=user)


def text(value: str) -> dict:
    return {"type": "plain_text_input", "value": value}


def number(value: str | None) -> dict:
    return {"type": "number_input", "value": value}


def select_(value: str) -> dict:
    return {"type": "static_select", "selected_option": {"value": value}}


def start_counting(harness, card: dict) -> None:
    assert harness.click(current(harness, card), "case.start_counting", user=OFFICIAL).status == 200


def set_up(harness, card: dict, method: str, units: str = "", double: bool = True, *, user: str = STAFF):
    view = open_from(harness, current(harness, card), "tally.set_up", user=user)
    assert view["title"]["text"] == "Set up the count"
    values = {"tally.method": select_(method), "tally.units": text(units),
              "tally.double_entry": {"type": "checkboxes",
                                     "selected_options": [{"value": "on"}] if double else []}}
    return submit(harness, view, values, user=user)


def unit_index(view: dict, label: str) -> str:
    [block] = [b for b in view["blocks"] if b.get("block_id", "").startswith("tally.unit.")]
    options = block["element"].get("options") or [o for g in block["element"]["option_groups"] for o in g["options"]]
    return next(o["value"] for o in options if o["text"]["text"] == label)


def sheet_values(view: dict, sheet_id: str, unit: str, yes: str | None, no: str | None) -> dict:
    blocks = {b["label"]["text"]: b["block_id"] for b in view["blocks"] if b["type"] == "input"}
    [unit_block] = [b for b in blocks.values() if b.startswith("tally.unit.")]
    return {"tally.sheet_id": text(sheet_id), unit_block: select_(unit_index(view, unit)),
            blocks["Yes"]: number(yes), blocks["No"]: number(no)}


def enter_sheet(harness, sheet_id: str, unit: str, yes: str | None, no: str | None, *, user: str = STAFF,
                command: str = "tally"):
    view = open_by_command(harness, command, user=user)
    assert view["callback_id"] == "tally.sheet" and view["title"]["text"] == "Enter tally sheet"
    return submit(harness, view, sheet_values(view, sheet_id, unit, yes, no), user=user)


def dms(harness, user: str) -> list[str]:
    channel = harness.slack.state.dm_channel(user)
    return [text_of(m) for m in harness.slack.state.messages(channel)] if channel else []


def voting_machines_case(harness) -> dict:
    card = issue_card(harness)
    start_counting(harness, card)
    assert set_up(harness, card, "voting_machine", "M-01\nM-02").body in (b"", b"{}")
    return card


# ================================================================ the issue's scenario (5)
def test_an_automatic_recount_on_voting_machines_with_a_double_entry_disagreement(harness) -> None:
    card = issue_card(harness)
    assert "Set up the count" not in card_text(harness, card)  # tallying follows the start of counting
    start_counting(harness, card)
    assert "*Tally sheets* (C.R.S. 1-13.5-1306(5)) — the count is not set up yet" in card_text(harness, card)

    # The count: voting machines M-01 and M-02, one tally sheet per machine, double entry.
    assert set_up(harness, card, "voting_machine", "M-01\n M-02 \n").body in (b"", b"{}")
    shown = card_text(harness, card)
    assert "voting machines, one sheet per machine · double entry · 2 machines expected" in shown
    assert "*0 of 2 units tallied*" in shown
    assert "Count set up* by <@U0STAFF001>: voting machines, 2 machines expected (one tally sheet each): M-01, M-02; " \
           "double entry" in thread_texts(harness, card)[-1]
    with harness.db.transaction() as s:
        case = s.scalars(select(RecountCase).where(RecountCase.count_method.is_not(None))).one()
        assert (case.count_method, case.expected_units, case.double_entry) == ("voting_machine", ["M-01", "M-02"], True)
    assert count(harness, AuditEntry, AuditEntry.action == "tally.set_up") == 1

    # The form: the machines expected, one whole-number input per choice; the entry number is decided.
    view = open_by_command(harness, "tally", user=OFFICIAL)
    labels = [b["label"]["text"] for b in view["blocks"] if b["type"] == "input"]
    assert labels == ["Sheet id", "Machine", "Yes", "No"]
    assert [o["text"]["text"] for o in [b for b in view["blocks"] if b.get("block_id", "").startswith(
        "tally.unit.")][0]["element"]["options"]] == ["M-01", "M-02"]
    assert "the entry number is decided for you" in text_of({"blocks": view["blocks"]})

    # Entry 1 by the official; entry 2 of the same sheet by staff, mistyped: a disagreement.
    assert submit(harness, view, sheet_values(view, "T-1", "M-01", "2208", "2190"), user=OFFICIAL).body in (b"", b"{}")
    assert "Sheet *T-1* (machine M-01), entry 1 by <@U0OFFICIAL>: Yes 2,208 · No 2,190. Waiting for the second " \
           "entry" in thread_texts(harness, card)[-1]
    assert "1 awaiting a second entry: M-01 (sheet T-1, <@U0OFFICIAL>)" in card_text(harness, card)
    assert enter_sheet(harness, "T-1", "M-01", "2208", "2191").body in (b"", b"{}")

    with harness.db.transaction() as s:
        rows = s.scalars(select(TallySheetRow).order_by(TallySheetRow.id)).all()
        assert [(r.sheet_id, r.unit, r.entry, r.entered_by) for r in rows] == [
            ("T-1", "M-01", 1, OFFICIAL), ("T-1", "M-01", 2, STAFF)]
        mistyped = rows[1].id
    post = harness.thread(card["ts"])[-1]
    said = text_of(post)
    assert "*Double-entry disagreement* on M-01, sheet *T-1*" in said
    assert ("entry 1 by <@U0OFFICIAL> and entry 2 by <@U0STAFF001> differ — No: 2,190 (entry 1) vs 2,191 (entry 2)"
            in said)
    assert "Yes:" not in said  # only the choices that differ are named
    assert "C.R.S. 1-13.5-1306(5)" in said
    # Shown to both people who entered, each in a DM naming the choice that differs.
    for person in (OFFICIAL, STAFF):
        [message] = [m for m in dms(harness, person) if "disagreement" in m]
        assert "No: 2,190 (entry 1) vs 2,191 (entry 2)" in message
    shown = card_text(harness, card)
    assert "*0 of 2 units tallied*" in shown
    assert ":x: Disagreement on M-01, sheet T-1 (<@U0OFFICIAL> / <@U0STAFF001>): No: 2,190 (entry 1) vs 2,191" in shown

    # Resolving it: the staff member withdraws their mistyped entry from the post, with a reason …
    view = open_from(harness, post, "tally.withdraw", value=f"{case.id}:{mistyped}")
    assert view["title"]["text"] == "Withdraw an entry"
    assert submit(harness, view, {"tally.entry": select_(str(mistyped)), "tally.reason": text("")}).json() == {
        "response_action": "errors",
        "errors": {"tally.reason": "Say why the entry is withdrawn (it stays on the record with the reason)."}}
    assert submit(harness, view, {"tally.entry": select_(str(mistyped)),
                                 "tally.reason": text("mistyped: the sheet says 2,190 for No")}).body in (b"", b"{}")
    assert "Entry 2 of sheet *T-1* (M-01), entered by <@U0STAFF001>, *withdrawn* by <@U0STAFF001>: “mistyped: the " \
           "sheet says 2,190 for No”" in thread_texts(harness, card)[-1]
    # … a second click changes nothing …
    submit(harness, view, {"tally.entry": select_(str(mistyped)), "tally.reason": text("again")})
    with harness.db.transaction() as s:
        row = s.get(TallySheetRow, mistyped)
        assert row.withdrawn_by == STAFF and row.withdrawn_reason == "mistyped: the sheet says 2,190 for No"
    assert count(harness, AuditEntry, AuditEntry.action == "tally.sheet_withdrawn") == 1

    # … and enters it again: it agrees, so M-01 counts.
    assert enter_sheet(harness, "T-1", "M-01", "2208", "2190").body in (b"", b"{}")
    assert "It agrees with entry 1 by <@U0OFFICIAL>: M-01 counts" in thread_texts(harness, card)[-1]
    assert "*1 of 2 units tallied*" in card_text(harness, card)
    assert "Disagreement" not in card_text(harness, card)

    # M-02 on its own sheet, entered by two people.
    enter_sheet(harness, "T-2", "M-02", "2131", "2128", user=OFFICIAL)
    enter_sheet(harness, "T-2", "M-02", "2131", "2128")
    shown = card_text(harness, card)
    assert "*2 of 2 units tallied* :white_check_mark:" in shown
    assert "Every unit expected is tallied" in thread_texts(harness, card)[-1]
    assert count(harness, TallySheetRow, TallySheetRow.withdrawn_at.is_(None)) == 4
    assert count(harness, AuditEntry, AuditEntry.action == "tally.sheet_entered") == 5


def test_the_same_sheet_submitted_twice_is_stored_once(harness) -> None:
    card = voting_machines_case(harness)
    view = open_from(harness, current(harness, card), "tally.enter")  # the card's button
    values = sheet_values(view, "T-1", "M-01", "2208", "2190")
    assert submit(harness, view, values).body in (b"", b"{}")
    posts = len(harness.thread(card["ts"]))
    assert submit(harness, view, values).body in (b"", b"{}")  # a double click
    assert count(harness, TallySheetRow) == 1
    assert len(harness.thread(card["ts"])) == posts  # nothing new in the thread
    assert any("stored once" in text_of(m) for m in harness.ephemerals(STAFF))
    # The same person cannot check their own sheet: refused on the sheet id, nothing stored.
    reply = submit(harness, view, sheet_values(view, "T-1", "M-01", "2208", "2191"))
    assert "You already entered sheet T-1 (entry 1, M-01)" in reply.json()["errors"]["tally.sheet_id"]
    assert count(harness, TallySheetRow) == 1


def test_bad_sheets_are_refused_on_their_field_and_nothing_is_stored(harness) -> None:
    card = voting_machines_case(harness)
    view = open_by_command(harness, "tally")
    [unit_block] = [b["block_id"] for b in view["blocks"] if b.get("block_id", "").startswith("tally.unit.")]
    case_id = int(unit_block.rsplit(".", 1)[1])
    yes, no = f"tally.count.{case_id}.0", f"tally.count.{case_id}.1"

    # Counts: a blank is not a zero; negative and fractional counts are refused.
    reply = submit(harness, view, sheet_values(view, "T-1", "M-01", None, "-3"))
    assert reply.json() == {"response_action": "errors", "errors": {
        yes: "Blank: write 0 if Yes has no votes on the sheet — a blank is not a zero.",
        no: "A whole number of votes, 0 or more — not “-3”."}}
    assert submit(harness, view, sheet_values(view, "T-1", "M-01", "12.5", "0")).json()["errors"] == {
        yes: "A whole number of votes, 0 or more — not “12.5”."}
    # No sheet id, no machine.
    values = sheet_values(view, " ", "M-01", "1", "1")
    del values[unit_block]
    assert submit(harness, view, values).json()["errors"] == {
        "tally.sheet_id": "Give the sheet's id, as written on the tally sheet.",
        unit_block: "Choose the machine this sheet tallies."}
    # A machine that is not expected (a forged option): refused on the unit field.
    values = sheet_values(view, "T-9", "M-01", "1", "1")
    values[unit_block] = select_("7")
    assert submit(harness, view, values).json()["errors"] == {unit_block: "Choose the machine this sheet tallies."}
    assert count(harness, TallySheetRow) == 0

    # A second sheet for a machine that already has one: refused on the unit, naming both sheets and (5).
    assert submit(harness, view, sheet_values(view, "T-1", "M-01", "2208", "2190")).body in (b"", b"{}")
    reply = submit(harness, view, sheet_values(view, "T-2", "M-01", "2208", "2190"), user=OFFICIAL)
    message = reply.json()["errors"][unit_block]
    assert message.startswith("Sheets T-1 and T-2 both tally machine M-01; separate tally sheets must be used for each "
                              "machine, one sheet per machine (C.R.S. 1-13.5-1306(5)).")
    # The same sheet id for another machine: a sheet tallies one unit.
    reply = submit(harness, view, sheet_values(view, "T-1", "M-02", "2131", "2128"), user=OFFICIAL)
    assert ("Sheet T-1 is entered for 2 units (M-01, M-02); a sheet tallies one unit."
            in reply.json()["errors"][unit_block])
    assert count(harness, TallySheetRow) == 1
    assert "*0 of 2 units tallied*" in card_text(harness, card)


def test_a_sheet_for_a_unit_the_count_does_not_expect_is_refused_on_the_unit(harness) -> None:
    """The service refuses what the form cannot offer: a unit outside the set-up (e.g. a form opened before the
    set-up changed is redrawn, and the core's check stands behind it)."""
    from services.conduct.tally_sheets import enter_sheet as service_enter_sheet
    from services.errors import UserError

    voting_machines_case(harness)
    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    try:
        service_enter_sheet(harness.services, workspace_id=workspace_id, case_id=case_id_of(harness), sheet_id="T-9",
                            unit="M-09", counts={"Yes": 1, "No": 1}, actor=STAFF)
    except UserError as exc:
        assert exc.field == "unit" and "'M-09' is not one of the 2 units expected" in exc.message
    else:
        raise AssertionError("a sheet for M-09 was accepted")
    assert count(harness, TallySheetRow) == 0


def test_a_form_opened_before_the_set_up_changed_is_redrawn(harness) -> None:
    card = voting_machines_case(harness)
    view = open_by_command(harness, "tally")
    values = sheet_values(view, "T-1", "M-02", "2131", "2128")
    assert set_up(harness, card, "voting_machine", "M-02\nM-03").body in (b"", b"{}")
    reply = submit(harness, view, values).json()
    assert reply["response_action"] == "update"
    assert "The count's set-up changed since this form opened" in text_of({"blocks": reply["view"]["blocks"]})
    assert count(harness, TallySheetRow) == 0


def test_setting_up_the_count_checks_its_fields(harness) -> None:
    card = issue_card(harness)
    start_counting(harness, card)
    # Voting machines need their machines listed.
    reply = set_up(harness, card, "voting_machine", "")
    assert reply.json()["errors"]["tally.units"].startswith("List the voting machines, one per line")
    assert set_up(harness, card, "voting_machine", "M-01\nM-01").json()["errors"] == {
        "tally.units": "Listed twice: M-01."}
    # Paper ballots default to the survey's precincts; single entry.
    assert set_up(harness, card, "paper", "", double=False).body in (b"", b"{}")
    shown = card_text(harness, card)
    assert "paper ballots · single entry · 2 units expected" in shown
    # The same set-up again (a double click) changes nothing.
    posts = len(harness.thread(card["ts"]))
    assert set_up(harness, card, "paper", "", double=False).body in (b"", b"{}")
    assert len(harness.thread(card["ts"])) == posts
    assert count(harness, AuditEntry, AuditEntry.action == "tally.set_up") == 1
    # Single entry: the first entry counts at once.
    enter_sheet(harness, "P-1", "Precinct 1", "2208", "2190")
    assert "*1 of 2 units tallied*" in card_text(harness, card)
    # With a sheet entered, the units cannot change until it is withdrawn.
    assert set_up(harness, card, "voting_machine", "M-01").json()["errors"]["tally.units"].startswith(
        "Tally sheets are already entered")


def test_with_several_recounts_counting_the_form_asks_which(harness) -> None:
    voting_machines_case(harness)
    # The other automatic recount of the example (Cherry Creek's last seat) counts too, on paper.
    from services.conduct import counting, tally_setup
    workspace_id = access.resolve_member(harness.services, TEAM, OFFICIAL).workspace_id
    with harness.db.transaction() as s:
        other = s.scalar(select(RecountCase.id).where(RecountCase.id != case_id_of(harness)))
    counting.start_counting(harness.services, workspace_id=workspace_id, case_id=other, actor=OFFICIAL)
    tally_setup.set_up_count(harness.services, workspace_id=workspace_id, case_id=other, method="paper", units=None,
                             double_entry=False, actor=OFFICIAL)
    view = open_by_command(harness, "tally")
    assert [b["block_id"] for b in view["blocks"] if b["type"] == "input"] == ["tally.case"]
    assert submit(harness, view, {}).json()["errors"] == {"tally.case": "Choose the recount."}
    reply = submit(harness, view, {"tally.case": select_(str(case_id_of(harness)))}).json()
    assert reply["response_action"] == "update"
    form = reply["view"]
    assert [b["label"]["text"] for b in form["blocks"] if b["type"] == "input"] == [
        "Recount", "Sheet id", "Machine", "Yes", "No"]
    # Choosing a recount in the select redraws the form at once (dispatch_action), as Slack sends it.
    view = open_by_command(harness, "tally")
    updates = len(harness.slack.calls_to("views.update"))
    harness._interactive({
        "type": "block_actions", "team": {"id": TEAM}, "user": {"id": STAFF, "team_id": TEAM},
        "api_app_id": "A0RECOUNT1", "token": "legacy-verification-token",
        "trigger_id": harness.slack.issue_trigger_id(STAFF), "container": {"type": "view", "view_id": view["id"]},
        "view": {**view, "state": {"values": {"tally.case": {"tally.case": {
            "type": "static_select", "selected_option": {"value": str(other)}}}}}},
        "actions": [{"type": "static_select", "action_id": "tally.case", "block_id": "tally.case",
                     "selected_option": {"value": str(other)}, "action_ts": "1"}]})
    harness.wait("views.update", count=updates + 1)
    redrawn = harness.slack.state.view(view["id"])
    assert [b["label"]["text"] for b in redrawn["blocks"] if b["type"] == "input"] == [
        "Recount", "Sheet id", "Unit", "Maria Alvarez", "Thomas Reed", "Priya Natarajan", "Walt Kowalski"]
    # With a case number the form is that case's at once.
    view = open_by_command(harness, f"tally {other}")
    assert "Unit" in [b["label"]["text"] for b in view["blocks"] if b["type"] == "input"]
    harness.command("tally 999", user=STAFF)
    assert any("There is no recount case #999" in text_of(m) for m in harness.ephemerals(STAFF))


def test_viewers_cannot_enter_sheets(harness) -> None:
    voting_machines_case(harness)
    harness.command("tally", user=VIEWER)
    assert any("You need the staff role" in text_of(m) for m in harness.ephemerals(VIEWER))


# ================================================================ assistants (3)
def assistant_values(name="", capacity=None, days=None, pay="", replaces="", preparers=None, gb=False,
                     qualified=None, served=None) -> dict:
    values = {"assistant.name": text(name), "assistant.replaces": text(replaces), "assistant.pay": text(pay),
              "assistant.days": number(days),
              "assistant.flags": {"type": "checkboxes",
                                  "selected_options": [{"value": "governing_body"}] if gb else []}}
    if capacity:
        values["assistant.capacity"] = select_(capacity)
    if preparers is not None:
        values["assistant.preparers"] = text(preparers)
    for block, answer in (("assistant.qualified", qualified), ("assistant.served", served)):
        if answer is not None:
            values[block] = {"type": "radio_buttons", "selected_option": {"value": answer}}
    return values


def test_assistants_with_a_pay_floor_warning_and_an_additional_person_who_served_as_a_judge(harness) -> None:
    card = issue_card(harness)
    view = open_from(harness, current(harness, card), "assistants.open")
    assert view["title"]["text"] == "Assistants"
    # The abstract preparers first (recorded for the election), with a preparer assisting at $10 for 2 days.
    reply = submit(harness, view, assistant_values("Ann Lee", "prepared_abstract", "2", "20.00",
                                                  preparers="Ann Lee\nBob Ray\n"))
    assert reply.body in (b"", b"{}")
    with harness.db.transaction() as s:
        assert s.scalars(select(Election.abstract_preparers)).all()[0] == ["Ann Lee", "Bob Ray"]
        [row] = s.scalars(select(AssistantRow)).all()
        assert (row.name, row.capacity, row.days_served, row.compensation) == ("Ann Lee", "prepared_abstract", 2,
                                                                                Decimal("20.00"))
    review = thread_texts(harness, card)[-1]
    assert "added Ann Lee — preparer of the abstract, 2 days, $20.00" in review
    assert "Ann Lee: paid $20.00 for 2 days; the floor is $30.00" in review and "C.R.S. 1-13.5-1301(4)" in review
    assert "Bob Ray assisted in preparing the abstract but neither assists in the recount nor is replaced" in review

    # An additional person who served as a judge in the election, and a replacement for Bob Ray.
    view = open_by_command(harness, f"assistants {case_id_of(harness)}")
    submit(harness, view, assistant_values("Cy Diaz", "additional_qualified", "1", "15", qualified="yes",
                                          served="yes"))
    review = thread_texts(harness, card)[-1]
    assert "Cy Diaz served as a judge in the election; (3) allows additional assistants only who did not serve as " \
           "judges in the election. — _C.R.S. 1-13.5-1306(3)_" in review
    view = open_by_command(harness, f"assistants {case_id_of(harness)}")
    submit(harness, view, assistant_values("Dee Fox", "appointed_1301", "1", "$15.00", replaces="bob  ray"))
    shown = card_text(harness, card)
    assert "*Assistants* (C.R.S. 1-13.5-1306(3)) — 3 recorded · :warning: 2 warnings" in shown
    assert "Prepared the official abstract: Ann Lee, Bob Ray" in shown
    assert "Ann Lee: paid $20.00 for 2 days; the floor is $30.00" in shown
    assert "Cy Diaz served as a judge" in shown and "neither assists" not in shown  # Bob Ray is replaced

    # Updating Ann Lee's pay (same name, any case) clears her warning; the same details again change nothing.
    view = open_by_command(harness, f"assistants {case_id_of(harness)}")
    submit(harness, view, assistant_values("ann lee", "prepared_abstract", "2", "30.00"))
    submit(harness, view, assistant_values("ann lee", "prepared_abstract", "2", "30.00"))
    assert count(harness, AssistantRow) == 3
    assert "1 warning" in card_text(harness, card) and "Ann Lee: paid" not in card_text(harness, card)
    assert count(harness, AuditEntry, AuditEntry.action == "assistant.recorded") == 3
    assert count(harness, AuditEntry, AuditEntry.action == "assistant.updated") == 1
    assert count(harness, AuditEntry, AuditEntry.action == "election.abstract_preparers_set") == 1


def test_bad_assistant_input_is_refused_on_its_field(harness) -> None:
    card = issue_card(harness)
    view = open_from(harness, current(harness, card), "assistants.open")
    assert submit(harness, view, assistant_values()).json()["errors"] == {
        "assistant.name": "Enter an assistant, or change the list of those who prepared the official abstract."}
    errors = submit(harness, view, assistant_values("", None, "x", "12.345")).json()["errors"]
    assert errors == {"assistant.name": "Give the assistant's name.",
                      "assistant.capacity": "Choose the capacity in which they assist (C.R.S. 1-13.5-1306(3)).",
                      "assistant.days": "Days served: a whole number from 0 to 366, not “x”.",
                      "assistant.pay": "Compensation: '12.345' has more than two decimal places"}
    errors = submit(harness, view, assistant_values("Eve", "additional_qualified", "-1", "-5")).json()["errors"]
    assert set(errors) == {"assistant.days", "assistant.pay"} and "negative" in errors["assistant.pay"]
    assert count(harness, AssistantRow) == 0
    harness.command("assistants", user=VIEWER)
    assert any("You need the staff role" in text_of(m) for m in harness.ephemerals(VIEWER))


# ================================================================ evidence (4)
def test_evidence_demanded_and_produced(harness) -> None:
    card = issue_card(harness)
    # Staff may record what was produced but demanding is the official's act under (4).
    harness.click(current(harness, card), "evidence.demand", user=STAFF)
    assert any("You need the official role" in text_of(m) for m in harness.ephemerals(STAFF))
    view = open_from(harness, current(harness, card), "evidence.demand", user=OFFICIAL)
    assert view["title"]["text"] == "Demand evidence"
    missing = submit(harness, view, {"evidence.what": text(" "), "evidence.of_whom": text(""),
                                    "evidence.when": {"type": "datetimepicker", "selected_date_time": DEMANDED_AT}},
                             user=OFFICIAL)
    assert missing.json()["errors"] == {"evidence.what": "Say what documentary evidence is demanded.",
                                        "evidence.of_whom": "Say of whom it is demanded."}
    future = int(dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc).timestamp())
    values = {"evidence.what": text("Poll book pages of Precinct 2 for the 14 challenged voters"),
              "evidence.of_whom": text("Precinct 2 election judges"),
              "evidence.when": {"type": "datetimepicker", "selected_date_time": future}}
    assert submit(harness, view, values, user=OFFICIAL).json()["errors"] == {
        "evidence.when": "The demand cannot be in the future."}
    values["evidence.when"]["selected_date_time"] = DEMANDED_AT
    assert submit(harness, view, values, user=OFFICIAL).body in (b"", b"{}")
    assert submit(harness, view, values, user=OFFICIAL).body in (b"", b"{}")  # a double click: stored once
    assert count(harness, EvidenceDemand) == 1
    post = harness.thread(card["ts"])[-1]
    said = text_of(post)
    assert "*Documentary evidence demanded* by <@U0OFFICIAL> (C.R.S. 1-13.5-1306(4)): “Poll book pages of Precinct 2 " \
           "for the 14 challenged voters” — of Precinct 2 election judges" in said
    assert "Survey of returns: this case uses version 1; 1 version kept." in said
    shown = card_text(harness, card)
    assert "*Evidence* (C.R.S. 1-13.5-1306(4)) — 1 demanded, 1 outstanding" in shown
    assert "Survey of returns: this case uses version 1; 1 version kept" in shown

    # What was produced, recorded by staff from the post's button.
    with harness.db.transaction() as s:
        demand_id = s.scalar(select(EvidenceDemand.id))
    view = open_from(harness, post, "evidence.production", value=str(demand_id))
    assert submit(harness, view, {"evidence.produced": text(""), "evidence.produced_at": {
        "type": "datetimepicker", "selected_date_time": DEMANDED_AT + 3600}}).json()["errors"] == {
        "evidence.produced": "Say what was produced."}
    produced = {"evidence.produced": text("Copies of the 14 poll book pages, kept in the recount binder"),
                "evidence.produced_at": {"type": "datetimepicker", "selected_date_time": DEMANDED_AT + 3600}}
    assert submit(harness, view, produced).body in (b"", b"{}")
    assert submit(harness, view, produced).body in (b"", b"{}")  # again: nothing changes
    said = thread_texts(harness, card)[-1]
    assert "*Evidence produced* for the demand “Poll book pages of Precinct 2" in said
    assert "“Copies of the 14 poll book pages, kept in the recount binder”" in said
    assert "recorded by <@U0STAFF001> (C.R.S. 1-13.5-1306(4)). 0 demands outstanding." in said
    assert "1 demanded, 0 outstanding" in card_text(harness, card)
    assert count(harness, AuditEntry, AuditEntry.action == "evidence.demanded") == 1
    assert count(harness, AuditEntry, AuditEntry.action == "evidence.produced") == 1
    # The survey's corrections are versions: the card says which the case uses and how many are kept.
    assert "evidence.production" not in [b.get("accessory", {}).get("action_id")
                                         for b in current(harness, card)["blocks"]]
