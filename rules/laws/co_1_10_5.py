"""C.R.S. 1-10.5-101 to 107 and 109: recounts under the Uniform Election Code in an election the county clerk and
recorder coordinates (November coordinated elections: county offices, school districts, and the municipal and
district offices and measures on the county's ballot).

Texts read, newest preferred: CPL24 for 103 and 105 (from the official 2023 C.R.S.), CT24 for 102 and 106 (2024
session; only their first ~2,000 characters), R80 (2022) for the rest. The current 1-10.5-106(2) could be read
only to "... and shall notify the interested p"; every rule after that point follows the 2022 text or a stated
reading, and says so (`unconfirmed`).
"""
from __future__ import annotations

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
    Waiver,
    crs,
)
from rules.laws.sources import CPL24_103, CPL24_105, CT24_102, CT24_106, R80, UEC_COUNTING, UEC_FILING_ROLLOVER
from rules.parties import PartyCondition, PartyKind

KEY = "1-10.5"
CUT_OFF = ("the 2024 text of 1-10.5-106(2) could be read only to \"... and shall notify the interested p\"; this "
           "follows the 2022 text (R80)")

TRIGGER = Provision(
    crs("1-10.5-101", "(1)(b)"),
    "A recount of any election contest shall be held if the difference between the highest number of votes cast in "
    "that election contest and the next highest number of votes cast in that election contest is less than or equal "
    "to one-half of one percent of the highest vote cast in that election contest. If there is more than one person "
    "to be elected in an election contest, a recount shall be held if the difference between the votes cast for the "
    "candidate who won the election with the least votes and the candidate who lost the election with the most votes "
    "is less than or equal to one-half of one percent of the votes cast for the candidate who won the election with "
    "the least votes. A recount shall occur only after the canvass board certifies the original vote count.",
    R80, note="the Secretary of State's release of 2024-07-15 quotes (1)(b) the same, as far as its excerpt runs")
PAYER = Provision(
    crs("1-10.5-101", "(2)"),
    "Except as provided in section 1-10.5-106, any expenses incurred in conducting a recount in any political "
    "subdivision shall be paid by the entity that certified the candidate, ballot question, or ballot issue for the "
    "ballot. Members of the canvass board who assist in any recount shall receive the same fees authorized for "
    "counting judges in section 1-6-115.",
    R80, confirmed=False, note="no copy newer than R80 (2022) was found")
AUTOMATIC = Provision(
    crs("1-10.5-103"),
    "In any election coordinated by the county clerk and recorder, if it appears, as evidenced by the official "
    "abstract of votes cast, that a recount is required for any office, ballot question, or ballot issue not included "
    "in section 1-10.5-102, the county clerk and recorder shall order a recount of the votes cast for the office, "
    "ballot question, or ballot issue to be conducted in accordance with section 1-10.5-102. Any recount of the votes "
    "must be completed no later than the thirty-first day after the election.",
    CPL24_103, note="the thirty-fifth day in copies through 2022 (R80)")
WAIVER = Provision(
    crs("1-10.5-103"),
    "A political subdivision that referred a ballot issue or ballot question to the electors may waive the automatic "
    "recount provisions of this section if the ballot issue or ballot question fails by giving written notice to the "
    "county clerk and recorder within twenty-three days after any election.",
    CPL24_103)
STATEWIDE = Provision(
    crs("1-10.5-102", "(1), (2)"),
    "(1) If the secretary of state determines that a recount is required for the office of United States senator, "
    "representative in congress, any state office or district office of state concern, any state ballot question, or "
    "any state ballot issue certified for the ballot by the secretary of state, the secretary of state shall order a "
    "complete recount ... no later than the twenty-fourth day after the election. (2) ... The recount must be "
    "completed no later than the thirty-first day after any election. The secretary of state shall promulgate and "
    "provide each county clerk and recorder with the necessary rules to conduct the recount ...",
    CT24_102)
MACHINE_TEST = Provision(
    crs("1-10.5-102", "(3)(a)"),
    "Prior to any recount, the canvass board shall choose at random and test at least one ballot scanner that will be "
    "used in the candidate race, ballot issue, or ballot question that is the subject of the recount. ...",
    CT24_102, confirmed=False, note="the rest of (3) could not be read")
