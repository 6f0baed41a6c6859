"""`/recount check` end to end: signed requests in, Web API calls out, cases in the database."""
from __future__ import annotations

from sqlalchemy import func, select

from storage.models import AuditEntry, Notice, RecountCase
from tests.flows.conftest import load_example
from tests.support.slack_app import CHANNEL, OFFICIAL, OUTSIDER, STAFF, VIEWER, text_of


def test_forged_and_stale_signatures_are_refused(harness) -> None:
    body = b"command=%2Frecount&text=help"
    assert harness.post(body, "application/x-www-form-urlencoded", signature="v0=" + "0" * 64).status == 401
    assert harness.post(body, "application/x-www-form-urlencoded", timestamp=1_000_000_000).status == 401
    assert harness.slack.calls_to("chat.postMessage") == []


def test_health_check_reports_the_database(harness) -> None:
    reply = harness.get("/healthz")
    assert reply.status == 200 and reply.json() == {"ok": True, "database": "ok"}


def test_help_lists_subcommands_with_their_roles(harness) -> None:
    assert harness.command("help", user=OUTSIDER).status == 200
    calls = harness.wait("response_url")
    text = text_of(calls[0].args)
    assert "/recount check" in text and "(staff)" in text and "/recount admin" in text


def test_checking_the_whole_election_posts_verdicts_closest_first_and_opens_cases(harness) -> None:
    load_example(harness)
    assert harness.command("check").status == 200
    harness.wait("chat.postMessage", count=3)  # the verdicts and two case cards
    verdicts, card_a, card_b = harness.posted()[:3]
    text = text_of(verdicts)
    order = [text.index(name) for name in ("Cherry Creek", "Bear Creek", "Pine Ridge", "Aspen Grove")]
    assert order == sorted(order), "closest contests first"
    assert "2 need an automatic recount" in text or "*2* need an automatic recount" in text
    assert "margin 21 (triggers at ≤ 21)" in text
    assert "tie for the last seat" in text
    # A card per contest inside the margin, with the deadline and the notices owed under (1).
    cards = {c["text"].split(":")[1].split("—")[0].strip(): c for c in (card_a, card_b)}
    issue = text_of(cards["Bear Creek Fire Protection District - Ballot Issue 6A"])
    assert "Tue 2026-12-01" in issue and "C.R.S. 1-13.5-1306(1)" in issue
    assert "Governing body:* Board of Directors of Front Range Special Districts — not yet given" in issue
    assert "No issue committee is recorded" in issue
    board = text_of(cards["Cherry Creek Valley Water and Sanitation District - Director"])
    for candidate in ("Maria Alvarez", "Thomas Reed", "Priya Natarajan", "Walt Kowalski"):
        assert f"Candidate:* {candidate} — not yet given" in board
    assert "may be present during and observe the recount" in board
    with harness.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(RecountCase)) == 2
        assert s.scalar(select(func.count()).select_from(Notice)) == 5 + 1


def test_checking_again_never_opens_a_second_case(harness) -> None:
    load_example(harness)
    harness.command("check")
    harness.wait("chat.postMessage", count=3)
    harness.command("check", user=OFFICIAL)
    harness.wait("chat.postMessage", count=4)
    import time

    time.sleep(0.3)  # give a wrongly posted second card time to show up
    with harness.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(RecountCase)) == 2
    assert len(harness.posted()) == 4  # the second verdict only: the cards are not posted again
    assert text_of(harness.posted()[-1]).count("already open") == 2


