"""Subsection (4): correcting the survey of returns.

"The designated election official may require the production of any documentary evidence regarding
the legality of any vote cast or counted and may correct the survey of returns in accordance with
the designated election official's findings based on the evidence presented."

A correction is a new `SurveyVersion` that names the version it supersedes, the reason and the
evidence; the previous version is never overwritten (every value here is frozen), so the survey as
imported and every correction after it stay on the record. `SurveyHistory` keeps the chain.

Readings (the text is silent; each is applied on purpose):

- Refusals raise `CorrectionRefused` (a `ValueError`) carrying a refused `Decision` citing (4). A
  refusal produces no version, so there is nothing to return beside the decision; raising keeps the
  success type simple, `(SurveyVersion, Decision)`, and a caller cannot mistake a refusal for a
  version. The service layer turns the exception's decision into the message the clerk sees.
- A correction must give a reason and at least one item of evidence: (4) allows a correction only
  "in accordance with the ... findings based on the evidence presented".
- A correction changes votes only. It may not add, remove, rename or reorder choices, nor change the
  number of seats or the kind of contest: (4) concerns "the legality of any vote cast or counted",
  and who is on the ballot is fixed by the ballot itself, not by a finding about votes. Order is held
  too because `Contest.ranked()` keeps source order among equal totals.
- Units (precincts, batches) may appear or disappear: a batch found uncounted, or a unit whose votes
  are all found illegal, is a change of votes. A unit present on one side only counts as 0 on the
  other, so the change is shown vote by vote.
- A correction that changes no vote is refused: it would be a version with nothing in it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from rules.contest import WHOLE_CONTEST, Contest, Returns
from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.statute import cite

CITATION = cite("(4)")
INITIAL_REASON = "survey of returns as imported"
# How many changes the spoken reason lists before summarising; `numbers["changes"]` has them all.
REASON_CHANGE_LIMIT = 10


def unit_label(unit: str) -> str:
    """How a unit is read aloud: the unnamed whole-contest unit is "whole contest"."""
    return "whole contest" if unit == WHOLE_CONTEST else unit


def signed(n: int) -> str:
    return f"{n:+,}" if n else "0"


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class VoteChange:
    """One unit's votes for one choice, before and after."""

    contest: str
    unit: str
    choice: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before

    def __str__(self) -> str:
        return f"{unit_label(self.unit)} {self.choice} {self.before:,} -> {self.after:,} ({signed(self.delta)})"


def _ordered_union(first: Iterable[str], second: Iterable[str]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))


def diff_contests(old: Contest, new: Contest) -> list[VoteChange]:
    """Every (unit, choice) whose votes differ; a unit or choice missing on one side counts as 0 there.

    Units come in the old contest's order, then units only the new one has; choices likewise.
    """
    changes: list[VoteChange] = []
    for unit in _ordered_union(old.votes_by_unit, new.votes_by_unit):
        before_counts = old.votes_by_unit.get(unit, {})
        after_counts = new.votes_by_unit.get(unit, {})
        for choice in _ordered_union(old.choices, new.choices):
            before, after = before_counts.get(choice, 0), after_counts.get(choice, 0)
            if before != after:
                changes.append(VoteChange(old.name, unit, choice, before, after))
    return changes


def describe_changes(changes: Sequence[VoteChange], limit: int = REASON_CHANGE_LIMIT) -> str:
    """"Precinct 4 Smith 120 -> 118 (-2); Precinct 5 Jones 80 -> 81 (+1)", summarised past `limit`."""
    shown = "; ".join(str(c) for c in changes[:limit])
    if len(changes) > limit:
        shown += f"; and {len(changes) - limit:,} more"
    return shown


@dataclass(frozen=True)
class SurveyVersion:
    """One version of the survey of returns. Version 1 is the survey as imported."""

    number: int
    contests: tuple[Contest, ...]
    reason: str
    evidence: tuple[str, ...] = ()
    supersedes: int | None = None

    def __post_init__(self) -> None:
        if type(self.number) is not int or self.number < 1:
            raise ValueError(f"a survey version number is a whole number from 1, not {self.number!r}")
        if self.supersedes is not None and not (type(self.supersedes) is int and 1 <= self.supersedes < self.number):
            raise ValueError(f"version {self.number} cannot supersede version {self.supersedes!r}")
        if self.number > 1 and self.supersedes is None:
            raise ValueError(f"version {self.number} must name the version it supersedes")
        if not isinstance(self.contests, tuple) or not isinstance(self.evidence, tuple):
            raise TypeError("contests and evidence are tuples, so a version cannot change after it is made")
        names = [c.name for c in self.contests]
        if len(set(names)) != len(names):
            raise ValueError(f"survey version {self.number}: a contest is listed twice")

    def contest(self, name: str) -> Contest:
        for contest in self.contests:
            if contest.name == name:
                return contest
        raise KeyError(name)

    def has_contest(self, name: str) -> bool:
        return any(c.name == name for c in self.contests)


