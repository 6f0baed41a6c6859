"""The lot for a tie the recount did not break (C.R.S. 1-13.5-1304), and the notices of (1) before completion, end to
end through signed requests into the real app, the Web API stand-in and each database.

- An automatic recount of the two-seat "Cherry Creek Valley Water and Sanitation District - Director" leaves Thomas
  Reed and Priya Natarajan tied for the last seat: the official records the drawing from the card (a notice given
  after the drawing is refused), the certificate withheld at completion is made for the winner of the lot, the
  amended notice of the results is posted and, since the first notice went before the lot, recorded; the case
  record (JSON and PDF) and the audit log show all of it; a retried submission records nothing more.
- A requested recount of the one-seat Pine Ridge contest ends in a tie for first: the lot decides the seat.
- An automatic recount with its 5 notices owed: completing is refused naming each; with a reason it completes,
  and the reason is on the report, the card and the record.
"""
from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import select

from services.office import access
from storage.models import AuditEntry, Certificate, LotDrawing, RecountCase
from tests.flows.test_completion_flow import (  # noqa: F401  (harness: the fixture serving certificate links)
    DANA,
    SAM,
    audit_count,
    automatic_card,
    buttons,
    certificate_paths,
    complete,
    counting_case,
    current,
    enter,
    harness,
    last_told,
    open_modal,
    pdf_text,
    select_,
    tally,
    text,
    thread_texts,
    told_count,
    when,
)
from tests.support.slack_app import OFFICIAL, STAFF, TEAM, VIEWER, text_of

CHERRY = "Cherry Creek Valley Water and Sanitation District - Director"  # 2 seats
CHERRY_TIED = {
    "Precinct 1": {"Maria Alvarez": 1412, "Thomas Reed": 1377, "Priya Natarajan": 1351, "Walt Kowalski": 601},
    "Precinct 2": {"Maria Alvarez": 1298, "Thomas Reed": 1290, "Priya Natarajan": 1316, "Walt Kowalski": 577}}
REED, NATARAJAN = "Thomas Reed", "Priya Natarajan"


def options(view: dict, block_id: str) -> dict[str, str]:
    """An input's options in a modal: text -> value."""
    [block] = [b for b in view["blocks"] if b.get("block_id") == block_id]
    return {o["text"]["text"]: o["value"] for o in block["element"]["options"]}


def tied_positions(view: dict) -> dict[str, int]:
    """Each tied candidate's position in the modal (the notice blocks carry it, never the name)."""
    return {name: int(value) for name, value in options(view, "lot.winners").items()}


def lot_values(view: dict, *, winner: str, drawn_at: dt.datetime, notice_at: dict[str, dt.datetime]) -> dict:
    positions = tied_positions(view)
    values = {"lot.drawn_at": when(drawn_at), "lot.place": text("District office, 120 Main St, board room"),
              "lot.conducted_by": text("Canvass board: Dana Clerk, Lee Park, Ana Ruiz"),
              "lot.witnesses": text("Thomas Reed; Priya Natarajan's agent Sam Lee; two members of the public"),
              "lot.method": select_("names drawn from a container"),
              "lot.method_details": text("names on identical slips in a closed box, drawn by the chair"),
              "lot.winners": {"type": "static_select", "selected_option": {"value": str(positions[winner])}}}
    for name, index in positions.items():
        values[f"lot.notice_at.{index}"] = when(notice_at[name])
        values[f"lot.notice_method.{index}"] = select_("phone")
    return values


def completed_cherry_tie(harness, *, give_notices: bool = True) -> tuple[int, dict]:
    case_id, card = automatic_card(harness, CHERRY, give_notices=give_notices)
    for user, role in ((STAFF, access.Role.STAFF), (VIEWER, access.Role.VIEWER)):
        access.set_role(harness.services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL,
                        user_id=user, role=role)
    enter(harness, case_id, CHERRY_TIED)
    return case_id, card


