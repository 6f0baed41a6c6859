"""Entering or correcting one contest's returns by hand (the `/recount returns` form).

Every entry is a new, complete survey version: the latest version's counts are copied and this
contest's counts for one unit are replaced. The first returns of a contest are an entry; returns for a
contest that already has them in the latest version are a correction under (4), recorded with its
reason, and the version corrected stays on the record.

Readings (the brief and the statute are silent; each is applied on purpose):

- A correction needs a reason; evidence is asked for but optional. (`rules.corrections.correct_survey`
  also insists on evidence; the form stores what the official gives in `SurveyVersion.evidence`.)
- A correction changes votes only: the form shows the contest's choices and cannot add or rename one.
- One unit (precinct, machine, batch, or the whole contest) is entered per submission; a new contest
  is entered as a whole-contest total. Per-unit returns come from a file (`recount-bot import`).
- A form is built on one version; if a newer version exists when it is submitted, it is refused
  (a double submission, or a colleague's change), so nobody overwrites a change they never saw.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.services.access import ensure_workspace
from bot.services.context import Services
from bot.services.errors import UserError
from bot.services.survey import (
    CountKey, find_or_create_election, find_or_create_government, flat_counts, require_election, sync_contest,
    write_version,
)
from rules.contest import WHOLE_CONTEST, ContestKind
from rules.contest import Contest as RulesContest
from rules.corrections import CITATION as CORRECTION_CITATION
from rules.corrections import VoteChange, diff_contests, one_line
from rules.returns.numbers import CountError, parse_count
from storage import audit
from storage.models import Contest, Election, LocalGovernment, RecountCase, SurveyVersion
from storage.repositories import choices_of, contests_of, elections_of, find_contest, latest_election, latest_version

SOURCE_FORMAT = "slack-form"
SOURCE_NAME = "/recount returns"
NAME_LIMIT = 300  # the database's name columns
REASON_LIMIT = 1000
MAX_CHOICES = 90  # one number input each, within a modal's 100 blocks
NEW = "new"
KIND_LABEL = {ContestKind.CANDIDATE.value: "candidate race", ContestKind.QUESTION.value: "ballot issue or question"}
SLACK_USER = re.compile(r"^[UW][A-Z0-9]{2,}$")


class FormErrors(UserError):
    """Several fields at fault at once: {field: message}. Nothing was written."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        first = next(iter(errors))
        super().__init__(errors[first], field=first)
        self.errors = dict(errors)


def choice_field(index: int) -> str:
    return f"choice:{index}"


def who(actor: str | None) -> str:
    """A Slack user as a mention; anyone else (the CLI's user name) as written."""
    if not actor:
        return "someone"
    return f"<@{actor}>" if SLACK_USER.match(actor) else actor


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
            selected = election_id if any(e.id == election_id for e in elections) else None
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


