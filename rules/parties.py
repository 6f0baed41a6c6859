"""Who asks for a recount: the kinds of interested party the recount laws name, and what each must be.

A law's profile (rules.laws) lists which kinds it accepts and under what condition; `rules.requests` checks a
request against that list. The kinds are the union of what the three Colorado laws name:

- 1-13.5-1306(2)(a): "any interested party, including an eligible elector or a candidate for office or the issue
  committee for a ballot issue or question";
- 31-10-1207(2): "any interested party, including a candidate for office or the petition representatives for a
  ballot issue or question";
- 1-10.5-106(1): "the candidate who lost the election, the political party or political organization of such
  candidate, any petition representative ... for a ballot issue or ballot question that did not pass ..., the
  governing body that referred a ballot question or ballot issue ... if [it] did not pass ..., or the agent of an
  issue committee ... that either supported a ballot question or ballot issue that did not pass ... or opposed a
  ballot question or ballot issue that passed".
"""
from __future__ import annotations

import enum


class PartyKind(str, enum.Enum):
    ELIGIBLE_ELECTOR = "eligible_elector"
    CANDIDATE = "candidate"
    ISSUE_COMMITTEE = "issue_committee"  # 1306: the issue committee; 1-10.5: the agent of an issue committee
    PETITION_REPRESENTATIVE = "petition_representative"
    POLITICAL_PARTY = "political_party"  # the political party or political organization of a candidate
    GOVERNING_BODY = "governing_body"  # the governing body that referred a ballot question or issue

    @property
    def label(self) -> str:
        return PARTY_LABELS[self]


PARTY_LABELS = {
    PartyKind.ELIGIBLE_ELECTOR: "an eligible elector",
    PartyKind.CANDIDATE: "a candidate",
    PartyKind.ISSUE_COMMITTEE: "an issue committee",
    PartyKind.PETITION_REPRESENTATIVE: "a petition representative",
    PartyKind.POLITICAL_PARTY: "the political party or political organization of a candidate",
    PartyKind.GOVERNING_BODY: "the governing body that referred the measure",
}


class PartyCondition(str, enum.Enum):
    """What the request's contest and result must be for a kind of party to be an interested party."""

    ANY_CONTEST = "any contest"
    CANDIDATE_IN_CONTEST = "a candidate in this candidate contest"
    LOSING_CANDIDATE = "a candidate in this contest who lost it"
    PARTY_OF_LOSING_CANDIDATE = "for a candidate in this contest who lost it"
    SIDE_OF_QUESTION = "for a side of this ballot question"
    LOSING_SIDE_OF_QUESTION = "for the side of this ballot question that lost"
