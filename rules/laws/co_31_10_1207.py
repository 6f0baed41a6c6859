"""C.R.S. 31-10-1207: recounts under the Colorado Municipal Election Code (Title 31, article 10).

Text read: R80 (Official Code of Colorado Annotated, Release 80, current through the 2022 regular session); R71,
R75 and R78 (2020-2022) say the same. Source: L. 93; L. 2000; L. 2015 (HB 15-1130), effective 2015-08-05. No copy
newer than 2022 was found (see `unconfirmed`).
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rules.laws.profile import (
    AssistantPay,
    BodyNotice,
    ContestFiling,
    Cost,
    CountFrom,
    LawProfile,
    Leftover,
    LeftoverRule,
    MultiSeat,
    Notice,
    Part,
    Payer,
    Payment,
    PaymentTiming,
    Period,
    Provision,
    Requester,
    Requesting,
    Tie,
    TimeRules,
    Trigger,
    crs,
)
from rules.laws.sources import R80
from rules.parties import PartyCondition, PartyKind

KEY = "31-10-1207"
SECTION = "31-10-1207"


def _p(subsection: str, words: str, section: str = SECTION, note: str = "") -> Provision:
    return Provision(crs(section, subsection), words, R80, note=note)


ONE = _p("(1)", "The municipal clerk shall conduct a recount of the votes cast in any election if it appears, as "
                "evidenced by the survey of returns, that the difference between the highest number of votes cast in "
                "the election and the next highest number of votes cast in the election is less than or equal to "
                "one-half of one percent of the highest number of votes cast in the election.")
ONE_COMPLETION = _p("(1)", "Any recount conducted pursuant to this subsection (1) shall be completed no later than "
                           "the fifteenth day following the election and shall be paid for by the governing body.")
ONE_NOTICE = _p("(1)", "The clerk shall give notice of the recount to all candidates and, in the case of a ballot issue "
                       "or question, to any petition representatives identified pursuant to sections 31-2-221 (1), "
                       "31-4-502 (1)(a)(I), and 31-11-106 (2) that are affected by the result of the election. Such "
                       "notice shall be given by certified mail, by posting such notice in three public places within "
                       "the municipal limits, or by other means reasonably expected to notify the affected candidates "
                       "or petition representatives. Any affected candidate or petition representative is allowed to "
                       "be present during and observe the recount.")
TWO = _p("(2)", "Whenever a recount of the votes cast in an election is not required pursuant to subsection (1) of "
                "this section, any interested party, including a candidate for office or the petition representatives "
                "for a ballot issue or question, may submit to the clerk a written request for a recount at the "
                "expense of the interested party making the request. This request shall be filed with the clerk "
                "within ten days after the election.")
TWO_BEFORE = _p("(2)", "Before conducting the recount, the clerk shall give notice of the recount in accordance with "
                       "the provisions of subsection (1) of this section, shall determine the cost of the recount, "
                       "shall notify the interested party that requested the recount of such cost, and shall collect "
                       "the cost of conducting the recount from such interested party.")
TWO_PAY = _p("(2)", "The interested party that requested the recount shall pay on demand the cost of the recount to "
                    "the clerk. The funds paid to the clerk for the recount shall be placed in escrow for payment of "
                    "all expenses incurred in the recount.")
TWO_REFUND = _p("(2)", "If, after the recount, the result of the election is reversed in favor of the interested party "
                       "that requested the recount or if the amended election count is such that a recount otherwise "
                       "would have been required pursuant to subsection (1) of this section, the payment for expenses "
                       "shall be refunded to the interested party who paid them.")
TWO_COMPLETION = _p("(2)", "Any recount of votes conducted pursuant to this subsection (2) shall be completed no later "
                           "than the fifteenth day after the election.")
THREE = _p("(3)", "The clerk shall be responsible for conducting the recount and shall be assisted by those persons who "
                  "assisted in preparing the official abstract of votes. If the person cannot participate in the "
                  "recount, another person shall be appointed as provided in section 31-10-1201. ... Persons "
                  "assisting in the conduct of the recount shall be compensated as provided in section 31-10-1206.")
FOUR = _p("(4)", "The clerk may require the production of any documentary evidence regarding the legality of any vote "
                 "cast or counted and may correct the survey of returns in accordance with the clerk's findings based "
                 "on the evidence presented.")
FIVE = _p("(5)", "In precincts using paper or electronic ballots, the recounts shall be of the ballots cast, and the "
                 "votes shall be tallied on sheets other than those used at the election. In precincts using voting "
                 "machines, the recount shall be of the votes tabulated on the voting machines, and separate tally "
                 "sheets shall be used for each machine.")
SIX = _p("(6)", "After a recount conducted pursuant to this section has been completed, the clerk shall notify the "
                "governing body of the results of the recount, shall make a certificate of election for each candidate "
                "who received the highest number of votes for an office for which a recount was conducted, and shall "
                "deliver the certificate to such candidate.")
CANVASS = _p("", "No later than ten days after the election, the clerk, in the presence of the assistant, shall open "
                 "the returns and make out abstracts of votes for each office.", section="31-10-1201")
TIE = _p("", "If any two or more candidates receive an equal and the highest number of votes for the same office and "
             "if there are not enough offices remaining for all such candidates, the clerk and his assistant shall "
             "determine by lot the person who shall be elected. Reasonable notice shall be given to such candidates "
             "of the time when such election will be so determined.", section="31-10-1204")
PAY = _p("", "Each municipal judge appointed to assist the clerk in opening the returns of any municipal election and "
             "making abstracts of the votes cast thereat ... shall receive for such services the sum of ten dollars "
             "for each day in which he is actually engaged therein, to be paid by the municipality in which such "
             "service is rendered.", section="31-10-1206")
CONTEST = _p("", "The contestor shall file in the office of the clerk of the district court, within ten days after the "
                 "expiration of the period within which a recount may be requested pursuant to section 31-10-1207 (2), "
                 "or within ten days after the conclusion of a recount conducted pursuant to section 31-10-1207, "
                 "whichever is later, a written statement of the contestor's intention to contest the election ...",
             section="31-10-1303")
COUNTING = _p("", "Calendar days shall be used in all computations of time made under this article 10.",
              section="31-10-103")
ROLLOVER = _p("", "Saturdays, Sundays, and legal holidays shall be included, but, if the time for any act to be done or "
                  "the last day of any period is a Saturday, Sunday, or a legal holiday, the period is extended to "
                  "include the next day which is not a Saturday, Sunday, or legal holiday.", section="31-10-103",
              note="31-10-103 has no subsections; this sentence follows the one on acts before an election but is not "
                   "limited by it (2-4-108(2) extends any period alike)")
MULTI_SEAT_MODEL = _p("(1)(b)", "If there is more than one person to be elected in an election contest, a recount "
                                "shall be held if the difference between the votes cast for the candidate who won the "
                                "election with the least votes and the candidate who lost the election with the most "
                                "votes is less than or equal to one-half of one percent of the votes cast for the "
                                "candidate who won the election with the least votes.", section="1-10.5-101")

PARTIES_READING = (
    "31-10-1207(2) says any interested party, 'including' a candidate for office or the petition representatives for "
    "a ballot issue or question; the bot accepts these two kinds only and leaves any other claim to the clerk"
)
OPENS_READING = ("the window opens the day after the election: before it there is no survey of returns to show "
                 "whether a recount is required under (1); the canvass is due the same tenth day (31-10-1201), so a "
                 "request may come before the canvass")
LEFTOVER_READING = (
    "31-10-1207 has no clause on the unused part of the escrow (the special districts' recount law has one); the "
    "funds are in escrow 'for payment of all expenses incurred in the recount' and nothing authorises keeping a "
    "surplus, so the unused part is returned to the requester; the clerk is told it is a reading"
)

PROFILE = LawProfile(
    key=KEY,
    title="Municipal Election Code recount",
    plain_name="municipal election",
    section=SECTION,
    governs=("municipal elections the municipal clerk conducts under the Municipal Election Code: a statutory town's "
             "regular election on the first Tuesday of April in even-numbered years, a city's on the first Tuesday of "
             "November in odd-numbered years (31-1-101(10)) or the date its electors adopted (31-10-109), and special "
             "elections on a Tuesday the governing body designates (31-10-108); not an election the county clerk "
             "coordinates (1-7-116) nor one held under the Uniform Election Code by ordinance (31-10-102.7)"),
    conducted_by="the municipal clerk, assisted by those who assisted in preparing the official abstract of votes",
    texts=(R80,),
    trigger=Trigger(Fraction(1, 200), "the highest number of votes cast in the election", "the survey of returns",
                    ONE),
    multi_seat=MultiSeat(None, MULTI_SEAT_MODEL,
                         "31-10-1207(1) speaks only of the highest and the next highest number of votes; which two "
                         "totals a multi-seat contest compares is the office's reading"),
    automatic_completion=Period(15, CountFrom.ELECTION, ONE_COMPLETION),
    automatic_payer=Payer("the governing body", ONE_COMPLETION),
    requesting=Requesting(
        parties=(Requester(PartyKind.CANDIDATE, PartyCondition.CANDIDATE_IN_CONTEST, "a candidate for office"),
                 Requester(PartyKind.PETITION_REPRESENTATIVE, PartyCondition.SIDE_OF_QUESTION,
                           "the petition representatives for a ballot issue or question")),
        provision=TWO, parties_reading=PARTIES_READING, filed_with="the clerk",
        opens=Period(1, CountFrom.ELECTION, TWO, OPENS_READING),
        closes=Period(10, CountFrom.ELECTION, TWO),
    ),
    requested_completion=Period(15, CountFrom.ELECTION, TWO_COMPLETION),
    canvass=Period(10, CountFrom.ELECTION, CANVASS),
    cost=Cost(TWO_BEFORE),
    payment=Payment(TWO_PAY, PaymentTiming.ON_DEMAND, "placed in escrow for payment of all expenses incurred in the "
                                                      "recount"),
    refund=TWO_REFUND,
    leftover=Leftover(LeftoverRule.RETURN_BY_READING, TWO_PAY, LEFTOVER_READING),
    notice=Notice(("all candidates",
                   "the petition representatives affected by the result (a ballot issue or question), identified "
                   "under 31-2-221(1), 31-4-502(1)(a)(I) and 31-11-106(2)"),
                  ("certified mail", "posting the notice in three public places within the municipal limits",
                   "other means reasonably expected to notify the affected candidates or petition representatives"),
                  ONE_NOTICE, "any affected candidate or petition representative", BodyNotice.NONE),
    tie=Tie("the clerk and the clerk's assistant", TIE,
            "two or more candidates with an equal and the highest number of votes for the same office, when not "
            "enough offices remain for all of them"),
    assistant_pay=AssistantPay(Decimal("10.00"), PAY,
                               "applied to assistants by 31-10-1207(3): 31-10-1206 names ten dollars a day for a "
                               "municipal judge who assists the clerk; the bot refuses less and leaves more to the "
                               "clerk"),
    contest_filing=ContestFiling(10, CountFrom.RECOUNT_PERIOD_OR_CONCLUSION, CONTEST),
    time=TimeRules(COUNTING, ROLLOVER,
                   rollover_scope="extends \"the last day of any period\", which may reach a completion day too"),
    parts={Part.CONDUCT: THREE, Part.EVIDENCE: FOUR, Part.TALLY: FIVE, Part.RESULTS: SIX, Part.CERTIFICATE: SIX,
           Part.PRE_COUNT: TWO_BEFORE, Part.COST_NOTICE: TWO_BEFORE, Part.COLLECTION: TWO_BEFORE},
    unconfirmed=(
        "No copy of 31-10-1207, 31-10-1204 or 31-10-1201 newer than R80 (2022) was found; none shows an amendment "
        "since 2015, but the 2023-2025 text is not confirmed.",
        "31-10-1207 says nothing of an unused escrow balance; the bot returns it to the requester by reading.",
    ),
)