def _name(raw: str | None, field: str, what: str, errors: dict[str, str]) -> str:
    text = one_line(raw or "")
    if not text:
        errors[field] = f"Enter the {what}."
    elif len(text) > NAME_LIMIT:
        errors[field] = f"At most {NAME_LIMIT} characters (this is {len(text):,})."
    return text


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
            errors["choices"] = f"“{name[:40]}…” is longer than {NAME_LIMIT} characters."
            return ()
        if name.casefold() in seen:
            errors["choices"] = f"“{name}” is listed twice; each choice once, one per line."
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
    seats: str | None = None, choices: str | None = None,
) -> Target:
    """Validate the first step. `election`/`contest` are an id as text, NEW, or None (not chosen).

    Raises FormErrors naming every field at fault: election, election_name, election_date,
    local_government, governing_body, contest, contest_name, kind, seats, choices.
    """
    errors: dict[str, str] = {}
    today = services.today()
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        known = {e.id: e for e in elections_of(session, workspace.id)}
        stored_election: Election | None = None
        new_election: NewElection | None = None
        if election in (None, "", NEW):
            name = _name(election_name, "election_name", "election's name", errors)
            date = None
            try:
                date = dt.date.fromisoformat(election_date or "")
            except ValueError:
                errors["election_date"] = "Choose the election day." if not election_date else \
                    f"“{election_date}” is not a date."
            if date is not None and date > today:
                errors["election_date"] = "That day has not come yet; returns are entered after the election."
            government = _name(local_government, "local_government", "local government's name", errors)
            body = _name(governing_body, "governing_body", "governing body (it receives the notices)", errors)
            if name and date is not None and not errors.get("election_name"):
                clash = next((e for e in known.values()
                              if e.name.casefold() == name.casefold() and e.election_date == date), None)
                if clash is not None:
                    errors["election_name"] = (f"{clash.name} on {date.isoformat()} already exists; choose it in "
                                               "the list of elections.")
            if date is not None:
                new_election = NewElection(name, date, government, body)
        else:
            stored_election = known.get(int(election)) if election.isdigit() else None
            if stored_election is None:
                errors["election"] = "That election is not one of this office's; choose another."

        stored_contest: Contest | None = None
        new_contest: NewContest | None = None
        if election in (None, "", NEW) or contest in (None, "", NEW):
            if contest in (None, "") and stored_election is not None and contests_of(session, stored_election.id):
                errors["contest"] = "Choose a contest, or “New contest…”."
            else:
                name = _name(contest_name, "contest_name", "contest's name", errors)
                if kind not in KIND_LABEL:
                    errors["kind"] = "Choose a candidate race or a ballot issue or question."
                count = _seats(seats, errors)
                names = _choices(choices, errors)
                if stored_election is not None and name:
                    clash = next((c for c in contests_of(session, stored_election.id)
                                  if c.name.casefold() == name.casefold()), None)
                    if clash is not None:
                        errors["contest_name"] = f"{clash.name} is already a contest of {stored_election.name}; " \
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

    @property
    def correction(self) -> bool:
        """The contest already has returns in the latest version: entering again corrects them (4)."""
        return bool(self.units)

    @property
    def per_unit(self) -> bool:
        return bool(self.units) and self.units != (WHOLE_CONTEST,)


def _too_many_choices(name: str, count: int) -> UserError:
    return UserError(f"{name} has {count} choices; this form holds at most {MAX_CHOICES}. Import its returns from a "
                     "file instead (`recount-bot import`).", field="contest")


def entry_form(services: Services, *, team_id: str, target: Target, unit: str | None = None,
               unit_index: int | None = None) -> EntryForm:
    """The second step for `target`: for a stored contest, its choices and the latest version's counts
    for `unit` (or the unit at `unit_index` in `EntryForm.units`; the first unit when neither is present)."""
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id)
        election = require_election(session, workspace.id, target.election_id) if target.election_id else None
        previous = latest_version(session, election.id) if election else None
        stamp = dict(version=previous.number if previous else 0, version_by=previous.created_by if previous else None,
                     version_at=previous.created_at if previous else None)
        if election is None:
            new = target.new_election
            if new is None or target.new_contest is None:
                raise ValueError("a target without a stored election names a new election and a new contest")
            return EntryForm(target, new.name, new.election_date, target.new_contest.name, target.new_contest.kind,
                             target.new_contest.seats, target.new_contest.choices, (), (), WHOLE_CONTEST, None,
                             **stamp)
        if target.contest_id is None:
            contest = target.new_contest
            if contest is None:
                raise ValueError("a target names a stored contest or a new one")
            return EntryForm(target, election.name, election.election_date, contest.name, contest.kind,
                             contest.seats, contest.choices, (), (), WHOLE_CONTEST, None, **stamp)
        contest = session.get(Contest, target.contest_id)
        if contest is None or contest.election_id != election.id:
            raise UserError("That contest is not in this election any more; start again.", field="contest")
        choices = choices_of(session, [contest.id])[contest.id]
        if len(choices) > MAX_CHOICES:
            raise _too_many_choices(contest.name, len(choices))
        by_unit = _contest_counts(session, previous, contest.id)
        units = tuple(sorted(by_unit, key=_unit_sort_key))
        if unit_index is not None and 0 <= unit_index < len(units):
            unit = units[unit_index]
        chosen = unit if unit in by_unit else (units[0] if units else WHOLE_CONTEST)
        names = {c.id: c.name for c in choices}
        current = {names[cid]: votes for cid, votes in by_unit[chosen].items()} if units else None
        return EntryForm(target, election.name, election.election_date, contest.name, contest.kind, contest.seats,
                         tuple(c.name for c in choices), tuple(c.id for c in choices), units, chosen, current,
                         **stamp)


