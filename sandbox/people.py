"""Who is in the offline workspace: an official (a workspace admin, so the bot makes her its designated
election official on first use), a staff member and an elector who may request a recount. None of them is a
candidate in the example election (examples/survey-of-returns.csv): the office's staff run the recount, they do
not stand in it (rules.conflicts)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Person:
    key: str  # what the console calls them: "official", "staff", "requester"
    user_id: str
    name: str
    real_name: str
    is_admin: bool = False

    def slack_user(self) -> dict[str, Any]:
        """As the Slack stand-in takes a user (users.info answers with it)."""
        return {"id": self.user_id, "name": self.name, "real_name": self.real_name, "is_admin": self.is_admin}


@dataclass(frozen=True)
class Channel:
    id: str
    name: str


PEOPLE = (
    Person("official", "U0OFFMAYA1", "maya", "Maya Lindqvist", is_admin=True),
    Person("staff", "U0STAFFTHEO", "theo", "Theo Grant"),
    Person("requester", "U0REQRILEY", "riley", "Riley Chen"),
)
CHANNEL = Channel("C0ELECTION", "elections")


def find_person(people: tuple[Person, ...], word: str) -> Person | None:
    """By key ("staff"), name ("theo"), real name or Slack id; None when nobody matches."""
    folded = word.strip().lstrip("@").casefold()
    for person in people:
        if folded in (person.key, person.name, person.real_name.casefold(), person.user_id.casefold()):
            return person
    return None
