"""Issue 22: under 31-10-1207 and 1-10.5 a clerk never sees a 1-13.5-1306 subsection cited for what that law governs.
The example election (Tue 2026-11-03) imported under each law, end to end through signed requests into the real app:

- a requested recount of "Pine Ridge Metropolitan District - Director" (Sam Okafor, who lost, received on day 10,
  Fri 11-13: inside 31-10-1207(2)'s ten days and 1-10.5-106(2)'s tenth to twenty-second day, notarized where
  1-10.5 asks it): its cost, the notice of cost, the payment, the observers' page, a correction of the survey on the
  evidence, completion, the recount report, the notice of the results, the certificates and the case record;
- an automatic recount of the two-seat "Cherry Creek Valley Water and Sanitation District - Director" that leaves a
  tie for the last seat: completion, the lot's modal and its record, decided by the law's own tie section
  (31-10-1204: the clerk and the clerk's assistant; 1-11-102: the board of canvassers).

Every message, card and modal shown is collected and searched for "1-13.5-1306" and "1-13.5-1304".
"""
from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass

import pytest
from sqlalchemy import select

from handlers.cards import post_case_card
from rules.returns import parse_returns
from services.conduct.counting import start_counting
from services.conduct.tally_setup import set_up_count
from services.office import access
from services.office.office_settings import OfficeSettings
from services.requests import decision as request_decision
from services.requests import entry as request_entry
from services.returns.versions import import_returns
from storage.models import Contest, RecountCase
from tests.flows.conftest import EXAMPLE
from tests.flows.test_completion_flow import (  # noqa: F401  (harness: the fixture serving certificate links)
    DANA,
    SAM,
    buttons,
    current,
    harness,
    open_modal,
    pdf_text,
    select_,
    tally,
    text,
    thread_texts,
    when,
)
from tests.flows.test_correction_during_counting import OBSERVE
from tests.flows.test_lot_flow import CHERRY, CHERRY_TIED, REED, lot_values
from tests.flows.test_returns_modal import correction_form, counts, reason
from tests.support.assistants import record_an_assistant
from tests.support.notices import give_all_notices
from tests.support.slack_app import CHANNEL, OFFICIAL, STAFF, TEAM, VIEWER, text_of

PINE_RIDGE = "Pine Ridge Metropolitan District - Director"
RECEIVED = dt.date(2026, 11, 13)  # day 10 after Tue 2026-11-03


@dataclass(frozen=True)
class Law:
    key: str
    notarized: bool | None  # where the law asks whether the request is notarized
    letter: tuple[str, ...]  # what the notice of cost says, with its citations
    report: tuple[str, ...]  # what the completed recount's report, notice and certificates cite
    tie: str  # the tie section
    drawn_by: str
    evidence: str  # the power to correct the survey of returns on the evidence


LAWS = (
    Law("31-10-1207", None,
        ("Under C.R.S. 31-10-1207(2) a recount that the law does not otherwise require",
         "Cost. As C.R.S. 31-10-1207(2) requires, I have determined",
         "Payment. Under C.R.S. 31-10-1207(2) you are to pay this cost on demand to the clerk",
         "placed in escrow for payment of all expenses incurred in the recount",
         "recount would otherwise have been required under C.R.S. 31-10-1207(1)",
         "C.R.S. 31-10-1207 does not say what becomes of funds the recount did not use",
         "Completion. Under C.R.S. 31-10-1207(2) the recount must be completed no later than the fifteenth day "
         "after the election, that is, by Wednesday, November 18, 2026."),
        ("Under C.R.S. 31-10-1207(6) I notify you of the results", "*Certificates of election* (C.R.S. 31-10-1207(6))"),
        "C.R.S. 31-10-1204", "the clerk and the clerk's assistant", "C.R.S. 31-10-1207(4)"),
    Law("1-10.5", True,
        ("Under C.R.S. 1-10.5-106(2) a recount that the law does not otherwise require",
         "Cost. As C.R.S. 1-10.5-106(2) requires, I have determined",
         "you are to pay this cost by certified funds to the official that originally certified the candidate, "
         "ballot question or ballot issue for the ballot within 1 day of receiving this determination of the cost",
         "recount would otherwise have been required under C.R.S. 1-10.5-101(1)(b)",
         "Unused deposit. Under C.R.S. 1-10.5-106(2), any amount paid that is not refunded to you is paid to the "
         "election officials who conducted the recount.",
         "Completion. Under C.R.S. 1-10.5-106(2); 1-10.5-102(2) the recount must be completed no later than the "
         "thirty-first day after the election, that is, by Friday, December 4, 2026."),
        ("Under C.R.S. 1-10.5-107(4), (5) I notify you of the results", "*Certificates of election* (C.R.S. 1-11-103(1))"),
        "C.R.S. 1-11-102", "the board of canvassers (the canvass board)", "C.R.S. 1-10.5-107(3)"),
)


