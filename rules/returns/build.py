"""From what a parser gathered to `Returns`: the steps every format shares.

Each parser fills `Draft`s (plain mutable dicts, cheap to update per row) and reports, row by row,
what it set aside and what it could not read. `finish` then, for every format alike:
0. makes one contest of names that differ only by spacing, punctuation or case (`spellings`);
1. sets aside units whose votes are the sum of the others (`subtotals`);
2. reads a contest whose choices are Yes and No (For/Against, Yes/For and No/Against) as a question,
   unless the format said what it is;
3. takes the seats from "(Vote For N)" in a contest's name where the format gives no number, applies
   the caller's seat numbers, and marks a contest whose seats nobody stated (`Contest.seats_stated`:
   `rules.seats` decides whether one seat can be read);
4. settles the kind of election and splits party primaries (`primaries`);
5. leaves undecided every contest with a row it could not read (each with why and where), and keeps
   every other contest, flagged when the file is one county's share of its district (`districts`);
6. raises `ReturnsError` only when the file as a whole cannot be read.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from rules.contest import Contest, ContestKind, Returns, SetAside, Undecided, with_totals
from rules.returns.districts import part_of_district
from rules.returns.draft import Draft, seats_location
from rules.returns.options import ReadOptions
from rules.returns.primaries import settle_election_kind
from rules.returns.problems import ROWS_PER_UNDECIDED, Problem, Report
from rules.returns.spellings import merge_spellings
from rules.returns.subtotals import set_aside_sum_subtotals
from rules.row_kinds import is_question, is_write_in_bucket, seats_in_name

REPLACEMENT_CHARACTER = "\ufffd"
ONE_SEAT_ASSUMED = 'one seat: the file does not say how many (--seats "{name}=N" to say)'


def finish(
    drafts: Iterable[Draft], seats: Mapping[str, int] | None, report: Report, source_format: str, *,
    text_has_replacement_character: bool = True, options: ReadOptions | None = None,
) -> Returns:
    """Build the Returns; raise ReturnsError only for problems of the whole file (see the module docstring)."""
    options = options or ReadOptions(seats=seats)
    drafts = merge_spellings([d for d in drafts if d.choices or d.name in report.contest_problems], report)
    for draft in drafts:
        if draft.votes_by_unit:
            set_aside_sum_subtotals(draft, report)
        if not draft.kind_stated and draft.kind is ContestKind.CANDIDATE:
            _infer_question(draft, report)
    for draft in drafts:
        if draft.seats is None and draft.kind is ContestKind.CANDIDATE:
            said = seats_in_name(draft.name)
            if said is not None:
                draft.seats, draft.seats_location = said, f"the contest's name ({draft.name!r})"
    if seats:
        _apply_seats(drafts, seats, report)
    if not drafts and not report.problems and not report.has_row_problems():
        report.problem("file", "contains no contests")
    report.raise_if_problems()
    for draft in drafts:  # every hidden count, undecided contests' too, for a strict reading to list
        report.hidden.extend((draft.name, unit, choice, bound) for (unit, choice), bound in draft.uncertain.items())
    assumed = 0
    for draft in drafts:
        if draft.kind is ContestKind.CANDIDATE and draft.seats is None and len(draft.choices) > 1:
            draft.readings.append(ONE_SEAT_ASSUMED.format(name=draft.name))
            assumed += 1
    readable = [d for d in drafts if d.name not in report.contest_problems]
    readable, readings = settle_election_kind(readable, options, report)
    readings = report.readings + readings
    if assumed:
        readings.append(f"{assumed} contest{'s' if assumed != 1 else ''}: the file does not say how many seats; "
                        "read as one seat each where no other plausible number of seats changes the verdict, else "
                        'undecided ("seats not stated"; --seats "CONTEST=N" to say)')
    contests = [_contest(d, report.one_county) for d in readable]
    if text_has_replacement_character:  # the caller knows cheaply whether the scan can find anything
        _note_replacement_characters(contests, report)
    return Returns(contests=tuple(contests), source_format=source_format, notes=report.notes,
                   set_aside=_set_aside(report), undecided=_undecided(report), readings=tuple(readings))


def _contest(draft: Draft, one_county: str = "") -> Contest:
    contest = Contest(
        name=draft.name, choices=tuple(draft.choices), votes_by_unit=draft.votes_by_unit,
        seats=draft.seats if draft.seats is not None else 1, kind=draft.kind, choice_details=draft.details,
        uncertain=draft.uncertain, readings=tuple(draft.readings),
        if_primary=tuple(_contest(part, one_county) for part in draft.if_primary),
        seats_stated=draft.seats is not None or draft.kind is not ContestKind.CANDIDATE,
        part_of_district=part_of_district(draft.name, one_county),
    )
    return contest if draft.totals is None else with_totals(contest, draft.totals)


def _infer_question(draft: Draft, report: Report) -> None:
    answers = [c for c in draft.choices if not is_write_in_bucket(c)]
    if is_question(answers) and len(answers) == len(draft.choices):
        draft.kind = ContestKind.QUESTION
        report.note(f"{draft.name!r} read as a question: its choices are {' and '.join(draft.choices)} "
                    "and no kind is given", kind="kinds inferred")


def _set_aside(report: Report) -> tuple[SetAside, ...]:
    return tuple(SetAside(kind=kind, count=count, rows=tuple(report.set_aside_rows.get(kind, ())))
                 for kind, count in report.set_aside_counts.items())


def _undecided(report: Report) -> tuple[Undecided, ...]:
    out = [_one_undecided(contest, problems) for contest, problems in report.contest_problems.items()]
    if report.unplaced:
        out.append(_one_undecided(None, report.unplaced))
    return tuple(out)


def _one_undecided(contest: str | None, problems: list[Problem]) -> Undecided:
    first = problems[0]
    more = len(problems) - 1
    what = "a row names no contest" if contest is None else "a row of this contest cannot be read"
    reason = f"{what}: {first}" + (f" (and {more} more)" if more else "")
    rows = tuple(str(p) for p in problems[:ROWS_PER_UNDECIDED])
    if len(problems) > ROWS_PER_UNDECIDED:
        rows += (f"... and {len(problems) - ROWS_PER_UNDECIDED} more",)
    return Undecided(contest=contest, reason=reason, rows=rows)


def _apply_seats(drafts: list[Draft], seats: Mapping[str, int], report: Report) -> None:
    # A contest whose rows were all refused is missing from `drafts`; saying that `seats` names no
    # contest would then only echo those problems.
    rows_were_refused = bool(report.problems) or report.has_row_problems()
    by_name = {d.name: d for d in drafts}
    by_folded: dict[str, list[Draft]] = {}
    for d in drafts:
        by_folded.setdefault(d.name.casefold().strip(), []).append(d)
    for name, number in seats.items():
        where = seats_location(name)
        if type(number) is not int or number < 1:
            report.problem(where, f"must be a whole number of seats, at least 1 (got {number!r})")
            continue
        draft = by_name.get(name)
        if draft is None and isinstance(name, str):
            # Same forgiving match as Returns.contest(): case and outer spaces do not matter if unique.
            matches = by_folded.get(name.casefold().strip(), [])
            draft = matches[0] if len(matches) == 1 else None
        if draft is None:
            if not rows_were_refused:
                report.problem(where, "names no contest in the file")
            continue
        if draft.kind is ContestKind.QUESTION and number != 1:
            report.problem(where, f"{draft.name!r} is a question; it has no seats to fill")
            continue
        if draft.seats is not None and draft.seats != number:
            report.problem(where, f"says {number} seats, but the file says {draft.seats} ({draft.seats_location})")
            continue
        draft.seats = number


def _note_replacement_characters(contests: list[Contest], report: Report) -> None:
    """A U+FFFD in a name means a character was lost before the file reached us (e.g. "Rom\ufffdn").

    We keep the name as written (changing it could merge or split choices) but tell the clerk.
    """
    damaged: dict[str, None] = {}
    for contest in contests:
        for text in (contest.name, *contest.choices, *contest.votes_by_unit):
            if REPLACEMENT_CHARACTER in text:
                damaged[text] = None
    for text in damaged:
        report.note(f"{text!r} contains {REPLACEMENT_CHARACTER!r}: a character was lost before this file was made; "
                    "kept as written", kind="damaged characters")
