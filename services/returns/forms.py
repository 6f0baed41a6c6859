"""The `/recount returns` forms: what the clerk picks (election, contest, unit) and the entry form built
from the latest survey version. Recording what was entered is `services.returns.entry`."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Mapping, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.contest import WHOLE_CONTEST, ContestKind
from rules.corrections import one_line
from rules.laws.profile import Part
from rules.returns.numbers import CountError, parse_count
from services.election_law import chosen_key, law_of
from services.errors import UserError
from services.office.access import ensure_workspace
from services.returns.versions import (
    flat_counts,
    require_election,
)
from services.services import Services
from services.wording import echoed
from storage.models import Contest, Election, LocalGovernment, SurveyVersion
from storage.repositories import (
    choices_of,
    contests_of,
    elections_of,
    find_contest_on_day,
    latest_election_day,
    latest_version,
)

SOURCE_FORMAT = "slack-form"
SOURCE_NAME = "/recount returns"
NAME_LIMIT = 300  # the database's name columns
REASON_LIMIT = 1000
MAX_CHOICES = 90  # one number input each, within a modal's 100 blocks
NEW = "new"
KIND_LABEL = {ContestKind.CANDIDATE.value: "candidate race", ContestKind.QUESTION.value: "ballot issue or question"}


class FormErrors(UserError):
    """Several fields at fault at once: {field: message}. Nothing was written."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        first = next(iter(errors))
        super().__init__(errors[first], field=first)
        self.errors = dict(errors)


def choice_field(index: int) -> str:
    return f"choice:{index}"


def _unit_sort_key(unit: str) -> tuple:
    """Precinct 2 before Precinct 10; the whole contest first."""
    return (unit != WHOLE_CONTEST, [(0, int(p), "") if p.isdigit() else (1, 0, p.casefold())
                                    for p in re.split(r"(\d+)", unit) if p])


# ------------------------------------------------------------------ step 1: which election and contest
@dataclass(frozen=True)
class ElectionChoice:
    id: int
    name: str
    election_date: dt.date
    local_government: str


@dataclass(frozen=True)
class ContestChoice:
    id: int
    name: str


@dataclass(frozen=True)
class PickForm:
    """What the first step shows: the office's elections, and the contests of the one selected."""

    elections: tuple[ElectionChoice, ...]  # newest first
    election_id: int | None  # the election selected; None for a new one
    contests: tuple[ContestChoice, ...]  # of the selected election
    governments: tuple[tuple[str, str], ...]  # (name, governing body) already known to the office