class CorrectionRefused(ValueError):
    """A correction (4) does not allow; `decision` says why, cited, in a line a clerk can read aloud."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.reason)
        self.decision = decision


def initial_version(contests: Iterable[Contest] | Returns) -> SurveyVersion:
    """Version 1: the survey of returns as imported."""
    items = contests.contests if isinstance(contests, Returns) else tuple(contests)
    if not items:
        raise ValueError("a survey of returns needs at least one contest")
    return SurveyVersion(number=1, contests=tuple(items), reason=INITIAL_REASON)


def _refused(previous: SurveyVersion, contest: str, why: str, citation: str = CITATION, **numbers) -> CorrectionRefused:
    return CorrectionRefused(Decision(
        outcome="refused", citation=citation,
        reason=f"{contest}: correction to version {previous.number} refused — {why}.",
        numbers={"version": previous.number, "contest": contest, **numbers},
    ))


def correct_survey(
    previous: SurveyVersion, corrected: Contest, *, reason: str, evidence: Sequence[str],
    law: LawProfile = DEFAULT_LAW,
) -> tuple[SurveyVersion, Decision]:
    """A new version with `corrected` in place of the contest of the same name; `previous` is untouched.

    Raises `CorrectionRefused` (with its decision) for a correction (4) does not allow (31-10-1207(4);
    1-10.5-107(3) lets the canvass board correct the abstract alike).
    """
    citation = CITATION if law is DEFAULT_LAW else law.cite(Part.EVIDENCE)

    def _refuse(previous: SurveyVersion, contest: str, why: str, **numbers) -> CorrectionRefused:
        return _refused(previous, contest, why, citation, **numbers)

    name = corrected.name
    if not isinstance(reason, str) or not reason.strip():
        raise _refuse(previous, name, "a correction must state its reason (the finding it rests on)")
    if isinstance(evidence, str):
        raise TypeError("evidence is a sequence of items, not one string")
    items = tuple(one_line(e) for e in evidence if isinstance(e, str))
    if len(items) != len(evidence) or not items or not all(items):
        raise _refuse(previous, name, "a correction must name the evidence presented, one non-blank item each; "
                                      "(4) corrects only on findings based on the evidence presented")
    if not previous.has_contest(name):
        raise _refuse(previous, name, f"there is no contest named {name!r} in version {previous.number}")
    old = previous.contest(name)
    if corrected.choices != old.choices:
        added = [c for c in corrected.choices if c not in old.choices]
        removed = [c for c in old.choices if c not in corrected.choices]
        what = "; ".join(filter(None, [
            f"adds {', '.join(added)}" if added else "", f"removes {', '.join(removed)}" if removed else "",
            "reorders the choices" if not added and not removed else "",
        ]))
        raise _refuse(previous, name, f"it {what}; a correction changes votes only, never the choices on the ballot",
                      choices_before=list(old.choices), choices_after=list(corrected.choices))
    if corrected.seats != old.seats or corrected.kind != old.kind:
        raise _refuse(previous, name, "it changes the seats or the kind of contest; a correction changes votes only",
                      seats_before=old.seats, seats_after=corrected.seats)
    changes = diff_contests(old, corrected)
    if not changes:
        raise _refuse(previous, name, "it changes no vote")

    version = SurveyVersion(
        number=previous.number + 1,
        contests=tuple(corrected if c.name == name else c for c in previous.contests),
        reason=one_line(reason), evidence=items, supersedes=previous.number,
    )
    decision = Decision(
        outcome="corrected", citation=citation,
        reason=(f"{name}: version {version.number} supersedes version {previous.number}: "
                f"{describe_changes(changes)} — {version.reason}."),
        numbers={
            "version": version.number, "supersedes": previous.number, "contest": name,
            "changes": changes, "net_change": {c: corrected.totals[c] - old.totals[c] for c in old.choices},
            "totals_before": dict(old.totals), "totals_after": dict(corrected.totals),
            "evidence": list(items),
        },
    )
    return version, decision


@dataclass(frozen=True)
class SurveyHistory:
    """Every version of the survey, oldest first; correcting returns a longer history, never a shorter one."""

    versions: tuple[SurveyVersion, ...]

    def __post_init__(self) -> None:
        if not self.versions:
            raise ValueError("a survey history starts with the survey as imported")
        for i, version in enumerate(self.versions, start=1):
            if version.number != i or (i > 1 and version.supersedes != i - 1):
                raise ValueError(f"survey history is not a chain: position {i} holds version {version.number}")

    @classmethod
    def start(cls, contests: Iterable[Contest] | Returns) -> "SurveyHistory":
        return cls((initial_version(contests),))

    @property
    def current(self) -> SurveyVersion:
        return self.versions[-1]

    def version(self, number: int) -> SurveyVersion:
        if not 1 <= number <= len(self.versions):
            raise KeyError(number)
        return self.versions[number - 1]

    def correct(self, corrected: Contest, *, reason: str, evidence: Sequence[str]) -> tuple["SurveyHistory", Decision]:
        version, decision = correct_survey(self.current, corrected, reason=reason, evidence=evidence)
        return SurveyHistory((*self.versions, version)), decision

    def contest_history(self, name: str) -> list[tuple[int, Contest]]:
        """The contest as each version had it: [(version number, contest), ...]."""
        return [(v.number, v.contest(name)) for v in self.versions if v.has_contest(name)]
