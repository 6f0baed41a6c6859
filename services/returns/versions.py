"""The survey of returns: imported from a file or entered in a modal, always as a new version.

A version is complete: it holds every contest's counts, so any version can be checked on its own.
A new version never overwrites an old one (1306(4): a correction is recorded with its reason).
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.contest import Contest as RulesContest
from rules.contest import ContestKind, Returns
from services.election_law import ElectionLaw, election_law, name_law, settle_law
from services.errors import NotFound, UserError
from services.office.access import ensure_workspace
from services.services import Services
from storage import audit
from storage.models import Choice, Contest, Election, LocalGovernment, SurveyVersion, VoteCount
from storage.repositories import choices_of, contests_of, counts_of_version, latest_version
from storage.seal_stream import insert_sealed
from storage.types import utcnow

CountKey = tuple[int, str, int]  # (contest_id, unit, choice_id)


@dataclass(frozen=True)
class ImportResult:
    election_id: int
    election_name: str
    version_number: int
    new_version: bool
    contests: int
    changed_contests: tuple[str, ...]
    carried_over: tuple[str, ...]
    law: ElectionLaw | None = None  # the law the election is held under, as stored

    def describe(self) -> str:
        if not self.new_version:
            return (f"{self.election_name}: the returns are identical to version {self.version_number}; "
                    "no new version was made.")
        text = (f"{self.election_name}: survey of returns version {self.version_number} recorded "
                f"({self.contests} contests")
        if self.version_number > 1:
            text += f"; changed: {', '.join(self.changed_contests) or 'none'}"
        if self.carried_over:
            text += f"; {len(self.carried_over)} contests not in this file carried over unchanged"
        return text + ")."


def rules_contests(session: Session, version: SurveyVersion, contest_ids: list[int] | None = None
                   ) -> list[tuple[Contest, RulesContest]]:
    """The stored contests of `version` as the statute core sees them (votes per unit)."""
    contests = contests_of(session, version.election_id)
    if contest_ids is not None:
        contests = [c for c in contests if c.id in set(contest_ids)]
    # One contest's counts, not the whole survey's (a card or App Home showing one contest of a statewide file
    # would otherwise read hundreds of thousands of rows for it).
    only = contest_ids[0] if contest_ids is not None and len(contest_ids) == 1 else None
    counts = counts_of_version(session, version.id, only)
    choices = choices_of(session, [c.id for c in contests])
    out = []
    for contest in contests:
        if contest.id not in counts:
            continue  # a contest with no returns in this version (not yet entered)
        names = {ch.id: ch.name for ch in choices[contest.id]}
        by_unit = {unit: {names[cid]: votes for cid, votes in per_choice.items()}
                   for unit, per_choice in counts[contest.id].items()}
        present = [ch.name for ch in choices[contest.id] if any(ch.name in u for u in by_unit.values())]
        out.append((contest, RulesContest(
            name=contest.name, choices=tuple(present), votes_by_unit=by_unit, seats=contest.seats,
            kind=ContestKind(contest.kind),
            choice_details={ch.name: {"party": ch.party} for ch in choices[contest.id] if ch.party})))
    return out


def find_or_create_government(session: Session, workspace_id: int, name: str | None,
                              governing_body: str | None, actor: str) -> LocalGovernment:
    governments = list(session.scalars(select(LocalGovernment).where(LocalGovernment.workspace_id == workspace_id)))
    if name is None:
        if len(governments) == 1:
            return governments[0]
        if not governments:
            raise UserError("Name the local government conducting the election (--local-government NAME); "
                            "none is set up yet.", field="local_government")
        raise UserError("This office serves several local governments; name one with --local-government "
                        f"({', '.join(g.name for g in governments)}).", field="local_government")
    for government in governments:
        if government.name.casefold() == name.strip().casefold():
            if governing_body and government.governing_body != governing_body:
                before = government.governing_body
                government.governing_body = governing_body
                audit.append(session, actor=actor, action="local_government.updated", entity="local_government",
                             entity_id=government.id, before={"governing_body": before},
                             after={"governing_body": governing_body}, workspace_id=workspace_id)
            return government
    government = LocalGovernment(workspace_id=workspace_id, name=name.strip(),
                                 governing_body=governing_body or f"the governing body of {name.strip()}")
    session.add(government)
    session.flush()
    audit.append(session, actor=actor, action="local_government.created", entity="local_government",
                 entity_id=government.id, after={"name": government.name, "governing_body": government.governing_body},
                 workspace_id=workspace_id)
    return government


def find_or_create_election(session: Session, government: LocalGovernment, name: str, date: dt.date,
                            actor: str, now: dt.datetime | None = None, *, law: str | None = None) -> Election:
    """The election by government, date and name, or a new one under `law` (None: 1-13.5-1306, said to be the
    default). An existing election keeps its law; a `law` that disagrees is refused (services/election_law.py)."""
    election = session.scalar(select(Election).where(
        Election.local_government_id == government.id, Election.election_date == date, Election.name == name))
    if election is not None:
        named = name_law(session, election, law)
        if named is not None:  # a law never chosen, now named before anything was decided under it
            before, after = named
            audit.append(session, actor=actor, action="election.law_named", entity="election", entity_id=election.id,
                         before={"law": before.key, "law_basis": before.basis},
                         after={"law": after.key, "law_basis": after.basis}, workspace_id=government.workspace_id)
        return election
    election = Election(local_government_id=government.id, name=name, election_date=date,
                        created_at=now or utcnow())
    chosen = settle_law(election, law, created=True)
    session.add(election)
    session.flush()
    audit.append(session, actor=actor, action="election.created", entity="election", entity_id=election.id,
                 after={"name": name, "election_date": date, "local_government": government.name,
                        "law": chosen.key, "law_basis": chosen.basis},
                 workspace_id=government.workspace_id)
    return election


def sync_contest(session: Session, election: Election, parsed: RulesContest, position: int, actor: str,
                 workspace_id: int) -> tuple[Contest, dict[str, int]]:
    """The stored contest and choices for a parsed one (created, or seats/kind updated with audit)."""
    contest = session.scalar(select(Contest).where(Contest.election_id == election.id, Contest.name == parsed.name))
    if contest is None:
        contest = Contest(election_id=election.id, name=parsed.name, kind=parsed.kind.value, seats=parsed.seats,
                          position=position)
        session.add(contest)
        session.flush()
    elif (contest.seats, contest.kind) != (parsed.seats, parsed.kind.value):
        before = {"seats": contest.seats, "kind": contest.kind}
        contest.seats, contest.kind = parsed.seats, parsed.kind.value
        audit.append(session, actor=actor, action="contest.updated", entity="contest", entity_id=contest.id,
                     before=before, after={"seats": contest.seats, "kind": contest.kind}, workspace_id=workspace_id)
    existing = {c.name: c for c in session.scalars(select(Choice).where(Choice.contest_id == contest.id))}
    ids: dict[str, int] = {}
    for index, name in enumerate(parsed.choices):
        choice = existing.get(name)
        if choice is None:
            party = parsed.choice_details.get(name, {}).get("party")
            choice = Choice(contest_id=contest.id, name=name, position=len(existing) + index, party=party)
            session.add(choice)
            session.flush()
        ids[name] = choice.id
    return contest, ids


def write_version(session: Session, election: Election, counts: Mapping[CountKey, int] | Iterable[tuple[CountKey, int]],
                  *, reason: str, evidence: list[str], source_format: str, source_name: str,
                  source_sha256: str | None, actor: str, now: dt.datetime,
                  progress: Callable[[int], None] | None = None) -> SurveyVersion:
    """A new version of `election`'s survey holding `counts` (a mapping, or (key, votes) pairs read lazily): the
    version row through the ORM, the vote counts streamed in batches through SQLAlchemy Core and sealed into the
    audit chain as they are written (storage.seal_stream.insert_sealed), never held whole as ORM objects."""
    previous = latest_version(session, election.id)
    version = SurveyVersion(
        election_id=election.id, number=(previous.number + 1) if previous else 1, reason=reason, evidence=evidence,
        source_format=source_format, source_name=source_name, source_sha256=source_sha256, created_by=actor,
        created_at=now)
    session.add(version)
    session.flush()
    pairs = counts.items() if isinstance(counts, Mapping) else counts
    rows = ({"survey_version_id": version.id, "contest_id": cid, "unit": unit, "choice_id": chid, "votes": votes}
            for (cid, unit, chid), votes in pairs)
    workspace_id = session.scalar(select(LocalGovernment.workspace_id)
                                  .where(LocalGovernment.id == election.local_government_id))
    insert_sealed(session, "vote_counts", rows, actor=actor, workspace_id=workspace_id, at=now,
                        progress=progress)
    return version


def flat_counts(session: Session, version: SurveyVersion | None) -> dict[CountKey, int]:
    if version is None:
        return {}
    return {(cid, unit, chid): votes for cid, units in counts_of_version(session, version.id).items()
            for unit, per_choice in units.items() for chid, votes in per_choice.items()}


def _contest_counts(session: Session, version: SurveyVersion | None, contest_id: int) -> dict[CountKey, int]:
    """One contest's counts in `version` (by the index on version and contest)."""
    if version is None:
        return {}
    return {(contest_id, unit, chid): votes
            for unit, per_choice in counts_of_version(session, version.id, contest_id).get(contest_id, {}).items()
            for chid, votes in per_choice.items()}


