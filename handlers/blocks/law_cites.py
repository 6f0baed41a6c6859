"""The law a case's texts cite: the election's profile (issue 22), and 1-13.5-1306 only for a view that carries no
law (one built before the law was stored with the election)."""
from __future__ import annotations

from rules.laws import DEFAULT_LAW, LawProfile, UnknownLaw, law_profile
from rules.laws.cites import Cites
from services.conduct.cases import CaseView
from services.requests.views import RequestView


def case_law(case: CaseView) -> LawProfile:
    return case.law.profile if case.law is not None else DEFAULT_LAW


def cites(case: CaseView) -> Cites:
    return Cites.of(case_law(case))


def request_law(request: RequestView) -> LawProfile:
    """The law a request was decided under, as its evaluation recorded it (rules.requests puts the key in its
    numbers); 1-13.5-1306 for an evaluation made before the law was stored."""
    try:
        return law_profile((request.evaluation.get("numbers") or {}).get("law"))
    except UnknownLaw:
        return DEFAULT_LAW
