"""A tie the recount did not break is decided by lot, drawn by whom the election's law says: the canvass board
(1-13.5-1304, the default), the clerk and the clerk's assistant (31-10-1204), or the board of canvassers (1-11-102,
for the nonpartisan contests of a coordinated election). Each speaks of candidates "for the same office": a tied
ballot question is never drawn (`tie_to_draw` returns None for one).

The section's words were not available to this project verbatim (see README, "Readings of the statute"). What
is applied is what every statement of it agrees on, and what its twin in the Uniform Election Code says
(1-11-102: "If any two or more candidates tie for the highest number of votes for the same office and if there
are not enough offices remaining for all the candidates, the board of canvassers shall determine by lot the
person who shall be elected. Reasonable notice shall be given to the candidates who are involved of the time
when the election will be determined."):

- the tie is between the candidates with the same number of votes at the last seat (the only seat, when there
  is one: a tie for first), when there are fewer seats left than candidates so tied;
- the canvass board determines by lot who is elected; the lot elects as many of them as there are seats left,
  and only candidates who are tied;
- the tied candidates are given notice of the drawing.

`tie_to_draw` says, from a completed recount's decision (rules.completion), whether a lot is owed and between
whom; `decide_lot` checks a drawing recorded against it and says who is elected by it. No I/O.

Readings (each applied on purpose, and named in what the bot shows):

- LOT_NOTICE_READING: notice to each tied candidate is recorded (when, by what means) and must have been given
  before the drawing; whether it was "reasonable" is the official's judgement, and the record shows how long
  before the drawing each notice was given so anyone can judge it.
- LOT_AFTER_RECOUNT_READING: the lot follows the completed recount (a tie the survey of returns showed goes to a
  recount under (1) first, since a tie is always within its margin); the recount's own decision is not
  rewritten: the lot is a second decision that completes it, and (6)'s certificate for the seat is made for the
  winner of the lot.
"""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from rules.decision import Decision
from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.statute import TIE_BY_LOT_CITATION, cite

LOT_CITATION = TIE_BY_LOT_CITATION  # "C.R.S. 1-13.5-1304"
CERTIFICATE_CITATION = cite("(6)")
LOT_NOTICE_READING = (
    "notice of the drawing to each tied candidate (1-13.5-1304) is recorded with when and how it was given and "
    "must come before the drawing; whether it was reasonable is the official's judgement, and the record shows "
    "how long before the drawing each was given")
LOT_AFTER_RECOUNT_READING = (
    "the lot follows the completed recount and does not rewrite it: it is a second decision, and the certificate "
    "of election (1306(6)) for the tied seat is made for the winner of the lot")


def lot_readings(law: LawProfile = DEFAULT_LAW) -> str:
    if law is DEFAULT_LAW:
        return f"{LOT_NOTICE_READING}; {LOT_AFTER_RECOUNT_READING}"
    tie, certificate = law.tie.provision.citation, law.cite(Part.CERTIFICATE)
    readings = [
        f"notice of the drawing to each tied candidate ({tie}) is recorded with when and how it was given and must "
        f"come before the drawing; whether it was reasonable is the official's judgement, and the record shows how "
        f"long before the drawing each was given",
        f"the lot follows the completed recount and does not rewrite it: it is a second decision, and the certificate "
        f"of election ({certificate}) for the tied seat is made for the winner of the lot",
    ]
    if law.tie.reading:
        readings.append(law.tie.reading)
    return "; ".join(readings)


class LotMethod(str, enum.Enum):
    """How the lot was drawn; the record says which, with any details the official adds."""

    NAMES_DRAWN = "names drawn from a container"
    COIN_TOSS = "coin toss"
    CARDS_DRAWN = "cards drawn"
    DICE = "dice"
    OTHER = "other"