def pick_form(services: Services, *, team_id: str, election_id: int | None | str = "latest") -> PickForm:
    """`election_id` "latest" selects the newest election (if any); None selects a new one."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        elections = elections_of(session, workspace.id)
        governments = tuple((name, body) for name, body in session.execute(
            select(LocalGovernment.name, LocalGovernment.governing_body)
            .where(LocalGovernment.workspace_id == workspace.id).order_by(LocalGovernment.name)))
        if election_id == "latest":
            selected = elections[0].id if elections else None
        else:
            selected = election_id if isinstance(election_id, int) and any(e.id == election_id for e in elections) \
                else None
        contests = tuple(ContestChoice(c.id, c.name) for c in contests_of(session, selected)) if selected else ()
        return PickForm(
            elections=tuple(ElectionChoice(e.id, e.name, e.election_date, e.local_government.name) for e in elections),
            election_id=selected, contests=contests, governments=governments)


@dataclass(frozen=True)
class NewElection:
    name: str
    election_date: dt.date
    local_government: str
    governing_body: str
    law: str  # the recount law it runs under (a rules.laws key), chosen in the form


@dataclass(frozen=True)
class NewContest:
    name: str
    kind: str
    seats: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """The contest whose returns are entered: stored ones by id, new ones by what the form said."""

    election_id: int | None = None
    new_election: NewElection | None = None
    contest_id: int | None = None
    new_contest: NewContest | None = None

    def required_new_election(self) -> NewElection:
        """The new election of a target that names no stored one (resolve_target makes one or the other)."""
        if self.new_election is None:
            raise ValueError("a target names a stored election or a new one")
        return self.new_election

    def required_new_contest(self) -> NewContest:
        """The new contest of a target that names no stored one."""
        if self.new_contest is None:
            raise ValueError("a target names a stored contest or a new one")
        return self.new_contest


def form_name(raw: str | None, field: str, what: str, errors: dict[str, str]) -> str:
    """A name typed into a returns form (election, government, body, contest) on one line; what is wrong with it
    goes into `errors` under `field`, for the form to show with the others."""
    text = one_line(raw or "")
    if not text:
        errors[field] = f"Enter the {what}."
    elif len(text) > NAME_LIMIT:
        errors[field] = f"At most {NAME_LIMIT} characters (this is {len(text):,})."
    return text


def form_law(raw: str | None, errors: dict[str, str]) -> str:
    """The recount law chosen for a new election; what is wrong with it goes into `errors` under "law"."""
    if not raw:
        errors["law"] = "Choose the recount law the election runs under; its deadlines and margins follow it."
        return ""
    try:
        return chosen_key(raw)
    except UserError as exc:
        errors["law"] = exc.message
        return ""


def _seats(raw: str | None, errors: dict[str, str]) -> int:
    try:
        seats, _ = parse_count(str(raw or ""))
    except CountError as exc:
        errors["seats"] = f"The number of seats {exc}."
        return 1
    if seats < 1:
        errors["seats"] = "A contest fills at least 1 seat."
    elif seats > MAX_CHOICES:
        errors["seats"] = f"At most {MAX_CHOICES} seats."
    return seats


def _choices(raw: str | None, errors: dict[str, str]) -> tuple[str, ...]:
    names = [one_line(line) for line in (raw or "").splitlines()]
    names = [n for n in names if n]
    seen: dict[str, str] = {}
    for name in names:
        if len(name) > NAME_LIMIT:
            errors["choices"] = f"“{echoed(name, 40)}” is longer than {NAME_LIMIT} characters."
            return ()
        if name.casefold() in seen:
            errors["choices"] = f"“{echoed(name)}” is listed twice; each choice once, one per line."
            return ()
        seen[name.casefold()] = name
    if not names:
        errors["choices"] = "List the choices, one per line (the candidates, or Yes and No)."
    elif len(names) > MAX_CHOICES:
        errors["choices"] = (f"{len(names)} choices; this form holds at most {MAX_CHOICES}. Import the returns from "
                             "a file instead (`recount-bot import`).")
    return tuple(names)


def resolve_target(
    services: Services, *, team_id: str, election: str | None, contest: str | None,
    election_name: str | None = None, election_date: str | None = None, local_government: str | None = None,
    governing_body: str | None = None, contest_name: str | None = None, kind: str | None = None,
    seats: str | None = None, choices: str | None = None, law: str | None = None,
) -> Target:
    """Validate the first step. `election`/`contest` are an id as text, NEW, or None (not chosen).

    Raises FormErrors naming every field at fault: election, election_name, election_date,
    local_government, governing_body, law, contest, contest_name, kind, seats, choices. A new election's `law` is
    required: Slack asks rather than assuming 1-13.5-1306.
    """
    errors: dict[str, str] = {}
    today = services.today()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        known = {e.id: e for e in elections_of(session, workspace.id)}
        stored_election: Election | None = None
        new_election: NewElection | None = None
        new_election_chosen = not election or election == NEW
        if not election or election == NEW:
            name = form_name(election_name, "election_name", "election's name", errors)
            date = None
            try:
                date = dt.date.fromisoformat(election_date or "")
            except ValueError:
                errors["election_date"] = "Choose the election day." if not election_date else \
                    f"“{echoed(election_date)}” is not a date."
            if date is not None and date > today:
                errors["election_date"] = "That day has not come yet; returns are entered after the election."
            government = form_name(local_government, "local_government", "local government's name", errors)
            body = form_name(governing_body, "governing_body", "governing body (it receives the notices)", errors)
            law_key = form_law(law, errors)
            if name and date is not None and not errors.get("election_name"):
                clash = next((e for e in known.values()
                              if e.name.casefold() == name.casefold() and e.election_date == date), None)
                if clash is not None:
                    errors["election_name"] = (f"{clash.name} on {date.isoformat()} already exists; choose "
                                               "it in the list of elections.")
            if date is not None:
                new_election = NewElection(name, date, government, body, law_key)
        else:
            stored_election = known.get(int(election)) if election.isdigit() else None
            if stored_election is None:
                errors["election"] = "That election is not one of this office's; choose another."

        stored_contest: Contest | None = None
        new_contest: NewContest | None = None
        if new_election_chosen or not contest or contest == NEW:
            if not contest and stored_election is not None and contests_of(session, stored_election.id):
                errors["contest"] = "Choose a contest, or “New contest…”."
            else:
                name = form_name(contest_name, "contest_name", "contest's name", errors)
                if kind not in KIND_LABEL:
                    errors["kind"] = "Choose a candidate race or a ballot issue or question."
                count = _seats(seats, errors)
                names = _choices(choices, errors)
                if stored_election is not None and name:
                    same = next((c for c in contests_of(session, stored_election.id)
                                 if c.name.casefold() == name.casefold()), None)
                    if same is not None:
                        errors["contest_name"] = f"{same.name} is already a contest of " \
                                                 f"{stored_election.name}; " \
                                                 "choose it in the list of contests."
                new_contest = NewContest(name, kind or "", count, names)
        elif stored_election is not None:
            stored_contest = session.get(Contest, int(contest)) if contest.isdigit() else None
            if stored_contest is None or stored_contest.election_id != stored_election.id:
                errors["contest"] = f"Choose a contest of {stored_election.name}."
        if errors:
            raise FormErrors(errors)
        return Target(election_id=stored_election.id if stored_election else None, new_election=new_election,
                      contest_id=stored_contest.id if stored_contest else None, new_contest=new_contest)


# ------------------------------------------------------------------ step 2: the counts
class _Stamp(NamedTuple):
    """The latest version an entry form is built on: its number (0: none yet), by whom, when."""

    version: int
    version_by: str | None
    version_at: dt.datetime | None


@dataclass(frozen=True)
class EntryForm:
    """What the second step shows, and what its submission must still find to be accepted."""

    target: Target
    election_name: str
    election_date: dt.date
    contest_name: str
    kind: str
    seats: int
    choices: tuple[str, ...]
    choice_ids: tuple[int, ...]  # empty for a new contest
    units: tuple[str, ...]  # units with returns in the latest version ((): none yet)
    unit: str
    current: Mapping[str, int] | None  # this unit's votes per choice in the latest version; None if none
    version: int  # the latest version of the election the form is built on (0: none yet)
    version_by: str | None
    version_at: dt.datetime | None
    correcting_under: str = ""  # the election's law's power to correct the survey (1306(4), 31-10-1207(4), ...)

    @property
    def correction(self) -> bool:
        """The contest already has returns in the latest version: entering again corrects them (4)."""
        return bool(self.units)

    @property
    def per_unit(self) -> bool:
        return bool(self.units) and self.units != (WHOLE_CONTEST,)


def _too_many_choices(name: str, count: int) -> UserError:
    return UserError(f"{name} has {count} choices; this form holds at most {MAX_CHOICES}. Import its returns "
                     "from a file instead (`recount-bot import`).", field="contest")


def entry_form(services: Services, *, team_id: str, target: Target, unit: str | None = None,
               unit_index: int | None = None) -> EntryForm:
    """The second step for `target`: for a stored contest, its choices and the latest version's counts
    for `unit` (or the unit at `unit_index` in `EntryForm.units`; the first unit when neither is present)."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        election = require_election(session, workspace.id, target.election_id) if target.election_id else None
        previous = latest_version(session, election.id) if election else None
        stamp = (_Stamp(previous.number, previous.created_by, previous.created_at) if previous
                 else _Stamp(0, None, None))
        if election is None:
            new = target.new_election
            if new is None or target.new_contest is None:
                raise ValueError("a target without a stored election names a new election and a new contest")
            return EntryForm(target, new.name, new.election_date, target.new_contest.name, target.new_contest.kind,
                             target.new_contest.seats, target.new_contest.choices, (), (), WHOLE_CONTEST, None,
                             *stamp)
        if target.contest_id is None:
            new_contest = target.new_contest
            if new_contest is None:
                raise ValueError("a target names a stored contest or a new one")
            return EntryForm(target, election.name, election.election_date, new_contest.name, new_contest.kind,
                             new_contest.seats, new_contest.choices, (), (), WHOLE_CONTEST, None, *stamp)
        contest = session.get(Contest, target.contest_id)
        if contest is None or contest.election_id != election.id:
            raise UserError("That contest is not in this election any more; start again.", field="contest")
        choices = choices_of(session, [contest.id])[contest.id]
        if len(choices) > MAX_CHOICES:
            raise _too_many_choices(contest.name, len(choices))
        by_unit = contest_counts(session, previous, contest.id)
        units = tuple(sorted(by_unit, key=_unit_sort_key))
        if unit_index is not None and 0 <= unit_index < len(units):
            unit = units[unit_index]
        chosen = unit if unit in by_unit else (units[0] if units else WHOLE_CONTEST)
        names = {c.id: c.name for c in choices}
        current = {names[cid]: votes for cid, votes in by_unit[chosen].items()} if units else None
        return EntryForm(target, election.name, election.election_date, contest.name, contest.kind, contest.seats,
                         tuple(c.name for c in choices), tuple(c.id for c in choices), units, chosen, current,
                         *stamp, law_of(election).cite(Part.EVIDENCE))


def form_for_command(services: Services, *, team_id: str, contest_name: str | None
                     ) -> EntryForm | tuple[PickForm, str | None]:
    """`/recount returns [contest]`: the entry step when the name matches a contest of the latest
    election, else the first step (with the name, if one was given and matched nothing)."""
    if contest_name:
        with services.db.transaction() as session:
            workspace = ensure_workspace(session, team_id)
            contest = find_contest_on_day(session, latest_election_day(session, workspace.id), contest_name)
            target = Target(election_id=contest.election_id, contest_id=contest.id) if contest else None
        if target is not None:
            return entry_form(services, team_id=team_id, target=target)
    return pick_form(services, team_id=team_id), contest_name


def contest_counts(session: Session, version: SurveyVersion | None, contest_id: int) -> dict[str, dict[int, int]]:
    if version is None:
        return {}
    out: dict[str, dict[int, int]] = {}
    for (cid, unit, choice_id), votes in flat_counts(session, version).items():
        if cid == contest_id:
            out.setdefault(unit, {})[choice_id] = votes
    return out
