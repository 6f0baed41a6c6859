"""Issue 14, item 1: one escaping rule for everything the bot sends to Slack (handlers/slack_text.py).

An election whose every name — contests, choices, units, the election, the local government, the governing body,
the file — carries Slack's control sequences (`<!channel>`, `<!here>`, `<@U…>`, `<#C…>`, `<https://x|y>`, …), and
people who type them into every field and command, are driven through the flows; then every Web API call the bot
made (and every view it answered Slack with) is walked by tests/flows/hostile_support.py, failing on any control
sequence the bot did not make, in the `text` of a message (fallback text included), in a file's comment and in
every mrkdwn text of its blocks and views. Echoed input is bounded.

The requested recount (request, decision, money, completion with a balance) and the worker's reminders:
tests/flows/test_hostile_names_requested.py.
"""
from __future__ import annotations

from sqlalchemy import select

from handlers.slack_text import esc
from storage.models import Contest, EvidenceDemand, RecountCase
from tests.flows.hostile_support import (
    AUTO,
    CHOICES,
    ESCAPED_MARK,
    ISSUE,
    MARK,
    SOURCE,
    UNITS,
    enter_sheet,
    hostile,
    hostile_office,
    returns_csv,
    walk_everything,
)
from tests.flows.test_conduct_flow import assistant_values, current, open_by_command, open_from, select_, submit, text
from tests.flows.test_notice_flow import GIVEN_AT
from tests.flows.test_returns_modal import choose, counts, inputs, new_contest, next_view, open_form, picked, reason
from tests.flows.test_returns_modal import new_election as returns_election
from tests.flows.upload_support import FILE, attach, files, open_upload, read, submitted
from tests.support.slack_app import OFFICIAL, STAFF, text_of

FLOOD = "<!channel>" * 6_000  # 60,000 characters typed after a command


def told(harness, before: int) -> str:
    """The last thing a person was told (by the command's response URL) since `before` calls."""
    calls = harness.slack.calls_to("response_url")
    assert len(calls) > before, "nobody was told anything"
    return text_of(calls[-1].args)


def card_of(harness, contest: str) -> dict:
    return next(m for m in harness.posted() if m["text"].startswith("Automatic recount")
                and esc(contest) in m["text"])


def case_id_of(harness, contest: str) -> int:
    with harness.db.transaction() as s:
        return s.scalar(select(RecountCase.id).join(Contest, RecountCase.contest_id == Contest.id)
                        .where(Contest.name == contest))


# ================================================================ what people type
def test_typed_input_is_escaped_and_an_echo_is_bounded(harness) -> None:
    hostile_office(harness)
    harness.command("check")
    assert any(ESCAPED_MARK in m["text"] for m in harness.posted()), "the cards' fallback text carries the names"

    harness.command(f"check {AUTO}")
    for typed in (f"check {FLOOD}", FLOOD, f"record {FLOOD}", f"tally {FLOOD}", f"canvass {FLOOD}",
                  f"assistants {FLOOD}", f"evidence {FLOOD}", f"admin role {FLOOD} staff",
                  f"admin setting approvals-channel {FLOOD}", f'committee "{FLOOD}" "x"', f"request {FLOOD}"):
        before = len(harness.slack.calls_to("response_url"))
        harness.command(typed)
        answer = told(harness, before)
        assert MARK not in answer and len(answer) < 2_000, (typed[:30], len(answer), answer[:200])
    harness.command(f"returns {FLOOD}")  # the form opens with a note naming what was typed, bounded
    note = text_of({"blocks": harness.open_view(OFFICIAL)["blocks"]})
    assert "No contest called" in note and len(note) < 3_000

    # A committee with a hostile name on a hostile question; the card and its thread say so.
    harness.command(f'committee "{ISSUE}" "{hostile("Friends", 120)}" for "{CHOICES[ISSUE][0]}"')
    harness.command("admin roles")
    harness.command("help")
    harness.command("deadlines")
    harness.command("requests")
    harness.event({"type": "app_home_opened", "user": OFFICIAL, "channel": "D0HOME", "tab": "home"})
    harness.event({"type": "app_home_opened", "user": STAFF, "channel": "D0HOME2", "tab": "home"})
    walk = walk_everything(harness)
    assert {"chat.postMessage", "response_url", "views.open", "views.update", "views.publish"} <= set(walk.calls)


