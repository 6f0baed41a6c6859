"""Every contest of a survey of returns decided under the law's trigger (1306(1) by default), or listed as undecided
with why.

`rules.margin` decides a contest whose every count is known. This module decides the rest of what a
real file holds, and refuses only what cannot be decided:
- counts hidden or missing ("(< 25)", "***", empty): decided when the verdict is the same for every
  value they could hold (`rules.bounds`), else undecided;
- a file that may be a party primary but does not say: decided when neither reading requires a
  recount, else undecided (say which it is);
- a contest with no votes at all: undecided, never "a tie at 0-0" (said of the contest: other contests of
  the same file may have votes);
- only write-in votes, nobody named: undecided;
- an aggregate write-in line holding more votes than a named winner: undecided, since one write-in
  candidate may have won and the file does not name them (as many votes, or within the margin, is
  said on the verdict: `rules.margin`'s write-in note);
- a question with only one answer's votes (a retention published with its Yes votes only): undecided;
- seats not stated: decided as one seat only where no other plausible number of seats changes the
  verdict (`rules.seats`), else undecided until they are given.
Every verdict names each reading it applied.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rules.bounds import no_recount_possible, ranges_of, recount_possible
from rules.contest import Contest, ContestKind, Returns, Undecided
from rules.laws import DEFAULT_LAW, LawProfile
from rules.margin import DEFAULT_MULTI_SEAT_RULE, MarginDecision, MultiSeatRule, check_automatic_recount
from rules.row_kinds import answer
from rules.seats import SeatsHeld, one_seat_reading, plausible_seats, why_plausible

HIDDEN_READING = ("hidden counts: {n} cell{s} of this contest give no exact count (e.g. {example}); the verdict "
                  "is the same for every value they could hold, shown with each at its lowest")
BOTH_KINDS_READING = "election kind unknown: no automatic recount whether it is a general election or a party primary"


@dataclass(frozen=True)
class Verdicts:
    decisions: tuple[MarginDecision, ...]  # closest first
    undecided: tuple[Undecided, ...]  # the reader's first, then those the rules could not decide


def decide_returns(returns: Returns, multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE,
                   contests: list[Contest] | None = None, *, law: LawProfile = DEFAULT_LAW) -> Verdicts:
    """Decide `contests` (default: all of `returns`) under `law`; the reader's undecided contests are kept."""
    decided: list[MarginDecision] = []
    undecided: list[Undecided] = list(returns.undecided) if contests is None else []
    for contest in returns.contests if contests is None else contests:
        result = decide_contest(contest, multi_seat_rule, law=law)
        if isinstance(result, Undecided):
            undecided.append(result)
        else:
            decided.append(result)
    return Verdicts(tuple(sorted(decided, key=lambda d: d.closeness)), tuple(undecided))


NO_VOTES = ("no votes counted: every count of this contest is 0 (its returns not yet counted?); there is nothing "
            "to compare")


def decide_contest(contest: Contest, multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE, *,
                   law: LawProfile = DEFAULT_LAW) -> MarginDecision | Undecided:
    if contest.if_primary:
        return _either_kind(contest, multi_seat_rule, law)
    if not contest.seats_stated and contest.kind is ContestKind.CANDIDATE:
        return _seats_not_stated(contest, multi_seat_rule, law)
    buckets = set(contest.buckets)
    named = [c for c in contest.choices if c not in buckets]
    if not contest.uncertain and contest.total_votes == 0:
        return Undecided(contest.name, NO_VOTES)
    if named and not contest.uncertain and not any(contest.totals[c] for c in named):
        return Undecided(contest.name, "no votes for any named choice, only for the write-in line: the file does "
                                       "not name who received them; tally the write-ins by name")
    if not named:
        return Undecided(contest.name, "only write-in votes: the file does not name who received them; tally the "
                                       "write-ins by name")
    if contest.kind is ContestKind.QUESTION and len(named) == 1:
        only = named[0]
        return Undecided(contest.name, f"a question with only {only!r} votes in the file"
                         + (" (a retention published with its Yes votes only)" if answer(only) == "yes" else "")
                         + ": both answers' votes are needed to compare them")
    write_ins = _write_ins_may_have_won(contest, named, buckets)
    if write_ins is not None:
        return write_ins
    if contest.uncertain:
        return _with_hidden_counts(contest, named, multi_seat_rule, law)
    return check_automatic_recount(contest, multi_seat_rule, law=law)


def _write_ins_may_have_won(contest: Contest, named: list[str], buckets: set[str]) -> Undecided | None:
    """An aggregate write-in line with more votes than the last named winner: one write-in candidate may hold
    them all and have won a seat, and the file does not say who. Never a named candidate's win: undecided,
    with why."""
    if not buckets or len(named) < 1:
        return None
    ranked = sorted((contest.totals[c] for c in named), reverse=True)
    seats = min(contest.seats, len(ranked))
    last_winner = ranked[seats - 1]
    for bucket in contest.choices:
        if bucket in buckets and contest.totals[bucket] > last_winner:
            who = next(c for c in named if contest.totals[c] == last_winner)
            return Undecided(contest.name, f"write-ins may have won: the write-in line {bucket!r} holds "
                             f"{contest.totals[bucket]:,} votes, more than {who} ({last_winner:,}), the "
                             f"{'highest' if seats == 1 else 'last'} named winner; if one write-in candidate "
                             "received them, that candidate won. Tally the write-ins by name")
    return None


