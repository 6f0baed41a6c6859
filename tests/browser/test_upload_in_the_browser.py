"""A results file attached in the browser sandbox, as a clerk would rehearse `/recount returns upload`: choose the
file (the page uploads it at once, as Slack's client does), see the verdicts, save it."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from storage.models import SurveyVersion
from tests.browser.conftest import needs_playwright

needs_playwright()
from playwright.sync_api import expect  # noqa: E402

from tests.browser.client import Client  # noqa: E402

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "survey-of-returns.csv"
PINE = "Pine Ridge Metropolitan District - Director"


def test_a_corrected_survey_is_attached_previewed_and_saved(page, sandbox, db, tmp_path) -> None:
    corrected = tmp_path / "survey-corrected.csv"
    header, *rows = EXAMPLE.read_text().splitlines(keepends=True)  # Pine Ridge's own election's returns
    corrected.write_text(header + "".join(r for r in rows if r.startswith(PINE)).replace(
        f"{PINE},Dana Whitfield,845", f"{PINE},Dana Whitfield,840"))
    client = Client(page)
    client.send("/recount returns upload")
    client.expect_modal("Returns from a file", "returns.upload")
    client.choose("Election", "Pine Ridge Metropolitan District")  # one election per district of the office
    field = client.field("Results file")
    field.locator("input[type=file]").set_input_files(str(corrected))
    expect(field.locator(".file-chip")).to_contain_text("survey-corrected.csv")
    page.shots("attached")
    client.submit()
    modal = client.expect_modal("Returns from a file", "returns.upload_preview")
    expect(modal).to_contain_text("changes returns already recorded")
    expect(modal.locator(".modal-submit")).to_have_text("Save as survey version 2")
    page.shots("preview")
    client.submit()
    expect(client.modal).to_contain_text("saved as survey version 2")
    expect(client.message("Survey of returns version 2")).to_contain_text("survey-corrected.csv")
    with db.transaction() as s:
        assert s.scalars(select(SurveyVersion.source_name).order_by(SurveyVersion.id)).all()[-1] == \
            "survey-corrected.csv"


def test_a_file_of_a_type_the_field_does_not_take_is_not_uploaded(page, sandbox, tmp_path) -> None:
    minutes = tmp_path / "minutes.pdf"
    minutes.write_bytes(b"%PDF-1.7")
    client = Client(page)
    client.send("/recount returns upload")
    field = client.field("Results file")
    field.locator("input[type=file]").set_input_files(str(minutes))
    expect(field.locator(".file-status")).to_have_text(
        "minutes.pdf is not a file this field takes (csv, json, xml, xlsx, xls).")
    expect(field.locator(".file-chip")).to_have_count(0)
    assert not any(f.get("name") == "minutes.pdf" for f in sandbox.standin.state.files().values())