# ================================================================ an automatic recount, from the card to certificates
def test_an_automatic_recount_from_its_card_to_its_certificates(harness) -> None:
    hostile_office(harness)
    harness.command("check")
    card = card_of(harness, AUTO)
    case_id = case_id_of(harness, AUTO)

    # (1) notices, each recorded from its button with hostile names
    values = {"notice.given_by": text(hostile("Clerk", 200)), "notice.method": select_("email"),
              "notice.given_at": {"type": "datetimepicker", "selected_date_time": GIVEN_AT},
              "notice.details": text(hostile("by mail", 1000))}
    first = open_from(harness, current(harness, card), "notice.record")
    submit(harness, first, values)
    while any((b.get("accessory") or {}).get("action_id") == "notice.record" for b in current(harness, card)["blocks"]):
        submit(harness, open_from(harness, current(harness, card), "notice.record"), values)
    submit(harness, first, values)  # the first form again: told it had already been recorded

    # counting on voting machines with hostile names, double entry, a disagreement, a withdrawal
    assert harness.click(current(harness, card), "case.start_counting", user=OFFICIAL).status == 200
    machines = "\n".join(UNITS)
    view = open_from(harness, current(harness, card), "tally.set_up")
    submit(harness, view, {"tally.method": select_("voting_machine"), "tally.units": text(machines),
                           "tally.double_entry": {"type": "checkboxes", "selected_options": [{"value": "on"}]}})

    def sheet(user: str, sheet_id: str, unit: str, votes: tuple[int, int]) -> None:
        enter_sheet(harness, case_id, AUTO, user=user, sheet_id=sheet_id, unit=unit, votes=votes)

    sheet_one, sheet_two = hostile("S1", 100), hostile("S2", 100)
    sheet(STAFF, sheet_one, UNITS[0], (500, 499))
    sheet(OFFICIAL, sheet_one, UNITS[0], (501, 499))  # a disagreement: posted, sent to both
    sheet(STAFF, sheet_one, UNITS[0], (500, 499))  # the same entry again: told it is stored once
    disagreement = next(m for m in harness.thread(card["ts"]) if "withdraw" in text_of(m).lower()
                        and any(b["type"] == "actions" for b in m.get("blocks", [])))
    second = [b["accessory"]["value"] for b in disagreement["blocks"]
              if (b.get("accessory") or {}).get("action_id") == "tally.withdraw"][-1]  # the official's: wrong
    view = open_from(harness, disagreement, "tally.withdraw", value=second)
    chosen = next(b for b in view["blocks"] if b.get("block_id") == "tally.entry")["element"]["initial_option"]["value"]
    submit(harness, view, {"tally.entry": select_(chosen), "tally.reason": text(hostile("Misread", 1000))})
    sheet(OFFICIAL, sheet_one, UNITS[0], (500, 499))
    sheet(STAFF, sheet_two, UNITS[1], (500, 500))
    sheet(OFFICIAL, sheet_two, UNITS[1], (500, 500))

    # (3) assistants and (4) evidence, with hostile names everywhere
    view = open_from(harness, current(harness, card), "assistants.open")
    submit(harness, view, assistant_values(hostile("Ann Lee", 200), "prepared_abstract", "2", "20.00",
                                          preparers=f"{hostile('Ann Lee', 200)}\n{hostile('Bob Ray', 200)}\n"))
    view = open_by_command(harness, f"assistants {case_id}")
    submit(harness, view, assistant_values(hostile("Dee Fox", 200), "appointed_1301", "1", "15",
                                          replaces=hostile("Bob Ray", 200)))
    view = open_from(harness, current(harness, card), "evidence.demand", user=OFFICIAL)
    submit(harness, view, {"evidence.what": text(hostile("Poll book", 2000)),
                           "evidence.of_whom": text(hostile("Judges", 300)),
                           "evidence.when": {"type": "datetimepicker", "selected_date_time": GIVEN_AT}},
           user=OFFICIAL)
    with harness.db.transaction() as s:
        demand_id = s.scalar(select(EvidenceDemand.id))
    post = next(m for m in harness.thread(card["ts"]) if "evidence demanded" in text_of(m))
    view = open_from(harness, post, "evidence.production", value=str(demand_id))
    produced = {"evidence.produced": text(hostile("Copies", 2000)),
                "evidence.produced_at": {"type": "datetimepicker", "selected_date_time": GIVEN_AT + 600}}
    submit(harness, view, produced)
    harness.click(post, "evidence.production", value=str(demand_id))  # already produced: told, with the names

    # (6) completion, the notice of the results, a certificate delivered, a new link; the case record
    ready = current(harness, card)
    harness.click(ready, "case.complete", user=OFFICIAL)
    harness.click(ready, "case.complete", user=OFFICIAL)  # a second click on the card as it was: told it is done
    completed = current(harness, card)
    view = open_from(harness, completed, "case.results_notice", user=OFFICIAL)
    submit(harness, view, {"results.given_by": text(hostile("Dana", 200)), "results.method": select_("email"),
                           "results.given_at": {"type": "datetimepicker",
                                                "selected_date_time": int(harness.clock().timestamp())}},
           user=OFFICIAL)
    harness.click(completed, "case.results_notice", user=OFFICIAL)  # already recorded: told, with the names
    certificate = next(e for b in completed["blocks"] for e in (b.get("elements") or [b.get("accessory") or {}])
                       if e.get("action_id") == "certificate.delivery")["value"]
    view = open_from(harness, completed, "certificate.delivery", user=OFFICIAL, value=certificate)
    submit(harness, view, {"delivery.by": text(hostile("Courier", 200)), "delivery.method": select_("in person"),
                           "delivery.at": {"type": "datetimepicker",
                                           "selected_date_time": int(harness.clock().timestamp())},
                           "delivery.details": text(hostile("Signed for", 1000))}, user=OFFICIAL)
    harness.click(completed, "certificate.delivery", user=OFFICIAL, value=certificate)  # delivered: told
    harness.clock.advance(minutes=5)
    harness.click(completed, "certificate.new_link", user=OFFICIAL, value=certificate)
    harness.click(completed, "certificate.new_link", user=OFFICIAL, value=certificate)  # moments ago: told
    harness.command(f"record {case_id}")
    harness.command(f"record {case_id} here")
    harness.clock.advance(days=1)
    harness.command("canvass 2026-11-06")
    walk = walk_everything(harness)
    assert {"chat.postMessage", "chat.update", "response_url", "views.open",
            "files.completeUploadExternal"} <= set(walk.calls)
    assert walk.escaped_names > 20