def form_for_command(services: Services, *, team_id: str, contest_name: str | None
                     ) -> EntryForm | tuple[PickForm, str | None]:
    """`/recount returns [contest]`: the entry step when the name matches a contest of the latest
    election, else the first step (with the name, if one was given and matched nothing)."""
    if contest_name:
        with services.db.transaction() as session:
            workspace = ensure_workspace(session, team_id)
            election = latest_election(session, workspace.id)
            contest = find_contest(session, election.id, contest_name) if election else None
            target = Target(election_id=election.id, contest_id=contest.id) if contest else None
        if target is not None:
            return entry_form(services, team_id=team_id, target=target)
    return pick_form(services, team_id=team_id), contest_name


def _contest_counts(session: Session, version: SurveyVersion | None, contest_id: int) -> dict[str, dict[int, int]]:
    if version is None:
        return {}
    out: dict[str, dict[int, int]] = {}
    for (cid, unit, choice_id), votes in flat_counts(session, version).items():
        if cid == contest_id:
            out.setdefault(unit, {})[choice_id] = votes
    return out


# ------------------------------------------------------------------ the submission
@dataclass(frozen=True)
class Entry:
    """A submitted form: the target, the unit, the version it was built on and the counts as typed."""

    target: Target
    unit: str
    based_on: int
    choice_ids: tuple[int, ...]  # of a stored contest, in the order of `counts`; empty for a new one
    counts: Sequence[str | int | None]
    reason: str | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class EntryResult:
    election_name: str
    contest_id: int
    contest_name: str
    unit: str
    version: int
    supersedes: int | None  # the version corrected; None for a first entry
    correction: bool
    reason: str
    evidence: tuple[str, ...]
    choices: tuple[str, ...]
    before: Mapping[str, int] | None  # this unit's votes before (None: no returns for the contest before)
    after: Mapping[str, int]
    changes: tuple[VoteChange, ...]
    citation: str | None  # (4) for a correction
    case_id: int | None  # the contest's recount case, if one was opened


def parse_counts(raw: Sequence[str | int | None], choices: Sequence[str]) -> list[int]:
    """Every count a whole number of votes, 0 or more; FormErrors names each field at fault."""
    errors: dict[str, str] = {}
    out: list[int] = []
    for index, (value, choice) in enumerate(zip(raw, choices, strict=True)):
        if isinstance(value, int) and not isinstance(value, bool):
            votes, problem = value, ("This count must not be negative." if value < 0 else None)
        elif value is None or not str(value).strip():
            votes, problem = 0, f"Enter the votes for {choice} (0 if none)."
        else:
            try:
                votes, problem = parse_count(str(value))[0], None
            except CountError as exc:
                votes, problem = 0, f"This count {exc}."
        if problem:
            errors[choice_field(index)] = problem
        out.append(votes)
    if errors:
        raise FormErrors(errors)
    return out


def stale(version: SurveyVersion) -> UserError:
    return UserError(f"The returns changed since you opened this form (version {version.number} by "
                     f"{who(version.created_by)}); reopen it with `/recount returns` to see them.")