NOTICE = Provision(
    crs("1-10.5-105"),
    "Notice prior to the recount must be given to all candidates and, in the case of a ballot issue or ballot "
    "question, any petition representative identified pursuant to section 1-40-113, any governing body, or any agent "
    "of an issue committee, if such committee is required to report contributions to the secretary of state pursuant "
    "to the \"Fair Campaign Practices Act\", article 45 of this title, that are affected by the result of the "
    "election. Notice must be given by e-mail, telephone, facsimile transmission, or personal service.",
    CPL24_105, note="since SB 21-250 (2021); before it, certified mail and telephone, fax or personal service")
DEFINITION = Provision(
    crs("1-10.5-106", "(1)"),
    "As used in this section, \"interested party\" means the candidate who lost the election, the political party or "
    "political organization of such candidate, any petition representative identified pursuant to section 1-40-113 "
    "for a ballot issue or ballot question that did not pass at the election, the governing body that referred a "
    "ballot question or ballot issue to the electorate if such ballot question or ballot issue did not pass at the "
    "election, or the agent of an issue committee ... that either supported a ballot question or ballot issue that "
    "did not pass at the election or opposed a ballot question or ballot issue that passed at the election.",
    CT24_106)
REQUEST = Provision(
    crs("1-10.5-106", "(2)"),
    "Whenever a recount is not required an interested party may submit a notarized written request for a recount to "
    "be conducted in accordance with section 1-10.5-102 at the expense of the interested party making the request. "
    "This request must be filed with the secretary of state, the county clerk and recorder, the designated election "
    "official, or other governing body that originally certified the candidate, ballot question, or ballot issue for "
    "the ballot no sooner than ten days or later than twenty-two days after any primary, general, coordinated, or "
    "recall election. A request under this section by an interested party may be made only once. The election "
    "official shall notify the political subdivision within which the election was held no later than the day "
    "following receipt of the request.",
    CT24_106)
COST = Provision(
    crs("1-10.5-106", "(2)"),
    "Before conducting the recount, the election official who will conduct the recount shall determine the cost of "
    "the recount within four days of receiving the request to recount, but no later than twenty-four days following "
    "the election, and shall notify the interested p[arty] ...",
    CT24_106)
PAYMENT = Provision(
    crs("1-10.5-106", "(2)"),
    "The interested party that requested the recount shall pay the cost of the recount by certified funds to the "
    "election official with whom the request for a recount was filed within one day of receiving the election "
    "official's cost determination. The funds shall be placed in escrow for payment of all expenses incurred in the "
    "recount.",
    R80, confirmed=False, note=CUT_OFF)
REFUND = Provision(
    crs("1-10.5-106", "(2)"),
    "If after the recount the result of the election is reversed in favor of the interested party that requested the "
    "recount or if the amended election count is such that a recount otherwise would have been required, the payment "
    "for expenses shall be refunded to the interested party that requested the recount.",
    R80, confirmed=False, note=CUT_OFF + "; Douglas County's 2024-era page describes the same refund")
LEFTOVER = Provision(
    crs("1-10.5-106", "(2)"),
    "Any escrow amounts not refunded to the interested party that requested the recount shall be paid to the "
    "election officials who conducted the recount.",
    R80, confirmed=False, note=CUT_OFF)
REQUESTED_COMPLETION = Provision(
    crs("1-10.5-106", "(2); 1-10.5-102(2)"),
    "106(2): \"a notarized written request for a recount to be conducted in accordance with section 1-10.5-102\"; "
    "102(2): \"The recount must be completed no later than the thirty-first day after any election.\"",
    CT24_106, confirmed=False,
    note="the 2024 text of 106(2) could not be read to its completion sentence; the 2022 text (R80) said \"no later "
         "than the thirty-seventh day\"; read as the thirty-first day of 102(2), which 106(2) now applies")
CANVASS = Provision(
    crs("1-10-102", "(1)"),
    "No later than the twenty-second day after any election coordinated by the county clerk and recorder, the canvass "
    "board shall complete its duties.", R80)
TIE = Provision(
    crs("1-11-102"),
    "If any two or more candidates tie for the highest number of votes for the same office and if there are not enough "
    "offices remaining for all the candidates, the board of canvassers shall determine by lot the person who shall be "
    "elected. Reasonable notice shall be given to the candidates who are involved of the time when the election will "
    "be determined.", R80)
CONDUCT = Provision(
    crs("1-10.5-107", "(1), (2)"),
    "(1) Any county clerk and recorder or governing body required to conduct a recount shall arrange to have the "
    "recount made by the canvass board who officiated in certifying the official abstract of votes cast. ... (2) Any "
    "canvass board making a recount under the provisions of this section may employ assistants and clerks as "
    "necessary for the conduct of the recount.", R80, confirmed=False, note="no copy newer than R80 (2022) was found")