# ================================================================ returns: entered, corrected, uploaded
def test_returns_entered_corrected_and_uploaded_with_hostile_names(harness) -> None:
    hostile_office(harness)
    harness.command("check")
    # A correction of a contest under recount, with a hostile reason and evidence; a form gone stale.
    view = open_form(harness, f'returns "{AUTO}"')
    assert view["callback_id"] == "returns.enter", text_of({"blocks": view["blocks"]})
    label = next(name for name, block in inputs(view).items() if block["element"]["type"] == "number_input")
    harness.submit(view, {**counts(view, **{label: 498}), **reason(hostile("Batch 3", 1000)),
                          "returns.evidence": text(hostile("Minutes", 1000))})
    harness.submit(view, {**counts(view, **{label: 497}), **reason("x")})  # the returns changed since: told so

    # A results file whose name and contents are hostile, into that election, saved as a correction.
    upload = open_upload(harness)
    chosen = next(b for b in upload["blocks"] if b.get("block_id") == "returns.upload_election")
    changed = returns_csv().replace(b",500,", b",501,", 1)
    preview = read(harness, upload, {FILE: files(attach(harness, changed, SOURCE)),
                                     "returns.upload_election": picked(chosen["element"]["initial_option"]["value"])})
    submitted(harness, preview, {})
    submitted(harness, preview, {})  # a double click: told it is saved already

    # A new election and contest typed into the form, their first returns, and the same names again.
    view = open_form(harness)
    choose(harness, view, "returns.election", "new")
    view = harness.open_view(OFFICIAL)
    names = [hostile("Hal", 200), hostile("Ivy", 200)]
    typed = {"returns.election": picked("new"),
             **returns_election(name=hostile("Special", 300), date="2026-11-03", government=hostile("District", 300),
                                body=hostile("Trustees", 300))}
    step2 = next_view(view, harness.submit(view, {**typed, **new_contest(name=hostile("Library", 300),
                                                                          choices="\n".join(names))}))
    harness.submit(step2, counts(step2, **{names[0]: 10, names[1]: 9}))
    harness.submit(view, {**typed, **new_contest(name=hostile("Library", 300), choices=f"{names[0]}\n{names[0]}")})
    harness.command(f"returns {hostile('Nothing', 300)}")
    walk = walk_everything(harness)
    assert {"views.update", "chat.postMessage", "files.info", "view_submission answer",
            "view_submission errors"} <= set(walk.calls)