def _parsed_counts(contest_id: int, parsed: RulesContest, choice_ids: dict[str, int]) -> dict[CountKey, int]:
    return {(contest_id, unit, choice_ids[choice]): votes
            for unit, per_choice in parsed.votes_by_unit.items() for choice, votes in per_choice.items()}


def import_returns(
    services: Services, *, team_id: str, returns: Returns, election_name: str, election_date: dt.date,
    local_government: str | None, governing_body: str | None = None, source_name: str = "",
    source_bytes: bytes | None = None, actor: str, source_sha256: str | None = None,
    progress: Callable[[int, int], None] | None = None, law: str | None = None,
) -> ImportResult:
    """Load a parsed survey of returns into an election, as a new version unless nothing changed.

    Contest by contest, never the whole survey at once: each is compared with the previous version's counts of
    that contest alone, then the new version's counts are streamed to the database (`write_version`), those of
    the contests not in this file carried over from the previous version the same way. `source_sha256`: the
    file's hash when the caller has it (a command hashing the file as it reads it); else that of `source_bytes`.
    `progress(rows written, rows in all)` as the counts are written. `law`: the recount law a new election runs
    under (None: 1-13.5-1306, recorded as the default); an existing election keeps its own, and a `law` that
    disagrees with it is refused before anything is written."""
    if not election_name.strip():
        raise UserError("The election needs a name (--name).", field="name")
    with services.db.transaction() as session:
        workspace = ensure_workspace(session, team_id, actor=actor)
        government = find_or_create_government(session, workspace.id, local_government, governing_body, actor)
        election = find_or_create_election(session, government, election_name.strip(), election_date, actor,
                                           services.now(), law=law)
        previous = latest_version(session, election.id)
        in_file: dict[int, tuple[RulesContest, dict[str, int]]] = {}
        changed: list[str] = []
        changed_ids: list[int] = []
        offset = len(contests_of(session, election.id))
        for position, parsed in enumerate(returns.contests):
            contest, choice_ids = sync_contest(session, election, parsed, offset + position, actor, workspace.id)
            in_file[contest.id] = (parsed, choice_ids)
            if previous is not None and (_parsed_counts(contest.id, parsed, choice_ids)
                                         != _contest_counts(session, previous, contest.id)):
                changed.append(contest.name)
                changed_ids.append(contest.id)
        carried: list[Contest] = []
        if previous is not None:
            with_counts = set(session.scalars(select(VoteCount.contest_id).where(
                VoteCount.survey_version_id == previous.id).distinct()))
            carried = [c for c in contests_of(session, election.id) if c.id not in in_file and c.id in with_counts]
        carried_names = tuple(sorted(c.name for c in carried))

        if previous is not None and not changed:  # every contest in the file as it was; the rest carried over
            return ImportResult(election.id, election.name, previous.number, False, len(in_file), (), (),
                                election_law(election))
        sha = source_sha256 or (hashlib.sha256(source_bytes).hexdigest() if source_bytes is not None else None)
        reason = "survey of returns as imported" if previous is None else "survey of returns re-imported with changes"
        total = sum(len(per_choice) for parsed, _ in in_file.values() for per_choice in parsed.votes_by_unit.values())

        def counts() -> Iterator[tuple[CountKey, int]]:
            for contest_id, (parsed, choice_ids) in in_file.items():
                for unit, per_choice in parsed.votes_by_unit.items():
                    for choice, votes in per_choice.items():
                        yield (contest_id, unit, choice_ids[choice]), votes
            for contest in carried:
                yield from _contest_counts(session, previous, contest.id).items()

        version = write_version(session, election, counts(), reason=reason, evidence=[],
                                source_format=returns.source_format, source_name=source_name, source_sha256=sha,
                                actor=actor, now=services.now(),
                                progress=(lambda done: progress(min(done, total), total)) if progress else None)
        audit.append(session, actor=actor, action="survey.version_created", entity="survey_version",
                     entity_id=version.id, before={"version": previous.number} if previous else None,
                     after={"election": election.name, "version": version.number, "source": source_name,
                            "sha256": sha, "format": returns.source_format, "contests": len(in_file),
                            "changed": changed if previous else None, "carried_over": list(carried_names)},
                     workspace_id=workspace.id)
        if previous is not None and changed:
            # A changed contest under recount follows the new version (4), or its thread is told why not.
            # Imported here, not at the top: services.conduct.follow_returns reads versions through this module.
            from services.conduct.follow_returns import follow_correction

            follow_correction(session, version=version, actor=actor, now=services.now(), workspace_id=workspace.id,
                              contest_ids=changed_ids)
        return ImportResult(election.id, election.name, version.number, True, len(in_file),
                            tuple(changed), carried_names, election_law(election))


def require_election(session: Session, workspace_id: int, election_id: int) -> Election:
    election = session.get(Election, election_id)
    if election is None or election.local_government.workspace_id != workspace_id:
        raise NotFound("That election is not one of this office's.")
    return election
