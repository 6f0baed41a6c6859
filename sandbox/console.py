"""A terminal stand-in for the Slack client: type slash commands as a person in the offline workspace, click
buttons, fill in modals, and read what the bot posts, rendered from its Block Kit.

    maya (official)> /recount check
    maya (official)> buttons
    maya (official)> click 1
    maya (official)> as staff

`ask` and `say` are injectable, so tests drive a Console with a list of lines and read what it printed.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Callable

from .feed import Entry, Feed
from .modal import ModalSession
from .observe import page_text, shared_links
from .office import COMMAND, Button, Reply, Sandbox, buttons_of
from .people import find_person
from .render import clock, message_lines, plain

HELP = """\
  /recount ...     send the slash command from #{channel}, exactly as Slack would (try /recount help)
  buttons          list the buttons in recent messages, numbered
  click N          click button N
  as WHO           switch to {people}
  observe [N]      the observers' links the office has shared; N opens one as the observers' page, read-only
                   (what a candidate, committee or watcher sees, without Slack: e.g. as requester)
  help             this list
  quit             stop the bot and leave (Ctrl-D too)
  (Enter)          show anything new the bot posted
In a modal, answer each question; Enter keeps the [default]; a file field takes a path (e.g. the one of
examples/survey-of-returns.csv for /recount returns upload); /cancel closes the modal."""
RECENT = 20


class Console:
    def __init__(self, sandbox: Sandbox, *, ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = lambda line: print(line, flush=True)) -> None:
        self.sandbox, self.ask, self.say = sandbox, ask, say
        self.person = sandbox.person("official")
        self.feed = Feed(sandbox.standin)
        self.numbers: dict[tuple, int] = {}
        self.buttons: dict[int, Button] = {}
        self.recent: OrderedDict[tuple[str, str, str | None], None] = OrderedDict()

    @property
    def prompt(self) -> str:
        return f"{self.person.name} ({self.person.key})> "

    # ----------------------------------------------------------------- the loop
    def run(self) -> None:
        team = self.sandbox.standin.state.workspace.team_name
        self.say(f"You are {self.person.real_name} (@{self.person.name}, {self.person.key}) in "
                 f"#{self.sandbox.channel.name} of {team}. Type help for the commands.")
        try:
            while True:
                self.show_new()
                try:
                    line = self.ask(self.prompt)
                except (EOFError, KeyboardInterrupt):
                    self.say("")
                    break
                if not self.handle(line):
                    break
        finally:
            self.feed.close()

    def handle(self, line: str) -> bool:
        """One line typed at the prompt. False to leave."""
        words = line.strip().split(maxsplit=1)
        if not words:
            return True
        head, rest = words[0], (words[1] if len(words) > 1 else "")
        if head in ("quit", "exit"):
            return False
        if head in ("help", "?"):
            people = "|".join(p.key for p in self.sandbox.people)
            self.say(HELP.format(channel=self.sandbox.channel.name, people=people))
        elif head == "as":
            self.switch(rest)
        elif head == "buttons":
            self.list_buttons()
        elif head == "click":
            self.click(rest)
        elif head == "observe":
            self.observe(rest)
        elif head.startswith("/"):
            self.slash(head, rest)
        else:
            self.say(f"“{head}” is not a console command; type help.")
        return True

    # ----------------------------------------------------------------- commands
    def switch(self, who: str) -> None:
        person = find_person(self.sandbox.people, who) if who else None
        if person is None:
            self.say(f"as whom? {', '.join(f'{p.key} ({p.name})' for p in self.sandbox.people)}")
            return
        self.person = person
        self.say(f"You are now {person.real_name} (@{person.name}, {person.key}).")

    def slash(self, command: str, text: str) -> None:
        if command != COMMAND:
            self.say(f"{command} is not a command of this app; try {COMMAND} help.")
            return
        before = self._top()
        reply = self.sandbox.command(self.person, text)
        if reply.status == 200:
            self._show_ack(reply)
        self._after(reply, before)

    def list_buttons(self) -> None:
        shown = 0
        for channel, ts, recipient in list(self.recent):
            message = self._current(channel, ts, recipient)
            if message is None:
                continue
            for button in buttons_of(message, channel, recipient):
                visible = "" if recipient is None else f" (only visible to {self.sandbox.name_of(recipient)})"
                first_line = next(iter(message_lines(message, lambda *_: "", self.sandbox.name_of)), "")
                self.say(f"  {self._number(button)}) {plain(button.label)} — on “{first_line[:60]}”{visible}")
                shown += 1
        if not shown:
            self.say("No buttons in recent messages.")

    def observe(self, which: str) -> None:
        """The observers' page of a case, as its link opens in a browser (a real, audited page view)."""
        links = shared_links(self.sandbox)
        if not links:
            self.say("No observers' link has been shared yet: an official or staff member shares one from a case "
                     "card (Share observers' link).")
            return
        if not which.strip():
            for number, link in enumerate(links, 1):
                self.say(f"  {number}) {link.label}: {link.url}")
            self.say("observe N opens one.")
            return
        number = int(which) if which.strip().isdigit() else 0
        if not 1 <= number <= len(links):
            self.say(f"No observers' link {which.strip()}; type observe to list them.")
            return
        status, lines = page_text(links[number - 1].url)
        self.say(f"── {links[number - 1].label} · {links[number - 1].url} (HTTP {status})")
        for line in lines:
            self.say("   " + line)

    def click(self, which: str) -> None:
        button = self.buttons.get(int(which)) if which.strip().isdigit() else None
        if button is None:
            self.say(f"No button {which or '?'}; type buttons to list them.")
            return
        if button.ephemeral_for not in (None, self.person.user_id):
            self.say(f"That message is only visible to {self.sandbox.name_of(button.ephemeral_for)}.")
            return
        message = self.sandbox.message(button)
        if message is None:
            self.say("That message is gone.")
            return
        if not any(b.key == button.key for b in buttons_of(message, button.channel, button.ephemeral_for)):
            self.say(f"“{plain(button.label)}” is no longer on that message (it was edited).")
            return
        before = self._top()
        self.say(f"(clicking “{plain(button.label)}” as {self.person.name})")
        self._after(self.sandbox.click(self.person, button, message), before)

    # ----------------------------------------------------------------- after a request
    def _top(self) -> tuple[str, str] | None:
        views = self.sandbox.standin.state.open_views(self.person.user_id)
        return (views[-1]["id"], views[-1]["hash"]) if views else None

    def _show_ack(self, reply: Reply) -> None:
        """A slash command's acknowledgement may carry a message: Slack shows it to the sender only."""
        body = reply.json()
        if isinstance(body, dict) and (body.get("text") or body.get("blocks")):
            self._print_message(f"#{self.sandbox.channel.name} · only visible to {self.person.name}", body)
        elif reply.body.strip() and body is None:
            self._print_message(f"#{self.sandbox.channel.name} · only visible to {self.person.name}",
                                {"text": reply.body.decode("utf-8", "replace")})

    def _after(self, reply: Reply, before: tuple[str, str] | None) -> None:
        if reply.status != 200:
            self.say(f"(the bot answered HTTP {reply.status}; Slack would show the person an error)")
        if not self.sandbox.wait_idle():
            self.say("(the bot is still busy; press Enter later to see what it posts)")
        self.show_new()
        views = self.sandbox.standin.state.open_views(self.person.user_id)
        if views and (views[-1]["id"], views[-1]["hash"]) != before:
            ModalSession(self.sandbox, self.person, self.ask, self.say, after=self.show_new).run(views[-1])

    # ----------------------------------------------------------------- printing what the bot posted
    def show_new(self) -> None:
        for entry in self.feed.drain():
            self._print_entry(entry)

    def _where(self, channel: str) -> str:
        info = self.sandbox.standin.state.channels().get(channel, {})
        if info.get("is_im"):
            return f"direct message to {self.sandbox.name_of(info.get('user', ''))}"
        return f"#{info.get('name', channel)}"

    def _print_entry(self, entry: Entry) -> None:
        where = self._where(entry.channel)
        if entry.kind == "deleted" or entry.message is None:
            self.say(f"── {where} · a message was deleted")
            return
        label = {"posted": "", "reply": " · reply in thread", "edited": " · edited",
                 "ephemeral": f" · only visible to {self.sandbox.name_of(entry.recipient or '')}"}[entry.kind]
        key = (entry.channel, entry.ts, entry.recipient)
        self.recent.pop(key, None)
        self.recent[key] = None
        while len(self.recent) > RECENT:
            self.recent.popitem(last=False)
        self._print_message(f"{where}{label}", entry.message, entry.channel, entry.recipient)

    def _print_message(self, where: str, message: dict, channel: str | None = None,
                       recipient: str | None = None) -> None:
        stamp = clock(message["ts"]) if message.get("ts") else ""
        self.say(f"── {where} · recount-bot {stamp}".rstrip())

        def label(block_id: str, element: dict) -> str:
            if channel is None or not message.get("ts"):
                return f"[{(element.get('text') or {}).get('text', '')}]"
            button = Button(channel, message["ts"], block_id, element, recipient)
            return f"[{self._number(button)}: {plain(button.label)}]"

        for line in message_lines(message, label, self.sandbox.name_of):
            self.say("   " + line)

    def _number(self, button: Button) -> int:
        if button.key not in self.numbers:
            self.numbers[button.key] = len(self.numbers) + 1
        number = self.numbers[button.key]
        self.buttons[number] = button
        return number

    def _current(self, channel: str, ts: str, recipient: str | None) -> dict | None:
        state = self.sandbox.standin.state
        if recipient is None:
            return state.message(channel, ts)
        return next((m for m in state.ephemeral_messages(recipient) if m["ts"] == ts), None)