# ================================================================ the two-seat tie, automatic recount (1)
def test_a_two_seat_tie_completed_then_the_lot_recorded_the_certificate_issued_and_the_notice_amended(
        harness) -> None:
    case_id, card = completed_cherry_tie(harness)
    harness.click(current(harness, card), "case.complete")
    card_text = text_of(current(harness, card))
    assert "*A tie for the last seat is left to the lot* (C.R.S. 1-13.5-1304): Thomas Reed and Priya Natarajan" \
        in card_text
    assert "case.lot" in buttons(current(harness, card))
    # The first notice of the results goes to the governing body before the lot.
    view = open_modal(harness, card, "case.results_notice", user=STAFF)
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                          "results.given_at": when(harness.services.now())}, user=STAFF)
    with harness.db.transaction() as s:
        assert [c.candidate for c in s.scalars(select(Certificate))] == ["Maria Alvarez"]

    # Staff may not record the lot: the official does.
    answered = told_count(harness)
    harness.click(current(harness, card), "case.lot", user=STAFF)
    assert "You need the official role" in last_told(harness, answered)

    harness.clock.advance(days=2)
    drawn_at = harness.services.now() - dt.timedelta(hours=1)
    view = open_modal(harness, card, "case.lot")
    assert view["callback_id"] == "case.lot" and view["title"]["text"] == "Record the lot"
    assert set(tied_positions(view)) == {REED, NATARAJAN}
    assert "tied at 2,667 votes each after the recount" in text_of(view)
    noticed = {REED: drawn_at - dt.timedelta(days=1), NATARAJAN: drawn_at - dt.timedelta(days=1)}

    # A notice given after the drawing is refused, under the notices; nothing is recorded.
    late = lot_values(view, winner=REED, drawn_at=drawn_at,
                      notice_at={**noticed, NATARAJAN: drawn_at + dt.timedelta(minutes=30)})
    errors = harness.submit(view, late).json()["errors"]
    assert errors == {"lot.notice_at.0": "The notice to Priya Natarajan is after the drawing; notice of the drawing "
                                         "comes before it (C.R.S. 1-13.5-1304)."}
    # A required field left empty is named.
    errors = harness.submit(view, {**lot_values(view, winner=REED, drawn_at=drawn_at, notice_at=noticed),
                                   "lot.place": text("  ")}).json()["errors"]
    assert errors == {"lot.place": "Say where the lot was drawn."}
    with harness.db.transaction() as s:
        assert s.scalars(select(LotDrawing)).all() == []

    posted_before = len(harness.thread(card["ts"]))
    values = lot_values(view, winner=REED, drawn_at=drawn_at, notice_at=noticed)
    assert harness.submit(view, values).body in (b"", b"{}")
    record, notice, certificate, uploaded = thread_texts(harness, card)[posted_before:]
    assert ("*The lot for the tie — Cherry Creek Valley Water and Sanitation District - Director* (C.R.S. "
            "1-13.5-1304)\n*Thomas Reed* wins the last seat by lot over Priya Natarajan (tied at 2,667 votes each). "
            "The certificate of election withheld at completion is made for Thomas Reed (C.R.S. 1-13.5-1306(6)).") \
        in record
    for expected in ("*Where:* District office, 120 Main St, board room",
                     "*Drawn by:* Canvass board: Dana Clerk, Lee Park, Ana Ruiz",
                     "*Witnessed by:* Thomas Reed; Priya Natarajan's agent Sam Lee; two members of the public",
                     "*Method:* names drawn from a container — names on identical slips in a closed box",
                     "*Recorded by:* <@U0OFFICIAL>", "• Thomas Reed: phone", "(24 hours before the drawing)",
                     "Reading: notice of the drawing to each tied candidate (1-13.5-1304)"):
        assert expected in record, expected
    assert "*Amended notice of the results, ready to send*" in notice
    assert "Re: Amended notice: Results of the recount - Cherry Creek Valley" in notice
    assert ("Thomas Reed wins the lot over Priya Natarajan and is elected (C.R.S. 1-13.5-1304)." in
            " ".join(notice.split()))
    assert "a certificate of election is made for Maria Alvarez and Thomas Reed" in " ".join(notice.split())
    assert "*Certificate of election* (C.R.S. 1-13.5-1306(6)) for the winner of the lot" in certificate
    paths = certificate_paths([certificate])
    assert list(paths) == [REED]
    reply = harness.get(paths[REED])
    assert reply.status == 200
    pdf = pdf_text(reply.body)
    assert "Thomas Reed" in pdf and "2,667" in pdf and "was chosen by lot on November" in pdf and "1-13.5-1304" in pdf
    assert "The certificate of election as PDF" in uploaded

    # The card: the lot, the new certificate to deliver, the amended notice owed; no lot button any more.
    card_text = text_of(current(harness, card))
    assert ":game_die: *Lot drawn* (C.R.S. 1-13.5-1304) — *Thomas Reed* wins the last seat by lot over Priya " \
           "Natarajan" in card_text
    assert "*Certificate of election:* Thomas Reed (2,667 votes) — not yet delivered" in card_text
    assert "*Amended notice of the results not yet given*" in card_text
    assert "case.lot" not in buttons(current(harness, card))
    with harness.db.transaction() as s:
        assert [c.candidate for c in s.scalars(select(Certificate).order_by(Certificate.id))] == [
            "Maria Alvarez", REED]

    # A retried submission (Slack's retry, a second modal) records nothing more and says what was recorded.
    answered = len(harness.slack.calls_to("chat.postEphemeral"))
    assert harness.submit(view, lot_values(view, winner=NATARAJAN, drawn_at=drawn_at, notice_at=noticed)).body \
        in (b"", b"{}")
    [again] = harness.wait("chat.postEphemeral", count=answered + 1)[answered:]
    assert "The lot for this tie was already recorded by <@U0OFFICIAL>" in again.args["text"]
    assert "*Thomas Reed* wins the last seat" in again.args["text"] and "Nothing changed" in again.args["text"]
    assert audit_count(harness, "lot.drawn") == 1
    with harness.db.transaction() as s:
        assert len(s.scalars(select(Certificate)).all()) == 2 and len(s.scalars(select(LotDrawing)).all()) == 1

    # The amended notice of the results, recorded from the card.
    view = open_modal(harness, card, "case.results_notice", user=STAFF)
    assert "Amended notice (with the lot that decided the tie)" in text_of(view)
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("letter"),
                          "results.given_at": when(harness.services.now())}, user=STAFF)
    assert "Amended notice of the results (with the lot) to Board of Directors" in thread_texts(harness, card)[-1]
    assert ":white_check_mark: *Amended notice of the results* (after the lot)" in text_of(current(harness, card))
    assert "case.results_notice" not in buttons(current(harness, card))
    assert audit_count(harness, "results.amended_notified") == 1

    # The audit log and the case record, JSON and PDF.
    with harness.db.transaction() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "lot.drawn")).all()
        assert entry.after["citation"] == "C.R.S. 1-13.5-1304" and entry.after["winners"] == [REED]
        assert entry.after["witnesses"].startswith("Thomas Reed;") and entry.after["certificates"] == [REED]
        assert {n["candidate"] for n in entry.after["candidate_notices"]} == {REED, NATARAJAN}
    harness.command(f"record {case_id}", user=VIEWER)
    stem = f"recount-case-{case_id}-record"
    files = {f["name"]: f for f in harness.slack.state.files().values() if f["name"].startswith(stem)}
    record = json.loads(harness.slack.state.file_content(files[f"{stem}.json"]["id"]))
    assert record["lot"]["winners"] == [REED] and record["lot"]["place"] == "District office, 120 Main St, board room"
    assert record["lot"]["amended_results_notice"]["method"] == "letter"
    assert [d["citation"] for d in record["decisions"]][-1] == "C.R.S. 1-13.5-1304"
    assert {"lot.drawn", "results.amended_notified"} <= {e["action"] for e in record["timeline"]}
    assert [c["candidate"] for c in record["certificates"]] == ["Maria Alvarez", REED]
    pdf = pdf_text(harness.slack.state.file_content(files[f"{stem}.pdf"]["id"]))
    assert "The lot for the tie (1-13.5-1304)" in pdf and "Canvass board: Dana Clerk" in pdf


