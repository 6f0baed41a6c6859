"""Subsection (1) when some counts are hidden: decide only what holds for every value they could hold.

A published file may hide a small count ("(< 25)" is 0 to 24) or leave it out ("***", an empty
cell: any number). Each choice's total then lies in a range [low, high]. The (1) test compares two
order statistics of the totals: the k-th and the (k+1)-th highest (k = 1 for one seat or the
top-two reading, k = seats for last-winner-first-loser), recount when 199 * x(k) <= 200 * x(k+1).

- A recount is possible iff some choice of totals puts x(k) <= u and x(k+1) >= v with 199u <= 200v,
  i.e. at least k+1 choices can reach v and at most k-1 must exceed u. The best v is the (k+1)-th
  highest upper limit, with u = floor(200v / 199).
- A result without recount is possible iff the largest 199 * x(k) - 200 * x(k+1) is positive. Raising
  a winner or lowering a loser never lowers it, so the largest is at a point where the winners are at
  their upper limits and everyone else at their lower: it is enough to try, for every set of at most
  k choices whose counts are hidden, that set high and the rest low.
If both are possible, the contest is undecided; if only one, that is the verdict, for every value.
Exact integers throughout; a choice without an upper limit is given one larger than every total.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from rules.contest import Contest

# Sets of hidden choices tried for "a result without recount is possible"; beyond this the contest is
# left undecided rather than searched for minutes (it would take dozens of hidden choices).
MAX_CORNERS = 200_000


@dataclass(frozen=True)
class Ranges:
    low: dict[str, int]
    high: dict[str, int | None]  # None: no upper limit

    @property
    def hidden(self) -> list[str]:
        return [c for c in self.low if self.high[c] != self.low[c]]


def ranges_of(contest: Contest, choices: list[str]) -> Ranges:
    low = {c: contest.totals[c] for c in choices}
    high: dict[str, int | None] = dict(low)
    for (_, choice), bound in contest.uncertain.items():
        if choice not in high:
            continue
        current = high[choice]
        if current is None or bound.high is None:
            high[choice] = None
        else:
            high[choice] = current + bound.high - bound.low
    return Ranges(low, high)


def recount_possible(r: Ranges, k: int) -> bool:
    """Can the hidden counts make 199 * x(k) <= 200 * x(k+1)?"""
    highs = sorted(r.high.values(), key=lambda h: (h is None, h or 0), reverse=True)
    if len(highs) <= k:
        return False
    v = highs[k]
    if v is None:  # k+1 choices without an upper limit: they can tie
        return True
    u = v * 200 // 199
    return sum(1 for lo in r.low.values() if lo > u) <= k - 1


def no_recount_possible(r: Ranges, k: int) -> bool | None:
    """Can the hidden counts make 199 * x(k) > 200 * x(k+1)? None when there are too many to try."""
    choices = list(r.low)
    if len(choices) <= k:
        return True
    finite = [h for h in r.high.values() if h is not None] + list(r.low.values())
    big = 200 * (max(finite, default=0) + 1) + 1
    hidden = r.hidden
    tried = 0
    for size in range(0, min(k, len(hidden)) + 1):
        for raised in combinations(hidden, size):
            tried += 1
            if tried > MAX_CORNERS:
                return None
            up = set(raised)
            values = sorted(((big if (high := r.high[c]) is None else high) if c in up else r.low[c]
                             for c in choices), reverse=True)
            if 199 * values[k - 1] > 200 * values[k]:
                return True
    return False
