"""The certificate of election's signature line (1306(6)) carries the official's name and title, from the office's
settings, which an official sets with `/recount admin setting official-name|official-title ...`. A certificate keeps
the line it was made with. Through signed requests, the certificate fetched from its link on the bot's server."""
from __future__ import annotations

from sqlalchemy import select

from services.office.office_settings import OfficeSettings
from storage.models import AuditEntry, Certificate, Workspace
from tests.flows.test_completion_flow import (  # noqa: F401 (harness: the fixture, with its certificate server)
    SAM,
    certificate_paths,
    complete,
    counting_case,
    harness,
    last_told,
    pdf_text,
    tally,
    thread_texts,
    told_count,
)
from tests.support.slack_app import OFFICIAL, STAFF

TITLE = "Designated Election Official, Pine Ridge Metropolitan District"

# The harness imports its returns without --law: the certificate's foot names the law and says it was the default.
HELD_UNDER = ("Held under C.R.S. 1-13.5-1306 (special district or other local government election) (the default: no "
              "law was named at import)")


def admin(harness, text: str, *, user: str = OFFICIAL) -> str:
    before = told_count(harness)
    assert harness.command(f"admin {text}", user=user).status == 200
    return last_told(harness, before)


def settings(harness) -> OfficeSettings:
    with harness.db.transaction() as s:
        return OfficeSettings.of(s.scalars(select(Workspace)).one().settings)


def test_the_signature_line_names_the_official_and_keeps_it_once_made(harness) -> None:
    case_id, card = counting_case(harness)
    assert "You need the official role" in admin(harness, "setting official-name Sam Okafor", user=STAFF)
    told = admin(harness, "setting official-name  Dana   Whitfield ")
    assert told.startswith("official-name is now Dana Whitfield. The signature line of the certificates of election "
                           "made from now on reads: Dana Whitfield, Designated Election Official")
    assert "C.R.S. 1-13.5-1306(6)" in told
    told = admin(harness, f"setting official-title {TITLE}")
    assert f"reads: Dana Whitfield, {TITLE}" in told
    assert (settings(harness).official_name, settings(harness).official_title) == ("Dana Whitfield", TITLE)
    assert "nothing changed" in admin(harness, "setting official-name Dana Whitfield")
    with harness.db.transaction() as s:
        changes = s.scalars(select(AuditEntry).where(AuditEntry.action == "settings.updated")).all()
        assert [(e.after["official_name"], e.after["official_title"]) for e in changes] == [
            ("Dana Whitfield", "Designated Election Official"), ("Dana Whitfield", TITLE)]
    assert f"certificates signed by Dana Whitfield, {TITLE}" in admin(harness, "roles")

    tally(harness, case_id, (645, 811), (702, 590))  # Sam elected
    posted = len(harness.thread(card["ts"]))
    complete(harness, card, "350.00")
    links = certificate_paths(thread_texts(harness, card)[posted:])
    certificate = pdf_text(harness.get(links[SAM]).body)
    assert certificate.endswith(f"Dana Whitfield {TITLE} Front Range Special Districts Recount case #{case_id} · "
                                f"C.R.S. 1-13.5-1306(6) {HELD_UNDER}"), certificate[-200:]

    # A new official later: the certificate already made keeps its signature line.
    assert "is now Riley Chen" in admin(harness, "setting official-name Riley Chen")
    assert "official-title is now Designated Election Official." in admin(harness, "setting official-title default")
    again = pdf_text(harness.get(links[SAM]).body)
    assert f"Dana Whitfield {TITLE}" in again and "Riley Chen" not in again
    with harness.db.transaction() as s:
        row = s.scalars(select(Certificate)).one()
        assert (row.signer_name, row.signer_title) == ("Dana Whitfield", TITLE)


def test_a_name_the_fonts_cannot_print_or_too_long_is_refused_and_nothing_changes(harness) -> None:
    counting_case(harness)
    refused = admin(harness, "setting official-name Dana \U000F0000 Whitfield")
    assert "Nothing changed." in refused
    assert "at most 200 characters" in admin(harness, "setting official-name " + "x" * 201)
    assert settings(harness).official_name is None


def test_without_a_name_the_line_carries_the_title_alone(harness) -> None:
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    posted = len(harness.thread(card["ts"]))
    complete(harness, card, "350.00")
    links = certificate_paths(thread_texts(harness, card)[posted:])
    assert pdf_text(harness.get(links[SAM]).body).endswith(
        f"November 6, 2026. Designated Election Official Front Range Special Districts Recount case #{case_id} · "
        f"C.R.S. 1-13.5-1306(6) {HELD_UNDER}")


def test_the_card_and_the_completion_form_prompt_for_the_signers_name_until_it_is_set(harness) -> None:
    from tests.flows.test_completion_flow import current, open_modal
    from tests.support.slack_app import text_of

    prompt = "No name for the certificates' signature line."
    case_id, card = counting_case(harness)
    tally(harness, case_id, (645, 811), (702, 590))
    shown = text_of(current(harness, card))
    assert prompt in shown and "`/recount admin setting official-name Your Name`" in shown
    assert prompt in text_of(open_modal(harness, card, "case.complete"))

    admin(harness, "setting official-name Dana Whitfield")
    tally(harness, case_id, (645, 811), (702, 590))  # the card is refreshed as the next tally sheet would
    assert prompt not in text_of(current(harness, card))
    assert prompt not in text_of(open_modal(harness, card, "case.complete"))
