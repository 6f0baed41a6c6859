"""What a recount law is, as data: one dated, cited `LawProfile` that every rule reads instead of assuming a section.

Every parameter carries the `Provision` it comes from: the citation, the statute's words as read, the copy of the
text that was read (`TextCopy`: where, how current the copy says it is, the day it was read) and whether the text
in force could be confirmed. Where a law is silent or its current text could not be read, the profile says which
reading the rules apply (`reading`), so a verdict can name it.

A law for another state (or another Colorado section) is a new module building a `LawProfile` and registering it
in `rules.laws`; the rules do not change. What parameters cannot say (who is an interested party, how a leftover
deposit is settled) is named by an enum here and decided by one pure function in the rule module that owns it.
"""
from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping

from rules.parties import PartyCondition, PartyKind


def crs(section: str, subsection: str = "") -> str:
    """`crs("1-10.5-106", "(2)")` -> "C.R.S. 1-10.5-106(2)"."""
    return f"C.R.S. {section}{subsection}"


@dataclass(frozen=True)
class TextCopy:
    """One copy of statute text that was read, and how far it can be trusted to be the text in force."""

    tag: str  # short name used in notes ("R80", "CT24")
    name: str  # what the copy is
    where: str  # URL, or repository, path and commit
    current_through: str  # the currency the copy itself states
    read_on: dt.date  # the day the words quoted from it were read

    @property
    def dated(self) -> str:
        return f"{self.tag} ({self.current_through}; read {self.read_on.isoformat()})"


@dataclass(frozen=True)
class Provision:
    """A subsection a parameter comes from: its citation, its words as read, and the copy they were read in."""

    citation: str
    words: str
    copy: TextCopy
    confirmed: bool = True  # False: the text in force could not be read whole; `note` says what is missing
    note: str = ""

    @property
    def dated(self) -> str:
        """"C.R.S. 1-13.5-1306(2)(a), R80 (current through the 2022 regular session; read 2026-12-04)"."""
        flag = "" if self.confirmed else ", not confirmed for the text in force"
        return f"{self.citation}, {self.copy.dated}{flag}"


class CountFrom(str, enum.Enum):
    """What a period of days counts from (the day itself excluded, 1-1-106(2); 2-4-108(1))."""

    ELECTION = "the election"
    CANVASS = "the canvass (the day the canvass board certified)"
    RECEIPT = "the day the request was received"
    COST_NOTICE = "the day the requester received the cost determination"
    RECOUNT_PERIOD_OR_CONCLUSION = ("the end of the period for requesting a recount or the conclusion of the "
                                    "recount, whichever is later")
    SURVEY_FILED = "the day the official survey of returns was filed (the canvass)"


@dataclass(frozen=True)
class Period:
    """A number of days after an event, from a provision."""

    days: int
    counted_from: CountFrom
    provision: Provision
    reading: str | None = None  # where how the period is read is a choice the law leaves open

    def describe(self) -> str:
        return f"day {self.days} after {self.counted_from.value}"


@dataclass(frozen=True)
class Trigger:
    """When a recount is automatic: margin <= `share` x `base`."""

    share: Fraction
    base: str  # what the share is of, in the statute's words
    evidenced_by: str  # "the survey of returns", "the official abstract of votes cast"
    provision: Provision


@dataclass(frozen=True)
class MultiSeat:
    """Which totals a multi-seat contest compares. `statutory_rule` is set (a rules.margin.MultiSeatRule value)
    when the law itself says; otherwise the office's reading applies and `provision` is the model borrowed."""

    statutory_rule: str | None
    provision: Provision
    silent_reading: str | None = None


@dataclass(frozen=True)
class Requester:
    """A kind of interested party the law names, and what it must be in the contest."""

    kind: PartyKind
    condition: PartyCondition
    words: str  # the law's own words for it


@dataclass(frozen=True)
class Requesting:
    """Who may request a recount, in what form, and when."""

    parties: tuple[Requester, ...]
    provision: Provision
    parties_reading: str
    filed_with: str
    opens: Period  # the first day a request may be filed
    closes: Period  # the last day (a filing: it rolls to the next business day)
    definition: Provision | None = None  # where the law defines "interested party" apart from the request itself
    notarized: Provision | None = None
    once_only: Provision | None = None
    once_only_reading: str | None = None
    notify_subdivision: Period | None = None  # the official tells the political subdivision of the request

    def accepts(self, kind: PartyKind) -> Requester | None:
        return next((r for r in self.parties if r.kind is kind), None)

    @property
    def parties_provision(self) -> Provision:
        return self.definition or self.provision


class PaymentTiming(str, enum.Enum):
    ON_DEMAND = "on demand"
    WITHIN_DAYS_OF_COST = "within days of receiving the cost determination"


@dataclass(frozen=True)
class Cost:
    """Determining the cost of a requested recount, and any day it must be determined by."""

    provision: Provision
    within_days_of_receipt: int | None = None
    no_later_than_day: int | None = None  # after the election
    deadline_provision: Provision | None = None


@dataclass(frozen=True)
class Payment:
    provision: Provision
    timing: PaymentTiming
    held: str  # how the money is held: "held and used for payment of all expenses", "placed in escrow"
    within_days: int | None = None
    certified_funds: bool = False
    reading: str | None = None


@dataclass(frozen=True)
class Payer:
    """Who pays an automatic recount."""

    who: str
    provision: Provision


class LeftoverRule(str, enum.Enum):
    """What happens to what was paid beyond the actual cost when no refund is due."""

    RETURN_TO_REQUESTER = "returned to the requester (the statute says so)"
    RETURN_BY_READING = "returned to the requester (the statute is silent; the bot's reading)"
    TO_OFFICIALS = "paid to the election officials who conducted the recount"