# ================================================================ a tie for first, requested recount (2)
def test_a_requested_recount_that_ends_in_a_tie_for_first_goes_to_the_lot(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (672, 784), (702, 590))  # Dana 1,374, Sam 1,374
    complete(harness, card, "350")
    report = [t for t in thread_texts(harness, card) if "Recount report" in t][0]
    assert "Dana Whitfield and Sam Okafor tied for the last seat, to be decided by lot" in report
    # A tie is within (1)'s margin: the payment is refunded (2)(d), whoever wins the lot.
    assert "*Settlement* (C.R.S. 1-13.5-1306(2)(d))" in report
    withheld = thread_texts(harness, card)[-1]
    assert "No certificate of election yet: the last seat is tied and goes to the lot" in withheld

    view = open_modal(harness, card, "case.lot")
    assert "The drawing of lots for *the seat* of" in text_of(view)
    drawn_at = harness.services.now()
    noticed = {DANA: drawn_at - dt.timedelta(hours=3), SAM: drawn_at - dt.timedelta(hours=3)}
    # Only a tied candidate can win the lot: an option that is none of them is refused.
    values = lot_values(view, winner=SAM, drawn_at=drawn_at, notice_at=noticed)
    refused = harness.submit(view, {**values, "lot.winners": {"type": "static_select",
                                                              "selected_option": {"value": "7"}}}).json()
    assert "is not tied for the seat: the lot is between" in refused["errors"]["lot.winners"]
    harness.submit(view, values)
    record = [t for t in thread_texts(harness, card) if "The lot for the tie" in t][0]
    assert "*Sam Okafor* wins the seat by lot over Dana Whitfield (tied at 1,374 votes each)" in record
    with harness.db.transaction() as s:
        assert [c.candidate for c in s.scalars(select(Certificate))] == [SAM]
        assert s.get(RecountCase, case_id).settlement["outcome"] == "refund"
    assert "*Certificate of election:* Sam Okafor (1,374 votes) — not yet delivered" in text_of(current(harness, card))


