"""Who assists in the recount (3), in which capacity, and their pay (1-13.5-1301(4) as (3) applies it).

The statute core (`rules.assistants.review_assistants`) reviews the whole list against the election's
abstract preparers and returns warnings, each cited; warnings never stop anything: the designated election
official decides. This module stores the assistants of a case and the election's abstract preparers, every
change audited, and hands them to the core.

Readings (the brief is silent; each is applied on purpose):

- A person is recorded once per recount: entering a name already recorded (folding case and spaces, as the
  core matches names) updates that person's record — days served grow as the recount goes on — and the same
  details again change nothing (a double click).
- The abstract preparers belong to the election, so every recount of the election is reviewed against the
  same list; changing it returns the other cases of the election, whose cards show the review too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from rules.assistants import Assistant, AssistantFinding, Capacity, review_assistants
from rules.money import format_money, money
from services.conduct.money import within_limit
from services.conduct.tally import case_for_update
from services.election_law import cites_of, law_of
from services.errors import UserError
from services.services import Services
from services.wording import echoed
from storage import audit
from storage.models import AssistantRow, Election, RecountCase

NAME_LIMIT = 200  # AssistantRow.name
MAX_DAYS = 366
MAX_PREPARERS = 100


def name_key(name: str) -> str:
    """How the core matches names: case folded, spaces collapsed."""
    return re.sub(r"\s+", " ", name).strip().casefold()


def clean_name(name: str) -> str:
    return re.sub(r"\s+", " ", name).strip()


@dataclass(frozen=True)
class AssistantInput:
    name: str
    capacity: str  # rules.assistants.Capacity value
    days_served: int
    compensation: Decimal | str
    on_governing_body: bool = False
    qualified_as_judge: bool | None = None
    served_as_judge: bool | None = None
    replaces: str | None = None


@dataclass(frozen=True)
class AssistantLine:
    name: str
    capacity: str
    capacity_label: str
    days_served: int
    compensation: Decimal
    on_governing_body: bool
    qualified_as_judge: bool | None
    served_as_judge: bool | None
    replaces: str | None
    recorded_by: str


@dataclass(frozen=True)
class FindingLine:
    outcome: str  # "warning" or "ok"
    finding: str  # rules.assistants.Finding value
    person: str | None
    reason: str
    citation: str


@dataclass(frozen=True)
class AssistantsSummary:
    assistants: tuple[AssistantLine, ...]
    preparers: tuple[str, ...]
    findings: tuple[FindingLine, ...]

    @property
    def warnings(self) -> tuple[FindingLine, ...]:
        return tuple(f for f in self.findings if f.outcome == "warning")


@dataclass(frozen=True)
class AssistantsRecorded:
    case_id: int
    changed: bool  # False: nothing new (the same details again)
    assistant: AssistantLine | None  # the person added or updated
    assistant_change: str | None  # "added" / "updated" / None
    preparers_changed: bool
    preparers_before: tuple[str, ...]
    summary: AssistantsSummary
    other_cases: tuple[int, ...]  # other recounts of the election: their review changed with the preparers


def _rows(session: Session, case_id: int) -> list[AssistantRow]:
    return list(session.scalars(select(AssistantRow).where(AssistantRow.case_id == case_id).order_by(AssistantRow.id)))


def _line(row: AssistantRow) -> AssistantLine:
    capacity = Capacity(row.capacity)
    return AssistantLine(row.name, capacity.value, capacity.label, row.days_served, row.compensation,
                         row.on_governing_body, row.qualified_as_judge, row.served_as_judge, row.replaces,
                         row.recorded_by)


def _as_assistant(row: AssistantRow) -> Assistant:
    return Assistant(name=row.name, capacity=Capacity(row.capacity), days_served=row.days_served,
                     compensation=row.compensation, on_governing_body=row.on_governing_body,
                     qualified_as_judge=row.qualified_as_judge, served_as_judge=row.served_as_judge,
                     replaces=row.replaces)


def _finding(f: AssistantFinding) -> FindingLine:
    return FindingLine(f.outcome, f.finding.value, f.person, f.reason, f.citation)


def assistants_summary(session: Session, case: RecountCase) -> AssistantsSummary:
    """The case's assistants, the election's abstract preparers and the core's review of them."""
    rows = _rows(session, case.id)
    preparers = tuple(case.contest.election.abstract_preparers or ())
    findings = review_assistants([_as_assistant(r) for r in rows], abstract_preparers=list(preparers),
                                 law=law_of(case.contest.election)) if rows else []
    return AssistantsSummary(tuple(_line(r) for r in rows), preparers, tuple(_finding(f) for f in findings))


def clean_preparers(names: list[str]) -> list[str]:
    """One name a line; blanks dropped; the same person (folded) once."""
    out: list[str] = []
    seen: set[str] = set()
    for name in names:
        cleaned = clean_name(name or "")
        if not cleaned or name_key(cleaned) in seen:
            continue
        if len(cleaned) > NAME_LIMIT:
            raise UserError(f"A name is at most {NAME_LIMIT} characters: “{echoed(cleaned, 40)}”.",
                                field="preparers")
        seen.add(name_key(cleaned))
        out.append(cleaned)
    if len(out) > MAX_PREPARERS:
        raise UserError(f"At most {MAX_PREPARERS} preparers.", field="preparers")
    return out


