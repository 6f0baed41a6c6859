"""Asking for one modal input at a terminal and answering with the element state Slack would send.

Each element is checked the way Slack's client checks it before a submission ever reaches the bot
(required fields, numbers, dates, lengths, file types); the bot's own checks come back as field errors.
A file input takes a path on this computer: the file is uploaded to the Slack stand-in as the person
(`attach`), as Slack's client uploads a file the moment it is chosen.
Typing /cancel at any question closes the modal.
"""
from __future__ import annotations

import datetime as dt
import decimal
from pathlib import Path
from typing import Any, Callable

from rules.calendar import DENVER

from .people import Person
from .render import denver_time, plain, text_of

CANCEL_WORD = "/cancel"
FILE_INPUT_MAX_BYTES = 10 * 1024 * 1024  # Slack's limit for a file attached in a modal's file_input


class Cancelled(Exception):
    """The person typed /cancel (or closed the input)."""


class Retry(Exception):
    """The answer is not acceptable; the message says why, and the question is asked again."""


Ask = Callable[[str], str]
Say = Callable[[str], None]
Attach = Callable[[str, bytes], dict[str, Any]]  # (file name, bytes) -> the uploaded file, as Slack describes it


def _options(element: dict[str, Any]) -> list[dict[str, Any]]:
    if element.get("options"):
        return list(element["options"])
    return [o for group in element.get("option_groups") or [] for o in group.get("options") or []]


