"""The citations a recount's texts show, read from the election's law rather than from 1-13.5-1306's subsections.

Issue 22: a report, a letter or a modal that cited "1306(6)" or "1306(2)(d)" by fixed subsection named the wrong
law for a town's or a county's recount. Each attribute here is the provision of `law` that governs the same thing,
taken from the profile (its parameters or `parts`), so under 1-13.5-1306 every text reads exactly as before and
under another law it names that law's own provision. `joined` writes several citations of one section the way a
clerk reads them ("C.R.S. 1-13.5-1306(2)(c), (2)(d), (2)(f)").
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.laws.profile import LawProfile, Part


@dataclass(frozen=True)
class Cites:
    law: LawProfile
    trigger: str  # when a recount is automatic (1306(1))
    notice: str  # the notice of the recount (1306(1))
    request: str  # who may request, at whose expense (1306(2)(a))
    pre_count: str  # what comes before a requested recount is counted (1306(2)(b))
    cost: str  # determining the cost (1306(2)(b)(II))
    cost_notice: str  # notifying the requester of it (1306(2)(b)(III))
    collection: str  # collecting it before counting (1306(2)(b)(IV))
    payment: str  # paying it, and how the money is held (1306(2)(c))
    refund: str  # the refund (1306(2)(d))
    leftover: str  # what was paid beyond the actual cost (1306(2)(f))
    requested_completion: str  # when a requested recount is complete (1306(2)(e))
    automatic_completion: str  # when an automatic recount is complete, and who pays it (1306(1))
    conduct: str  # who conducts and assists (1306(3))
    evidence: str  # documentary evidence (1306(4))
    tally: str  # the recount and its tally sheets (1306(5))
    results: str  # notice of the results to the governing body (1306(6))
    certificate: str  # certificates of election (1306(6))
    tie: str  # a tie decided by lot (1-13.5-1304)

    @classmethod
    def of(cls, law: LawProfile) -> Cites:
        return cls(
            law=law, trigger=law.trigger.provision.citation, notice=law.notice.provision.citation,
            request=law.requesting.provision.citation, pre_count=law.cite(Part.PRE_COUNT), cost=law.cost.provision.citation,
            cost_notice=law.cite(Part.COST_NOTICE), collection=law.cite(Part.COLLECTION),
            payment=law.payment.provision.citation, refund=law.refund.citation,
            leftover=law.leftover.provision.citation,
            requested_completion=law.requested_completion.provision.citation,
            automatic_completion=law.automatic_completion.provision.citation,
            conduct=law.cite(Part.CONDUCT), evidence=law.cite(Part.EVIDENCE), tally=law.cite(Part.TALLY),
            results=law.cite(Part.RESULTS), certificate=law.cite(Part.CERTIFICATE), tie=law.tie.provision.citation)

    @property
    def settlement(self) -> str:
        """Where the law settles a requester's money: payment, refund and what is left over."""
        return self.joined(self.payment, self.refund, self.leftover)

    def joined(self, *citations: str) -> str:
        """Distinct citations in order; those within the law's own section after the first are shortened."""
        distinct = list(dict.fromkeys(citations))
        first, rest = distinct[0], distinct[1:]
        return ", ".join([first, *(self.law.short(c) for c in rest)])