class LotInvalid(ValueError):
    """A drawing that cannot be recorded as it was given; `field` names what to correct."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message, self.field = message, field


@dataclass(frozen=True)
class TieForLot:
    """A tie the completed recount left to the lot."""

    contest: str
    tied: tuple[str, ...]  # in the order the recount ranked them
    seats_by_lot: int  # how many of them the lot elects
    votes: int  # each tied candidate's votes after the recount
    seats: int
    clear_winners: tuple[str, ...]  # elected by the recount itself, above the tie

    @property
    def for_first(self) -> bool:
        """No one is above the tie: it is for the first (in a one-seat contest, the only) seat."""
        return not self.clear_winners

    @property
    def what(self) -> str:
        """"the seat", "the last seat", "the last 2 seats", "the 2 seats"."""
        if self.seats_by_lot == 1:
            return "the seat" if self.seats == 1 else "the last seat"
        return f"the {self.seats_by_lot} seats" if self.seats == self.seats_by_lot else \
            f"the last {self.seats_by_lot} seats"


def tie_to_draw(completion: Mapping[str, Any] | None) -> TieForLot | None:
    """The tie a completed recount left to the lot, from its decision (rules.completion, JSON-ready); None when
    the recount elected everyone it had to (or is a ballot question, which elects no one and is not drawn)."""
    if not completion or not completion.get("tie_for_last_seat") or completion.get("kind") == "question":
        return None
    tied = tuple(completion.get("tied_for_last_seat") or ())
    seats_by_lot = int(completion.get("seats_by_lot") or 0)
    if len(tied) < 2 or not 1 <= seats_by_lot < len(tied):
        return None
    totals = completion.get("amended_totals") or {}
    return TieForLot(contest=str(completion.get("contest", "")), tied=tied, seats_by_lot=seats_by_lot,
                     votes=int(totals.get(tied[0], 0)), seats=int(completion.get("seats", 1)),
                     clear_winners=tuple(completion.get("winners_after") or ()))


@dataclass(frozen=True)
class CandidateNotice:
    """The notice of the drawing given to one tied candidate."""

    candidate: str
    given_at: dt.datetime
    method: str


@dataclass(frozen=True, kw_only=True)
class LotDecision(Decision):
    tied: tuple[str, ...]
    winners: tuple[str, ...]  # elected by the lot; each gets a certificate of election (6)
    not_elected: tuple[str, ...]
    seats_by_lot: int
    votes: int


def _names(names: Sequence[str]) -> str:
    names = list(names)
    if not names:
        return "no one"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _before(notice: CandidateNotice, drawn_at: dt.datetime) -> str:
    minutes = int((drawn_at - notice.given_at).total_seconds() // 60)
    if minutes >= 2 * 24 * 60:
        return f"{minutes // (24 * 60)} days before"
    if minutes >= 120:
        return f"{minutes // 60} hours before"
    return f"{minutes} minutes before"


def decide_lot(tie: TieForLot, *, winners: Sequence[str], notices: Sequence[CandidateNotice],
               drawn_at: dt.datetime, law: LawProfile = DEFAULT_LAW) -> LotDecision:
    """Who the lot elects under `law`: exactly `tie.seats_by_lot` of the tied candidates, none twice, each tied
    candidate noticed before the drawing. Anything else raises LotInvalid naming the field and the value."""
    lot_citation, certificate_citation = law.tie.provision.citation, law.cite(Part.CERTIFICATE)
    if drawn_at.tzinfo is None or any(n.given_at.tzinfo is None for n in notices):
        raise ValueError("times must be timezone-aware")
    chosen = tuple(winners)
    if not chosen:
        raise LotInvalid(f"Choose who won the lot: one of {_names(tie.tied)}.", "winners")
    strangers = [w for w in chosen if w not in tie.tied]
    if strangers:
        raise LotInvalid(f"{_names(strangers)} {'is' if len(strangers) == 1 else 'are'} not tied for "
                         f"{tie.what}: the lot is between {_names(tie.tied)} ({lot_citation}).", "winners")
    if len(set(chosen)) != len(chosen):
        raise LotInvalid("A candidate is named twice among the winners of the lot.", "winners")
    if len(chosen) != tie.seats_by_lot:
        raise LotInvalid(f"The lot decides {tie.what}: choose exactly {tie.seats_by_lot} of {_names(tie.tied)} "
                         f"(you chose {len(chosen)}).", "winners")
    by_candidate = {n.candidate: n for n in notices}
    unknown = [n.candidate for n in notices if n.candidate not in tie.tied]
    if unknown:
        raise LotInvalid(f"Notice recorded for {_names(unknown)}, who {'is' if len(unknown) == 1 else 'are'} not "
                         "tied.", "notices")
    missing = [c for c in tie.tied if c not in by_candidate]
    if missing:
        raise LotInvalid(f"Record the notice of the drawing given to {_names(missing)} ({lot_citation}): each tied "
                         "candidate is given notice of it.", "notices")
    late = [c for c in tie.tied if by_candidate[c].given_at > drawn_at]
    if late:
        raise LotInvalid(f"The notice to {_names(late)} is after the drawing; notice of the drawing comes before "
                         f"it ({lot_citation}).", "notices")

    winners_in_order = tuple(c for c in tie.tied if c in chosen)
    others = tuple(c for c in tie.tied if c not in chosen)
    verb = "wins" if len(winners_in_order) == 1 else "win"
    drawn = "" if law is DEFAULT_LAW else f" drawn by {law.tie.drawn_by}"
    reason = (f"{tie.contest + ': ' if tie.contest else ''}{_names(winners_in_order)} {verb} {tie.what} by lot{drawn} over "
              f"{_names(others)}, tied at {tie.votes:,} votes after the recount; the certificate of election is made "
              f"for {_names(winners_in_order)} ({certificate_citation}).")
    noticed = {c: {"given_at": by_candidate[c].given_at, "method": by_candidate[c].method,
                   "before_drawing": _before(by_candidate[c], drawn_at)} for c in tie.tied}
    return LotDecision(
        outcome="decided_by_lot", citation=lot_citation, reason=reason,
        numbers={"tied": list(tie.tied), "votes_each": tie.votes, "seats_by_lot": tie.seats_by_lot,
                 "for_first": tie.for_first, "clear_winners": list(tie.clear_winners),
                 "winners": list(winners_in_order), "not_elected": list(others), "drawn_at": drawn_at,
                 "notices": noticed, "certificate_citation": certificate_citation, "drawn_by": law.tie.drawn_by,
                 "law": law.key},
        reading=lot_readings(law),
        tied=tie.tied, winners=winners_in_order, not_elected=others, seats_by_lot=tie.seats_by_lot, votes=tie.votes,
    )
