"""One NIST contest (its selections and VoteCounts) to a `Draft`; see `nist_json` for the format.

Every problem found here is a row problem of this contest (`report.row_problem`): it leaves this
contest undecided and every other contest is still read.

- Choices: a CandidateSelection is the BallotName of its candidate(s), joined with " / " (a ticket);
  an unnamed write-in selection is the aggregate bucket "Write-in" ("Write-in (@id)" for a second one),
  which `rules.row_kinds.is_write_in_bucket` recognises; a named write-in is a candidate. A
  BallotMeasureSelection is its Selection text ("Yes", "No").
- Seats: NumberElected, else VotesAllowed (gen-01's County Assessor has VotesAllowed 2 and no
  NumberElected; the contest then says in a reading that its seats came from there), else None (the
  shared pipeline assumes one seat and says so).
- VoteCounts of one selection in one GpUnit: the "total" if there is one (its parts beside it are
  set aside), else the sum of the parts (election-day, early, absentee, ...), never both. An
  "absentee" count beside absentee-mail/-in-person/-fwab counts is used when it is their sum, else
  the contest is undecided (they may overlap). Counts of one device class (DeviceClass) are parts
  too; beside a count for all devices they are set aside. "seats" counts are not votes. A count
  suppressed for privacy is a range, at least 0. Counts of several ranked-choice rounds (Round) are
  not added: the contest is undecided.
- Levels (a county's total beside its precincts'): `nist_json_units.GpUnits.settle` picks the units;
  the others are set aside as subtotals and cross-checked here.
- OtherCounts (over- and undervotes) are set aside.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from rules.contest import Bound, ContestKind
from rules.returns.draft import Draft
from rules.returns.nist_json_units import GpUnits, Higher, text_of
from rules.returns.problems import Report
from rules.row_kinds import RowKind, is_write_in_bucket

QUESTION_TYPES = {"ElectionResults.BallotMeasureContest", "ElectionResults.RetentionContest"}
MAX_COUNT = 10**15  # beyond any electorate; also keeps int() away from absurd exponents like 1E+999999


class Figure(NamedTuple):  # a tuple: half a million of them in a 50 MB file
    """The votes of one choice in one unit, and where they came from."""

    votes: int
    path: str  # the VoteCounts entry (the first, when parts were added)
    hidden: str = ""  # suppressed for privacy: `votes` is only the least it can be; says what was written


@dataclass
class Context:
    """What every contest of the file shares, and what the reader tallies for its notes."""

    report: Report
    units: GpUnits
    candidates: dict[str, tuple[str, str]]  # @id -> (ballot name, party name)
    summed: int = 0  # unit figures added up from parts, for one note
    outside: int = 0  # counts set aside for units outside their contest's district, for one note


@dataclass(frozen=True, slots=True)
class _Entry:  # not a NamedTuple: its `count` would hide tuple.count
    kind: tuple[str, str]  # (Type, OtherType)
    device: str | None
    count: int
    path: str
    suppressed: bool


def read_contest(ctx: Context, contest: dict, path: str, name: str, *, primary_party: str,
                 whole: list[str]) -> Draft | None:
    """The contest as a Draft (None: it has no selections). `whole`: its district and its election's scope."""
    report = ctx.report
    question = contest["@type"] in QUESTION_TYPES
    draft = Draft(name=name, kind=ContestKind.QUESTION if question else ContestKind.CANDIDATE, kind_stated=True,
                  primary_party=primary_party)
    if not question:
        _seats(ctx, contest, path, draft)
    district = contest["ElectionDistrictId"]
    if not ctx.units.known(district):
        report.row_problem(f"{path}.ElectionDistrictId", f"no GpUnit has @id {district!r}", name)
    for m in range(len(contest.get("OtherCounts", []))):
        report.set_aside(RowKind.OVER_UNDER, f"{path}.OtherCounts[{m}]")
    selections = contest.get("ContestSelection", [])
    if not selections:
        report.note(f"{path}: contest {name!r} has no selections; skipped")
        return None
    rounds = sorted({vc.get("Round") for s in selections for vc in s.get("VoteCounts", [])}, key=str)
    if len(rounds) > 1:
        report.row_problem(path, f"has counts of ranked-choice rounds {', '.join(map(str, rounds))}; which round "
                                 "decides is not read here (give the final round's counts alone)", name)
    figures: dict[str, dict[str, Figure]] = {}
    taken: dict[str, str] = {}
    for k, selection in enumerate(selections):
        spath = f"{path}.ContestSelection[{k}]"
        choice = _choice(ctx, selection, spath, taken, name)
        if choice is None:
            continue
        taken[choice] = spath
        draft.choices[choice] = None
        party = _party_of(ctx, selection)
        if party:
            draft.details[choice] = {"party": party}
        if len(rounds) <= 1:
            for unit, figure in _counts(ctx, selection, spath, name).items():
                figures.setdefault(unit, {})[choice] = figure
    _outside_the_district(ctx, name, district, figures)
    used, higher = ctx.units.settle(figures, whole)
    for level in higher:
        cells = figures[level.unit]
        first = next(iter(cells.values())).path
        report.set_aside(RowKind.SUBTOTAL, f"{first}: {ctx.units.name(level.unit)} in {name!r} ({level.why})",
                         count=len(cells))
    if not report.has_row_problems(name):  # a refused count would only be echoed by the checks
        _cross_check(ctx, name, figures, used, higher)
    for unit in used:
        shown = ctx.units.name(unit)
        # The levels are settled: a unit is its own group, so the shared sum-of-the-others test has
        # nothing to take for a subtotal (see nist_json_units).
        draft.unit_parent[shown] = shown
        for choice, figure in figures[unit].items():
            if figure.hidden:
                draft.add_uncertain(shown, choice, Bound(figure.votes, None, figure.hidden, f"{figure.path}.Count"))
            else:
                draft.votes_by_unit.setdefault(shown, {})[choice] = figure.votes
    return draft