def test_checks_racing_post_each_card_once(harness) -> None:
    load_example(harness)
    import threading

    threads = [threading.Thread(target=harness.command, args=("check",)) for _ in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    harness.wait("chat.postMessage", count=6)  # four verdicts, two cards
    import time

    time.sleep(0.5)
    cards = [m for m in harness.posted() if m["text"].startswith("Automatic recount")]
    assert len(cards) == 2


def test_one_contest_by_name(harness) -> None:
    load_example(harness)
    harness.command('check "pine ridge metropolitan district - director"')
    [call] = harness.wait("chat.postMessage")
    text = text_of(call.args)
    assert "No automatic recount" in text and "margin 346" in text
    assert "(1,547 − 1,201) × 200 = 69,200 > 1,547" in text
    assert "C.R.S. 1-13.5-1306(1)" in text and "single seat" in text


def test_an_unknown_contest_is_named_in_the_error(harness) -> None:
    load_example(harness)
    harness.command("check Nowhere Library")
    [call] = harness.wait("response_url")
    assert "No contest called “Nowhere Library”" in call.args["text"]
    assert harness.slack.calls_to("chat.postMessage") == []


def test_without_returns_the_user_is_told_how_to_load_them(harness) -> None:
    harness.command("check")
    [call] = harness.wait("response_url")
    assert "No election has returns yet" in call.args["text"]


def test_roles_are_enforced_and_denial_changes_nothing(harness) -> None:
    load_example(harness)
    harness.command("help")  # the official (a workspace admin) is recognised on first use
    harness.wait("response_url")
    for user in (VIEWER, OUTSIDER):
        harness.command("check", user=user)
    calls = harness.wait("response_url", count=3)
    assert all("You need the staff role" in c.args["text"] for c in calls[1:])
    assert harness.slack.calls_to("chat.postMessage") == []
    harness.command(f"admin role <@{STAFF}|sam> staff")
    harness.wait("response_url", count=4)
    harness.command("check", user=STAFF)
    harness.wait("chat.postMessage", count=3)
    with harness.db.transaction() as s:
        actions = s.scalars(select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert "role.set" in actions and actions.count("case.opened") == 2


def test_a_slack_retry_of_the_same_delivery_is_not_processed_twice(harness) -> None:
    load_example(harness)
    form_trigger = harness.slack.issue_trigger_id(OFFICIAL)
    import urllib.parse

    body = urllib.parse.urlencode({
        "team_id": "T0TESTTEAM", "channel_id": CHANNEL, "user_id": OFFICIAL, "command": "/recount",
        "text": "check", "trigger_id": form_trigger,
        "response_url": harness.slack.issue_response_url(channel=CHANNEL, user=OFFICIAL)}).encode()
    assert harness.post(body, "application/x-www-form-urlencoded").status == 200
    harness.wait("chat.postMessage", count=3)
    retry = harness.post(body, "application/x-www-form-urlencoded",
                         headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    assert retry.status == 200
    import time

    time.sleep(0.5)
    assert len(harness.slack.calls_to("chat.postMessage")) == 3
    with harness.db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(AuditEntry).where(
            AuditEntry.action == "survey.checked")) == 1


def test_a_contest_with_no_votes_counted_is_undecided_and_opens_no_case(harness, tmp_path) -> None:
    # Returns recorded before any ballot was counted: 0-0 is not a tie inside the margin.
    path = tmp_path / "before-the-count.csv"
    path.write_text("contest,choice,votes\nFire Board,Avery,0\nFire Board,Blake,0\n"
                    "Library Trustee,Casey,510\nLibrary Trustee,Drew,508\n", encoding="utf-8")
    load_example(harness, path=path)
    assert harness.command("check").status == 200
    harness.wait("chat.postMessage", count=2)  # the verdicts and the Library Trustee's case card
    text = text_of(harness.posted()[0])
    assert "*1* could not be decided" in text
    assert "*undecided* · *Fire Board* — no votes counted" in text
    with harness.db.transaction() as s:
        cases = s.scalars(select(RecountCase)).all()
        assert len(cases) == 1 and cases[0].verdict["contest"] == "Library Trustee"
        checked = s.scalars(select(AuditEntry).where(AuditEntry.action == "survey.checked")).one()
        assert checked.after["undecided"] == ["Fire Board"]
