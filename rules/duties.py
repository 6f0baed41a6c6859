"""What is still owed for a recount case, from what has been recorded: the one list that App Home's "Waiting on
you", the case card and the daily reminders all show. Each duty cites the election's law (`duties_of(law=...)`;
1-13.5-1306 by default, whose subsections are named below; 31-10-1207 and 1-10.5 have their own, from the profile).

The duties, each with the subsection that makes it one:

- a notice of the recount not yet given — (1), and (2)(b)(I) for a requested recount;
- after completion, the notice of the results to the governing body — (6);
- each certificate of election made at completion and not yet delivered to its candidate — (6) ("shall make a
  certificate of election ... and shall deliver the certificate to such candidate");
- the refund of the payment — (2)(d) — or the return of the unused portion of the deposit — (2)(f) — until the
  office records that the money went back to the requester;
- a balance of the actual cost still due from the requester, demanded under (2)(c), until collected in full;
- a tie the completed recount left for the last seat: the drawing of lots by the canvass board (1-13.5-1304),
  until it is recorded (its certificate of election is made then, and becomes a duty of its own);
- after a lot drawn once the notice of the results was given, the amended notice of the results — (6).

Reading (DUTIES_READING): (6), (2)(c), (2)(d) and (2)(f) set no day for what follows the completion. The bot reads
each as owed from the completion on: it stays listed until recorded done, and the office is reminded of what is
left every day at its reminder hour from the day after the completion.

"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal

from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.profile import Part
from rules.money import ZERO, format_money
from rules.statute import TIE_BY_LOT_CITATION, cite

DUTIES_READING = (
    "C.R.S. 1-13.5-1306(6), (2)(c), (2)(d) and (2)(f) set no day for what follows the completion of a recount; "
    "recount-bot reads each as owed from the completion on, lists it until it is recorded done and reminds the "
    "office of what is left every day"
)


def duties_reading(law: LawProfile = DEFAULT_LAW) -> str:
    if law is DEFAULT_LAW:
        return DUTIES_READING
    cited = ", ".join(dict.fromkeys((law.cite(Part.RESULTS), law.refund.citation, law.leftover.provision.citation)))
    return (f"{cited} set no day for what follows the completion of a recount; recount-bot reads each as owed from "
            f"the completion on, lists it until it is recorded done and reminds the office of what is left every day")


class DutyKind(str, enum.Enum):
    NOTICE = "notice"  # (1) / (2)(b)(I): a notice of the recount not yet given
    RESULTS_NOTICE = "results_notice"  # (6)
    CERTIFICATE = "certificate"  # (6): deliver a certificate of election
    REFUND = "refund"  # (2)(d)
    DEPOSIT_RETURN = "deposit_return"  # (2)(f)
    BALANCE = "balance"  # (2)(c)
    LOT = "lot"  # 1-13.5-1304: the drawing of lots for a tie the recount left
    TO_OFFICIALS = "to_officials"  # 1-10.5-106(2), 2022 text: the unused escrow, to the officials who conducted it
    AMENDED_NOTICE = "amended_notice"  # (6): the notice of the results amended by the lot


@dataclass(frozen=True)
class OwedNotice:
    id: int
    recipient_kind: str  # governing_body, candidate, issue_committee
    recipient_name: str
    citation: str


@dataclass(frozen=True)
class OwedCertificate:
    id: int
    candidate: str
    delivered: bool


@dataclass(frozen=True)
class CaseFacts:
    """What the office has recorded about a case, as far as duties go."""

    case_id: int
    contest: str
    requested: bool
    completed: bool
    governing_body: str
    notices: tuple[OwedNotice, ...] = ()  # only those not yet given
    results_notified: bool = False
    certificates: tuple[OwedCertificate, ...] = ()
    settlement_outcome: str | None = None  # rules.settlement.SettlementOutcome value
    refund: Decimal = ZERO
    deposit_return: Decimal = ZERO
    to_officials: Decimal = ZERO
    money_returned: bool = False
    requester: str = "the requester"
    balance_outstanding: Decimal = ZERO
    tied_for_lot: tuple[str, ...] = ()  # the candidates tied for the last seat while the lot is not yet drawn
    amended_notice_owed: bool = False


@dataclass(frozen=True)
class Duty:
    kind: DutyKind
    case_id: int
    what: str  # what is owed, as a clerk reads it aloud
    citation: str
    target: int  # what the button that records it done carries: the notice's, the certificate's or the case's id

    @property
    def line(self) -> str:
        return f"{self.what} ({self.citation})"


RECIPIENT = {"governing_body": "the governing body", "candidate": "candidate", "issue_committee": "issue committee"}


def _money_duties(facts: CaseFacts, law: LawProfile) -> list[Duty]:
    owed: list[Duty] = []
    if not facts.money_returned:
        if facts.settlement_outcome == "refund" and facts.refund > ZERO:
            owed.append(Duty(DutyKind.REFUND, facts.case_id, f"Refund {format_money(facts.refund)} to {facts.requester}",
                             _cite(law, "(2)(d)", law.refund.citation), facts.case_id))
        elif facts.settlement_outcome == "return_unused_deposit" and facts.deposit_return > ZERO:
            owed.append(Duty(DutyKind.DEPOSIT_RETURN, facts.case_id,
                             f"Return the unused deposit of {format_money(facts.deposit_return)} to {facts.requester}",
                             _cite(law, "(2)(f)", law.leftover.provision.citation), facts.case_id))
        elif facts.settlement_outcome == "unused_to_officials" and facts.to_officials > ZERO:
            owed.append(Duty(DutyKind.TO_OFFICIALS, facts.case_id,
                             f"Pay the unused escrow of {format_money(facts.to_officials)} to the election officials "
                             f"who conducted the recount (not returned to {facts.requester}; confirm the text in "
                             f"force)", law.leftover.provision.citation, facts.case_id))
    if facts.balance_outstanding > ZERO:
        owed.append(Duty(DutyKind.BALANCE, facts.case_id,
                         f"Collect the balance of {format_money(facts.balance_outstanding)} due from "
                         f"{facts.requester}", _cite(law, "(2)(c)", law.payment.provision.citation), facts.case_id))
    return owed


def _cite(law: LawProfile, default_subsection: str, citation: str) -> str:
    """The 1306 subsection (unchanged for the callers that know it) or the law's own provision."""
    return cite(default_subsection) if law is DEFAULT_LAW else citation


