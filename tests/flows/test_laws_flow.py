"""Issue 22: one recount, check -> case -> request -> deadlines, under each of the three laws an election may run
under, through signed requests into the real app. Each election is the sandbox's example of its law (sandbox/seed.py),
imported with its law; every answer names the law and cites its subsections. Dates are counted by hand:

- 31-10-1207, the town's Tue 2026-04-07: requests day 1 to day 10 (Fri 04-17); every recount complete by day 15
  (Wed 04-22).
- 1-10.5, the coordinated Tue 2026-11-03: requests no sooner than day 10 (Fri 11-13) nor later than day 22
  (Wed 11-25), notarized; the automatic recount complete by day 31 (Fri 12-04); the cost set within four days of
  the request and by day 24 (Fri 11-27).
- 1-13.5-1306, the districts' Tue 2027-05-04: requests through day 17 (Fri 05-21); the automatic recount complete
  by day 28 (Tue 06-01).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select

from rules.returns import parse_returns
from sandbox.seed import EXAMPLES, by_district
from services.returns.versions import import_returns
from storage.models import CaseDeadline, Election, RecountCase, RecountRequestRow
from tests.flows.test_request_flow import (
    choice_ids,
    choose_contest,
    contest_ids,
    decide,
    grant,
    open_form,
    request_card,
)
from tests.support.slack_app import STAFF, TEAM, text_of


@dataclass(frozen=True)
class Rehearsal:
    law: str
    named: str  # how every answer names the law
    trigger: str  # the automatic recount's subsection
    election: dt.date
    now: dt.datetime  # a moment inside the request window
    automatic: str  # the contest inside the margin
    automatic_due: str  # its completion deadline, with the citation
    requested: str  # a contest outside it, for a request
    requester: tuple[str, str, str]  # (name, party kind, in favor of)
    window: str  # what the request form says of the window
    requested_due: str
    request_citation: str  # what the accepted request's evaluation cites
    requested_deadlines: dict[str, tuple[str, str]]  # the requested case's deadlines: (date, citation)
    automatic_cases: int = 1  # cases /recount check opens


REHEARSALS = (
    Rehearsal("31-10-1207", "C.R.S. 31-10-1207 (municipal election)", "C.R.S. 31-10-1207(1)", dt.date(2026, 4, 7),
              dt.datetime(2026, 4, 9, 16, 0, tzinfo=dt.timezone.utc), "Town of Elk Springs - Mayor",
              "*Wed 2026-04-22*\nC.R.S. 31-10-1207(1)", "Town of Elk Springs - Trustee",
              ("Owen Price", "candidate", "Owen Price"), "through *Fri 2026-04-17*",
              "*Wed 2026-04-22*\nC.R.S. 31-10-1207(2)", "C.R.S. 31-10-1207(2)",
              {"requested_recount_deadline": ("2026-04-22", "C.R.S. 31-10-1207(2)"),
               "contest_filing_deadline": ("2026-04-27", "C.R.S. 31-10-1303")}),
    Rehearsal("1-10.5", "C.R.S. 1-10.5 (coordinated election)", "C.R.S. 1-10.5-101(1)(b)", dt.date(2026, 11, 3),
              dt.datetime(2026, 11, 13, 17, 0, tzinfo=dt.timezone.utc),
              "Willow Valley School District RE-3 - Director District 4", "*Fri 2026-12-04*\nC.R.S. 1-10.5-103",
              "Willow Valley School District RE-3 - Ballot Issue 4A", ("No on 4A Committee", "issue_committee", "No"),
              "from *Fri 2026-11-13* through *Wed 2026-11-25*", "*Fri 2026-12-04*\nC.R.S. 1-10.5-106(2)",
              "C.R.S. 1-10.5-106(2)",
              # The cost within four days of the request received Fri 11-13: Tue 11-17 (before the day-24 cap).
              {"requested_recount_deadline": ("2026-12-04", "C.R.S. 1-10.5-106(2); 1-10.5-102(2)"),
               "contest_filing_deadline": ("2026-11-16", "C.R.S. 1-11-213(4)"),
               "cost_determination_deadline": ("2026-11-17", "C.R.S. 1-10.5-106(2)")}),
    Rehearsal("1-13.5-1306", "C.R.S. 1-13.5-1306 (special district or other local government election)",
              "C.R.S. 1-13.5-1306(1)", dt.date(2027, 5, 4), dt.datetime(2027, 5, 7, 15, 0, tzinfo=dt.timezone.utc),
              "Bear Creek Fire Protection District - Ballot Issue 6A", "*Tue 2027-06-01*\nC.R.S. 1-13.5-1306(1)",
              "Pine Ridge Metropolitan District - Director", ("Sam Okafor", "candidate", "Sam Okafor"),
              "through *Fri 2027-05-21*", "C.R.S. 1-13.5-1306(2)(e)", "C.R.S. 1-13.5-1306(2)(a)",
              {"requested_recount_deadline": ("2027-06-02", "C.R.S. 1-13.5-1306(2)(e)"),
               "contest_filing_deadline": ("2027-06-01", "C.R.S. 1-13.5-1403")}, automatic_cases=2),
)


def load(harness, rehearsal: Rehearsal) -> None:
    """The law's example election, as the sandbox loads it: one election per local government, with its law."""
    harness.clock.now = rehearsal.now
    [example] = [e for e in EXAMPLES if e.law == rehearsal.law]
    for government, data in by_district(Path(example.path).read_bytes()):
        import_returns(harness.services, team_id=TEAM, returns=parse_returns(data), election_name=example.name,
                       election_date=example.election_date, local_government=government,
                       governing_body=example.governing_bodies[government], source_name=example.path.name,
                       source_bytes=data, actor="test", law=example.law)


