"""Filling in a modal the bot opened: render it, ask for each input, submit it as Slack does, and follow the
bot's answer (field errors: ask those again; update or push: the next view; otherwise the modal closes).

An input with `dispatch_action` (a select that redraws the form) tells the bot as soon as it changes, as
Slack does; when the bot redraws the modal, what was already entered in blocks that remain is kept (Slack
keeps it too) and the console asks for the rest.
"""
from __future__ import annotations

from typing import Any, Callable

from .fields import Cancelled, FieldPrompter
from .office import Sandbox
from .people import Person
from .render import text_of, view_lines

MAX_ROUNDS = 30  # a bot answering errors forever must not trap the console
Values = dict[str, dict[str, dict[str, Any]]]
SUBMIT, CLOSED, REDRAWN = "submit", "closed", "redrawn"


def _inputs(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in view.get("blocks") or [] if b.get("type") == "input"]


def _action_id(block: dict[str, Any]) -> str:
    return (block.get("element") or {}).get("action_id") or block.get("block_id", "")


class ModalSession:
    def __init__(self, sandbox: Sandbox, person: Person, ask: Callable[[str], str], say: Callable[[str], None],
                 after: Callable[[], None] = lambda: None) -> None:
        self.sandbox, self.person, self.say = sandbox, person, say
        self.prompter = FieldPrompter(ask, say, sandbox.people, attach=lambda name, data: (
            sandbox.standin.state.add_user_file(person.user_id, name, data)))
        self.after = after  # called once the bot is idle after each request (prints its messages)

    def top(self) -> dict[str, Any] | None:
        views = self.sandbox.standin.state.open_views(self.person.user_id)
        return views[-1] if views else None

    def _settle(self) -> None:
        self.sandbox.wait_idle()
        self.after()

    def run(self, view: dict[str, Any]) -> None:
        values: Values = {}
        errors: dict[str, str] = {}
        shown: tuple[str, str] | None = None
        for _ in range(MAX_ROUNDS):
            if shown != (view["id"], view["hash"]):
                for line in view_lines(view, self.sandbox.name_of):
                    self.say(line)
                same_modal = shown is not None and shown[0] == view["id"]
                keep = {b.get("block_id"): _action_id(b) for b in _inputs(view)} if same_modal else {}
                values = {k: v for k, v in values.items() if k in keep and keep[k] in v}
                errors, shown = {}, (view["id"], view["hash"])
            try:
                outcome = self._fill(view, values, errors)
            except Cancelled:
                self.say(f"└─ closed without submitting “{text_of(view.get('title'))}”")
                self.sandbox.close_view(self.person, view)
                self._settle()
                return
            if outcome == CLOSED:
                return
            if outcome == SUBMIT:
                errors = self._follow(view, self.sandbox.submit(self.person, view, values))
                self._settle()
                if errors:
                    if not errors.keys() & {b.get("block_id") for b in _inputs(view)}:
                        self.say("└─ the bot reported errors on fields this modal does not have; closing it")
                        self.sandbox.close_view(self.person, view)
                        return
                    continue
            view = self.top()  # the next view: redrawn, updated, pushed, or the one below a closed one
            if view is None:
                return
        self.say("└─ giving up on this modal after too many rounds; closing it")
        self.sandbox.standin.state.close_views(self.person.user_id)

    def _fill(self, view: dict[str, Any], values: Values, errors: dict[str, str]) -> str:
        """Ask for the inputs not yet answered (only the refused ones after errors)."""
        inputs = _inputs(view)
        if not inputs:
            if not view.get("submit"):
                self.say("└─ (nothing to fill in; closed)")
                self.sandbox.close_view(self.person, view)
                return CLOSED
            answer = self.prompter.ask(f"  Submit “{text_of(view['submit'])}”? [y/N] ").strip().lower()
            if answer not in ("y", "yes"):
                raise Cancelled()
            return SUBMIT
        for block in inputs:
            block_id = block.get("block_id", "")
            if (block_id not in errors) if errors else (block_id in values):
                continue
            state = self.prompter.fill(block, errors.get(block_id))
            values[block_id] = {_action_id(block): state}
            if block.get("dispatch_action") and state != self.prompter.initial(block) and self._redrawn(
                    view, values, block, state):
                return REDRAWN
        return SUBMIT

    def _redrawn(self, view: dict[str, Any], values: Values, block: dict[str, Any], state: dict[str, Any]) -> bool:
        reply = self.sandbox.dispatch(self.person, view, values, block.get("block_id", ""), _action_id(block), state)
        if reply.status != 200:
            self.say(f"│ (the bot answered HTTP {reply.status} to the change)")
        self._settle()
        top = self.top()
        return top is None or (top["id"], top["hash"]) != (view["id"], view["hash"])

    def _follow(self, view: dict[str, Any], reply) -> dict[str, str]:
        """Apply the bot's answer to a submission as Slack would; the field errors, if any."""
        followed = self.sandbox.follow(self.person, view, reply)
        if followed.action == "failed":
            self.say(f"└─ the bot answered HTTP {reply.status}; Slack would show “We had some trouble connecting”")
        elif followed.action == "errors":
            errors = followed.errors
            self.say(f"│ the bot refused {len(errors)} field{'s' if len(errors) != 1 else ''}; "
                     "answer again (or /cancel)")
            return errors
        elif followed.action in ("clear", "closed"):
            self.say(f"└─ submitted “{text_of(view.get('title'))}”")
        return {}
