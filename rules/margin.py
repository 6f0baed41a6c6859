"""Is a recount automatic? The law's trigger (`LawProfile.trigger`), 1-13.5-1306(1) by default:

"...if it appears, as evidenced by the survey of returns, that the difference between the highest
number of votes cast in the election and the next highest number of votes cast in the election is
less than or equal to one-half of one percent of the highest number of votes cast in the election."

31-10-1207(1) says the same of a municipal election; 1-10.5-101(1)(b) says it of "any election contest" and adds
the multi-seat rule itself (last winner against first loser), so under it the multi-seat reading is not the
office's to choose: the verdict cites the statute, and an office reading that differs is named as not applied.

The test is done in exact integer arithmetic: (highest - next) * 200 <= highest. No division, no
rounding, no floats; 500 vs 498 triggers (2 * 200 = 400 <= 500) and 500 vs 497 does not (600 > 500).

Multi-seat contests: 1306 speaks of "the highest" and "the next highest" only. Which two totals to
compare when several seats are filled is therefore a reading, chosen explicitly (`MultiSeatRule`):

- LAST_WINNER_FIRST_LOSER (default): the last candidate elected against the first not elected, as a
  share of the last winner's votes, as the general law does in 1-10.5-101(1)(b). This is the pair
  whose order decides who is elected.
- TOP_TWO: the literal words, the two highest totals, whatever the number of seats.

Single-seat contests are the same under both readings. Every verdict names the reading it used.

Ties: a tie at the last seat (or the only one) is within every margin, so a recount is automatic; `winners` then
names only the choices above the tie, never one of the tied ones. A tie between candidates that survives the
recount is decided by lot (1-13.5-1304; 31-10-1204; 1-11-102 — each speaks of candidates "for the same office");
a tied ballot question is never sent to the lot (TIED_QUESTION_READING).

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
from fractions import Fraction

from rules.contest import Contest, ContestKind
from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.statute import AUTOMATIC_RECOUNT_MARGIN


class MultiSeatRule(str, enum.Enum):
    LAST_WINNER_FIRST_LOSER = "last-winner-first-loser"
    TOP_TWO = "top-two"

    @property
    def description(self) -> str:
        return self.description_for(DEFAULT_LAW)

    def description_for(self, law: LawProfile) -> str:
        if law.multi_seat.statutory_rule is not None:
            return (f"multi-seat: last winner vs first loser, as a share of the last winner's votes, as "
                    f"{law.multi_seat.provision.citation} says")
        if self is MultiSeatRule.LAST_WINNER_FIRST_LOSER:
            return (f"multi-seat reading: last winner vs first loser, as a share of the last winner's votes "
                    f"(as {law.multi_seat.provision.citation}; {law.section} is silent)")
        return f"multi-seat reading: the two highest totals (the literal words of {law.trigger.provision.citation})"


def multi_seat_rule_under(law: LawProfile, wanted: MultiSeatRule) -> tuple[MultiSeatRule, str | None]:
    """The rule a multi-seat contest is compared by under `law`, and a note when the office's reading `wanted` is
    not applied because the law itself says which totals to compare (1-10.5-101(1)(b))."""
    if law.multi_seat.statutory_rule is None:
        return wanted, None
    statutory = MultiSeatRule(law.multi_seat.statutory_rule)
    if statutory is wanted:
        return statutory, None
    return statutory, (f"the office's multi-seat reading '{wanted.value}' is not applied: "
                       f"{law.multi_seat.provision.citation} says which totals to compare")


DEFAULT_MULTI_SEAT_RULE = MultiSeatRule.LAST_WINNER_FIRST_LOSER
SINGLE_SEAT_READING = "single seat: the highest against the next highest, as 1306(1) reads"
TIED_QUESTION_READING = (
    "a tied ballot question is not decided by lot: the tie sections (1-13.5-1304, 31-10-1204, 1-11-102) speak of "
    "candidates for an office; the bot names no choice as leading, and what the tie does to the measure is left to "
    "the clerk"
)


def single_seat_reading(law: LawProfile = DEFAULT_LAW) -> str:
    return f"single seat: the highest against the next highest, as {law.trigger.provision.citation} reads"
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


def is_within_recount_margin(highest: int, next_highest: int, share: Fraction = AUTOMATIC_RECOUNT_MARGIN.value
                             ) -> bool:
    """(highest - next) <= share of highest, in integers: (highest - next) * 200 <= highest * 1 for 1/200."""
    if next_highest > highest:
        raise ValueError("next_highest cannot exceed highest")
    return (highest - next_highest) * share.denominator <= highest * share.numerator


def largest_margin_that_triggers(highest: int, share: Fraction = AUTOMATIC_RECOUNT_MARGIN.value) -> int:
    """The largest whole-vote difference that still triggers: floor(highest / 200) for 1/200."""
    return highest * share.numerator // share.denominator


def _pair(ranked: list[tuple[str, int]], seats: int, rule: MultiSeatRule) -> tuple[Standing, Standing, str]:
    if seats == 1 or rule is MultiSeatRule.TOP_TWO:
        return Standing(*ranked[0]), Standing(*ranked[1]), "highest and next highest"
    return Standing(*ranked[seats - 1]), Standing(*ranked[seats]), f"last winner (seat {seats}) and first loser"


def _tie_note(contest: Contest, ranked: list[tuple[str, int]], automatic: bool, highest: Standing,
              next_highest: Standing, law: LawProfile) -> str | None:
    """What a tie at the last seat (the only one, when there is one) means: the lot for candidates, never for a
    ballot question."""
    last_votes = ranked[contest.seats - 1][1]
    tied = [c for c, v in ranked if v == last_votes]
    sub = law.short(law.trigger.provision.citation)
    if contest.kind is ContestKind.QUESTION:
        then = (f"a recount under {sub} is automatic; if it leaves them tied, no choice has the most votes" if automatic
                else "no choice has the most votes")
        return (f"{', '.join(tied)} are tied at {last_votes:,} votes; {then}. A ballot question is not decided by lot "
                f"({law.tie.provision.citation} is for candidates); what the tie does to the measure is the "
                f"official's to say")
    lot = f"decided by lot by {law.tie.drawn_by} ({law.tie.provision.citation})"
    if automatic:
        return (f"tie for the last seat between {', '.join(tied)} at {last_votes:,} votes; if the recount leaves it "
                f"tied it is {lot}")
    # Only the top-two reading can leave a tied last seat without a recount: it compares the two highest totals,
    # which may be far apart. No recount is ordered, so none can break the tie.
    return (f"tie for the last seat between {', '.join(tied)} at {last_votes:,} votes; the top-two reading orders no "
            f"recount under {sub} (it compares {highest.choice} and {next_highest.choice}), so the tie is {lot} unless "
            f"a recount requested under {law.short(law.requesting.provision.citation)} breaks it")


def _winners(ranked: list[tuple[str, int]], seats: int) -> tuple[Standing, ...]:
    """The choices the returns elect (lead with, for a question): never one of those tied at the last seat."""
    if len(ranked) > seats and ranked[seats - 1][1] == ranked[seats][1]:
        tie_votes = ranked[seats - 1][1]
        return tuple(Standing(c, v) for c, v in ranked if v > tie_votes)
    return tuple(Standing(c, v) for c, v in ranked[:seats])


def check_automatic_recount(
    contest: Contest, multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE, *, law: LawProfile = DEFAULT_LAW,
) -> MarginDecision:
    """Decide the law's trigger (1306(1) by default) for one contest from its survey of returns."""
    citation = law.trigger.provision.citation
    rule, not_applied = multi_seat_rule_under(law, MultiSeatRule(multi_seat_rule))
    buckets = set(contest.buckets)
    ranked = [(c, v) for c, v in contest.ranked() if c not in buckets]
    seats = contest.seats
    rule_text = single_seat_reading(law) if seats == 1 else rule.description_for(law)
    winners = _winners(ranked, seats)
    readings = ((rule_text, *((not_applied,) if not_applied and seats > 1 else ()), *contest.readings)
                + ((WRITE_IN_READING,) if buckets else ()))
    share = contest.part_of_district
    if share:
        readings += (f"part of the district: {share}",)

    if len(ranked) <= seats:
        what = "only one choice" if len(ranked) == 1 else f"{len(ranked)} choices for {seats} seats"
        if buckets:
            what += " besides the write-in line"
        last = winners[-1] if winners and len(ranked) == seats else None
        return MarginDecision(
            outcome=MarginOutcome.UNCONTESTED.value,
            reason=(f"{contest.name}: uncontested ({what}); there is no next highest, so no recount under "
                    f"{law.short(citation)}." + _share_said(share)),
            numbers={"choices": len(ranked), "seats": seats}, automatic_recount=False,
            highest=winners[0] if winners else None, next_highest=None, margin=None, max_margin_for_recount=None,
            write_in_note=_write_in_note(contest, buckets, last), citation=citation, reading=rule_text,
            contest=contest.name, kind=contest.kind, seats=seats, rule=rule_text, winners=winners, readings=readings,
            part_of_district=share,
        )

    highest, next_highest, pair = _pair(ranked, seats, rule)
    margin = highest.votes - next_highest.votes
    threshold = largest_margin_that_triggers(highest.votes, law.trigger.share)
    automatic = is_within_recount_margin(highest.votes, next_highest.votes, law.trigger.share)
    tie_for_last_seat = ranked[seats - 1][1] == ranked[seats][1]
    tie_note = _tie_note(contest, ranked, automatic, highest, next_highest, law) if tie_for_last_seat else None
    if contest.kind is ContestKind.QUESTION and tie_for_last_seat:
        readings = readings + (TIED_QUESTION_READING,)

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
    scale = law.trigger.share
    return MarginDecision(
        outcome=outcome.value, reason=reason + _share_said(share),
        numbers={
            "highest_votes": highest.votes, "next_highest_votes": next_highest.votes, "margin": margin,
            "max_margin_for_recount": threshold, "law": law.key,
            "test": f"({highest.votes} - {next_highest.votes}) * {scale.denominator // scale.numerator} "
                    f"= {margin * scale.denominator // scale.numerator} {'<=' if automatic else '>'} {highest.votes}",
        },
        automatic_recount=automatic, highest=highest, next_highest=next_highest, margin=margin,
        max_margin_for_recount=threshold, tie_for_last_seat=tie_for_last_seat, tie_note=tie_note,
        write_in_note=_write_in_note(contest, buckets, highest if seats == 1 or rule is MultiSeatRule.TOP_TWO
                                     else Standing(*ranked[seats - 1])),
        citation=citation, reading=rule_text, contest=contest.name, kind=contest.kind, seats=seats, rule=rule_text,
        winners=winners, readings=readings, part_of_district=share,
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


def check_all(contests, multi_seat_rule: MultiSeatRule = DEFAULT_MULTI_SEAT_RULE, *,
              law: LawProfile = DEFAULT_LAW) -> list[MarginDecision]:
    """Every contest's verdict, closest first (those inside the margin lead)."""
    decisions = [check_automatic_recount(c, multi_seat_rule, law=law) for c in contests]
    return sorted(decisions, key=lambda d: d.closeness)