def duties_of(facts: CaseFacts, law: LawProfile = DEFAULT_LAW) -> tuple[Duty, ...]:
    """Everything still owed for the case under `law`, in the order the statute lists it."""
    owed: list[Duty] = []
    for notice in facts.notices:
        who = RECIPIENT.get(notice.recipient_kind, notice.recipient_kind)
        owed.append(Duty(DutyKind.NOTICE, facts.case_id, f"Give notice of the recount to {who} {notice.recipient_name}",
                         notice.citation, notice.id))
    if not facts.completed:
        return tuple(owed)
    results = law.cite(Part.RESULTS)
    if not facts.results_notified:
        owed.append(Duty(DutyKind.RESULTS_NOTICE, facts.case_id,
                         f"Notify {facts.governing_body} of the results of the recount", results, facts.case_id))
    if facts.tied_for_lot:
        by = "" if law is DEFAULT_LAW else f" (drawn by {law.tie.drawn_by})"
        owed.append(Duty(DutyKind.LOT, facts.case_id,
                         f"Record the drawing of lots among {', '.join(facts.tied_for_lot)} for the tied seat{by}",
                         TIE_BY_LOT_CITATION if law is DEFAULT_LAW else law.tie.provision.citation, facts.case_id))
    if facts.amended_notice_owed:
        owed.append(Duty(DutyKind.AMENDED_NOTICE, facts.case_id,
                         f"Send {facts.governing_body} the notice of the results amended by the lot", results,
                         facts.case_id))
    for certificate in facts.certificates:
        if not certificate.delivered:
            owed.append(Duty(DutyKind.CERTIFICATE, facts.case_id,
                             f"Deliver the certificate of election to {certificate.candidate}",
                             law.cite(Part.CERTIFICATE), certificate.id))
    return tuple(owed + _money_duties(facts, law))


def money_to_return(facts: CaseFacts) -> Decimal:
    """What the requester is owed back under (2)(d) or (2)(f); zero when nothing is."""
    if facts.settlement_outcome == "refund":
        return facts.refund
    if facts.settlement_outcome == "return_unused_deposit":
        return facts.deposit_return
    return ZERO


def summary_lines(duties: tuple[Duty, ...] | list[Duty], *, subject: str) -> list[str]:
    """One line per duty, the notices of the recount folded into one line ("Record 3 outstanding notices of case
    #7 (...)"), each naming `subject` (the case) and its subsection."""
    lines: list[str] = []
    notices = [d for d in duties if d.kind is DutyKind.NOTICE]
    if notices:
        citations = sorted({d.citation for d in notices})
        lines.append(f"Record {len(notices)} outstanding notice{'s' if len(notices) != 1 else ''} of {subject} "
                     f"({', '.join(citations)})")
    lines += [f"{d.what} — {subject} ({d.citation})" for d in duties if d.kind is not DutyKind.NOTICE]
    return lines