def request_values(view: dict, contest: str, requester: tuple[str, str, str], received: dt.date,
                   notarized: bool) -> dict:
    name, party, favor = requester
    favor_block = next(b["block_id"] for b in view["blocks"] if b.get("block_id", "").startswith(
        "request.in_favor_of."))
    values = {
        "request.contest": {"type": "static_select", "selected_option": {"value": contest_ids(view)[contest]}},
        "request.requester_name": {"type": "plain_text_input", "value": name},
        "request.requester_contact": {"type": "plain_text_input", "value": "requester@example.org"},
        "request.party_kind": {"type": "radio_buttons", "selected_option": {"value": party}},
        favor_block: {"type": "static_select", "selected_option": {"value": choice_ids(view)[favor]}},
        "request.received_on": {"type": "datepicker", "selected_date": received.isoformat()},
        "request.reference": {"type": "plain_text_input", "value": f"Letter of {received.isoformat()}"},
        "request.requester_user": {"type": "users_select", "selected_user": None},
    }
    if any(b.get("block_id") == "request.notarized" for b in view["blocks"]):
        values["request.notarized"] = {"type": "checkboxes", "selected_options": [
            {"value": "notarized"}] if notarized else []}
    return values


@pytest.mark.parametrize("rehearsal", REHEARSALS, ids=lambda r: r.law)
def test_check_case_request_and_deadlines_follow_the_elections_law(harness, rehearsal: Rehearsal) -> None:
    load(harness, rehearsal)
    grant(harness, STAFF, "staff")
    with harness.db.transaction() as s:
        assert {(e.law, e.law_basis) for e in s.scalars(select(Election))} == {(rehearsal.law, "given")}

    # /recount check: the verdicts cite the law's trigger and name the law; the case card names it too.
    assert harness.command("check").status == 200
    verdicts, *cards = harness.wait("chat.postMessage", count=1 + rehearsal.automatic_cases)
    said = text_of(verdicts.args)
    assert f"an automatic recount under {rehearsal.trigger}" in said
    assert f"Held under {rehearsal.named}." in said
    [case_card] = [text_of(c.args) for c in cards if rehearsal.automatic in c.args["text"]]
    assert rehearsal.automatic in case_card and f"Held under {rehearsal.named}." in case_card
    assert rehearsal.automatic_due in case_card
    # The notice goes to the governing body where the law names it: 1306(1) always; 1-10.5-105 for a ballot
    # question (not this candidate race); 31-10-1207(1) never (candidates and petition representatives).
    assert ("Governing body:*" in case_card) is (rehearsal.law == "1-13.5-1306"), case_card

    # A written request: the form says the law's window, and the request is decided under the law.
    view = open_form(harness)
    shown = text_of({"blocks": view["blocks"]})
    assert rehearsal.window in shown and f"Held under {rehearsal.named}." in shown
    step2 = choose_contest(harness, view, rehearsal.requested)
    received = harness.clock.now.date()
    reply = harness.submit(step2, request_values(step2, rehearsal.requested, rehearsal.requester, received, True),
                           user=STAFF)
    assert reply.status == 200 and reply.body in (b"", b"{}"), reply.body
    request = request_card(harness)
    assert decide(harness, request, note="Timely and in order.").body in (b"", b"{}")
    harness.wait("chat.postMessage", count=6 + rehearsal.automatic_cases)
    [requested_card] = [m for m in harness.posted() if m["text"].startswith("Requested recount")]
    requested_text = text_of(requested_card)
    assert f"Held under {rehearsal.named}." in requested_text and rehearsal.requested_due in requested_text
    # What comes before counting, under the law's own provision for it.
    pre_count = {"31-10-1207": "C.R.S. 31-10-1207(2)", "1-10.5": "C.R.S. 1-10.5-106(2)",
                 "1-13.5-1306": "C.R.S. 1-13.5-1306(2)(b)"}[rehearsal.law]
    assert f"Before counting, {pre_count}:* 4 of 4 steps outstanding" in requested_text
    for step in ("Cost of the recount determined", "Requester notified of the cost", "Cost collected from the requester"):
        # each step shown as outstanding, under every law (1306 numbers them with its own subsections)
        line = next(line for line in requested_text.splitlines() if step in line)
        assert line.startswith(":hourglass_flowing_sand:"), line
    with harness.db.transaction() as s:
        row = s.scalars(select(RecountRequestRow)).one()
        assert (row.evaluation["numbers"]["law"], row.evaluation["citation"]) == (rehearsal.law,
                                                                                  rehearsal.request_citation)
        deadlines = {d.name: (d.due_date.isoformat(), d.citation) for d in s.scalars(
            select(CaseDeadline).join(RecountCase).where(RecountCase.kind == "requested"))}
    assert deadlines == rehearsal.requested_deadlines

    # /recount deadlines: each deadline with its citation, and the law the election is held under.
    told = len(harness.slack.calls_to("response_url"))
    harness.command("deadlines")
    listed = text_of(harness.wait("response_url", count=told + 1)[-1].args)
    assert f"held under {rehearsal.named}" in listed
    assert rehearsal.automatic_due.split("\n")[1] in listed