def _outside_the_district(ctx: Context, contest: str, district: str, figures: dict[str, dict[str, Figure]]) -> None:
    """A contest has no votes outside its district. Cambridge MA's exports give each district contest's
    write-in line for all 42 precincts of the city (the write-ins of every district's contest for that
    office, precinct by precinct): those and zeros are set aside; a named choice's votes there leave the
    contest undecided (the district's list of parts may be what is wrong)."""
    units = ctx.units
    for unit in [u for u in figures if units.outside(district, u)]:
        for choice, figure in figures.pop(unit).items():
            if (figure.votes or figure.hidden) and not is_write_in_bucket(choice):
                ctx.report.row_problem(f"{figure.path}.GpUnitId", f"{units.name(unit)} is not one of the units "
                                       f"{units.name(district)} (the contest's district) is made of, yet it reports "
                                       f"{figure.votes:,} for {choice!r}", contest)
            else:
                ctx.outside += 1
                ctx.report.set_aside(RowKind.NOT_RESULTS, f"{figure.path}: {units.name(unit)} is outside "
                                                          f"{units.name(district)}, the district of {contest!r}")


def _seats(ctx: Context, contest: dict, path: str, draft: Draft) -> None:
    for key in ("NumberElected", "VotesAllowed"):
        if key not in contest:
            continue
        number = contest[key]
        if number < 1:
            ctx.report.row_problem(f"{path}.{key}", f"must be at least 1 (got {number})", draft.name)
            return
        draft.seats, draft.seats_location = number, f"{path}.{key}"
        if key == "VotesAllowed":
            draft.readings.append(f"seats: {number}, read from VotesAllowed (each voter may vote for {number}); "
                                  "the file gives no NumberElected")
        return


def _choice(ctx: Context, selection: dict, spath: str, taken: dict[str, str], contest: str) -> str | None:
    report = ctx.report
    kind = selection["@type"]
    if kind == "ElectionResults.BallotMeasureSelection":
        choice = text_of(selection["Selection"]).strip()
    elif kind == "ElectionResults.CandidateSelection":
        names = []
        for m, cid in enumerate(selection.get("CandidateIds", [])):
            if cid not in ctx.candidates:
                report.row_problem(f"{spath}.CandidateIds[{m}]", f"no Candidate has @id {cid!r}", contest)
                return None
            names.append(ctx.candidates[cid][0])
        if names:
            choice = " / ".join(names)
        elif selection.get("IsWriteIn"):
            # Several unnamed write-in lines stay apart, told apart by their @id; each is a bucket.
            choice = "Write-in" if "Write-in" not in taken else f"Write-in ({selection['@id']})"
        else:
            report.row_problem(spath, "names no candidate (no CandidateIds) and is not a write-in", contest)
            return None
    else:
        report.row_problem(f"{spath}.@type", "a party selection cannot be counted in this contest", contest)
        return None
    if not choice:
        report.row_problem(spath, "has no name to show for this choice", contest)
        return None
    if choice in taken:
        report.row_problem(spath, f"choice {choice!r} appears twice in the contest (first at {taken[choice]})", contest)
        return None
    return choice


