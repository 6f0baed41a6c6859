"""NIST SP 1500-100 v2 election results (JSON) to contests.

Numbers are parsed as Decimal (never float), so 12.5 cannot quietly become 12 and 12.0 can be
accepted exactly. The schema is checked first; only a valid document is read for its meaning,
because the reading below relies on the shapes the schema guarantees.

Reading rules, and why:
- CandidateContest: seats = NumberElected (default 1); a choice is the BallotName of the
  candidate(s) of a CandidateSelection, joined with " / " (a ticket); a write-in without a
  candidate is "Write-in". BallotMeasureContest and RetentionContest are questions whose choices
  are the selections' text. PartyContest is skipped with a note (it elects no one and asks nothing).
- VoteCounts of one selection in one GpUnit: the "total" count if there is one, else the sum of
  the other counts, which are its components (election-day, early, absentee, ...).
- Counts at a ReportingUnit and at units it is composed of (ComposingGpUnitIds) would count twice:
  the leaves are the units, and each parent is cross-checked against the sum of its leaves.
"""
from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from rules.contest import ContestKind
from rules.returns.build import Draft
from rules.returns.nist_json_units import GpUnits, text_of
from rules.returns.nist_schema import schema_problems
from rules.returns.problems import Report

REPORT_TYPE = "ElectionResults.ElectionReport"
DESCRIPTION = f'NIST SP 1500-100 v2 JSON whose top level has "@type": "{REPORT_TYPE}"'
QUESTION_TYPES = {"ElectionResults.BallotMeasureContest", "ElectionResults.RetentionContest"}
MAX_COUNT = 10**15  # beyond any electorate; also keeps int() away from absurd exponents like 1E+999999


