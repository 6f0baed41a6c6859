"""An office conducting several districts' elections on one day: each district is its own local government with
its own governing body (the sandbox's example office, sandbox/seed.py, imports one election per district on
2027-05-04, after the earlier examples of other laws). `/recount check` covers every election of the latest election day, and each case's (1) notice to
the governing body names that district's body. Through signed requests into the real app."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from rules.returns import parse_returns
from sandbox.clock import DEMO_START
from sandbox.seed import GOVERNING_BODIES, seed
from services.returns.versions import import_returns
from storage.models import Contest, Election, Notice, RecountCase
from tests.support.slack_app import TEAM, text_of

BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"
CHERRY = "Cherry Creek Valley Water and Sanitation District - Director"
PINE = "Pine Ridge Metropolitan District - Director"


def seed_example(harness) -> None:
    harness.clock.now = DEMO_START  # the sandbox's moment: every example election is held by then
    seed(harness.services, TEAM, "Recount Office", None)
    # An earlier election of another district, inside its margin: not of the latest day, so not checked.
    older = b"contest,choice,votes,seats,kind,unit\nOld Mill District - Director,A,100,1,candidate,P1\n" \
            b"Old Mill District - Director,B,100,1,candidate,P1\n"
    import_returns(harness.services, team_id=TEAM, returns=parse_returns(older), election_name="Old Mill Election",
                   election_date=dt.date(2025, 5, 6), local_government="Old Mill District",
                   governing_body="Board of Directors of the Old Mill District", source_name="old.csv",
                   source_bytes=older, actor="test")


def test_check_covers_every_district_of_the_day_and_names_each_governing_body(harness) -> None:
    seed_example(harness)
    assert harness.command("check").status == 200
    harness.wait("chat.postMessage", count=3)  # the verdicts and two case cards
    verdicts, *cards = harness.posted()[:3]
    text = text_of(verdicts)
    for district in GOVERNING_BODIES:
        assert district in text
    assert "Old Mill" not in text  # another election day
    by_contest = {c["text"].split(":")[1].split("—")[0].strip(): text_of(c) for c in cards}
    assert "Governing body:* Board of Directors of the Bear Creek Fire Protection District — not yet given" \
        in by_contest[BEAR]
    assert "Governing body:* Board of Directors of the Cherry Creek Valley Water and Sanitation District — not yet " \
           "given" in by_contest[CHERRY]
    assert "*Local government*\nBear Creek Fire Protection District" in by_contest[BEAR]
    with harness.db.transaction() as s:
        bodies = dict(s.execute(select(Contest.name, Notice.recipient_name).join(RecountCase, RecountCase.contest_id
                                == Contest.id).join(Notice, Notice.case_id == RecountCase.id).where(
            Notice.recipient_kind == "governing_body")).all())
    assert bodies == {BEAR: GOVERNING_BODIES["Bear Creek Fire Protection District"],
                      CHERRY: GOVERNING_BODIES["Cherry Creek Valley Water and Sanitation District"]}


def test_a_contest_of_any_district_of_the_day_is_found_by_name(harness) -> None:
    seed_example(harness)
    assert harness.command(f"check {PINE}").status == 200
    harness.wait("chat.postMessage")
    text = text_of(harness.posted()[0])
    assert PINE in text and "Pine Ridge Metropolitan District" in text and "Bear Creek" not in text
    assert harness.command("check Old Mill District - Director").status == 200
    said = text_of(harness.wait("response_url")[-1].args)
    assert "No contest called “Old Mill District - Director”" in said


def test_a_request_may_name_a_contest_of_any_district_of_the_day(harness) -> None:
    seed_example(harness)
    assert harness.command("request").status == 200
    harness.wait("views.open")  # "Loading the contests…", then the form
    view = harness.wait("views.update")[-1].args["view"]
    shown = str(view)
    for contest in (BEAR, CHERRY, PINE, "Aspen Grove Library District - Trustee"):
        assert contest in shown
    assert "Old Mill" not in shown


def test_a_canvass_date_without_an_election_is_refused_when_several_share_the_day(harness) -> None:
    seed_example(harness)
    answered = len(harness.slack.calls_to("response_url"))
    harness.command("canvass 2027-05-10")
    told = harness.wait("response_url", count=answered + 1)[-1].args["text"]
    assert told.startswith("4 elections were held on 2027-05-04 (")
    assert "each canvass board certifies its own" in told and "choose the election in the form" in told
    with harness.db.transaction() as s:
        assert s.scalars(select(Election.canvass_date).where(Election.canvass_date.is_not(None))).all() == []


def test_each_districts_request_window_is_named_once_on_app_home_and_deadlines(harness) -> None:
    """One election per district on one day: each has its own request window (1306(2)(a)), and the line names its
    district, so App Home and `/recount deadlines` do not repeat the same words three times."""
    seed_example(harness)
    harness.command("deadlines")
    listed = text_of(harness.wait("response_url")[-1].args)
    harness.event({"type": "app_home_opened", "user": "U0OFFICIAL", "channel": "D0HOME", "tab": "home"})
    home = text_of({"blocks": harness.wait("views.publish")[-1].args["view"]["blocks"]})
    for text in (listed, home):
        lines = [line for line in text.splitlines() if "the last day to file a written request" in line]
        assert len(lines) == len(set(lines)) == len(GOVERNING_BODIES), lines
        for district in GOVERNING_BODIES:
            assert sum(f"Regular Special District Election — {district}:" in line for line in lines) == 1, district