EVIDENCE = Provision(
    crs("1-10.5-107", "(3)"),
    "The canvass board may require the production of any documentary evidence regarding any vote cast or counted and "
    "may correct the abstract of votes cast in accordance with its findings based on the evidence presented.",
    R80, confirmed=False, note="no copy newer than R80 (2022) was found")
RESULTS = Provision(
    crs("1-10.5-107", "(4), (5)"),
    "(4) At the conclusion of the recount, the canvass board shall make the returns ... to the designated election "
    "official and provide a copy to the persons or groups requesting the recount or notified of the recount ... The "
    "canvass board shall meet and issue an amended abstract of votes cast ... (5) The designated election official "
    "shall notify the governing body of the results of the recount.",
    R80, confirmed=False, note="no copy newer than R80 (2022) was found")
CERTIFICATE = Provision(
    crs("1-11-103", "(1)"),
    "Except in the case of offices for which a recount is required, immediately after the final abstract of votes "
    "cast for each office has been prepared and certified, the designated election official shall notify the "
    "candidates of their election to office. After any required bond and oath is filed, the designated election "
    "official shall make a formal certificate of election for each person who was elected and shall deliver the "
    "formal certificate to that person.", R80, note="county and precinct officers: 1-11-104")
CHALLENGE = Provision(
    crs("1-10.5-109"),
    "(1)(b) Any interested party that requested a recount of any other local office, ballot question, or ballot issue "
    "or any party to such recount that has reasonable grounds to believe that the designated election official is not "
    "conducting the recount in a fair, impartial, and uniform manner may apply to the district court for the political "
    "subdivision for an order requiring the designated election official to stop the recount ...",
    R80, confirmed=False, note="an undated marked-up copy (ebench-dev) would widen who may challenge; its status is "
                               "unknown")
CONTEST = Provision(
    crs("1-11-213", "(4)"),
    "The contestor, within ten days after the official survey of returns has been filed with the designated election "
    "official, shall file in the office of the clerk of the district court a written statement of the intention to "
    "contest the election ...", R80)

PARTIES_READING = (
    "only the interested parties 1-10.5-106(1) defines may request; a petition representative and the referring "
    "governing body are for the measure, so the side they name is its passing choice; the bot checks that the side "
    "or candidate named lost and leaves who the party is (its party, its agent, its referral) to the official"
)
ONCE_READING = (
    "once per interested party and contest: a request refused because the window had not opened, because it was not "
    "notarized or because the requester is not an interested party is not a request the section allows and is not "
    "counted; a request accepted, pending or withdrawn is"
)
OPENS_READING = "\"no sooner than ten days ... after\" the election: the tenth day is the first day a request is taken"