def load(text: str, report: Report) -> Any:
    """Parse JSON with Decimal numbers. Returns None (problem reported) if it is not JSON."""
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=Decimal)
    except json.JSONDecodeError as exc:
        report.problem("file", f"is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    except (ValueError, RecursionError) as exc:  # e.g. an integer over Python's digit limit, deep nesting
        report.problem("file", f"is not usable JSON: {str(exc) or type(exc).__name__}")
    return None


def detect(head) -> bool:
    return head.first_char == "{" and REPORT_TYPE in head.text


def parse(source, report: Report) -> list[Draft]:
    document = load(source.text(), report)
    return parse_document(document, report) if not report.problems else []


def parse_document(document: Any, report: Report) -> list[Draft]:
    if not isinstance(document, dict) or document.get("@type") != REPORT_TYPE:
        report.problem("$", f'must be a JSON object with "@type": "{REPORT_TYPE}"')
        return []
    try:
        problems = schema_problems(document)
    except RecursionError:
        report.problem("$", "is nested too deeply to validate")
        return []
    if problems:
        report.problems.extend(problems)
        return []
    return _Reader(document, report).contests()


class _Reader:
    def __init__(self, document: dict, report: Report) -> None:
        self.report = report
        self.document = document
        self.units = GpUnits(document.get("GpUnit", []), report)
        self.parties = {p["@id"]: text_of(p.get("Name")) for p in document.get("Party", []) if "@id" in p}
        self.candidates: dict[str, tuple[str, str]] = {}  # @id -> (ballot name, party name)
        for i, election in enumerate(document.get("Election", [])):
            for j, candidate in enumerate(election.get("Candidate", [])):
                if candidate["@id"] in self.candidates:
                    report.problem(f"$.Election[{i}].Candidate[{j}].@id", f"@id {candidate['@id']!r} is used twice")
                    continue
                party = self.parties.get(candidate.get("PartyId", ""), "")
                self.candidates[candidate["@id"]] = (text_of(candidate["BallotName"]).strip(), party)
        self.summed_units = 0
        self.cross_checked = 0

    def contests(self) -> list[Draft]:
        drafts: list[Draft] = []
        first_path: dict[str, str] = {}
        for i, election in enumerate(self.document.get("Election", [])):
            for j, contest in enumerate(election.get("Contest", [])):
                path = f"$.Election[{i}].Contest[{j}]"
                name = contest["Name"].strip()
                kind = contest["@type"]
                if kind == "ElectionResults.PartyContest":
                    self.report.note(f"{path}: party contest {name!r} skipped (it elects no candidate and asks no question)")
                    continue
                if not name:
                    self.report.problem(f"{path}.Name", "is empty")
                    continue
                if name in first_path:
                    self.report.problem(f"{path}.Name", f"contest {name!r} appears twice (first at {first_path[name]})")
                    continue
                first_path[name] = path
                draft = self._contest(contest, name, path)
                if draft is not None:
                    drafts.append(draft)
        if self.summed_units:
            self.report.note(f"{self.summed_units} counts without a 'total' were summed from their parts "
                             "(election-day, early, absentee, ...)")
        if self.cross_checked:
            self.report.note(f"{self.cross_checked} counts of units made of other counted units were "
                             "cross-checked against them and skipped")
        return drafts

    def _contest(self, contest: dict, name: str, path: str) -> Draft | None:
        question = contest["@type"] in QUESTION_TYPES
        draft = Draft(name=name, kind=ContestKind.QUESTION if question else ContestKind.CANDIDATE)
        if not question and "NumberElected" in contest:
            if contest["NumberElected"] < 1:
                self.report.problem(f"{path}.NumberElected", f"must be at least 1 (got {contest['NumberElected']})")
            else:
                draft.seats, draft.seats_location = contest["NumberElected"], f"{path}.NumberElected"
        selections = contest.get("ContestSelection", [])
        if not selections:
            self.report.note(f"{path}: contest {name!r} has no selections; skipped")
            return None
        counts_by_choice: dict[str, dict[str, tuple[int, str]]] = {}  # choice -> GpUnit @id -> (count, path)
        incomplete: set[str] = set()  # choices with a refused count: cross-checks would only echo that problem
        first_choice_path: dict[str, str] = {}
        for k, selection in enumerate(selections):
            spath = f"{path}.ContestSelection[{k}]"
            choice = self._choice(selection, spath, first_choice_path)
            if choice is None:
                continue
            first_choice_path[choice] = spath
            draft.choices[choice] = None
            party = self._party_of(selection)
            if party:
                draft.details[choice] = {"party": party}
            problems_before = len(self.report.problems)
            counts_by_choice[choice] = self._counts(selection, spath)
            if len(self.report.problems) > problems_before:
                incomplete.add(choice)
        for choice, counts in counts_by_choice.items():
            units, checked = self.units.resolve(name, choice, counts, cross_check=choice not in incomplete)
            self.cross_checked += checked
            for unit, votes in units.items():
                draft.votes_by_unit.setdefault(unit, {})[choice] = votes
        return draft

    def _choice(self, selection: dict, spath: str, taken: dict[str, str]) -> str | None:
        kind = selection["@type"]
        if kind == "ElectionResults.BallotMeasureSelection":
            choice = text_of(selection["Selection"]).strip()
        elif kind == "ElectionResults.CandidateSelection":
            names = []
            for m, cid in enumerate(selection.get("CandidateIds", [])):
                if cid not in self.candidates:
                    self.report.problem(f"{spath}.CandidateIds[{m}]", f"no Candidate has @id {cid!r}")
                    return None
                names.append(self.candidates[cid][0])
            if names:
                choice = " / ".join(names)
            elif selection.get("IsWriteIn"):
                # Several unnamed write-in lines stay apart, told apart by their @id.
                choice = "Write-in" if "Write-in" not in taken else f"Write-in ({selection['@id']})"
            else:
                self.report.problem(spath, "names no candidate (no CandidateIds) and is not a write-in")
                return None
        else:
            self.report.problem(f"{spath}.@type", "a party selection cannot be counted in this contest")
            return None
        if not choice:
            self.report.problem(spath, "has no name to show for this choice")
            return None
        if choice in taken:
            self.report.problem(spath, f"choice {choice!r} appears twice in the contest (first at {taken[choice]})")
            return None
        return choice

    def _party_of(self, selection: dict) -> str:
        ids = selection.get("CandidateIds", [])
        parties = [self.candidates[c][1] for c in ids if c in self.candidates and self.candidates[c][1]]
        return " / ".join(dict.fromkeys(parties))

    def _counts(self, selection: dict, spath: str) -> dict[str, tuple[int, str]]:
        """One figure per GpUnit: its "total", else the sum of its parts."""
        totals: dict[str, tuple[int, str]] = {}
        parts: dict[str, tuple[int, str]] = {}
        for m, vc in enumerate(selection.get("VoteCounts", [])):
            vpath = f"{spath}.VoteCounts[{m}]"
            unit = vc["GpUnitId"]
            if not self.units.known(unit):
                self.report.problem(f"{vpath}.GpUnitId", f"no GpUnit has @id {unit!r}")
                continue
            count = self._whole(vc["Count"], f"{vpath}.Count")
            if count is None:
                continue
            if vc["Type"] == "total":
                if unit in totals:
                    self.report.problem(vpath, f"a second 'total' count for GpUnit {unit!r} (first at {totals[unit][1]})")
                    continue
                totals[unit] = (count, vpath)
            else:
                before = parts.get(unit)
                parts[unit] = (count + before[0], before[1]) if before else (count, vpath)
        for unit, figure in parts.items():
            if unit not in totals:
                totals[unit] = figure
                self.summed_units += 1
        return totals

    def _whole(self, value: Any, path: str) -> int | None:
        if isinstance(value, Decimal):
            # Order matters: a huge exponent must be refused before any arithmetic expands it.
            if not value.is_finite():
                self.report.problem(path, f"must be a whole number of votes (got {value})")
                return None
            if abs(value) >= MAX_COUNT:
                self.report.problem(path, f"is too large to be a number of votes (got {value})")
                return None
            if value != value.to_integral_value():
                self.report.problem(path, f"must be a whole number of votes (got {value})")
                return None
            whole = int(value)
            self.report.note(f"{path}: {value} read as {whole}", kind="counts normalised")
            value = whole
        if value < 0:
            self.report.problem(path, f"must not be negative (got {value})")
            return None
        if value >= MAX_COUNT:
            self.report.problem(path, f"is too large to be a number of votes (got {value})")
            return None
        return value
