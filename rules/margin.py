"""Subsection (1): is a recount automatic?

"...if it appears, as evidenced by the survey of returns, that the difference between the highest
number of votes cast in the election and the next highest number of votes cast in the election is
less than or equal to one-half of one percent of the highest number of votes cast in the election."

The test is done in exact integer arithmetic: (highest - next) * 200 <= highest. No division, no
rounding, no floats; 500 vs 498 triggers (2 * 200 = 400 <= 500) and 500 vs 497 does not (600 > 500).

Multi-seat contests: 1306 speaks of "the highest" and "the next highest" only. Which two totals to
compare when several seats are filled is therefore a reading, chosen explicitly (`MultiSeatRule`):

- LAST_WINNER_FIRST_LOSER (default): the last candidate elected against the first not elected, as a
  share of the last winner's votes, as the general law does in 1-10.5-101(1)(b). This is the pair
  whose order decides who is elected.
- TOP_TWO: the literal words, the two highest totals, whatever the number of seats.

Single-seat contests are the same under both readings. Every verdict names the reading it used.

Write-in buckets: a line such as "Write-ins" holds votes for people the file does not name. It is
not a candidate (it cannot be elected, so it is never "the highest" or "the next highest"), but one
write-in candidate could hold all of its votes. When the bucket alone is within 1/2 of 1% of the
candidate it could displace (the highest; the last winner under last-winner-first-loser), or above,
the verdict says so: the write-ins must be tallied by name before the survey of returns can show
who is next (WRITE_IN_READING).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.contest import Contest, ContestKind
from rules.decision import Decision
from rules.statute import AUTOMATIC_RECOUNT_MARGIN, MULTI_SEAT_MODEL_CITATION, TIE_BY_LOT_CITATION


class MultiSeatRule(str, enum.Enum):
    LAST_WINNER_FIRST_LOSER = "last-winner-first-loser"
    TOP_TWO = "top-two"

    @property
    def description(self) -> str:
        if self is MultiSeatRule.LAST_WINNER_FIRST_LOSER:
            return (f"multi-seat reading: last winner vs first loser, as a share of the last winner's votes "
                    f"(as {MULTI_SEAT_MODEL_CITATION}; 1306 is silent)")
        return "multi-seat reading: the two highest totals (the literal words of 1306(1))"


DEFAULT_MULTI_SEAT_RULE = MultiSeatRule.LAST_WINNER_FIRST_LOSER
SINGLE_SEAT_READING = "single seat: the highest against the next highest, as 1306(1) reads"
WRITE_IN_READING = ("write-in line: an aggregate of votes for people not named, so never the highest or next "
                    "highest; flagged when it alone is within the margin")


class MarginOutcome(str, enum.Enum):
    AUTOMATIC_RECOUNT = "automatic_recount"
    NO_RECOUNT = "no_recount"
    UNCONTESTED = "uncontested"


@dataclass(frozen=True)
class Standing:
    choice: str
    votes: int


@dataclass(frozen=True, kw_only=True)
class MarginDecision(Decision):
    contest: str
    kind: ContestKind
    seats: int
    automatic_recount: bool
    highest: Standing | None
    next_highest: Standing | None
    margin: int | None
    max_margin_for_recount: int | None
    rule: str
    winners: tuple[Standing, ...] = ()
    tie_for_last_seat: bool = False
    tie_note: str | None = None
    write_in_note: str | None = None
    readings: tuple[str, ...] = ()  # every reading applied, the multi-seat one (`rule`) first
    # Non-empty when the file holds only part of the contest's district (`Contest.part_of_district`): the
    # verdict is on that share alone.
    part_of_district: str = ""

    @property
    def closeness(self) -> tuple[int, int]:
        """Sort key, closest contest first: how far over the threshold (<= 0 means inside), then margin.

        (margin * 200 - highest) orders contests by margin as a share of the highest, exactly.
        Uncontested contests sort last.
        """
        if self.margin is None or self.highest is None:
            return (1, 0)
        scale = AUTOMATIC_RECOUNT_MARGIN.value
        return (0, self.margin * scale.denominator - self.highest.votes * scale.numerator)


def is_within_recount_margin(highest: int, next_highest: int) -> bool:
    """(highest - next) <= 1/200 of highest, in integers: (highest - next) * 200 <= highest * 1."""
    if next_highest > highest:
        raise ValueError("next_highest cannot exceed highest")
    share = AUTOMATIC_RECOUNT_MARGIN.value
    return (highest - next_highest) * share.denominator <= highest * share.numerator


def largest_margin_that_triggers(highest: int) -> int:
    """The largest whole-vote difference that still triggers: floor(highest / 200)."""
    share = AUTOMATIC_RECOUNT_MARGIN.value
    return highest * share.numerator // share.denominator


def check_automatic_recount(
    contest: Contest, multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE,
) -> MarginDecision:
    """Decide subsection (1) for one contest from its survey of returns."""
    citation = AUTOMATIC_RECOUNT_MARGIN.citation
    buckets = set(contest.buckets)
    ranked = [(c, v) for c, v in contest.ranked() if c not in buckets]
    seats = contest.seats
    rule_text = SINGLE_SEAT_READING if seats == 1 else multi_seat_rule.description
    winners = tuple(Standing(c, v) for c, v in ranked[:seats])
    readings = (rule_text, *contest.readings) + ((WRITE_IN_READING,) if buckets else ())
    share = contest.part_of_district
    if share:
        readings += (f"part of the district: {share}",)

    if len(ranked) <= seats:
        what = "only one choice" if len(ranked) == 1 else f"{len(ranked)} choices for {seats} seats"
        if buckets:
            what += " besides the write-in line"
        last = winners[-1] if winners and len(ranked) == seats else None
        return MarginDecision(
            outcome=MarginOutcome.UNCONTESTED.value, citation=citation,
            reason=f"{contest.name}: uncontested ({what}); there is no next highest, so no recount under (1)."
            + _share_said(share),
            numbers={"choices": len(ranked), "seats": seats},
            reading=rule_text, contest=contest.name, kind=contest.kind, seats=seats,
            automatic_recount=False, highest=winners[0] if winners else None, next_highest=None,
            margin=None, max_margin_for_recount=None, rule=rule_text, winners=winners,
            write_in_note=_write_in_note(contest, buckets, last), readings=readings, part_of_district=share,
        )

    if seats == 1 or multi_seat_rule is MultiSeatRule.TOP_TWO:
        upper, lower = ranked[0], ranked[1]
        pair = "highest and next highest"
    else:
        upper, lower = ranked[seats - 1], ranked[seats]
        pair = f"last winner (seat {seats}) and first loser"
    highest, next_highest = Standing(*upper), Standing(*lower)
    margin = highest.votes - next_highest.votes
    threshold = largest_margin_that_triggers(highest.votes)
    automatic = is_within_recount_margin(highest.votes, next_highest.votes)

    # A tie for the last seat (the only seat, when there is one) is decided by lot if the recount
    # leaves it tied: flag it whichever reading compared which pair.
    last_winner_votes, first_loser_votes = ranked[seats - 1][1], ranked[seats][1]
    tie_for_last_seat = last_winner_votes == first_loser_votes
    tie_note = None
    if tie_for_last_seat:
        tied = [c for c, v in ranked if v == last_winner_votes]
        if automatic:
            tie_note = (f"tie for the last seat between {', '.join(tied)} at {last_winner_votes:,} votes; "
                        f"if the recount leaves it tied it is decided by lot ({TIE_BY_LOT_CITATION})")
        else:
            # Only the top-two reading can leave a tied last seat without a recount under (1): it compares the
            # two highest totals, which may be far apart. No recount is ordered, so none can break the tie.
            tie_note = (f"tie for the last seat between {', '.join(tied)} at {last_winner_votes:,} votes; the "
                        f"top-two reading orders no recount under (1) (it compares {highest.choice} and "
                        f"{next_highest.choice}), so the tie is decided by lot ({TIE_BY_LOT_CITATION}) unless a "
                        f"recount requested under (2)(a) breaks it")

    if automatic:
        if margin == 0:
            reason = (f"{contest.name}: {highest.choice} and {next_highest.choice} are tied at "
                      f"{highest.votes:,}; a tie is within 1/2 of 1% — automatic recount.")
        else:
            reason = (f"{contest.name}: margin {margin:,} between {pair} is within 1/2 of 1% of "
                      f"{highest.votes:,} (at most {threshold:,}) — automatic recount.")
        outcome = MarginOutcome.AUTOMATIC_RECOUNT
    else:
        reason = (f"{contest.name}: margin {margin:,} between {pair} exceeds 1/2 of 1% of "
                  f"{highest.votes:,} (at most {threshold:,} would trigger) — no automatic recount.")
        outcome = MarginOutcome.NO_RECOUNT

    return MarginDecision(
        outcome=outcome.value, citation=citation, reason=reason + _share_said(share),
        numbers={
            "highest_votes": highest.votes, "next_highest_votes": next_highest.votes, "margin": margin,
            "max_margin_for_recount": threshold, "test": f"({highest.votes} - {next_highest.votes}) * 200 "
            f"= {margin * 200} {'<=' if automatic else '>'} {highest.votes}",
        },
        reading=rule_text, contest=contest.name, kind=contest.kind, seats=seats,
        automatic_recount=automatic, highest=highest, next_highest=next_highest, margin=margin,
        max_margin_for_recount=threshold, rule=rule_text, winners=winners,
        tie_for_last_seat=tie_for_last_seat, tie_note=tie_note,
        write_in_note=_write_in_note(contest, buckets, highest if seats == 1 or multi_seat_rule is MultiSeatRule.TOP_TWO
                                     else Standing(*ranked[seats - 1])),
        readings=readings, part_of_district=share,
    )


def _share_said(share: str) -> str:
    if not share:
        return ""
    holds = "holds only" if "statewide" in share else "may hold only"
    return f" This file {holds} one county's share of the district's votes: the verdict is on that share alone."


def _write_in_note(contest: Contest, buckets: set[str], against: Standing | None) -> str | None:
    """Say when a write-in line alone could hold a candidate within the margin of `against`, or above."""
    if not buckets or against is None:
        return None
    for bucket in contest.choices:
        if bucket not in buckets:
            continue
        votes = contest.totals[bucket]
        if votes == 0:
            continue
        if votes >= against.votes or is_within_recount_margin(against.votes, votes):
            where = "more than" if votes > against.votes else "within 1/2 of 1% of"
            return (f"the write-in line {bucket!r} ({votes:,} votes) is {where} {against.choice} ({against.votes:,}); "
                    "if one write-in candidate received them, a recount would be automatic or the result would "
                    "change: tally the write-ins by name before relying on this verdict")
    return None


def check_all(contests, multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE) -> list[MarginDecision]:
    """Every contest's verdict, closest first (those inside the margin lead)."""
    decisions = [check_automatic_recount(c, multi_seat_rule) for c in contests]
    return sorted(decisions, key=lambda d: d.closeness)