def _party_of(ctx: Context, selection: dict) -> str:
    ids = selection.get("CandidateIds", [])
    parties = [ctx.candidates[c][1] for c in ids if c in ctx.candidates and ctx.candidates[c][1]]
    return " / ".join(dict.fromkeys(parties))


_PLAIN_COUNT = frozenset({"@type", "Count", "GpUnitId", "Type"})


def _counts(ctx: Context, selection: dict, spath: str, contest: str) -> dict[str, Figure]:
    """One figure per GpUnit for this selection (see the module docstring)."""
    counts = selection.get("VoteCounts", [])
    # Nearly every real selection: one plain "total" per known unit, each a whole number. Read without
    # the general machinery below (which allocates per count, and a 50 MB file has half a million).
    plain = {vc["GpUnitId"]: Figure(vc["Count"], f"{spath}.VoteCounts[{m}]") for m, vc in enumerate(counts)
             if vc["Type"] == "total" and vc.keys() == _PLAIN_COUNT and type(vc["Count"]) is int
             and 0 <= vc["Count"] < MAX_COUNT and ctx.units.known(vc["GpUnitId"])}
    if len(plain) == len(counts):
        return plain
    report = ctx.report
    entries: dict[str, list[_Entry]] = {}
    for m, vc in enumerate(selection.get("VoteCounts", [])):
        vpath = f"{spath}.VoteCounts[{m}]"
        unit = vc["GpUnitId"]
        if not ctx.units.known(unit):
            report.row_problem(f"{vpath}.GpUnitId", f"no GpUnit has @id {unit!r}", contest)
            continue
        if vc["Type"] == "seats":
            report.set_aside(RowKind.NOT_RESULTS, f"{vpath} (seats won, not votes)")
            continue
        count = _whole(ctx, vc["Count"], f"{vpath}.Count", contest)
        if count is None:
            continue
        device = vc.get("DeviceClass")
        entries.setdefault(unit, []).append(_Entry(
            (vc["Type"], vc.get("OtherType", "")), None if device is None else repr(sorted(device.items())),
            count, vpath, bool(vc.get("IsSuppressedForPrivacy"))))
    figures = {}
    for unit, items in entries.items():
        figure = _figure(ctx, unit, items, contest)
        if figure is not None:
            figures[unit] = figure
    return figures


def _figure(ctx: Context, unit: str, items: list[_Entry], contest: str) -> Figure | None:
    if len(items) == 1 and items[0].kind[0] == "total":  # nearly every real count
        return _made_of(items)
    whole = [e for e in items if e.device is None]
    if whole and len(whole) < len(items):
        _set_aside(ctx, [e for e in items if e.device is not None], "a count of one device class; the count for "
                                                                     "all devices is used")
        items = whole
    by_device: dict[str | None, list[_Entry]] = {}
    for entry in items:
        by_device.setdefault(entry.device, []).append(entry)
    used: list[_Entry] = []
    for group in by_device.values():
        chosen = _one_device(ctx, unit, group, contest)
        if chosen is None:
            return None
        used.extend(chosen)
    if len(used) > 1 or used[0].kind[0] != "total":
        ctx.summed += 1
    return _made_of(used)


def _one_device(ctx: Context, unit: str, group: list[_Entry], contest: str) -> list[_Entry] | None:
    """The entries whose sum is the unit's votes: its "total", else its parts."""
    seen: dict[tuple[str, str], str] = {}
    for entry in group:
        if entry.kind in seen:
            shown = entry.kind[1] or entry.kind[0]
            ctx.report.row_problem(entry.path, f"a second {shown!r} count for GpUnit {unit!r} (first at "
                                               f"{seen[entry.kind]})", contest)
            return None
        seen[entry.kind] = entry.path
    totals = [e for e in group if e.kind[0] == "total"]
    if totals:
        _set_aside(ctx, [e for e in group if e.kind[0] != "total"], "a part of the 'total' beside it")
        return totals
    absentee = [e for e in group if e.kind[0] == "absentee"]
    kinds = [e for e in group if e.kind[0].startswith("absentee-")]
    if absentee and kinds:
        if absentee[0].count != sum(e.count for e in kinds):
            ctx.report.row_problem(absentee[0].path, f"'absentee' ({absentee[0].count:,}) is not the sum of the "
                                   f"{', '.join(e.kind[0] for e in kinds)} counts beside it "
                                   f"({sum(e.count for e in kinds):,}): they may overlap or add up; give a 'total'",
                                   contest)
            return None
        _set_aside(ctx, kinds, "a part of the 'absentee' count beside it")
        group = [e for e in group if e not in kinds]
    return group


