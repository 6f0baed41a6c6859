"""The law a case's texts cite: the election's profile (issue 22), and 1-13.5-1306 only for a view that carries no
law (one built before the law was stored with the election)."""
from __future__ import annotations

from rules.laws import DEFAULT_LAW, LawProfile
from rules.laws.cites import Cites
from services.conduct.cases import CaseView


def case_law(case: CaseView) -> LawProfile:
    return case.law.profile if case.law is not None else DEFAULT_LAW


def cites(case: CaseView) -> Cites:
    return Cites.of(case_law(case))
