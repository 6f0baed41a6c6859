"""The offline console, in-process: lines typed at the prompt go to the real bot as signed Slack requests, and
what the bot posts comes back as text. A scripted `ask` answers the prompts; `say` collects the output."""
from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import func, select

from sandbox.console import Console
from sandbox.office import Sandbox
from storage.models import Membership, Notice, RecountCase, SurveyVersion
from tests.support.slack_app import text_of

CLOCK = dt.datetime(2027, 5, 7, 15, 0, tzinfo=dt.timezone.utc)  # 9:00 MDT, the sandbox clock's start
BEAR = "Bear Creek Fire Protection District - Ballot Issue 6A"


class Script:
    """Answers prompts in order; EOF when it runs out (as Ctrl-D would)."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


@pytest.fixture
def sandbox(db):
    sb = Sandbox(db, port=0, clock=lambda: CLOCK).start()
    try:
        yield sb
        assert sb.standin.server_errors == [], "the Slack stand-in failed on a call"
    finally:
        sb.stop()


@pytest.fixture
def console(sandbox):
    script, out = Script(), []
    c = Console(sandbox, ask=script, say=out.append)
    c.script, c.out = script, out
    yield c
    c.feed.close()


def do(console: Console, line: str, *answers: str) -> str:
    """Type `line` at the prompt, answer what it asks with `answers`; the output it printed."""
    console.script.answers = list(answers)
    start = len(console.out)
    assert console.handle(line) is True
    console.show_new()
    assert console.script.answers == [], f"not asked for: {console.script.answers}"
    return "\n".join(console.out[start:])


def button_on(console: Console, fragment: str) -> int:
    """The number of the first "Record notice" button on a message that mentions `fragment`."""
    for number, button in sorted(console.buttons.items()):
        message = console.sandbox.message(button)
        if message and fragment in text_of(message) and button.label == "Record notice":
            return number
    raise AssertionError(f"no button on a message about {fragment}")


def count(db, model, *where) -> int:
    with db.transaction() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where))


def test_check_posts_the_verdicts_and_cards_with_numbered_buttons(console, sandbox, db) -> None:
    assert sandbox.activity.executors, "the sandbox must see when Bolt's listeners finish"
    out = do(console, "/recount check")
    assert "── #elections · recount-bot" in out
    assert "Survey of returns checked: Regular Special District Election" in out
    assert f"Automatic recount: {BEAR}" in out
    assert re.search(r"\[\d+: Record notice\]", out) and "Governing body: Board of Directors of the Bear Creek Fire Protection District — not yet given" in out
    assert "checked by @maya" in out  # <@U…> rendered as the person's name
    assert count(db, RecountCase) == 2
    with db.transaction() as s:  # a workspace admin's first use made her the official, as in Slack
        roles = dict(s.execute(select(Membership.slack_user_id, Membership.role)).all())
    assert roles == {"U0OFFMAYA1": "official", "U0STAFFTHEO": "staff"}

    listed = do(console, "buttons")
    assert f"{button_on(console, BEAR)}) Record notice — on “Automatic recount: Bear Creek" in listed


def test_recording_a_notice_through_its_modal(console, sandbox, db) -> None:
    do(console, "/recount check")
    number = button_on(console, BEAR)
    out = do(console, f"click {number}",
             "", "Dana Whitfield",          # Given by: required, so Enter is refused first
             "9", "email",                  # How: a number out of range, then the option by name
             "2027-05-21 10:00",            # When: in the future (the clock says 2027-05-07); the bot refuses it
             "",                            # Details: optional
             "2027-05-06 10:00")            # When again, and only When
    assert "┌─ Record notice" in out and f"Notice of the recount of {BEAR}" in out
    assert "! Please fill out this field." in out
    assert "! choose a number from 1 to 6" in out
    assert "│ the bot refused 1 field" in out and "! The notice cannot have been given in the future." in out
    assert "└─ submitted “Record notice”" in out
    assert "── #elections · edited · recount-bot" in out and "1 of 1 given" in out
    assert "── #elections · reply in thread · recount-bot" in out
    assert "Notice to Governing body Board of Directors of the Bear Creek Fire Protection District recorded by @maya" in out
    assert sandbox.standin.state.open_views("U0OFFMAYA1") == []
    with db.transaction() as s:
        notice = s.scalars(select(Notice).where(Notice.given_at.is_not(None))).one()
        assert (notice.given_by, notice.method, notice.recorded_by) == ("Dana Whitfield", "email", "U0OFFMAYA1")
        assert notice.given_at == dt.datetime(2027, 5, 6, 16, 0, tzinfo=dt.timezone.utc)  # 10:00 MDT

    again = do(console, f"click {number}")
    assert "“Record notice” is no longer on that message (it was edited)." in again


def test_cancel_closes_the_modal_and_records_nothing(console, sandbox, db) -> None:
    do(console, "/recount check")
    out = do(console, f"click {button_on(console, BEAR)}", "Dana Whitfield", "/cancel")
    assert "└─ closed without submitting “Record notice”" in out
    assert sandbox.standin.state.open_views("U0OFFMAYA1") == []
    assert count(db, Notice, Notice.given_at.is_not(None)) == 0


def test_a_requester_is_refused_what_needs_staff(console, sandbox) -> None:
    do(console, "/recount check")
    number = button_on(console, BEAR)
    assert "You are now Riley Chen (@riley, requester)." in do(console, "as requester")
    assert console.prompt == "riley (requester)> "
    out = do(console, "/recount check")
    assert "── #elections · only visible to riley" in out and "You need the staff role" in out
    clicked = do(console, f"click {number}")
    assert "You need the staff role" in clicked
    assert sandbox.standin.state.open_views("U0REQRILEY") == []


def test_staff_may_record_but_not_administer(console) -> None:
    do(console, "as staff")
    assert console.prompt == "theo (staff)> "
    out = do(console, "/recount admin roles")
    assert "only visible to theo" in out and "You need the official role" in out


def test_console_commands_and_mistakes(console) -> None:
    assert "click N" in do(console, "help") and "official|staff|requester" in console.out[-1]
    assert "/frobnicate is not a command of this app; try /recount help." in do(console, "/frobnicate")
    assert "No button 99; type buttons to list them." in do(console, "click 99")
    assert "No button ?" in do(console, "click")
    assert "as whom? official (maya), staff (theo), requester (riley)" in do(console, "as nobody")
    assert "“dance” is not a console command; type help." in do(console, "dance")
    assert "No buttons in recent messages." in do(console, "buttons")
    assert do(console, "") == ""
    assert console.handle("quit") is False


def test_the_loop_prints_a_banner_and_prompts_until_eof(console) -> None:
    console.script.answers = ["/recount help", "as theo", "quit"]
    console.run()
    out = "\n".join(console.out)
    assert out.startswith("You are Maya Lindqvist (@maya, official) in #elections of Recount Sandbox.")
    assert "── #elections · only visible to maya" in out and "Your role here: official" in out
    assert console.script.prompts == ["maya (official)> ", "maya (official)> ", "theo (staff)> "]


def answer_by_label(console: Console, answers: dict[str, str], limit: int = 60):
    """An `ask` that answers each modal question by the label printed above it ("" for the others)."""
    asked = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > limit:
            raise EOFError  # a question asked forever: the test fails instead of hanging
        label = next(line for line in reversed(console.out) if line and not line.startswith((" ", "│", "┌", "└")))
        return next((value for key, value in answers.items() if label.startswith(key)), "")

    return ask


def test_entering_returns_in_the_modal_follows_the_redraws(console, db) -> None:
    """`/recount returns`: choosing the contest redraws the form (a dispatch_action select), then the second
    modal takes one count per choice and the reason for the correction."""
    # The example office holds one election per district on 2027-05-04 (sandbox/seed.py), newest entered
    # first: Aspen Grove, Pine Ridge, Bear Creek (3), Cherry Creek; then the earlier examples. Each option names
    # its district.
    console.ask = answer_by_label(console, {"Election": "3", "Contest": BEAR, "Yes": "2209",
                                            "Reason": "Yes was misread in P1"})
    start = len(console.out)
    console.handle("/recount returns")
    console.show_new()
    out = "\n".join(console.out[start:])
    assert "3) Bear Creek Fire Protection District — Regular Special District Election" in out
    assert "┌─ Enter returns" in out and "┌─ Correct returns" in out
    assert "└─ submitted" in out, out
    with db.transaction() as s:
        assert s.scalar(select(func.max(SurveyVersion.number))) == 2