def _made_of(entries: list[_Entry]) -> Figure:
    hidden = [e for e in entries if e.suppressed]
    votes = sum(e.count for e in entries if not e.suppressed)
    written = f"suppressed for privacy (Count {', '.join(str(e.count) for e in hidden)})" if hidden else ""
    return Figure(votes, entries[0].path, written)


def _set_aside(ctx: Context, entries: list[_Entry], why: str) -> None:
    for entry in entries:
        ctx.report.set_aside(RowKind.SUBTOTAL, f"{entry.path} ({why})")


def _cross_check(ctx: Context, contest: str, figures: dict[str, dict[str, Figure]], used: list[str],
                 higher: list[Higher]) -> None:
    """Every higher level must hold the same votes as the units used, choice by choice."""
    units = ctx.units
    levels: dict[str, list[str]] = {}
    for level in higher:
        if level.against == "level":
            levels.setdefault(units.kind(level.unit), []).append(level.unit)
        elif level.against == "parts":
            below = [u for u in used if level.unit in units.ancestors(u)]
            _compare(ctx, contest, figures, [level.unit], below, "the units it is composed of")
        else:
            _compare(ctx, contest, figures, [level.unit], used, f"the {len(used)} units counted in it")
    for kind, group in levels.items():
        _compare(ctx, contest, figures, group, used, f"the {len(used)} units counted at the lowest level", kind=kind)


def _compare(ctx: Context, contest: str, figures: dict[str, dict[str, Figure]], group: list[str],
             below: list[str], what: str, kind: str = "") -> None:
    choices = dict.fromkeys(c for u in group + below for c in figures[u])
    for choice in choices:
        upper = [figures[u][choice] for u in group if choice in figures[u]]
        lower = [figures[u][choice] for u in below if choice in figures[u]]
        if any(f.hidden for f in upper + lower):
            continue  # a range cannot contradict a figure; the hidden count stays a range
        high, low = sum(f.votes for f in upper), sum(f.votes for f in lower)
        if high == low:
            continue
        where = f"{(upper[0] if upper else next(iter(figures[group[0]].values()))).path}.Count"
        names = [ctx.units.name(u) for u in group]
        if kind and len(group) > 1:
            shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
            message = (f"the {len(group)} counts of Type {kind} ({shown}) add up to {high:,} for {choice!r}, but "
                       f"{what} add up to {low:,}; the file does not say which units they are made of "
                       "(ComposingGpUnitIds), so they may be other votes")
        elif kind:
            message = (f"{names[0]} (Type {kind}) reports {high:,} for {choice!r}, but {what} add up to {low:,}; the "
                       "file does not say which units it is made of (ComposingGpUnitIds), so it may be other votes")
        else:
            message = f"{names[0]} reports {high:,} for {choice!r}, but {what} add up to {low:,}"
        ctx.report.row_problem(where, message, contest)


def _whole(ctx: Context, value: Any, path: str, contest: str) -> int | None:
    report = ctx.report
    if isinstance(value, Decimal):
        # Order matters: a huge exponent must be refused before any arithmetic expands it.
        if not value.is_finite():
            report.row_problem(path, f"must be a whole number of votes (got {value})", contest)
            return None
        if abs(value) >= MAX_COUNT:
            report.row_problem(path, f"is too large to be a number of votes (got {value})", contest)
            return None
        if value != value.to_integral_value():
            report.row_problem(path, f"must be a whole number of votes (got {value})", contest)
            return None
        whole = int(value)
        report.note(f"{path}: {value} read as {whole}", kind="counts normalised")
        value = whole
    if value < 0:
        report.row_problem(path, f"must not be negative (got {value})", contest)
        return None
    if value >= MAX_COUNT:
        report.row_problem(path, f"is too large to be a number of votes (got {value})", contest)
        return None
    return value
