"""Block Kit as terminal text, and the modal questions: pure functions, no servers."""
from __future__ import annotations

import datetime as dt

import pytest

from sandbox.fields import Cancelled, FieldPrompter
from sandbox.people import PEOPLE
from sandbox.render import block_lines, message_lines, mrkdwn, view_lines

NAMES = {"U0OFFMAYA1": "maya"}.get


def names(uid: str) -> str:
    return NAMES(uid) or uid


def test_mrkdwn_control_sequences_read_as_a_person_sees_them() -> None:
    assert mrkdwn("checked by <@U0OFFMAYA1> in <#C0ELECTION|elections>", names) == "checked by @maya in #elections"
    assert mrkdwn("<@U0UNKNOWN|someone> and <!here>", names) == "@someone and @here"
    assert mrkdwn("see <https://leg.colorado.gov|the statute> or <https://x.test>") == \
        "see the statute (https://leg.colorado.gov) or https://x.test"
    assert mrkdwn("A &lt;B&gt; &amp; C") == "A <B> & C"


def test_every_supported_block_and_an_unsupported_one() -> None:
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Case 1"}},
        {"type": "section", "block_id": "s1", "text": {"type": "mrkdwn", "text": "Margin *21*"},
         "fields": [{"type": "mrkdwn", "text": "*Election*\nRegular"}],
         "accessory": {"type": "button", "action_id": "a", "text": {"type": "plain_text", "text": "Open"}}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "by <@U0OFFMAYA1>"},
                                         {"type": "image", "image_url": "x", "alt_text": "seal"}]},
        {"type": "divider"},
        {"type": "actions", "block_id": "b1", "elements": [
            {"type": "button", "action_id": "yes", "text": {"type": "plain_text", "text": "Approve"}},
            {"type": "static_select", "action_id": "pick", "placeholder": {"type": "plain_text", "text": "Pick"}}]},
        {"type": "rich_text", "elements": []},
    ]
    labels = []

    def button(block_id, element):
        labels.append((block_id, element["action_id"]))
        return f"<{element['text']['text']}>"

    lines = message_lines({"blocks": blocks, "text": "fallback"}, button, names)
    assert lines == [
        "Case 1", "══════", "Margin 21", "  Election", "  Regular", "  <Open>", "  by @maya · [image: seal]",
        "─" * 48, "<Approve>  [static_select: Pick]", "[unsupported block: rich_text]",
    ]
    assert labels == [("s1", "a"), ("b1", "yes")]
    assert message_lines({"text": "only <@U0OFFMAYA1>"}, names=names) == ["only @maya"]


def test_a_modal_shows_its_title_and_blocks_but_leaves_inputs_to_the_questions() -> None:
    view = {"title": {"type": "plain_text", "text": "Record notice"}, "blocks": [
        {"type": "section", "text": {"type": "mrkdwn", "text": "To the board"}},
        {"type": "input", "block_id": "x", "label": {"type": "plain_text", "text": "Given by"},
         "element": {"type": "plain_text_input", "action_id": "x"}}]}
    assert view_lines(view) == ["┌─ Record notice " + "─" * 31, "│ To the board"]
    assert block_lines(view["blocks"][1]) == ["Given by: [plain_text_input]"]


class Script:
    def __init__(self, *answers: str) -> None:
        self.answers, self.prompts = list(answers), []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def fill(block: dict, *answers: str, error: str | None = None) -> tuple[dict, list[str]]:
    out: list[str] = []
    script = Script(*answers)
    state = FieldPrompter(script, out.append, PEOPLE).fill(block, error)
    assert script.answers == [], f"not asked for: {script.answers}"
    return state, out


def block(element: dict, label: str = "Field", optional: bool = False) -> dict:
    return {"type": "input", "block_id": "b", "label": {"type": "plain_text", "text": label},
            "element": {"action_id": "b", **element}, "optional": optional}


def option(text: str, value: str) -> dict:
    return {"text": {"type": "plain_text", "text": text}, "value": value}


def test_text_inputs_check_required_and_length_and_keep_defaults() -> None:
    state, out = fill(block({"type": "plain_text_input", "max_length": 5}), "", "too long", "short")
    assert state == {"type": "plain_text_input", "value": "short"}
    assert "  ! Please fill out this field." in out and "  ! at most 5 characters, please" in out
    assert fill(block({"type": "plain_text_input"}, optional=True), "")[0] == {"type": "plain_text_input",
                                                                               "value": None}
    assert fill(block({"type": "plain_text_input", "initial_value": "kept"}), "")[0]["value"] == "kept"
    multiline = fill(block({"type": "plain_text_input", "multiline": True}), "line 1\\nline 2")[0]
    assert multiline["value"] == "line 1\nline 2"