def _seats_not_stated(contest: Contest, rule: MultiSeatRule, law: LawProfile) -> MarginDecision | Undecided:
    """One seat where no other plausible number of seats changes the verdict; else undecided (`rules.seats`)."""
    as_one = decide_contest(dataclasses.replace(contest, seats=1, seats_stated=True), rule, law=law)
    buckets = set(contest.buckets)
    named = [c for c in contest.choices if c not in buckets]
    tried = plausible_seats(contest, named)
    for k in tried:
        other = decide_contest(dataclasses.replace(contest, seats=k, seats_stated=True), rule, law=law)
        if _outcome(other) != _outcome(as_one):
            held = SeatsHeld(seats=k, as_one=_verdict_of(as_one), as_other=_verdict_of(other),
                             why_plausible=why_plausible(contest, k))
            return Undecided(contest.name, held.reason(contest.name), seats_not_stated=True)
    if isinstance(as_one, Undecided):
        return as_one
    reading = one_seat_reading(contest, tried)
    readings = tuple(reading if r.startswith(ONE_SEAT_READING_START) else r for r in as_one.readings)
    if reading not in readings:
        readings += (reading,)
    return dataclasses.replace(as_one, readings=readings)


ONE_SEAT_READING_START = "one seat: the file does not say how many"


def _outcome(result: MarginDecision | Undecided) -> bool | None:
    """What the law's trigger says: an automatic recount (True) or not (False); None when undecided."""
    return None if isinstance(result, Undecided) else result.automatic_recount


def _verdict_of(result: MarginDecision | Undecided) -> str:
    if isinstance(result, Undecided):
        return "undecided"
    if result.automatic_recount and result.highest and result.next_highest:
        return f"automatic recount ({result.highest.choice} vs {result.next_highest.choice})"
    return "automatic recount" if result.automatic_recount else "no automatic recount"


def _with_hidden_counts(contest: Contest, named: list[str], rule: MultiSeatRule,
                        law: LawProfile) -> MarginDecision | Undecided:
    wanted = rule
    rule = MultiSeatRule(law.multi_seat.statutory_rule) if law.multi_seat.statutory_rule else rule
    cells = [b for (_, choice), b in contest.uncertain.items() if choice in named]
    rows = tuple(f"{b.location}: {b.describe()}" if b.location else b.describe() for b in cells[:20])
    k = contest.seats if rule is MultiSeatRule.LAST_WINNER_FIRST_LOSER else 1
    ranges = ranges_of(contest, named)
    if all(high == 0 for high in ranges.high.values()):  # every count hidden or not is at most 0
        return Undecided(contest.name, "no votes counted: every count of this contest is 0 or hidden as at most "
                                       "0; there is nothing to compare", rows)
    lowest = check_automatic_recount(contest, wanted, law=law)
    can_recount: bool | None
    can_not: bool | None
    if len(named) <= contest.seats:
        can_recount, can_not = False, True
    else:
        can_recount, can_not = recount_possible(ranges, k), no_recount_possible(ranges, k)
    if can_not is None:
        return Undecided(contest.name, f"{len(cells)} counts are hidden among too many choices to weigh every "
                                       "value they could hold", rows)
    if can_recount and can_not:
        return Undecided(contest.name, f"the verdict depends on {len(cells)} hidden count"
                                       f"{'s' if len(cells) != 1 else ''}: some values they could hold make this "
                                       "an automatic recount and others do not; the exact counts are needed", rows)
    if not cells:  # only a write-in line is hidden: it never decides
        return lowest
    if can_recount != lowest.automatic_recount:  # cannot happen: the lowest point is one of the values
        return Undecided(contest.name, "the hidden counts could not be weighed consistently", rows)
    example = rows[0] if rows else "a hidden cell"
    reading = HIDDEN_READING.format(n=len(cells), s="s" if len(cells) != 1 else "", example=example)
    return dataclasses.replace(lowest, readings=lowest.readings + (reading,),
                               reason=lowest.reason + " The same for every value of the hidden counts.")


def _either_kind(contest: Contest, rule: MultiSeatRule, law: LawProfile) -> MarginDecision | Undecided:
    general = decide_contest(dataclasses.replace(contest, if_primary=()), rule, law=law)
    decided = [decide_contest(part, rule, law=law) for part in contest.if_primary]
    parts = [d for d in decided if isinstance(d, MarginDecision)]
    if isinstance(general, Undecided) or len(parts) < len(decided):
        first = general if isinstance(general, Undecided) else next(d for d in decided if isinstance(d, Undecided))
        return Undecided(contest.name, "the file does not say whether it is a party primary, and one reading cannot "
                                       f"be decided: {first.reason}", first.rows)
    if not general.automatic_recount and not any(p.automatic_recount for p in parts):
        return dataclasses.replace(general, readings=general.readings + (BOTH_KINDS_READING,))
    as_general = "no automatic recount"
    if general.automatic_recount:  # a recount compares two standings; say which, when both are there
        highest, next_highest = general.highest, general.next_highest
        as_general = "automatic recount" + (f" ({highest.choice} vs {next_highest.choice})"
                                            if highest and next_highest else "")
    in_primaries = [p.contest for p in parts if p.automatic_recount]
    as_primary = f"automatic recount in {', '.join(in_primaries)}" if in_primaries else "no automatic recount"
    return Undecided(contest.name, "the file does not say whether it is a party primary, and the readings disagree: "
                                   f"as a general election, {as_general}; as a party primary, {as_primary}; say "
                                   "--election-kind primary or general")