PROFILE = LawProfile(
    key=KEY,
    title="Uniform Election Code recount, election coordinated by the county clerk",
    plain_name="coordinated election",
    section="1-10.5",
    governs=("elections the county clerk and recorder coordinates (1-7-116; November): county offices, school districts "
             "(22-31-103), and the municipal and special district offices and measures on the county's ballot; a "
             "contest for a federal or state office or a district office of state concern, or a state measure, is "
             "recounted on the Secretary of State's order (1-10.5-102)"),
    conducted_by="the canvass board that certified the official abstract, on the county clerk and recorder's order",
    texts=(CPL24_103, CPL24_105, CT24_106, CT24_102, R80),
    trigger=Trigger(Fraction(1, 200), "the highest vote cast in that election contest (for several seats: the votes "
                                      "of the candidate who won with the least votes)",
                    "the official abstract of votes cast", TRIGGER),
    multi_seat=MultiSeat("last-winner-first-loser", TRIGGER),
    automatic_completion=Period(31, CountFrom.ELECTION, AUTOMATIC),
    automatic_payer=Payer("the entity that certified the candidate, ballot question, or ballot issue for the ballot",
                          PAYER),
    requesting=Requesting(
        parties=(Requester(PartyKind.CANDIDATE, PartyCondition.LOSING_CANDIDATE, "the candidate who lost the election"),
                 Requester(PartyKind.POLITICAL_PARTY, PartyCondition.PARTY_OF_LOSING_CANDIDATE,
                           "the political party or political organization of such candidate"),
                 Requester(PartyKind.PETITION_REPRESENTATIVE, PartyCondition.LOSING_SIDE_OF_QUESTION,
                           "a petition representative (1-40-113) for a ballot issue or question that did not pass"),
                 Requester(PartyKind.GOVERNING_BODY, PartyCondition.LOSING_SIDE_OF_QUESTION,
                           "the governing body that referred a ballot issue or question that did not pass"),
                 Requester(PartyKind.ISSUE_COMMITTEE, PartyCondition.LOSING_SIDE_OF_QUESTION,
                           "the agent of an issue committee on the losing side of a ballot issue or question")),
        provision=REQUEST, definition=DEFINITION, parties_reading=PARTIES_READING,
        filed_with="the official that originally certified the candidate, ballot question or ballot issue for the ballot",
        opens=Period(10, CountFrom.ELECTION, REQUEST, OPENS_READING),
        closes=Period(22, CountFrom.ELECTION, REQUEST),
        notarized=REQUEST, once_only=REQUEST, once_only_reading=ONCE_READING,
        notify_subdivision=Period(1, CountFrom.RECEIPT, REQUEST),
    ),
    requested_completion=Period(31, CountFrom.ELECTION, REQUESTED_COMPLETION,
                                "the 2023+ text could not be read to its completion day: read as the thirty-first day "
                                "of 1-10.5-102(2) (not the thirty-seventh of the 2022 text)"),
    canvass=Period(22, CountFrom.ELECTION, CANVASS),
    cost=Cost(COST, within_days_of_receipt=4, no_later_than_day=24, deadline_provision=COST),
    payment=Payment(PAYMENT, PaymentTiming.WITHIN_DAYS_OF_COST, "placed in escrow for payment of all expenses incurred "
                                                                "in the recount", within_days=1, certified_funds=True,
                    reading="certified funds within one day of receiving the cost determination, as the 2022 text "
                            "says; not confirmed for the 2023+ text"),
    refund=REFUND,
    leftover=Leftover(LeftoverRule.TO_OFFICIALS, LEFTOVER,
                      "the 2022 text pays escrow not refunded to the election officials who conducted the recount; "
                      "the bot shows the unused part and flags it for the official (not confirmed for the 2023+ text)"),
    notice=Notice(("all candidates",
                   "for a ballot issue or question: any petition representative (1-40-113), any governing body, and "
                   "the agent of any issue committee reporting to the secretary of state, affected by the result"),
                  ("e-mail", "telephone", "facsimile transmission", "personal service"), NOTICE,
                  "watchers, as the secretary of state's rules provide (1-10.5-102(2))", BodyNotice.BALLOT_QUESTIONS),
    tie=Tie("the board of canvassers (the canvass board)", TIE,
            "two or more candidates tied for the highest number of votes for the same office in a nonpartisan "
            "election, when not enough offices remain for all of them",
            "a partisan office is decided under 1-11-101 (by joint ballot of the General Assembly, or by lot drawn by "
            "the secretary of state; in a primary for a county office, by lot drawn by the canvass board); the bot "
            "names 1-11-102 for the nonpartisan contests a county clerk recounts for the entities on its ballot"),
    assistant_pay=AssistantPay(None, PAYER,
                               "canvass board members receive the counting judges' fee of 1-6-115, a minimum per "
                               "election (not less than five dollars), not per day; the bot sets no daily floor"),
    contest_filing=ContestFiling(10, CountFrom.SURVEY_FILED, CONTEST),
    time=TimeRules(UEC_COUNTING, UEC_FILING_ROLLOVER),
    parts={Part.CONDUCT: CONDUCT, Part.EVIDENCE: EVIDENCE, Part.TALLY: STATEWIDE, Part.RESULTS: RESULTS,
           Part.CERTIFICATE: CERTIFICATE, Part.PRE_COUNT: COST, Part.COST_NOTICE: COST, Part.COLLECTION: PAYMENT, Part.MACHINE_TEST: MACHINE_TEST,
           Part.CHALLENGE: CHALLENGE, Part.STATEWIDE: STATEWIDE},
    waiver=Waiver("the political subdivision that referred the ballot issue or ballot question",
                  "the automatic recount of its referred ballot issue or question, if it failed",
                  Period(23, CountFrom.ELECTION, WAIVER), WAIVER),
    unconfirmed=(
        "1-10.5-106(2) after \"... and shall notify the interested p\" (2024 text): the payment (certified funds "
        "within one day), escrow, refund and leftover rules follow the 2022 text; the requested recount's completion "
        "is read as the thirty-first day (2022 text: thirty-seventh).",
        "The 2023+ text of 1-10.5-101, -107 and -109 (an undated marked-up 109 would widen who may challenge) and the "
        "rest of 1-10.5-102(3).",
        "Which 2023 act changed 1-10.5-102, -103 and -106.",
    ),
)