def test_numbers_as_slack_checks_them() -> None:
    element = {"type": "number_input", "is_decimal_allowed": False, "min_value": "0"}
    state, out = fill(block(element), "twelve", "1.5", "-1", "1,204")
    assert state == {"type": "number_input", "value": "1204"}
    assert [line for line in out if "!" in line] == ["  ! a number, please", "  ! a whole number, please",
                                                     "  ! at least 0"]


def test_selects_checkboxes_and_radio_buttons() -> None:
    options = [option("Email", "email"), option("Phone", "phone")]
    state, out = fill(block({"type": "static_select", "options": options}), "3", "phone")
    assert state == {"type": "static_select", "selected_option": options[1]}
    assert "  1) Email" in out and "  ! choose a number from 1 to 2" in out
    grouped = {"type": "static_select", "option_groups": [{"label": {"type": "plain_text", "text": "A"},
                                                           "options": options}], "initial_option": options[0]}
    assert fill(block(grouped), "")[0]["selected_option"] == options[0]
    assert fill(block({"type": "checkboxes", "options": options}, optional=True), "2, 1")[0] == {
        "type": "checkboxes", "selected_options": [options[1], options[0]]}
    assert fill(block({"type": "checkboxes", "options": options}, optional=True), "")[0]["selected_options"] == []
    assert fill(block({"type": "radio_buttons", "options": options}), "Email")[0]["selected_option"] == options[0]


def test_dates_times_and_people() -> None:
    assert fill(block({"type": "datepicker"}), "Nov 5", "2026-11-05")[0] == {"type": "datepicker",
                                                                             "selected_date": "2026-11-05"}
    moment, out = fill(block({"type": "datetimepicker", "initial_date_time": 1_700_000_000}), "2026-11-05 10:00")
    assert moment["selected_date_time"] == int(dt.datetime(2026, 11, 5, 17, 0, tzinfo=dt.timezone.utc).timestamp())
    assert "  (YYYY-MM-DD HH:MM, America/Denver)" in out
    summer = fill(block({"type": "datetimepicker"}), "2026-07-01 10:00")[0]["selected_date_time"]
    assert summer == int(dt.datetime(2026, 7, 1, 16, 0, tzinfo=dt.timezone.utc).timestamp())  # MDT, UTC-6
    assert fill(block({"type": "timepicker"}), "9:30", "09:30")[0] == {"type": "timepicker", "selected_time": "09:30"}
    assert fill(block({"type": "users_select"}), "2")[0] == {"type": "users_select", "selected_user": "U0STAFFTHEO"}
    assert fill(block({"type": "users_select"}), "@riley")[0]["selected_user"] == "U0REQRILEY"


def test_cancel_and_unsupported_elements() -> None:
    with pytest.raises(Cancelled):
        fill(block({"type": "plain_text_input"}), "/cancel")
    with pytest.raises(Cancelled):
        fill(block({"type": "plain_text_input"}))  # EOF at the question
    state, out = fill(block({"type": "rich_text_input"}, label="Notes"))
    assert state == {"type": "rich_text_input"} and out == [
        "  Notes: this console cannot fill a rich_text_input; it is sent empty"]


def test_a_file_input_takes_a_path_and_uploads_the_file_as_the_person(tmp_path) -> None:
    (tmp_path / "returns.csv").write_bytes(b"contest,choice,votes\nA,B,1\n")
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.7")
    (tmp_path / "empty.csv").write_bytes(b"")
    attached: list[tuple[str, bytes]] = []

    def attach(name: str, data: bytes) -> dict:
        attached.append((name, data))
        return {"id": "F0000000001", "name": name, "size": len(data)}

    out: list[str] = []
    script = Script(str(tmp_path / "nope.csv"), str(tmp_path), str(tmp_path / "scan.pdf"), str(tmp_path / "empty.csv"),
                    f'"{tmp_path / "returns.csv"}"')
    element = {"type": "file_input", "filetypes": ["csv", "json"], "max_files": 1}
    state = FieldPrompter(script, out.append, PEOPLE, attach=attach).fill(block(element, label="Results file"))
    assert state == {"type": "file_input", "files": [{"id": "F0000000001", "name": "returns.csv", "size": 27}]}
    assert attached == [("returns.csv", b"contest,choice,votes\nA,B,1\n")]
    assert out == ["Results file", "  (the path of a file on this computer: csv, json)",
                   f"  ! there is no file {tmp_path / 'nope.csv'}", f"  ! {tmp_path} is a folder; give a file",
                   "  ! this field takes csv, json files", "  ! empty.csv is empty"]
    state, _ = fill(block(element, optional=True), "")  # an optional file field may stay empty
    assert state == {"type": "file_input", "files": []}


def test_a_field_error_from_the_bot_is_shown_before_the_question() -> None:
    _, out = fill(block({"type": "plain_text_input"}, label="When"), "later", error="Not in the future.")
    assert out == ["When", "  ! Not in the future."]