def load(harness, law: Law) -> int:
    """The example election under `law`, the official, staff and a viewer; returns the workspace's id."""
    harness.clock.now = dt.datetime(2026, 11, 13, 17, 0, tzinfo=dt.timezone.utc)
    data = EXAMPLE.read_bytes()
    import_returns(harness.services, team_id=TEAM, returns=parse_returns(data), election_name="Regular Election",
                   election_date=dt.date(2026, 11, 3), local_government="Front Range Special Districts",
                   governing_body="Board of Directors", source_name=EXAMPLE.name, source_bytes=data, actor="test",
                   law=law.key)
    services = harness.services
    access.bootstrap_official(services, TEAM, OFFICIAL, reason="test")
    for user, role in ((STAFF, access.Role.STAFF), (VIEWER, access.Role.VIEWER)):
        access.set_role(services, team_id=TEAM, actor=OFFICIAL, actor_role=access.Role.OFFICIAL, user_id=user,
                        role=role)
    return access.resolve_member(services, TEAM, OFFICIAL).workspace_id


def shown(harness) -> str:
    """Everything the bot showed: every message as it stands, every ephemeral answer and every modal it opened."""
    said = []
    for message in harness.slack.state.messages(CHANNEL):
        said += [text_of(m) for m in (message, *harness.thread(message["ts"]))]
    said += [text_of(m) for user in (OFFICIAL, STAFF) for m in harness.ephemerals(user)]
    said += [text_of(c.args) for c in harness.slack.calls_to("response_url")]
    said += [text_of({"blocks": c.args["view"]["blocks"]}) for c in harness.slack.calls_to("views.open")]
    return "\n".join(said)


def no_1306(everything: str) -> None:
    """No 1306 or 1304 citation, and no subsection only 1306 has left bare after a field's label ("*Paid*
    (2)(b)(IV)"); a bare "(6)" under 31-10-1207 is its own section's, which the card names."""
    bare = re.findall(r"\*[^*\n]+\* \(2\)\([a-f]\)[^\n]*", everything)
    assert bare == [], bare
    cited = [line for line in everything.splitlines() if "1-13.5-1306" in line or "1-13.5-1304" in line]
    assert cited == [], "\n".join(dict.fromkeys(cited))


