"""Clarity ENR (Scytl) detail.xml: every contest's votes per choice, vote type and county or precinct.

The Colorado Secretary of State's file (2024 general, detailxml.zip) has one unit per county; a county's
own file has one per precinct (Georgia's 2020 county files, for instance). Its shape:

    <ElectionResult>
      <Timestamp/> <ElectionName/> <ElectionDate/> <Region/>
      <ElectionVoterTurnout ...><Counties><County name= totalVoters= ballotsCast= .../></Counties>
                                                     (a county's file: <VoterTurnout><Precincts><Precinct/>)
      <Contest key= text= voteFor= isQuestion= ...>
        <ParticipatingCounties><County name= precinctsReported= .../></ParticipatingCounties>
        <VoteType name="Undervotes" votes=><Precinct name= votes=/></VoteType>     (and "Overvotes")
        <Choice key= text= party= totalVotes=>
          <VoteType name="Election Day Votes" votes=><Precinct name= votes=/>...</VoteType>
          <VoteType name="Absentee by Mail Votes" votes=>...</VoteType>

How it is read:
- A unit is a County or Precinct element under a choice's VoteType. Its votes are the sum of its
  figures over the choice's vote types (Election Day, Advance, Mail, Provisional; the SoS file has only
  "Total Votes"), each vote counted once: the VoteType's `votes` and the Choice's `totalVotes` are totals
  of those figures, never added to them. They are cross-checked instead: a VoteType whose units do not
  add up to its `votes`, or a Choice whose vote types do not add up to its `totalVotes`, leaves its
  contest undecided (the file contradicts itself). A VoteType without units counts for the whole
  contest (unit ""), and a Choice without vote types by its totalVotes. A VoteType named as a total
  ("Total Votes") beside other vote types repeats them and is set aside.
- Set aside, never counted: the turnout elements (ElectionVoterTurnout, VoterTurnout: registered voters
  and ballots cast), the contest's own VoteTypes (Undervotes, Overvotes) and a Choice named as a total,
  turnout or over/under votes (`rules.row_kinds`). ElectionName says whether the election is a
  primary (`Report.stated_kind`); ParticipatingCounties, Timestamp and the like hold no counts and are skipped.
- Seats come from voteFor ("Town of Erie Council Member - District 2", voteFor="2"). isQuestion="true"
  makes a contest a question whatever its choices; "false" says nothing, because the real files write it
  for every contest, ballot measures and judges' retention included (Colorado 2024: all 295 contests),
  so those are questions by their choices (Yes/For, No/Against; `build.finish`).
- party is kept per choice (`details["party"]`), except numbers and a "Y"/"N" beside a Yes/No answer.
- Contest names are the `text` attributes; a second contest of the same text is named "TEXT (key K)".
- Locations are XPath: /ElectionResult/Contest[@text="..."]/Choice[@text="..."]/VoteType[@name="..."]/
  County[@name="..."]/@votes.

Parsing: `xml.etree.ElementTree`'s pull parser (what `iterparse` is built on), fed the text in 1 MiB
pieces as `rules.returns.source` decoded it (so a cp1252 file without an encoding declaration reads as
the CSV formats do); each Contest is read when it ends and then cleared, so memory holds one contest
at a time. Entity-expansion attacks ("billion laughs") need entities, and entities can be declared only
in a DTD, which can stand only before the root element: a file with a <!DOCTYPE> is refused before
parsing (Clarity never writes one). The stdlib parser never fetches external entities or DTDs.

Why not the `clarify` package (openelections/clarify, made for these files): its runtime dependencies
are a scraper's (requests, requests-futures, cssselect, lxml, python-dateutil, and wheel), it builds
the whole lxml tree of a file in memory, and it raises on the first count it cannot read, where a clerk
needs every contest it can decide and where the others went wrong. This module is all we need of it.
Nor defusedxml: refusing a DTD is the whole defence these files need, and defusedxml's iterparse runs
the pure-Python XMLParser (measured 1.8x slower than the C one on a 50 MB file).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Iterator

from rules.contest import WHOLE_CONTEST, Bound, ContestKind
from rules.returns.draft import Draft
from rules.returns.numbers import MAX_DIGITS, CountError, hidden_count, parse_count
from rules.returns.options import kind_from_file_name
from rules.returns.problems import Report
from rules.returns.sentinel import MISSING
from rules.returns.source import Source
from rules.row_kinds import RowKind, answer, choice_row_kind, is_subtotal_unit

DESCRIPTION = "Clarity ENR detail.xml (root <ElectionResult>, with <Contest>, <Choice> and <VoteType> elements)"
ROOT = "ElectionResult"
HEAD_CHARS = 1 << 16  # the prolog (XML declaration, comments) must end within this
CHUNK_CHARS = 1 << 20
TURNOUT_ELEMENTS = frozenset({"ElectionVoterTurnout", "VoterTurnout"})

# The prolog: white space, processing instructions (<?xml ...?>) and comments before the root element.
_PROLOG = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->)*", re.S)
_TAG = re.compile(r"<([^\s/>!?]+)")


def _first_markup(text: str) -> tuple[str, str]:
    """("root", name) | ("dtd", "") | ("none", what is there) for the first thing after the prolog."""
    prolog = _PROLOG.match(text)
    rest = text[prolog.end():] if prolog else text  # _PROLOG matches the empty string: there is always a match
    if rest.startswith(("<!--", "<?")) or not rest:
        return "none", "no root element within the first 64 KiB"
    if rest.startswith("<!"):
        return "dtd", ""
    match = _TAG.match(rest)
    return ("root", match[1]) if match else ("none", f"text before the root element ({rest[:20]!r})")


def detect(head) -> bool:
    """A root element <ElectionResult>; also with a DTD before it, so that it is refused by its name."""
    if head.first_char != "<":
        return False
    kind, name = _first_markup(head.text)
    return name == ROOT if kind == "root" else kind == "dtd" and f"<{ROOT}" in head.text


def parse(source: Source, report: Report) -> list[Draft]:
    kind, name = _first_markup(source.head(HEAD_CHARS))
    if kind == "dtd":
        report.problem("file", "declares a DTD (<!DOCTYPE ...>); Clarity's detail.xml has none, and a DTD can define "
                               "entities that expand without limit, so the file is refused")
        return []
    if kind != "root" or name != ROOT:
        found = f"its root element is <{name}>, not <{ROOT}>" if kind == "root" else name
        report.problem("file", f"is not Clarity's detail.xml: {found}")
        return []
    reader = _Reader(report)
    parser: ET.XMLPullParser = ET.XMLPullParser(events=("end",))
    try:
        for chunk in _chunks(source):
            parser.feed(chunk)
            reader.take(parser.read_events())
        parser.close()
        reader.take(parser.read_events())
    except ET.ParseError as exc:
        line, column = exc.position
        report.problem(f"line {line}, column {column}", f"is not well-formed XML ({str(exc).split(': line ')[0]})")
        return []
    if not reader.drafts and not reader.contests_seen and not report.problems:
        report.problem("file", "has no <Contest> elements")
    return reader.drafts


def _chunks(source: Source) -> Iterator[str]:
    lines = source.lines()
    read = getattr(lines, "read", None)
    if read is not None:
        while chunk := read(CHUNK_CHARS):
            yield chunk
        return
    parts: list[str] = []
    size = 0
    for line in lines:  # a UTF-16 file: lines without its byte-order mark
        parts.append(line)
        size += len(line)
        if size >= CHUNK_CHARS:
            yield "".join(parts)
            parts, size = [], 0
    if parts:
        yield "".join(parts)


def _q(value: str) -> str:
    """An XPath string literal."""
    return f'"{value}"' if '"' not in value else f"'{value}'"


class _Reader:
    def __init__(self, report: Report) -> None:
        self.report = report
        self.drafts: list[Draft] = []
        self.names: set[str] = set()
        self.contests_seen = 0
        self.unit_names: dict[str, str | None] = {}  # raw name -> name (None: a subtotal unit)

    def take(self, events) -> None:
        for _, elem in events:
            tag = elem.tag
            if tag == "Contest":
                self.contests_seen += 1
                self.contest(elem)
                elem.clear()
            elif tag == "ElectionName":
                # "2020 General Primary" / "November 5, 2024 General Election": the kind of election, said by
                # the file itself (the caller's --election-kind and the file's name still come first).
                said = kind_from_file_name(elem.text or "")
                if said is not None:
                    self.report.stated_kind = (said, f"the file's ElectionName says so ({(elem.text or '').strip()[:80]})")
                elem.clear()
            elif tag in TURNOUT_ELEMENTS:
                # registered voters and ballots cast, per county or precinct: never votes for a choice
                self.report.set_aside(RowKind.TURNOUT, f"/{ROOT}/{tag}", count=sum(1 for e in elem.iter() if e.attrib))
                elem.clear()

    def contest(self, elem: ET.Element) -> None:
        report = self.report
        text = " ".join(elem.get("text", "").split())
        key = elem.get("key", "")
        path = f"/{ROOT}/Contest[@text={_q(text)}]" if text else f"/{ROOT}/Contest[{self.contests_seen}]"
        if not text:
            report.row_problem(path, "has no text; every contest needs a name", None)
            return
        name = text
        if name in self.names:
            name = f"{text} (key {key or self.contests_seen})"
            path = f"/{ROOT}/Contest[@key={_q(key)}]" if key else path
            report.note(f"two contests are named {text!r}; the later one is read as {name!r}", kind="names repeated")
        self.names.add(name)
        draft = Draft(name=name)
        if (elem.get("isQuestion") or "").strip().casefold() == "true":
            draft.kind, draft.kind_stated = ContestKind.QUESTION, True
        else:
            self._seats(draft, elem.get("voteFor"), f"{path}/@voteFor")
        for child in elem:
            tag = child.tag
            if tag == "Choice":
                self.choice(draft, child, path)
            elif tag == "VoteType":  # the contest's own: under and over votes, no one's votes
                vname = child.get("name", "")
                report.set_aside(choice_row_kind(vname) or RowKind.OVER_UNDER,
                                 f"{path}/VoteType[@name={_q(vname)}]", count=1 + len(child))
            elif tag != "ParticipatingCounties":
                report.note(f"{path}/{tag}: not an element of Clarity's detail.xml; skipped", kind="unknown elements")
        self.drafts.append(draft)

    def _seats(self, draft: Draft, said: str | None, where: str) -> None:
        if said is None or not said.strip():
            return
        said = said.strip()
        if said.isascii() and said.isdigit() and len(said) <= 3 and int(said) >= 1:
            draft.seats, draft.seats_location = int(said), where
        else:
            self.report.row_problem(where, f"says to vote for {said!r}; expected a whole number of seats, at least 1",
                                    draft.name)

    def choice(self, draft: Draft, elem: ET.Element, path: str) -> None:
        report = self.report
        text = " ".join(elem.get("text", "").split())
        cpath = f"{path}/Choice[@text={_q(text)}]"
        if not text:
            report.row_problem(cpath, "has no text; every choice needs a name", draft.name)
            return
        kind = choice_row_kind(text)
        if kind is not None:
            report.set_aside(kind, cpath)
            return
        if text in draft.choices:
            report.row_problem(cpath, f"repeats the choice {text!r} of this contest", draft.name)
            return
        party = (elem.get("party") or "").strip()
        if party and not party.isdigit() and not (party.upper() in ("Y", "N") and answer(text) is not None):
            draft.details[text] = {"party": party}
        vote_types = [c for c in elem if c.tag == "VoteType"]
        if len(vote_types) != len(elem):
            report.note(f"{cpath}: elements other than VoteType skipped", kind="unknown elements")
        if len(vote_types) > 1:
            totals = [v for v in vote_types if choice_row_kind(v.get("name", "")) is RowKind.CONTEST_TOTAL]
            if totals and len(totals) < len(vote_types):
                for v in totals:
                    report.set_aside(RowKind.CONTEST_TOTAL, f"{cpath}/VoteType[@name={_q(v.get('name', ''))}]")
                vote_types = [v for v in vote_types if v not in totals]
        counts: dict[str, int] = {}
        hidden: dict[str, list[Bound]] = {}
        problems_before = len(report.contest_problems.get(draft.name, ()))
        if not vote_types:
            self._count(elem.get("totalVotes"), f"{cpath}/@totalVotes", WHOLE_CONTEST, counts, hidden, draft.name)
        for vt in vote_types:
            self.vote_type(vt, f"{cpath}/VoteType[@name={_q(vt.get('name', ''))}]", counts, hidden, draft.name)
        if len(report.contest_problems.get(draft.name, ())) > problems_before:
            return  # the contest is undecided already; its sums would only repeat that
        if vote_types:
            _cross_check(elem.get("totalVotes"), counts, hidden, f"{cpath}/@totalVotes", "its vote types", report,
                         draft.name)
        draft.choices[text] = None
        for unit, votes in counts.items():
            if unit not in hidden:
                draft.votes_by_unit.setdefault(unit, {})[text] = votes
        for unit, bounds in hidden.items():
            low = counts.get(unit, 0) + sum(b.low for b in bounds)
            highs = [b.high for b in bounds if b.high is not None]
            high = counts.get(unit, 0) + sum(highs) if len(highs) == len(bounds) else None
            draft.add_uncertain(unit, text, Bound(low, high, " + ".join(b.written for b in bounds), bounds[0].location))

    def vote_type(self, elem: ET.Element, vpath: str, counts: dict[str, int], hidden: dict[str, list[Bound]],
                  contest: str) -> None:
        """Add the vote type's units to `counts` (the hot loop: one pass per County or Precinct element)."""
        if len(elem) == 0:  # no units: its own figure is the count for the whole contest
            self._count(elem.get("votes"), f"{vpath}/@votes", WHOLE_CONTEST, counts, hidden, contest)
            return
        mine: dict[str, int] = {}
        mine_hidden: dict[str, list[Bound]] = {}
        unit_names = self.unit_names
        problems = self.report.contest_problems
        problems_before = len(problems.get(contest, ()))
        for unit in elem:
            raw = unit.get("name", "")
            name = unit_names.get(raw, MISSING)
            if name is MISSING:
                name = unit_names[raw] = _unit_name(raw)
            if not name or name in mine or (mine_hidden and name in mine_hidden):  # None: a subtotal
                self._odd_unit(unit, name, vpath, contest)
                continue
            cell = unit.get("votes", "")
            if len(cell) <= MAX_DIGITS and cell.isascii() and cell.isdigit():  # is_plain_count, inlined
                mine[name] = int(cell)
            else:
                self._count(cell, f"{vpath}/{unit.tag}[@name={_q(name)}]/@votes", name, mine, mine_hidden, contest)
        if len(problems.get(contest, ())) == problems_before:  # else the sum would only repeat the problem
            _cross_check(elem.get("votes"), mine, mine_hidden, f"{vpath}/@votes",
                         f"the {elem[0].tag} elements under it", self.report, contest)
        if not counts:
            counts.update(mine)
        else:
            for name, votes in mine.items():
                counts[name] = counts.get(name, 0) + votes
        for name, bounds in mine_hidden.items():
            hidden.setdefault(name, []).extend(bounds)

    def _odd_unit(self, unit: ET.Element, name: str | None, vpath: str, contest: str) -> None:
        raw = unit.get("name", "")
        where = f"{vpath}/{unit.tag}[@name={_q(raw)}]"
        if name is None:
            self.report.set_aside(RowKind.SUBTOTAL, where)
        elif not name:
            self.report.row_problem(where, "has no name; every county or precinct needs one", contest)
        else:
            self.report.row_problem(where, "appears twice in this vote type", contest)

    def _count(self, cell: str | None, where: str, unit: str, counts: dict[str, int],
               hidden: dict[str, list[Bound]], contest: str) -> None:
        if cell is None:
            self.report.row_problem(where, "is missing; expected a whole number of votes", contest)
            return
        try:
            votes, note = parse_count(cell)
        except CountError as exc:
            bound = hidden_count(cell, where)
            if bound is None:
                self.report.row_problem(where, str(exc), contest)
            else:
                hidden.setdefault(unit, []).append(bound)
            return
        if note:
            self.report.note(f"{where}: {note}", kind="counts normalised")
        counts[unit] = counts.get(unit, 0) + votes



def _unit_name(raw: str) -> str | None:
    """The unit's name, spaces tidied; None for a unit named as a subtotal ("Total")."""
    name = " ".join(raw.split())
    return None if name and is_subtotal_unit(name) else name


def _cross_check(said: str | None, counts: dict[str, int], hidden: dict[str, list[Bound]], where: str, what: str,
                 report: Report, contest: str) -> None:
    """A total the file states (VoteType votes, Choice totalVotes) against the figures it totals."""
    if said is None or not said.strip():
        return
    try:
        total, _ = parse_count(said)
    except CountError:
        if hidden_count(said) is None:
            report.row_problem(where, f"is not a whole number of votes (got {said.strip()!r})", contest)
        return
    low = sum(counts.values()) + sum(b.low for bounds in hidden.values() for b in bounds)
    high = None if any(b.high is None for bounds in hidden.values() for b in bounds) else \
        sum(counts.values()) + sum(b.high for bounds in hidden.values() for b in bounds if b.high is not None)
    if low <= total and (high is None or total <= high):
        return
    shown = f"{low:,}" if low == high else f"{low:,} to {'any number' if high is None else f'{high:,}'}"
    report.row_problem(where, f"is {total:,}, but {what} add up to {shown}", contest)