# ================================================================ (1): notices before completion
def test_completing_with_notices_owed_is_refused_naming_each_and_allowed_with_a_recorded_reason(harness) -> None:
    case_id, card = completed_cherry_tie(harness, give_notices=False)
    card_text = text_of(current(harness, card))
    assert ":warning: 5 notices of the recount not yet recorded as given (C.R.S. 1-13.5-1306(1))" in card_text
    complete_button = next(e for b in current(harness, card)["blocks"] if b["type"] == "actions"
                           for e in b["elements"] if e["action_id"] == "case.complete")
    assert "confirm" not in complete_button  # the dialog is the modal that lists the notices

    view = open_modal(harness, card, "case.complete")
    modal = text_of(view)
    assert "*5 notices of the recount are not recorded as given* (C.R.S. 1-13.5-1306(1))" in modal
    for owed in ("Governing body: Board of Directors of Front Range Special Districts (C.R.S. 1-13.5-1306(1))", "Candidate: Thomas Reed",
                 "Candidate: Priya Natarajan", "Candidate: Maria Alvarez", "Candidate: Walt Kowalski"):
        assert owed in modal, owed
    assert "complete.actual_cost" not in {b.get("block_id") for b in view["blocks"]}  # automatic: no money

    errors = harness.submit(view, {}).json()["errors"]
    refusal = errors["complete.notices_reason"]
    assert refusal.startswith("Not completed: 5 notices of the recount are still owed (C.R.S. 1-13.5-1306(1)): "
                              "the governing body Board of Directors of Front Range Special Districts; candidate ")
    assert "candidate Walt Kowalski" in refusal and "complete with your reason" in refusal
    with harness.db.transaction() as s:
        assert s.get(RecountCase, case_id).completed_at is None
    assert audit_count(harness, "case.completed") == 0

    reason = "The candidates were told at the canvass; the board's letters went unrecorded."
    posted_before = len(harness.thread(card["ts"]))
    assert harness.submit(view, {"complete.notices_reason": text(reason)}).body in (b"", b"{}")
    report = thread_texts(harness, card)[posted_before]
    assert ":warning: *Completed with 5 notices of the recount not recorded as given* (C.R.S. 1-13.5-1306(1))" \
        in report
    assert f"Reading: owed-with-reason. The official's reason: “{reason}”" in report
    assert "*Completed with 5 notices" in text_of(current(harness, card))
    with harness.db.transaction() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "case.completed")).all()
        assert entry.after["notices"]["outcome"] == "overridden"
        assert entry.after["notices"]["reading"].startswith("owed-with-reason")
    harness.command(f"record {case_id}", user=VIEWER)
    stem = f"recount-case-{case_id}-record"
    [json_file] = [f for f in harness.slack.state.files().values() if f["name"] == f"{stem}.json"]
    record = json.loads(harness.slack.state.file_content(json_file["id"]))
    [override] = [d for d in record["decisions"] if d["what"] == "notices before completion"]
    assert override["citation"] == "C.R.S. 1-13.5-1306(1)" and override["reading"].startswith("owed-with-reason")
    assert reason in override["reason"]


def test_with_every_notice_given_the_completion_dialog_says_so(harness) -> None:
    _, card = completed_cherry_tie(harness)
    complete_button = next(e for b in current(harness, card)["blocks"] if b["type"] == "actions"
                           for e in b["elements"] if e["action_id"] == "case.complete")
    assert complete_button["confirm"]["text"]["text"].startswith(
        "All 5 notices of the recount are recorded as given (C.R.S. 1-13.5-1306(1)).")