def record_entry(services: Services, *, team_id: str, actor: str, entry: Entry,
                 may_correct: bool = True) -> EntryResult:
    """Write one new complete survey version with this contest's counts for one unit replaced.

    One transaction: new election, contest and choices (if any), the version with its reason, and the
    audit row. Raises FormErrors (fields: choice:N, reason, evidence) or UserError; nothing is written then.
    """
    target = entry.target
    if target.contest_id is not None:
        if len(entry.choice_ids) != len(entry.counts):
            raise ValueError("one count per stored choice")
    elif target.new_contest is None or len(target.new_contest.choices) != len(entry.counts):
        raise ValueError("one count per choice of the new contest")
    reason = one_line(entry.reason or "")
    evidence = tuple(one_line(e) for e in (entry.evidence or "").splitlines() if e.strip())
    errors: dict[str, str] = {}
    if len(reason) > REASON_LIMIT:
        errors["reason"] = f"At most {REASON_LIMIT:,} characters."
    try:
        with services.db.transaction() as session:
            result = _record(session, services, team_id=team_id, actor=actor, entry=entry, reason=reason,
                             evidence=evidence, errors=errors, may_correct=may_correct)
    except IntegrityError:
        # Two submissions at the same moment: the other one won (versions and names are unique).
        raise UserError("Someone saved these returns at the same moment; reopen the form with `/recount returns` "
                        "to see what was recorded.") from None
    return result