@pytest.mark.parametrize("law", LAWS, ids=lambda law: law.key)
def test_a_requested_recount_cites_its_own_law_from_the_cost_to_the_certificates(harness, law: Law) -> None:
    workspace_id = load(harness, law)
    services = harness.services
    with services.db.transaction() as s:
        contest_id = s.scalar(select(Contest.id).where(Contest.name == PINE_RIDGE))
    request = request_entry.submit_request(services, team_id=TEAM, actor=STAFF, settings=OfficeSettings(),
                                           data=request_entry.RequestInput(
                                               contest_id=contest_id, requester_name=SAM,
                                               requester_contact="sam@example.org", party_kind="candidate",
                                               in_favor_of=SAM, received_on=RECEIVED, received_reference="REQ-1",
                                               notarized=law.notarized))
    case_id = request_decision.decide_request(services, team_id=TEAM, request_id=request.id, actor=OFFICIAL,
                                              approve=True, note="Timely; a candidate who lost.",
                                              settings=OfficeSettings()).case_id
    post_case_card(harness.app.client, services, case_id, channel_id=CHANNEL, actor=OFFICIAL)
    [card] = [m for m in harness.posted() if m["text"].startswith("Requested recount")]
    give_all_notices(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF)
    record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=STAFF)

    # The cost, its notice and the payment, from the card.
    view = open_modal(harness, card, "case.cost", user=STAFF)
    harness.submit(view, {"cost.other_amount": text("400.00"), "cost.other_description": text("the recount")},
                   user=STAFF)
    letter = next(t for t in thread_texts(harness, card) if "Notice of cost, ready to send" in t)
    for words in law.letter:
        assert words in " ".join(letter.split()), words
    view = open_modal(harness, card, "case.cost_notice", user=STAFF)
    harness.submit(view, {"cost.notice_method": select_("email"), "cost.notice_at": when(services.now()),
                          "cost.notice_by": text("Dana Clerk")}, user=STAFF)
    view = open_modal(harness, card, "case.payment", user=STAFF)
    harness.submit(view, {"payment.amount": text("400.00"), "payment.method": select_("check"),
                          "payment.reference": text("check 1042"), "payment.received_by": text("Dana Clerk")},
                   user=STAFF)

    # Counting; the observers' page; a correction of the survey on the evidence (the law's power to correct).
    assert start_counting(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    set_up_count(services, workspace_id=workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=STAFF)
    harness.settle()
    before = len(harness.slack.calls_to("response_url"))
    harness.click(current(harness, card), "observers.share", user=STAFF)
    [path] = OBSERVE.findall(harness.wait("response_url", count=before + 1)[-1].args["text"])
    view = correction_form(harness)
    harness.submit(view, {**counts(view, **{DANA: 840}), **reason("five ballots cast by non-electors")})
    harness.settle()
    assert f"five ballots cast by non-electors ({law.evidence})" in thread_texts(harness, card)[-1]
    tally(harness, case_id, (840, 611), (702, 590))
    view = open_modal(harness, card, "case.complete")
    assert harness.submit(view, {"complete.actual_cost": text("350.00")}).body in (b"", b"{}")
    assert f"*{DANA}*" in text_of(current(harness, card))
    view = open_modal(harness, card, "case.results_notice", user=STAFF)
    harness.submit(view, {"results.given_by": text("Dana Clerk"), "results.method": select_("email"),
                          "results.given_at": when(services.now())}, user=STAFF)

    everything = shown(harness) + html.unescape(harness.get(path).body.decode())
    for words in law.report:
        assert words in everything, words
    no_1306(everything)

    # The case record, as a document: each step of its timeline cites the law's provision for it.
    harness.command(f"record {case_id}", user=VIEWER)
    stem = f"recount-case-{case_id}-record"
    files = {f["name"]: f for f in harness.slack.state.files().values() if f["name"].startswith(stem)}
    pdf = pdf_text(harness.slack.state.file_content(files[f"{stem}.pdf"]["id"]))
    assert law.report[0].split("Under ")[1].split(" I notify")[0] in pdf
    no_1306(pdf)


@pytest.mark.parametrize("law", LAWS, ids=lambda law: law.key)
def test_a_tie_left_to_the_lot_is_decided_under_the_laws_own_tie_section(harness, law: Law) -> None:
    workspace_id = load(harness, law)
    services = harness.services
    harness.command("check")
    [card] = [m for m in harness.posted() if m["text"].startswith("Automatic recount") and CHERRY in m["text"]]
    with services.db.transaction() as s:
        case_id = s.scalar(select(RecountCase.id).join(Contest).where(Contest.name == CHERRY))
    give_all_notices(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    record_an_assistant(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    assert start_counting(services, workspace_id=workspace_id, case_id=case_id, actor=OFFICIAL)
    set_up_count(services, workspace_id=workspace_id, case_id=case_id, method="paper", units=None,
                 double_entry=False, actor=OFFICIAL)
    from tests.flows.test_completion_flow import enter

    enter(harness, case_id, CHERRY_TIED)
    harness.click(current(harness, card), "case.complete")
    card_text = text_of(current(harness, card))
    assert f"*A tie for the last seat is left to the lot* ({law.tie}): Thomas Reed and Priya Natarajan" in card_text
    assert f"withheld until {law.drawn_by}" in card_text
    assert "case.lot" in buttons(current(harness, card))

    drawn_at = services.now() + dt.timedelta(hours=1)
    harness.clock.now = drawn_at + dt.timedelta(minutes=5)
    view = open_modal(harness, card, "case.lot")
    modal_text = text_of(view)
    assert f"{law.tie}: a tie the recount did not break is decided by lot by {law.drawn_by}" in modal_text
    noticed = {name: drawn_at - dt.timedelta(minutes=30) for name in ("Thomas Reed", "Priya Natarajan")}
    assert harness.submit(view, lot_values(view, winner=REED, drawn_at=drawn_at, notice_at=noticed)).body \
        in (b"", b"{}")
    record = next(t for t in thread_texts(harness, card) if "*The lot for the tie" in t)
    assert f"*The lot for the tie — {CHERRY}* ({law.tie})" in record

    no_1306(shown(harness))
