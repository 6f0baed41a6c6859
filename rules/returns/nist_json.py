"""NIST SP 1500-100 v2 election results (JSON) to contests.

The format: one ElectionReport holding GpUnits (ReportingUnits such as a county, its precincts, its
districts, each with a Type, and which units it is made of in ComposingGpUnitIds; or
ReportingDevices), Parties, Headers, and Elections; each Election has Candidates and Contests
(CandidateContest, BallotMeasureContest, RetentionContest, PartyContest); each ContestSelection
holds VoteCounts: a Count for one GpUnit, of one Type (total, election-day, early, absentee, ...).
A pre-election report (NIST's pe-* files) is the same without VoteCounts.

Numbers are parsed as Decimal (never float), so 12.5 cannot quietly become 12 and 12.0 can be
accepted exactly. The schema (NIST's, draft-04; `nist_schema`) is checked first, because the
reading relies on the shapes it guarantees. What refuses the whole file: not JSON, not an
ElectionReport, a schema error outside the contests (GpUnit, Party, Candidate, the report's own
fields), and a GpUnit tree that cannot be read (an @id used twice, a part that names no GpUnit, a
unit made of itself), or a Candidate @id used twice. Anything wrong inside a contest (a schema error
under `$.Election[i].Contest[j]`, a bad count, an unknown CandidateId or GpUnitId, a higher level
that disagrees with the units it holds) leaves that contest alone undecided.

What real files hold, and how each is read:
- Contests of one Name in different districts or parties (every NIST primary file, Cambridge MA's
  exports): names are made unique by district and party (`nist_json_names`). A contest with
  PrimaryPartyIds is that party's primary (`Draft.primary_party`; the pipeline names the reading).
- A county's total beside its precinct counts, with or without ComposingGpUnitIds linking them
  (NIST's synthetic files link nothing): each vote is counted once, at the lowest level; the others
  are set aside and cross-checked (`nist_json_units`).
- Counts outside a contest's district (Cambridge repeats the city's write-in line, every precinct, in
  each district contest): write-in lines and zeros there are set aside; a named choice's votes there
  leave the contest undecided.
- Seats from NumberElected, else VotesAllowed (gen-01), else not said; ballot measures and retention
  contests are questions (the format says so); unnamed write-ins are the "Write-in" bucket; vote
  count types, device classes, rounds and suppressed counts: `nist_json_contest`.
- A PartyContest (straight-party voting) is skipped with a note: it elects no one and asks nothing.
- OtherCounts (over/undervotes) and BallotCounts (ballots cast) are set aside.
"""
from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from rules.returns.draft import Draft
from rules.returns.nist_json_contest import Context, read_contest
from rules.returns.nist_json_names import Naming, contest_names
from rules.returns.nist_json_units import GpUnits, text_of
from rules.returns.nist_schema import json_path, schema_errors
from rules.returns.options import ElectionKind
from rules.returns.problems import Report
from rules.row_kinds import RowKind

REPORT_TYPE = "ElectionResults.ElectionReport"
DESCRIPTION = f'NIST SP 1500-100 v2 JSON whose top level has "@type": "{REPORT_TYPE}"'
PARTY_CONTEST = "ElectionResults.PartyContest"


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
        errors = schema_errors(document)
    except RecursionError:
        report.problem("$", "is nested too deeply to validate")
        return []
    in_contests: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for parts, message in errors:
        if len(parts) >= 4 and parts[0] == "Election" and parts[2] == "Contest" and isinstance(parts[3], int):
            in_contests.setdefault((parts[1], parts[3]), []).append((json_path(parts), message))
    if len(errors) > sum(map(len, in_contests.values())):
        # The file is refused: list every violation, the contests' too, so one pass fixes them all.
        for parts, message in errors:
            report.problem(json_path(parts), message)
        return []
    return _Reader(document, report, in_contests).contests()


class _Reader:
    def __init__(self, document: dict, report: Report, in_contests: dict[tuple[int, int], list[tuple[str, str]]]) -> None:
        self.report = report
        self.document = document
        self.schema_errors = in_contests  # (election, contest) -> its schema violations (location, message)
        self.units = GpUnits(document.get("GpUnit", []), report)
        self.parties = {p["@id"]: text_of(p.get("Name")).strip() for p in document.get("Party", [])}
        candidates: dict[str, tuple[str, str]] = {}
        for i, election in enumerate(document.get("Election", [])):
            for j, candidate in enumerate(election.get("Candidate", [])):
                if candidate["@id"] in candidates:
                    report.problem(f"$.Election[{i}].Candidate[{j}].@id", f"@id {candidate['@id']!r} is used twice")
                    continue
                party = candidate.get("PartyId", "")
                if party and party not in self.parties:
                    report.note(f"$.Election[{i}].Candidate[{j}].PartyId: no Party has @id {party!r}; read as no party",
                                kind="unknown parties")
                candidates[candidate["@id"]] = (text_of(candidate["BallotName"]).strip(), self.parties.get(party, ""))
        self.context = Context(report, self.units, candidates)

    def contests(self) -> list[Draft]:
        report = self.report
        if report.problems:  # the GpUnit tree or the candidates cannot be read
            return []
        names = contest_names(self.document, self.units, self.parties, self.context.candidates, report)
        drafts: list[Draft] = []
        for i, election in enumerate(self.document.get("Election", [])):
            if election.get("Type") == "general" and report.stated_kind is None:
                # The file says so itself (the caller's --election-kind and the file's name still come first).
                # A primary's contests are already one per party here (by PrimaryPartyIds or ballot header).
                report.stated_kind = (ElectionKind.GENERAL, f"the file says so ($.Election[{i}].Type is general)")
            scope = election["ElectionScopeId"]
            if not self.units.known(scope):
                report.note(f"$.Election[{i}].ElectionScopeId: no GpUnit has @id {scope!r}; not used")
            for m in range(len(election.get("BallotCounts", []))):
                report.set_aside(RowKind.TURNOUT, f"$.Election[{i}].BallotCounts[{m}]")
            for j, contest in enumerate(election.get("Contest", [])):
                draft = self._contest(contest, f"$.Election[{i}].Contest[{j}]", names[(i, j)], (i, j), scope)
                if draft is not None:
                    drafts.append(draft)
        if self.context.summed:
            report.note(f"{self.context.summed} counts without a 'total' were summed from their parts "
                        "(election-day, early, absentee, ...)")
        if self.context.outside:
            report.note(f"{self.context.outside} counts (write-in lines or zeros) for units outside their contest's "
                        "district were set aside: a contest has no votes outside its district")
        if self.document.get("Status") == "pre-election":
            report.note("the report's Status is pre-election: it holds the contests and choices, no counts")
        return drafts

    def _contest(self, contest: Any, path: str, naming: Naming, key: tuple[int, int], scope: str) -> Draft | None:
        report, name = self.report, naming.name
        errors = self.schema_errors.get(key)
        if errors:
            for location, message in errors:
                report.row_problem(location, message, name)
            return Draft(name=name)
        if contest["@type"] == PARTY_CONTEST:
            report.note(f"{path}: party contest {name!r} skipped (it elects no candidate and asks no question)")
            return None
        if not contest["Name"].strip():
            report.row_problem(f"{path}.Name", "is empty", name)
            return Draft(name=name)
        for k in naming.unknown_parties:
            report.row_problem(f"{path}.PrimaryPartyIds[{k}]", f"no Party has @id {contest['PrimaryPartyIds'][k]!r}", name)
        return read_contest(self.context, contest, path, name, primary_party=naming.primary_party,
                            whole=[contest["ElectionDistrictId"], scope])