def _record(session: Session, services: Services, *, team_id: str, actor: str, entry: Entry, reason: str,
            evidence: tuple[str, ...], errors: dict[str, str], may_correct: bool) -> EntryResult:
    target = entry.target
    workspace = ensure_workspace(session, team_id, actor=actor)
    if target.election_id is not None:
        election = require_election(session, workspace.id, target.election_id)
        # Lock the election so two corrections cannot both build on the same version (PostgreSQL);
        # SQLite's BEGIN IMMEDIATE already serialises writers.
        session.execute(select(Election.id).where(Election.id == election.id).with_for_update())
    else:
        new = target.new_election
        same = session.scalar(select(Election).join(LocalGovernment).where(
            LocalGovernment.workspace_id == workspace.id, Election.election_date == new.election_date,
            func.lower(Election.name) == new.name.lower()))
        if same is not None:
            raise UserError(f"{same.name} on {new.election_date.isoformat()} was created since you opened this "
                            "form; reopen it with `/recount returns` and choose it.")
        government = find_or_create_government(session, workspace.id, new.local_government, new.governing_body,
                                               actor)
        election = find_or_create_election(session, government, new.name, new.election_date, actor)
    previous = latest_version(session, election.id)
    if (previous.number if previous else 0) != entry.based_on:
        raise stale(previous) if previous else UserError("The returns this form was built on are gone; reopen it.")

    if target.contest_id is not None:
        contest = session.get(Contest, target.contest_id)
        if contest is None or contest.election_id != election.id:
            raise UserError("That contest is not in this election any more; reopen the form.")
        stored = choices_of(session, [contest.id])[contest.id]
        if tuple(c.id for c in stored) != tuple(entry.choice_ids):
            raise UserError(f"The choices of {contest.name} changed since you opened this form; reopen it.")
        choices = tuple(c.name for c in stored)
        choice_ids = dict(zip(choices, entry.choice_ids))
        rules_kind = ContestKind(contest.kind)
    else:
        new_contest = target.new_contest
        clash = next((c for c in contests_of(session, election.id)
                      if c.name.casefold() == new_contest.name.casefold()), None)
        if clash is not None:
            raise UserError(f"{clash.name} was created in {election.name} since you opened this form; reopen it "
                            "with `/recount returns` and choose it.")
        contest, choice_ids = None, {}
        choices = new_contest.choices
        rules_kind = ContestKind(new_contest.kind)

    try:
        counts = parse_counts(entry.counts, choices)
    except FormErrors as exc:
        errors.update(exc.errors)
        counts = []
    before_units = _contest_counts(session, previous, contest.id) if contest is not None else {}
    correction = bool(before_units)
    if correction and entry.unit not in before_units:
        raise UserError("That unit has no returns in the latest version any more; reopen the form.")
    if not correction and entry.unit != WHOLE_CONTEST:
        raise ValueError("a first entry is for the whole contest")
    if correction and not may_correct:
        # 1306(4) gives the power to correct the survey of returns to the designated election official.
        raise UserError(f"Only a designated election official may correct returns already recorded "
                        f"({CORRECTION_CITATION}); ask one to make this correction.")
    if correction and not reason:
        errors["reason"] = (f"A correction needs its reason: the finding it rests on ({CORRECTION_CITATION}). "
                            f"Version {previous.number} stays on the record.")
    if errors:
        raise FormErrors(errors)

    # The statute core's view of the change: the contest before and after, unit by unit.
    names = {cid: name for name, cid in choice_ids.items()}
    before_by_name = {unit: {names[cid]: v for cid, v in per.items()} for unit, per in before_units.items()}
    old_unit = before_by_name.get(entry.unit) if correction else None
    new_unit = dict(zip(choices, counts))
    seats = contest.seats if contest is not None else new_contest.seats
    old_rules = RulesContest(name=contest.name if contest is not None else new_contest.name, choices=choices,
                             votes_by_unit=before_by_name, seats=seats, kind=rules_kind)
    new_rules = RulesContest(name=old_rules.name, choices=choices, seats=seats, kind=rules_kind,
                             votes_by_unit={**before_by_name, entry.unit: new_unit})
    changes = tuple(diff_contests(old_rules, new_rules))
    if correction and not changes:
        raise FormErrors({choice_field(0): f"These are the returns already recorded (version {previous.number}); "
                                           "change a count, or cancel."})

    if contest is None:
        contest, choice_ids = sync_contest(session, election, new_rules, len(contests_of(session, election.id)),
                                           actor, workspace.id)
    base = flat_counts(session, previous)
    counts_after: dict[CountKey, int] = {k: v for k, v in base.items()
                                         if not (k[0] == contest.id and k[1] == entry.unit)}
    counts_after.update({(contest.id, entry.unit, choice_ids[c]): v for c, v in new_unit.items()})

    where = "" if entry.unit == WHOLE_CONTEST else f", {entry.unit}"
    stored_reason = (f"correction of {contest.name}{where}: {reason}" if correction
                     else reason or f"returns of {contest.name}{where} entered")
    version = write_version(session, election, counts_after, reason=stored_reason, evidence=list(evidence),
                            source_format=SOURCE_FORMAT, source_name=SOURCE_NAME, source_sha256=None, actor=actor,
                            now=services.now())
    audit.append(
        session, actor=actor, action="survey.version_created", entity="survey_version", entity_id=version.id,
        before={"version": previous.number, "votes": old_unit} if previous else None,
        after={"election": election.name, "version": version.number, "source": SOURCE_NAME, "format": SOURCE_FORMAT,
               "contest": contest.name, "unit": entry.unit, "votes": new_unit, "correction": correction,
               "reason": stored_reason, "evidence": list(evidence),
               "changes": [{"unit": c.unit, "choice": c.choice, "before": c.before, "after": c.after}
                           for c in changes],
               "citation": CORRECTION_CITATION if correction else None},
        workspace_id=workspace.id, at=services.now())
    case_id = session.scalar(select(RecountCase.id).where(RecountCase.contest_id == contest.id))
    return EntryResult(
        election_name=election.name, contest_id=contest.id, contest_name=contest.name, unit=entry.unit,
        version=version.number, supersedes=previous.number if correction else None, correction=correction,
        reason=reason, evidence=evidence, choices=choices, before=old_unit,
        after=new_unit, changes=changes, citation=CORRECTION_CITATION if correction else None, case_id=case_id)