def test_under_1_10_5_a_request_before_day_10_or_not_notarized_is_refused_on_its_field(harness) -> None:
    rehearsal = REHEARSALS[1]
    load(harness, rehearsal)
    grant(harness, STAFF, "staff")
    harness.clock.now = dt.datetime(2026, 11, 12, 17, 0, tzinfo=dt.timezone.utc)  # Thu, day 9
    view = choose_contest(harness, open_form(harness), rehearsal.requested)
    labels = {b["label"]["text"]: b for b in view["blocks"] if b["type"] == "input"}
    assert "1-10.5-106(2) requires a notarized request" in labels["Notarized"]["hint"]["text"]
    parties = [o["value"] for o in labels["The requester is"]["element"]["options"]]
    assert parties == ["candidate", "political_party", "petition_representative", "governing_body",
                       "issue_committee"]  # 1-10.5-106(1)'s interested parties; no eligible elector
    early = harness.submit(view, request_values(view, rehearsal.requested, rehearsal.requester,
                                                dt.date(2026, 11, 12), False), user=STAFF).json()
    assert early["response_action"] == "errors"
    assert "2026-11-13" in early["errors"]["request.received_on"]
    assert "notarized" in early["errors"]["request.notarized"]
    with harness.db.transaction() as s:
        assert s.scalars(select(RecountRequestRow)).all() == []


CANVASS_SAYS = {
    "31-10-1207": ("day 10 after the election (C.R.S. 31-10-1201)",
                   "due day 15 after the election (C.R.S. 31-10-1207(2)), whatever the canvass date"),
    "1-10.5": ("day 22 after the election (C.R.S. 1-10-102(1))",
               "due day 31 after the election (C.R.S. 1-10.5-106(2); 1-10.5-102(2)), whatever the canvass date"),
    "1-13.5-1306": ("day 14 after the election (C.R.S. 1-13.5-1305(1))",
                    "no later than day 28 after canvassing (C.R.S. 1-13.5-1306(2)(e))", "exact deadline"),
}


@pytest.mark.parametrize("rehearsal", REHEARSALS, ids=lambda r: r.law)
def test_the_canvass_form_says_what_the_date_fixes_under_the_elections_law(harness, rehearsal: Rehearsal) -> None:
    """Only 1-13.5-1306 counts a requested recount from the canvass; the form must not promise it elsewhere."""
    load(harness, rehearsal)
    assert harness.command("canvass").status == 200
    harness.wait("views.open")
    shown = text_of(harness.open_view())
    for words in CANVASS_SAYS[rehearsal.law]:
        assert words in shown, (words, shown)
    if rehearsal.law != "1-13.5-1306":
        assert "1-13.5-1306" not in shown and "1305" not in shown
