"""(2)(a): "any interested party, including an eligible elector ... may submit ... a written request for a
recount" -- it asks no favored choice of an eligible elector. Through the request form in the real app, on
SQLite and PostgreSQL: an elector's request naming no choice is accepted and the card says so; a candidate
still names themselves."""
from __future__ import annotations

from sqlalchemy import select

from storage.models import RecountRequestRow
from tests.flows.conftest import load_example
from tests.flows.test_request_flow import PINE_RIDGE, choose_contest, details, grant, open_form, request_card
from tests.support.slack_app import STAFF, text_of


def _without_choice(view: dict, **fields) -> dict:
    values = details(view, contest=PINE_RIDGE, **fields)
    return {k: v for k, v in values.items() if not k.startswith("request.in_favor_of.")}


def test_an_eligible_elector_need_not_name_a_choice(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "staff")
    view = choose_contest(harness, open_form(harness), PINE_RIDGE)
    [favor] = [b for b in view["blocks"] if b.get("block_id", "").startswith("request.in_favor_of.")]
    assert favor["optional"] is True and "optional for an eligible elector" in favor["hint"]["text"]
    reply = harness.submit(view, _without_choice(view, name="Pat Voter", party="eligible_elector"), user=STAFF)
    assert reply.status == 200 and not (reply.json() or {}).get("errors"), reply.json()
    card = text_of(request_card(harness))
    assert "no choice named (optional for an eligible elector, C.R.S. 1-13.5-1306(2)(a))" in card
    with harness.services.db.transaction() as session:
        row = session.scalar(select(RecountRequestRow))
        assert row.in_favor_of == "" and row.evaluation["outcome"] == "accepted"
        assert "naming no choice it favors" in row.evaluation["reason"]
        assert "an eligible elector need not name a choice" in row.evaluation["reading"]


def test_a_candidate_still_names_themselves(harness) -> None:
    load_example(harness)
    grant(harness, STAFF, "staff")
    view = choose_contest(harness, open_form(harness), PINE_RIDGE)
    reply = harness.submit(view, _without_choice(view, party="candidate"), user=STAFF)
    errors = reply.json()["errors"]
    assert list(errors.values()) == ["Choose the candidate who is requesting."]
    with harness.services.db.transaction() as session:
        assert session.scalar(select(RecountRequestRow)) is None