def _pick(answer: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    word = answer.strip()
    if word.isdigit() and 1 <= int(word) <= len(options):
        return options[int(word) - 1]
    for option in options:
        if word.casefold() in (text_of(option.get("text")).casefold(), str(option.get("value", "")).casefold()):
            return option
    raise Retry(f"choose a number from 1 to {len(options)}")


class FieldPrompter:
    def __init__(self, ask: Ask, say: Say, people: tuple[Person, ...], attach: Attach | None = None) -> None:
        self.ask, self.say, self.people, self.attach = ask, say, people, attach

    def initial(self, block: dict[str, Any]) -> dict[str, Any] | None:
        """The state the element starts in (its initial value), None when it starts empty or is unsupported."""
        element = block.get("element") or {}
        handler = getattr(self, "_" + element.get("type", ""), None)
        default = handler(element)[1] if handler else None
        return {"type": element.get("type"), **default[1]} if default else None

    def fill(self, block: dict[str, Any], error: str | None = None) -> dict[str, Any]:
        """Ask for `block`'s element until the answer is acceptable; Slack's element state for it."""
        element = block.get("element") or {}
        kind = element.get("type", "")
        optional = bool(block.get("optional"))
        label = text_of(block.get("label")) or block.get("block_id", "?")
        handler = getattr(self, "_" + kind, None)
        if handler is None:
            self.say(f"  {label}: this console cannot fill a {kind}; it is sent empty")
            return {"type": kind}
        intro, default, parse = handler(element)
        hint = f" — {text_of(block.get('hint'))}" if block.get("hint") else ""
        self.say(f"{label}{' (optional)' if optional else ''}{hint}")
        for line in intro:
            self.say("  " + line)
        if error:
            self.say(f"  ! {plain(error)}")
        prompt = f"  [{default[0]}] > " if default else "  > "
        while True:
            try:
                answer = self.ask(prompt)
            except EOFError:
                raise Cancelled() from None
            if answer.strip() == CANCEL_WORD:
                raise Cancelled()
            if not answer.strip():
                if default:
                    return {"type": kind, **default[1]}
                if optional:
                    return {"type": kind, **parse(None)}
                self.say("  ! Please fill out this field.")
                continue
            try:
                return {"type": kind, **parse(answer)}
            except Retry as problem:
                self.say(f"  ! {problem}")

    # Each handler: (lines to show first, (default shown, default state) or None, parse(answer|None) -> state).
    def _plain_text_input(self, element: dict[str, Any], key: str = "value"):
        low, high = element.get("min_length"), element.get("max_length")
        intro = ["(one line; type \\n for a new line)"] if element.get("multiline") else []

        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {key: None}
            text = answer.replace("\\n", "\n") if element.get("multiline") else answer
            if low and len(text) < int(low):
                raise Retry(f"at least {low} characters, please")
            if high and len(text) > int(high):
                raise Retry(f"at most {high} characters, please")
            return {key: text}

        initial = element.get("initial_value")
        return intro, ((initial, {key: initial}) if initial else None), parse

    _email_text_input = _plain_text_input
    _url_text_input = _plain_text_input

    def _number_input(self, element: dict[str, Any]):
        decimal_ok = bool(element.get("is_decimal_allowed"))
        low, high = element.get("min_value"), element.get("max_value")

        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {"value": None}
            text = answer.strip().replace(",", "")
            try:
                number = decimal.Decimal(text)
            except decimal.InvalidOperation:
                raise Retry("a number, please") from None
            if not number.is_finite() or (not decimal_ok and number != number.to_integral_value()):
                raise Retry("a whole number, please" if not decimal_ok else "a number, please")
            if low is not None and number < decimal.Decimal(str(low)):
                raise Retry(f"at least {low}")
            if high is not None and number > decimal.Decimal(str(high)):
                raise Retry(f"at most {high}")
            return {"value": text}

        initial = element.get("initial_value")
        return [], ((initial, {"value": str(initial)}) if initial not in (None, "") else None), parse

    def _static_select(self, element: dict[str, Any], multiple: bool = False):
        options = _options(element)
        intro = [f"{i}) {text_of(o.get('text'))}" for i, o in enumerate(options, 1)]
        intro.append("(numbers separated by commas)" if multiple else f"(choose 1-{len(options)})")

        def parse(answer: str | None) -> dict[str, Any]:
            if multiple:
                picked = [] if answer is None else [_pick(w, options) for w in answer.split(",") if w.strip()]
                return {"selected_options": picked}
            return {"selected_option": None if answer is None else _pick(answer, options)}

        if multiple:
            initial = element.get("initial_options") or []
            default = (", ".join(text_of(o.get("text")) for o in initial), {"selected_options": initial})
            return intro, (default if initial else None), parse
        initial = element.get("initial_option")
        return intro, ((text_of(initial.get("text")), {"selected_option": initial}) if initial else None), parse

    def _radio_buttons(self, element: dict[str, Any]):
        return self._static_select(element)

    def _multi_static_select(self, element: dict[str, Any]):
        return self._static_select(element, multiple=True)

    def _checkboxes(self, element: dict[str, Any]):
        return self._static_select(element, multiple=True)

    def _datepicker(self, element: dict[str, Any]):
        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {"selected_date": None}
            try:
                return {"selected_date": dt.date.fromisoformat(answer.strip()).isoformat()}
            except ValueError:
                raise Retry("a date as YYYY-MM-DD, please") from None

        initial = element.get("initial_date")
        return ["(YYYY-MM-DD)"], ((initial, {"selected_date": initial}) if initial else None), parse

    def _timepicker(self, element: dict[str, Any]):
        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {"selected_time": None}
            try:
                return {"selected_time": dt.time.fromisoformat(answer.strip()).strftime("%H:%M")}
            except ValueError:
                raise Retry("a time as HH:MM, please") from None

        initial = element.get("initial_time")
        return ["(HH:MM)"], ((initial, {"selected_time": initial}) if initial else None), parse

    def _datetimepicker(self, element: dict[str, Any]):
        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {"selected_date_time": None}
            try:
                local = dt.datetime.strptime(" ".join(answer.split()), "%Y-%m-%d %H:%M").replace(tzinfo=DENVER)
            except ValueError:
                raise Retry("a date and time as YYYY-MM-DD HH:MM (America/Denver), please") from None
            return {"selected_date_time": int(local.timestamp())}

        initial = element.get("initial_date_time")
        default = (denver_time(initial), {"selected_date_time": int(initial)}) if initial is not None else None
        return ["(YYYY-MM-DD HH:MM, America/Denver)"], default, parse

    def _users_select(self, element: dict[str, Any]):
        people = list(self.people)
        intro = [f"{i}) {p.real_name} (@{p.name})" for i, p in enumerate(people, 1)]

        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {"selected_user": None}
            word = answer.strip().lstrip("@")
            if word.isdigit() and 1 <= int(word) <= len(people):
                return {"selected_user": people[int(word) - 1].user_id}
            for person in people:
                if word.casefold() in (person.name, person.real_name.casefold(), person.user_id.casefold()):
                    return {"selected_user": person.user_id}
            if word.upper().startswith(("U", "W")) and word.isalnum():
                return {"selected_user": word.upper()}
            raise Retry(f"choose a number from 1 to {len(people)}, or a name")

        initial = element.get("initial_user")
        return intro, ((initial, {"selected_user": initial}) if initial else None), parse

    def _file_input(self, element: dict[str, Any]):
        kinds = [str(t).lower() for t in element.get("filetypes") or []]
        intro = ["(the path of a file on this computer" + (f": {', '.join(kinds)}" if kinds else "") + ")"]

        def parse(answer: str | None) -> dict[str, Any]:
            if answer is None:
                return {"files": []}
            if self.attach is None:
                raise Retry("this console cannot attach a file here")
            path = Path(answer.strip().strip("\"'")).expanduser()
            try:
                data = path.read_bytes()
            except FileNotFoundError:
                raise Retry(f"there is no file {path}") from None
            except IsADirectoryError:
                raise Retry(f"{path} is a folder; give a file") from None
            except OSError as exc:
                raise Retry(f"cannot read {path} ({exc.strerror})") from None
            if kinds and path.suffix.lstrip(".").lower() not in kinds:
                raise Retry(f"this field takes {', '.join(kinds)} files")
            if not data:
                raise Retry(f"{path.name} is empty")
            if len(data) > FILE_INPUT_MAX_BYTES:
                raise Retry(f"Slack takes files up to {FILE_INPUT_MAX_BYTES // 1048576} MB in a form")
            return {"files": [self.attach(path.name, data)]}

        return intro, None, parse
