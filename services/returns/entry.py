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

from dataclasses import dataclass
from typing import Mapping, Sequence

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rules.contest import WHOLE_CONTEST, ContestKind
from rules.contest import Contest as RulesContest
from rules.corrections import VoteChange, diff_contests, one_line
from rules.laws.profile import Part
from rules.returns.numbers import CountError, parse_count
from services.conduct.follow_returns import Followed, follow_correction
from services.election_law import law_of
from services.errors import UserError
from services.office.access import ensure_workspace
from services.returns.forms import (
    REASON_LIMIT,
    SOURCE_FORMAT,
    SOURCE_NAME,
    FormErrors,
    Target,
    choice_field,
    contest_counts,
)
from services.returns.versions import (
    CountKey,
    find_or_create_election,
    find_or_create_government,
    flat_counts,
    require_election,
    sync_contest,
    write_version,
)
from services.services import Services
from services.wording import Person, words
from storage import audit
from storage.models import Contest, Election, LocalGovernment, RecountCase, SurveyVersion
from storage.repositories import choices_of, contests_of, latest_version


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
    followed: Followed | None = None  # a correction (4): whether the case, not yet completed, follows it
    trigger: str = ""  # the election's law's automatic-recount provision, which /recount check applies


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
    return UserError(words(f"The returns changed since you opened this form (version {version.number} by ",
                           Person(version.created_by), "); reopen it with `/recount returns` to see them."))


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
        new = target.required_new_election()
        same = session.scalar(select(Election).join(LocalGovernment).where(
            LocalGovernment.workspace_id == workspace.id, Election.election_date == new.election_date,
            func.lower(Election.name) == new.name.lower()))
        if same is not None:
            raise UserError(f"{same.name} on {new.election_date.isoformat()} was created since you opened this "
                            "form; reopen it with `/recount returns` and choose it.")
        government = find_or_create_government(session, workspace.id, new.local_government, new.governing_body,
                                               actor)
        election = find_or_create_election(session, government, new.name, new.election_date, actor, services.now(),
                                           law=new.law)
    previous = latest_version(session, election.id)
    based_on = previous.number if previous else 0
    if based_on != entry.based_on:
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
        new_contest = target.required_new_contest()
        clash = next((c for c in contests_of(session, election.id)
                      if c.name.casefold() == new_contest.name.casefold()), None)
        if clash is not None:
            raise UserError(f"{clash.name} was created in {election.name} since you opened this form; "
                            "reopen it "
                            "with `/recount returns` and choose it.")
        contest, choice_ids = None, {}
        choices = new_contest.choices
        rules_kind = ContestKind(new_contest.kind)

    try:
        counts = parse_counts(entry.counts, choices)
    except FormErrors as exc:
        errors.update(exc.errors)
        counts = []
    before_units = contest_counts(session, previous, contest.id) if contest is not None else {}
    correction = bool(before_units)
    # The election's law's power to correct the survey (1306(4), 31-10-1207(4), 1-10.5-107(3)).
    correction_citation = law_of(election).cite(Part.EVIDENCE)
    if correction and entry.unit not in before_units:
        raise UserError("That unit has no returns in the latest version any more; reopen the form.")
    if not correction and entry.unit != WHOLE_CONTEST:
        raise ValueError("a first entry is for the whole contest")
    if correction and not may_correct:
        # The law gives the power to correct the survey of returns to the official (1306(4) and its kin).
        raise UserError(f"Only a designated election official may correct returns already recorded "
                        f"({correction_citation}); ask one to make this correction.")
    if correction and not reason:
        errors["reason"] = (f"A correction needs its reason: the finding it rests on ({correction_citation}). "
                            f"Version {based_on} stays on the record.")
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
        raise FormErrors({choice_field(0): f"These are the returns already recorded (version {based_on}); "
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
               "citation": correction_citation if correction else None},
        workspace_id=workspace.id, at=services.now())
    case_id = session.scalar(select(RecountCase.id).where(RecountCase.contest_id == contest.id))
    followed = follow_correction(session, version=version, contest_ids=[contest.id], actor=actor,
                                 now=services.now(), workspace_id=workspace.id) if correction else []
    return EntryResult(
        election_name=election.name, contest_id=contest.id, contest_name=contest.name, unit=entry.unit,
        version=version.number, supersedes=based_on if correction else None, correction=correction,
        reason=reason, evidence=evidence, choices=choices, before=old_unit,
        after=new_unit, changes=changes, citation=correction_citation if correction else None, case_id=case_id,
        followed=followed[0] if followed else None, trigger=law_of(election).trigger.provision.citation)