@dataclass(frozen=True)
class Leftover:
    rule: LeftoverRule
    provision: Provision
    reading: str | None = None


@dataclass(frozen=True)
class Waiver:
    """Who may waive an automatic recount, of what, by when."""

    who: str
    of_what: str
    by: Period
    provision: Provision


class BodyNotice(str, enum.Enum):
    """Whether the law's notice of a recount goes to the local government's governing body, and for what."""

    EVERY_CONTEST = "every contest"  # 1-13.5-1306(1): "the governing body, all candidates, and any issue committee"
    BALLOT_QUESTIONS = "ballot issues and questions"  # 1-10.5-105: "any governing body ... affected by the result"
    NONE = "none"  # 31-10-1207(1): candidates and petition representatives only


@dataclass(frozen=True)
class Notice:
    recipients: tuple[str, ...]
    means: tuple[str, ...]
    provision: Provision
    observers: str  # who may be present and observe
    governing_body: BodyNotice = BodyNotice.EVERY_CONTEST  # what `recipients` says of the governing body


@dataclass(frozen=True)
class Tie:
    drawn_by: str
    provision: Provision
    covers: str  # what the section covers ("candidates ... for the same office")
    reading: str | None = None


@dataclass(frozen=True)
class AssistantPay:
    daily_floor: Decimal | None
    provision: Provision
    reading: str | None = None


@dataclass(frozen=True)
class ContestFiling:
    days: int
    counted_from: CountFrom
    provision: Provision


@dataclass(frozen=True)
class TimeRules:
    """How the law counts days, and which provision rolls a filing's last day past a weekend or legal holiday."""

    counting: Provision
    filing_rollover: Provision
    filing_rollover_applied_by: Provision | None = None  # e.g. 1-13.5-106(2) applying 1-1-106(4)
    # What the rollover provision reaches, as the default completion reading says it.
    rollover_scope: str = ("extends a period only where its act is a filing or other action during business hours, "
                           "which completing a recount is not")


class Part(str, enum.Enum):
    """Provisions a rule cites without a parameter of its own (the conduct of the recount, its documents)."""

    CONDUCT = "who conducts the recount, and who assists"
    EVIDENCE = "documentary evidence and correcting the returns"
    TALLY = "how the ballots are recounted and tallied"
    RESULTS = "notice of the results"
    CERTIFICATE = "certificates of election"
    PRE_COUNT = "what the official does before a requested recount"
    COST_NOTICE = "notifying the requester of the cost determined"
    COLLECTION = "collecting the cost before the recount begins"
    MACHINE_TEST = "a test of the voting equipment before the recount"
    CHALLENGE = "a challenge of the recount in court"
    STATEWIDE = "contests the Secretary of State orders recounted"


@dataclass(frozen=True)
class LawProfile:
    """One recount law. `key` is what an election stores and `--law` takes ("1-13.5-1306")."""

    key: str
    title: str
    plain_name: str  # the kind of election in a clerk's words ("coordinated election"), shown after the citation
    section: str  # the recount section(s), as cited ("1-13.5-1306", "1-10.5-101 to 107, 109")
    governs: str
    conducted_by: str
    texts: tuple[TextCopy, ...]
    trigger: Trigger
    multi_seat: MultiSeat
    automatic_completion: Period
    automatic_payer: Payer
    requesting: Requesting
    requested_completion: Period
    canvass: Period
    cost: Cost
    payment: Payment
    refund: Provision
    leftover: Leftover
    notice: Notice
    tie: Tie
    assistant_pay: AssistantPay
    contest_filing: ContestFiling
    time: TimeRules
    parts: Mapping[Part, Provision] = field(default_factory=dict)
    waiver: Waiver | None = None
    unconfirmed: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "parts", MappingProxyType(dict(self.parts)))

    @property
    def citation(self) -> str:
        """"C.R.S. 1-13.5-1306": the law as a whole."""
        return crs(self.section)

    @property
    def named(self) -> str:
        """"C.R.S. 1-10.5 (coordinated election)": how a verdict, card or letter names the law it applies."""
        return f"{self.citation} ({self.plain_name})"

    def short(self, citation: str) -> str:
        """A citation within the law's own section without its prefix ("C.R.S. 1-13.5-1306(2)(d)" -> "(2)(d)"), as
        a clerk reads it next to the section; any other citation whole."""
        prefix = self.citation
        if citation.startswith(prefix + "("):
            return citation[len(prefix):]
        return citation

    def cite(self, part: Part) -> str:
        """The citation of a provision without a parameter; the section itself when the law has none for it."""
        provision = self.parts.get(part)
        return provision.citation if provision is not None else self.citation

    def provision(self, part: Part) -> Provision | None:
        return self.parts.get(part)

    def all_provisions(self) -> tuple[Provision, ...]:
        """Every provision the profile quotes, once, in the order the fields list them (for the reference table)."""
        found: list[Provision] = []

        def visit(value: object) -> None:
            if isinstance(value, Provision):
                if value not in found:
                    found.append(value)
            elif isinstance(value, (Period, Trigger, MultiSeat, Requesting, Cost, Payment, Payer, Leftover, Waiver,
                                    Notice, Tie, AssistantPay, ContestFiling, TimeRules, Requester)):
                for name in value.__dataclass_fields__:
                    visit(getattr(value, name))
            elif isinstance(value, tuple):
                for item in value:
                    visit(item)

        for name in self.__dataclass_fields__:
            if name == "parts":
                for provision in self.parts.values():
                    visit(provision)
            else:
                visit(getattr(self, name))
        return tuple(found)
