"""C.R.S. 1-13.5-1306: recounts under the Colorado Local Government Election Code (article 13.5).

Text read: R80 (Official Code of Colorado Annotated, Release 80, current through the 2022 regular session), which
matches the project's seed text of 1306 word for word. Source: L. 2014, HB 14-1164, effective 2014-02-18; no
amendment is shown. No copy newer than 2022 was found for 1306, 1304 or 1305 (see `unconfirmed`).
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rules.laws.profile import (
    AssistantPay,
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
from rules.laws.sources import R80, UEC_FILING_ROLLOVER
from rules.parties import PartyCondition, PartyKind

KEY = "1-13.5-1306"
SECTION = "1-13.5-1306"


def _p(subsection: str, words: str, section: str = SECTION) -> Provision:
    return Provision(crs(section, subsection), words, R80)


ONE = _p("(1)", "The designated election official shall order a recount of the votes cast in any election if it "
                "appears, as evidenced by the survey of returns, that the difference between the highest number of "
                "votes cast in the election and the next highest number of votes cast in the election is less than "
                "or equal to one-half of one percent of the highest number of votes cast in the election.")
ONE_COMPLETION = _p("(1)", "Any recount conducted pursuant to this subsection (1) shall be completed no later than "
                           "the twenty-eighth day following the election and shall be paid for by the governing "
                           "body of the local government.")
ONE_NOTICE = _p("(1)", "The designated election official shall give notice of the recount to the governing body, to "
                       "all candidates and, in the case of a ballot issue or question, to any issue committee that are "
                       "affected by the result of the election. The notice must be given by any means reasonably "
                       "expected to notify the affected candidates or issue committee. An affected candidate or issue "
                       "committee is allowed to be present during and observe the recount.")
TWO_A = _p("(2)(a)", "Whenever a recount of the votes cast in an election is not required pursuant to subsection (1) "
                     "of this section, any interested party, including an eligible elector or a candidate for office "
                     "or the issue committee for a ballot issue or question, may submit to the designated election "
                     "official a written request for a recount at the expense of the interested party making the "
                     "request. This request shall be filed with the designated election official within seventeen "
                     "days after the election.")
TWO_B = _p("(2)(b)", "Before conducting the recount, the designated election official shall: (I) Give notice of the "
                     "recount in accordance with subsection (1) of this section; (II) Determine the cost of the "
                     "recount; (III) Notify the interested party that requested the recount of such cost; and (IV) "
                     "Collect the actual cost of conducting the recount from such interested party.")
TWO_B_II = _p("(2)(b)(II)", "Determine the cost of the recount;")
TWO_B_III = _p("(2)(b)(III)", "Notify the interested party that requested the recount of such cost;")
TWO_B_IV = _p("(2)(b)(IV)", "Collect the actual cost of conducting the recount from such interested party.")
TWO_C = _p("(2)(c)", "The interested party that requested the recount shall pay on demand the cost of the recount to "
                     "the designated election official. The funds paid to the designated election official for the "
                     "recount must be held and used for payment of all expenses incurred in the recount.")
TWO_D = _p("(2)(d)", "If, after the recount, the result of the election is reversed in favor of the interested party "
                     "that requested the recount or if the amended election count is such that a recount otherwise "
                     "would have been required pursuant to subsection (1) of this section, the payment for expenses "
                     "must be refunded to the interested party who paid them.")
TWO_E = _p("(2)(e)", "Any recount of votes conducted pursuant to this subsection (2) must be completed no later than "
                     "the twenty-eighth day after canvassing the election.")
TWO_F = _p("(2)(f)", "If any leftover funds remain from the deposit paid under paragraph (c) of this subsection (2), "
                     "and the recount does not change the result of the election, the designated election official "
                     "shall return that unused portion of the deposit to the interested party who paid it.")
THREE = _p("(3)", "The designated election official is responsible for conducting the recount and shall be assisted "
                  "by those persons who assisted in preparing the official abstract of votes. ... Persons assisting "
                  "in the conduct of the recount shall be compensated as provided in section 1-13.5-1301 (4).")
FOUR = _p("(4)", "The designated election official may require the production of any documentary evidence regarding "
                 "the legality of any vote cast or counted and may correct the survey of returns in accordance with "
                 "the designated election official's findings based on the evidence presented.")
FIVE = _p("(5)", "In elections using paper or electronic ballots, the recounts are of the ballots cast and the votes "
                 "must be tallied on sheets other than those used at the election. In elections using voting "
                 "machines, the recount is of the votes tabulated on the voting machines, and separate tally sheets "
                 "must be used for each machine.")
SIX = _p("(6)", "After a recount conducted pursuant to this section has been completed, the designated election "
                "official shall notify the governing body of the local government conducting the election of the "
                "results of the recount, shall make a certificate of election for each candidate who received the "
                "highest number of votes for an office for which a recount was conducted, and shall deliver the "
                "certificate to such candidate.")
CANVASS = _p("(1)", "No later than the fourteenth day following the election, the canvass board shall make "
                    "statements from the official abstract of votes ...", section="1-13.5-1305")
TIE = _p("", "If any two or more candidates receive an equal and highest number of votes for the same office, and if "
             "there are not enough offices remaining for all such candidates, the canvass board shall determine by "
             "lot the person who shall be elected. Reasonable notice shall be given to such candidates of the time "
             "when such election will be so determined.", section="1-13.5-1304")
PAY_FLOOR = _p("(4)", "Each canvass board member who is not a member of the governing body shall receive a minimum "
                      "fee of fifteen dollars for each day of service. The fee shall be set by the designated election "
                      "official and paid by the local government for which the service is performed.",
               section="1-13.5-1301")
CONTEST = _p("", "The contestor shall file in the office of the clerk of the district court, within ten days after "
                 "the expiration of the period within which a recount may be requested pursuant to section "
                 "1-13.5-1306, or within ten days after the conclusion of a recount conducted pursuant to section "
                 "1-13.5-1306, whichever is later, a written statement of the contestor's intention to contest the "
                 "election ...", section="1-13.5-1403")
COUNTING = _p("(1)", "Calendar days shall be used in all computations of time made under this article.",
              section="1-13.5-107")
UEC_APPLIES = _p("(2)", "All provisions of the \"Uniform Election Code of 1992\" not in conflict with this article "
                        "13.5 apply to local government elections; except that: ...", section="1-13.5-106")
MULTI_SEAT_MODEL = _p("(1)(b)", "If there is more than one person to be elected in an election contest, a recount "
                                "shall be held if the difference between the votes cast for the candidate who won the "
                                "election with the least votes and the candidate who lost the election with the most "
                                "votes is less than or equal to one-half of one percent of the votes cast for the "
                                "candidate who won the election with the least votes.", section="1-10.5-101")

PARTIES_READING = (
    "(2)(a) says any interested party, 'including' an eligible elector, a candidate for office or the issue "
    "committee for a ballot issue or question; the bot accepts these three kinds only and leaves any other "
    "claim to the designated election official"
)
OPENS_READING = ("the window opens the day after the election: before it there is no survey of returns to show "
                 "whether a recount is required under (1)")
CANVASS_READING = ("counted from the day the canvass board certified (1-13.5-1305(1), no later than the 14th day); "
                   "until that day is entered the earliest possible deadline is shown (a canvass the day after the "
                   "election)")

PROFILE = LawProfile(
    key=KEY,
    title="Local Government Election Code recount",
    plain_name="special district or other local government election",
    section=SECTION,
    governs=("elections of special districts and other local governments conducted under article 13.5: the regular "
             "special district election on the Tuesday after the first Monday of May in odd-numbered years "
             "(1-13.5-111(1); 32-1-103(17)) and special elections (1-13.5-111(2)); not an election the county clerk "
             "coordinates"),
    conducted_by="the designated election official, assisted by those who prepared the official abstract of votes",
    texts=(R80,),
    trigger=Trigger(Fraction(1, 200), "the highest number of votes cast in the election", "the survey of returns",
                    ONE),
    multi_seat=MultiSeat(None, MULTI_SEAT_MODEL,
                         "1306(1) speaks only of the highest and the next highest number of votes; which two totals a "
                         "multi-seat contest compares is the office's reading"),
    automatic_completion=Period(28, CountFrom.ELECTION, ONE_COMPLETION),
    automatic_payer=Payer("the governing body", ONE_COMPLETION),  # "of the local government", (1)
    requesting=Requesting(
        parties=(Requester(PartyKind.ELIGIBLE_ELECTOR, PartyCondition.ANY_CONTEST, "an eligible elector"),
                 Requester(PartyKind.CANDIDATE, PartyCondition.CANDIDATE_IN_CONTEST, "a candidate for office"),
                 Requester(PartyKind.ISSUE_COMMITTEE, PartyCondition.SIDE_OF_QUESTION,
                           "the issue committee for a ballot issue or question")),
        provision=TWO_A, parties_reading=PARTIES_READING, filed_with="the designated election official",
        opens=Period(1, CountFrom.ELECTION, TWO_A, OPENS_READING),
        closes=Period(17, CountFrom.ELECTION, TWO_A),
    ),
    requested_completion=Period(28, CountFrom.CANVASS, TWO_E, CANVASS_READING),
    canvass=Period(14, CountFrom.ELECTION, CANVASS),
    cost=Cost(TWO_B_II),
    payment=Payment(TWO_C, PaymentTiming.ON_DEMAND, "held and used for payment of all expenses incurred in the recount"),
    refund=TWO_D,
    leftover=Leftover(LeftoverRule.RETURN_TO_REQUESTER, TWO_F),
    notice=Notice(("the governing body", "all candidates",
                   "any issue committee affected by the result (a ballot issue or question)"),
                  ("any means reasonably expected to notify the affected candidates or issue committee",), ONE_NOTICE,
                  "an affected candidate or issue committee"),
    tie=Tie("the canvass board", TIE, "two or more candidates with an equal and highest number of votes for the same "
                                      "office, when not enough offices remain for all of them"),
    assistant_pay=AssistantPay(Decimal("15.00"), PAY_FLOOR,
                               "applied to assistants by 1306(3): at least $15.00 a day for anyone not on the "
                               "governing body; no floor for its members"),
    contest_filing=ContestFiling(10, CountFrom.RECOUNT_PERIOD_OR_CONCLUSION, CONTEST),
    time=TimeRules(COUNTING, UEC_FILING_ROLLOVER, UEC_APPLIES),
    parts={Part.CONDUCT: THREE, Part.EVIDENCE: FOUR, Part.TALLY: FIVE, Part.RESULTS: SIX, Part.CERTIFICATE: SIX,
           Part.PRE_COUNT: TWO_B, Part.COST_NOTICE: TWO_B_III, Part.COLLECTION: TWO_B_IV},
    unconfirmed=(
        "No copy of 1-13.5-1306, 1-13.5-1304 or 1-13.5-1305 newer than R80 (2022) was found; none shows an amendment "
        "since 2016, but the 2023-2025 text is not confirmed.",
        "1-13.5-107(2) (amended 2021, SB 21-160) governs acts before an election; a recount's periods follow "
        "1-1-106 as 1-13.5-106(2) applies it.",
    ),
)
