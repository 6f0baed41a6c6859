"""A survey of returns from a results file uploaded in Slack: which election it is for, what it says (the
preview), and saving it as a new survey version through the service the CLI import uses
(`services.returns.versions.import_returns`: versioning, audit row, identical returns record nothing).

Readings (the brief is silent; each is applied on purpose):

- The preview reads strictly (`parse_returns`) and, when that finds problems, leniently (`read_returns`: every
  verdict the file allows): only a file with every count exact and nothing undecided or ambiguous can be saved.
  Both go through a `reader` the caller hands in (`rules.returns.outcome.read_outcome` in this process by
  default); the Slack upload's reads in a child process with memory and time limits, so this layer needs none of
  the process plumbing.
- Saving reads the file again, strictly, from Slack (the preview's bytes are not kept anywhere) and saves it
  only when its sha256 is the one previewed.
- A preview is built on the election's latest version. If another version was recorded since, saving is
  refused (nobody overwrites a change they never saw), unless that version is this very file: a double
  click, which then records nothing more.
- A file that changes the counts of a contest already recorded corrects the survey of returns, which
  1306(4) gives to the designated election official: staff may save a file for a new election or new
  contests, only an official one that changes recorded counts. The version's reason is the CLI import's.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Callable, Mapping

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.contest import Returns
from rules.corrections import one_line
from rules.laws import law_profile
from rules.laws.profile import Part
from rules.margin import MultiSeatRule
from rules.returns import ElectionKind, Problem, ReturnsError
from rules.returns.outcome import ReadOutcome, read_outcome
from rules.verdicts import Verdicts, decide_returns
from services.election_law import GIVEN, ElectionLaw, chosen_key, election_law
from services.errors import UserError
from services.office.access import ensure_workspace
from services.returns.forms import NEW, FormErrors, NewElection, form_law, form_name
from services.returns.versions import ImportResult, import_returns, require_election, rules_contests
from services.services import Services
from services.wording import Person, echoed, words
from storage.models import Contest, Election, LocalGovernment, RecountCase, SurveyVersion
from storage.repositories import elections_of, latest_version

# How a file's bytes are read: `reader(data, strict=..., **options) -> ReadOutcome`. In this process by default
# (the service's own tests); the Slack upload hands in one that reads in a child process with a memory and a
# time limit (handlers/slack_io/reading_child.py), so this layer never needs the process plumbing.
Reader = Callable[..., ReadOutcome]
SEATS_TEXT_LIMIT = 1000
SOURCE_NAME_LIMIT = 300  # SurveyVersion.source_name
FILE_TYPES = ("csv", "json", "xml", "xlsx", "xls")


# ------------------------------------------------------------------ the form: which election, how to read
@dataclass(frozen=True)
class UploadTarget:
    """The election the file is for: a stored one by id, or a new one as the form gave it."""

    election_id: int | None = None
    new_election: NewElection | None = None

    def required_new_election(self) -> NewElection:
        """The new election of a target that names no stored one (resolve_target makes one or the other)."""
        if self.new_election is None:
            raise ValueError("an upload target names a stored election or a new one")
        return self.new_election


@dataclass(frozen=True)
class Reading:
    """How to read the file where it does not say: the kind of election and seats per contest."""

    election_kind: str | None = None  # "primary", "general", or None: as the file says
    seats: Mapping[str, int] = field(default_factory=dict)

    @property
    def seats_text(self) -> str:
        return "\n".join(f"{name}={count}" for name, count in self.seats.items())

    def options(self, file_name: str) -> dict:
        return {"seats": dict(self.seats) or None, "election_kind": self.election_kind, "file_name": file_name}


def parse_reading(kind: str | None, seats: str | None) -> Reading:
    """The optional reading fields; FormErrors (election_kind, seats) when they cannot be used."""
    errors: dict[str, str] = {}
    if kind not in (None, "") and kind not in {k.value for k in ElectionKind}:
        errors["election_kind"] = "Choose a general election or a party primary, or leave it empty."
    parsed: dict[str, int] = {}
    text = seats or ""
    if len(text) > SEATS_TEXT_LIMIT:
        errors["seats"] = f"At most {SEATS_TEXT_LIMIT:,} characters."
    for line in (one_line(line) for line in text.splitlines()):
        if not line:
            continue
        name, sep, number = line.rpartition("=")
        if not sep or not name.strip() or not number.strip().isdigit() or int(number) < 1:
            errors["seats"] = (f"“{echoed(line, 60)}” is not CONTEST=N: one contest per line, its name as in the file, "
                               "= and the number of seats (at least 1).")
            break
        parsed[name.strip()] = int(number)
    if errors:
        raise FormErrors(errors)
    return Reading(election_kind=kind or None, seats=parsed)


def resolve_target(services: Services, *, team_id: str, election: str | None, election_name: str | None = None,
                   election_date: str | None = None, local_government: str | None = None,
                   governing_body: str | None = None, law: str | None = None) -> UploadTarget:
    """Validate the election part of the form. `election` is a stored election's id as text, NEW or None.
    FormErrors names each field at fault: election, election_name, election_date, local_government,
    governing_body, law (a new election's recount law, required)."""
    errors: dict[str, str] = {}
    with services.db.read() as session:
        workspace = ensure_workspace(session, team_id)
        known = {e.id: e for e in elections_of(session, workspace.id)}
        if election and election != NEW:
            if not election.isdigit() or int(election) not in known:
                raise FormErrors({"election": "That election is not one of this office's; choose another."})
            return UploadTarget(election_id=int(election))
        if election is None and known:
            raise FormErrors({"election": "Choose an election, or “New election…”."})
        name = form_name(election_name, "election_name", "election's name", errors)
        date = None
        try:
            date = dt.date.fromisoformat(election_date or "")
        except ValueError:
            errors["election_date"] = f"“{echoed(election_date)}” is not a date." if election_date else \
                "Choose the election day."
        if date is not None and date > services.today():
            errors["election_date"] = "That day has not come yet; returns are entered after the election."
        government = form_name(local_government, "local_government", "local government's name", errors)
        body = form_name(governing_body, "governing_body", "governing body (it receives the notices)", errors)
        law_key = form_law(law, errors)
        if name and date is not None and "election_name" not in errors:
            clash = next((e for e in known.values()
                          if e.name.casefold() == name.casefold() and e.election_date == date), None)
            if clash is not None:
                errors["election_name"] = (f"{clash.name} on {date.isoformat()} already exists; choose it in "
                                           "the list of elections.")
        if errors or date is None:  # no date is one of the errors
            raise FormErrors(errors)
        return UploadTarget(new_election=NewElection(name, date, government, body, law_key))


# ------------------------------------------------------------------ the preview
@dataclass(frozen=True)
class Preview:
    file_name: str
    sha256: str
    size: int
    returns: Returns
    verdicts: Verdicts
    problems: tuple[Problem, ...]  # why it cannot be saved (empty: it can)
    election_name: str
    election_date: dt.date
    local_government: str
    multi_seat_rule: str
    based_on: int  # the election's latest version when previewed (0: none)
    changed: tuple[str, ...]  # contests already recorded whose counts this file changes
    new_contests: tuple[str, ...]  # contests the latest version does not have
    carried_over: tuple[str, ...]  # contests of the latest version this file does not have
    law: ElectionLaw | None = None  # the law the verdicts were decided under

    @property
    def identical(self) -> bool:
        return self.based_on > 0 and not self.changed and not self.new_contests

    @property
    def correction(self) -> bool:
        return bool(self.changed)

    @property
    def saveable(self) -> bool:
        return not self.problems and not self.identical

    @property
    def next_version(self) -> int:
        return self.based_on + 1


def read_file(data: bytes, file_name: str, reading: Reading,
              reader: Reader = read_outcome) -> tuple[Returns, tuple[Problem, ...]]:
    """The returns the file lets us decide, and the problems that keep it from being saved. ReturnsError when
    it cannot be read at all."""
    strict = reader(data, strict=True, **reading.options(file_name))
    if strict.returns is not None and not strict.problems:
        return strict.returns, ()
    lenient = reader(data, strict=False, **reading.options(file_name))
    if lenient.returns is None:  # the file cannot be read at all
        raise ReturnsError(list(lenient.problems))
    return lenient.returns, tuple(strict.problems)


def read_strictly(data: bytes, file_name: str, reading: Reading, reader: Reader = read_outcome) -> Returns:
    """The returns, complete enough to record; ReturnsError listing every problem otherwise."""
    outcome = reader(data, strict=True, **reading.options(file_name))
    if outcome.returns is None or outcome.problems:
        raise ReturnsError(list(outcome.problems))
    return outcome.returns


def _recorded(session: Session, version: SurveyVersion | None) -> dict[str, Mapping]:
    """The latest version's contests by name: votes per unit per choice name."""
    if version is None:
        return {}
    return {contest.name: dict(rules.votes_by_unit) for contest, rules in rules_contests(session, version)}


def _same(parsed: Mapping, stored: Mapping) -> bool:
    return {u: dict(c) for u, c in parsed.items()} == {u: dict(c) for u, c in stored.items()}


def _election_of(session: Session, workspace_id: int, target: UploadTarget) -> Election | None:
    if target.election_id is not None:
        return require_election(session, workspace_id, target.election_id)
    new = target.required_new_election()
    return session.scalar(select(Election).join(LocalGovernment).where(
        LocalGovernment.workspace_id == workspace_id, Election.election_date == new.election_date,
        func.lower(Election.name) == new.name.lower(),
        func.lower(LocalGovernment.name) == new.local_government.lower()))


def preview(services: Services, *, team_id: str, target: UploadTarget, file_name: str, data: bytes, sha256: str,
            reading: Reading, multi_seat_rule: MultiSeatRule, reader: Reader = read_outcome) -> Preview:
    """Read the file (with `reader`) and compare it with the election's latest version; nothing is written."""
    returns, problems = read_file(data, file_name, reading, reader)
    with services.db.read() as session:
        workspace = ensure_workspace(session, team_id)
        election = _election_of(session, workspace.id, target)
        law = _law_of(election, target)
        version = latest_version(session, election.id) if election is not None else None
        based_on = version.number if version is not None else 0
        recorded = _recorded(session, version)
        if election is not None:
            name, date, government = election.name, election.election_date, election.local_government.name
        else:
            new = target.required_new_election()
            name, date, government = new.name, new.election_date, new.local_government
    verdicts = decide_returns(returns, multi_seat_rule, law=law.profile)
    in_file = {c.name for c in returns.contests}
    changed = tuple(c.name for c in returns.contests
                    if c.name in recorded and not _same(c.votes_by_unit, recorded[c.name]))
    return Preview(
        file_name=file_name, sha256=sha256, size=len(data), returns=returns, verdicts=verdicts, problems=problems,
        election_name=name, election_date=date, local_government=government, multi_seat_rule=multi_seat_rule.value,
        based_on=based_on, changed=changed,
        new_contests=tuple(c.name for c in returns.contests if c.name not in recorded),
        carried_over=tuple(n for n in recorded if n not in in_file), law=law)


def _law_of(election: Election | None, target: UploadTarget) -> ElectionLaw:
    """The law the file's verdicts are decided under: the stored election's, or the one chosen for a new one."""
    if election is not None:
        return election_law(election)
    # chosen_key refuses (UserError) a form carried over from before the law was asked, rather than guessing one.
    return ElectionLaw(law_profile(chosen_key(target.required_new_election().law)), GIVEN)


# ------------------------------------------------------------------ saving
@dataclass(frozen=True)
class Saved:
    election_id: int
    election_name: str
    election_date: dt.date
    version: int
    new_version: bool  # False: nothing was recorded (identical to `version`, or a double click saved it already)
    already: bool  # this very file was saved as `version` since the preview (a double click)
    contests: int
    changed: tuple[str, ...]  # contests already recorded whose counts changed
    carried_over: tuple[str, ...]
    file_name: str
    source_format: str
    sha256: str
    verdicts: Verdicts
    notes: tuple[str, ...]
    case_ids: tuple[int, ...]  # recount cases of the contests changed
    law: ElectionLaw | None = None  # the law the election is held under, and the verdicts decided by


def stale(version: SurveyVersion) -> UserError:
    return UserError(words(f"Survey version {version.number} was recorded since this preview (by ",
                           Person(version.created_by), "); attach the file again to see it against the latest "
                           "returns. Nothing was saved."))


def check_before_saving(services: Services, *, team_id: str, target: UploadTarget, based_on: int,
                        sha256: str) -> int | None:
    """At the Save click, before any download: the version this very file was already saved as (a double
    click), None when saving may go ahead. UserError when a newer version is in the way."""
    with services.db.read() as session:
        workspace = ensure_workspace(session, team_id)
        election = _election_of(session, workspace.id, target)
        previous = latest_version(session, election.id) if election is not None else None
        if (previous.number if previous else 0) == based_on:
            return None
        if previous is not None and previous.source_sha256 == sha256:
            return previous.number
        if previous is None:
            raise UserError("The returns this preview was built on are gone; attach the file again.")
        raise stale(previous)


def save(services: Services, *, team_id: str, actor: str, may_correct: bool, target: UploadTarget,
         file_name: str, data: bytes, sha256: str, reading: Reading, based_on: int, multi_seat_rule: MultiSeatRule,
         announce: Callable[[Saved], None], reader: Reader = read_outcome) -> Saved:
    """Read the file strictly (with `reader`) and record it as the election's next survey version, in one transaction with
    `announce` (the outbox rows that tell the channel), or nothing at all. ReturnsError when it cannot be saved;
    UserError when the election moved on since the preview or a correction needs an official."""
    returns = read_strictly(data, file_name, reading, reader)
    file_name = file_name[:SOURCE_NAME_LIMIT]
    for attempt in (1, 2):
        try:
            with services.db.transaction() as session:
                return _save(session, services, team_id=team_id, actor=actor, may_correct=may_correct,
                             target=target, file_name=file_name, data=data, sha256=sha256, returns=returns,
                             multi_seat_rule=multi_seat_rule, based_on=based_on, announce=announce)
        except IntegrityError:
            # Two saves at the same moment (a double click): the other created the election or the version first.
            # Once more, and it finds what the other saved.
            if attempt == 2:
                raise UserError("Someone saved returns for this election at the same moment; attach the file "
                                "again to see what was recorded.") from None
    raise AssertionError("unreachable")


def _save(session: Session, services: Services, *, team_id: str, actor: str, may_correct: bool,
          target: UploadTarget, file_name: str, data: bytes, sha256: str, returns: Returns,
          multi_seat_rule: MultiSeatRule, based_on: int, announce: Callable[[Saved], None]) -> Saved:
    workspace = ensure_workspace(session, team_id, actor=actor)
    election = _election_of(session, workspace.id, target)
    law = _law_of(election, target)
    verdicts = decide_returns(returns, multi_seat_rule, law=law.profile)
    if election is not None:
        # Two saves of one election wait for each other (PostgreSQL); SQLite's BEGIN IMMEDIATE serialises writers.
        session.execute(select(Election.id).where(Election.id == election.id).with_for_update())
    previous = latest_version(session, election.id) if election is not None else None
    number = previous.number if previous else 0

    def unchanged(election: Election, already: bool) -> Saved:
        return Saved(election.id, election.name, election.election_date, number, False, already,
                     len(returns.contests), (), (), file_name, returns.source_format, sha256, verdicts,
                     returns.notes, (), election_law(election))

    if number != based_on:
        if election is not None and previous is not None and previous.source_sha256 == sha256:
            return unchanged(election, already=True)
        if previous is None:
            raise UserError("The returns this preview was built on are gone; attach the file again.")
        raise stale(previous)
    recorded = _recorded(session, previous)
    changed = [c.name for c in returns.contests if c.name in recorded and not _same(c.votes_by_unit,
                                                                                    recorded[c.name])]
    if changed and not may_correct:
        raise UserError(f"This file changes returns already recorded in version {number} "
                        f"({', '.join(changed)}): "
                        f"a correction of the survey of returns, which only a designated election official may make "
                        f"({law.profile.cite(Part.EVIDENCE)}). Ask one to save it. Nothing was saved.")
    if election is not None:
        name, date, government, body = (election.name, election.election_date, election.local_government.name,
                                        None)
        law_key = None  # a stored election keeps its law
    else:
        new = target.required_new_election()
        name, date, government, body = new.name, new.election_date, new.local_government, new.governing_body
        law_key = new.law
    result: ImportResult = import_returns(
        services, team_id=team_id, returns=returns, election_name=name, election_date=date,
        local_government=government, governing_body=body, source_name=file_name, source_bytes=data, actor=actor,
        law=law_key)
    stored = session.get_one(Election, result.election_id)  # import_returns found or made it
    if not result.new_version:
        return unchanged(stored, already=False)
    case_ids = tuple(session.scalars(
        select(RecountCase.id).join(Contest, Contest.id == RecountCase.contest_id)
        .where(Contest.election_id == stored.id, Contest.name.in_(changed)).order_by(RecountCase.id))) \
        if changed else ()
    saved = Saved(stored.id, stored.name, stored.election_date, result.version_number, True, False, result.contests,
                  tuple(changed), result.carried_over, file_name, returns.source_format, sha256, verdicts,
                  returns.notes, case_ids, result.law)
    announce(saved)
    return saved