def _check(data: AssistantInput, conduct: str) -> tuple[Capacity, Decimal, str | None]:
    name = clean_name(data.name or "")
    if not name:
        raise UserError("Give the assistant's name.", field="name")
    if len(name) > NAME_LIMIT:
        raise UserError(f"A name is at most {NAME_LIMIT} characters.", field="name")
    try:
        capacity = Capacity(data.capacity)
    except ValueError:
        raise UserError(f"Choose the capacity in which they assist ({conduct}).",
                        field="capacity") from None
    if type(data.days_served) is not int or not 0 <= data.days_served <= MAX_DAYS:
        raise UserError(f"Days served: a whole number from 0 to {MAX_DAYS}.", field="days_served")
    try:
        pay = money(data.compensation, field="Compensation")
    except (TypeError, ValueError) as exc:
        raise UserError(str(exc), field="compensation") from None
    within_limit(pay, label="Compensation", field="compensation")  # the column has a bound
    replaces = clean_name(data.replaces or "") or None
    if replaces and len(replaces) > NAME_LIMIT:
        raise UserError(f"A name is at most {NAME_LIMIT} characters.", field="replaces")
    return capacity, pay, replaces


def record_assistants(services: Services, *, workspace_id: int, case_id: int, actor: str,
                      assistant: AssistantInput | None = None, preparers: list[str] | None = None
                      ) -> AssistantsRecorded:
    """Record an assistant (added, or updated when the name is already recorded) and/or the election's
    abstract preparers, in one transaction, each change audited. `preparers` None leaves the list as it is."""
    if assistant is None and preparers is None:
        raise UserError("Enter an assistant, or the persons who prepared the official abstract.", field="name")
    wanted = clean_preparers(preparers) if preparers is not None else None
    now = services.now()
    with services.db.transaction() as session:
        case = case_for_update(session, case_id, workspace_id)
        conduct = cites_of(case).conduct
        checked = _check(assistant, conduct) if assistant is not None else None
        if case.completed_at is not None:
            raise UserError("This recount is complete; its assistants can no longer change.")
        election = session.get_one(Election, case.contest.election_id, with_for_update=True)
        before_preparers = tuple(election.abstract_preparers or ())
        other_cases: tuple[int, ...] = ()
        preparers_changed = wanted is not None and list(before_preparers) != wanted
        if wanted is not None and preparers_changed:
            election.abstract_preparers = list(wanted)
            audit.append(session, actor=actor, action="election.abstract_preparers_set", entity="election",
                         entity_id=election.id, before={"abstract_preparers": list(before_preparers)},
                         after={"abstract_preparers": list(wanted), "case": case.id, "citation": conduct},
                         workspace_id=workspace_id, at=now)
            contest_ids = [c.id for c in election.contests]
            other_cases = tuple(session.scalars(select(RecountCase.id).where(
                RecountCase.contest_id.in_(contest_ids), RecountCase.id != case.id).order_by(RecountCase.id)))
        line = change = None
        if assistant is not None and checked is not None:  # checked is the assistant's, checked above
            capacity, pay, replaces = checked
            name = clean_name(assistant.name)
            values = {"capacity": capacity.value, "days_served": assistant.days_served, "compensation": pay,
                      "on_governing_body": bool(assistant.on_governing_body),
                      "qualified_as_judge": assistant.qualified_as_judge,
                      "served_as_judge": assistant.served_as_judge, "replaces": replaces}
            row = next((r for r in _rows(session, case.id) if name_key(r.name) == name_key(name)), None)
            if row is None:
                row = AssistantRow(case_id=case.id, name=name, recorded_by=actor, recorded_at=now, **values)
                session.add(row)
                session.flush()
                change = "added"
                audit.append(session, actor=actor, action="assistant.recorded", entity="assistant",
                             entity_id=row.id, after={"case": case.id, "name": name, **values, "citation": conduct},
                             workspace_id=workspace_id, at=now)
            else:
                current = {k: getattr(row, k) for k in values}
                if current != values or row.name != name:
                    for key, value in values.items():
                        setattr(row, key, value)
                    before_name, row.name = row.name, name
                    row.recorded_by, row.recorded_at = actor, now
                    session.flush()
                    change = "updated"
                    audit.append(session, actor=actor, action="assistant.updated", entity="assistant",
                                 entity_id=row.id, before={"name": before_name, **current},
                                 after={"case": case.id, "name": name, **values, "citation": conduct},
                                 workspace_id=workspace_id, at=now)
            line = _line(row)
        session.flush()
        return AssistantsRecorded(case.id, bool(change) or preparers_changed, line, change, preparers_changed,
                                  before_preparers, assistants_summary(session, case), other_cases)


def describe(line: AssistantLine) -> str:
    """"Ann Lee — additional qualified assistant, 2 days, $40.00" (plain text)."""
    days = f"{line.days_served} day" + ("" if line.days_served == 1 else "s")
    parts = [line.capacity_label]
    if line.replaces:
        parts.append(f"in place of {line.replaces}")
    parts.append(f"{days}, {format_money(line.compensation)}")
    if line.on_governing_body:
        parts.append("member of the governing body")
    return f"{line.name} — " + ", ".join(parts)


def open_cases(services: Services, *, workspace_id: int) -> list[tuple[int, str]]:
    """The office's recounts not yet completed, oldest first: (case id, contest)."""
    with services.db.transaction() as session:
        found = session.scalars(select(RecountCase).where(
            RecountCase.workspace_id == workspace_id, RecountCase.completed_at.is_(None)).order_by(RecountCase.id))
        return [(c.id, c.contest.name) for c in found]
