"""The copies of Colorado's statutes the profiles were read from, and the general rules on time every profile uses.

Each `TextCopy` says how current the copy itself claims to be and the day it was read; no copy here is the official
text (the official C.R.S. is leg.colorado.gov's crsYYYY-title-NN.pdf, which could not be reached when these were
read). Where two copies differ, the profile quotes the newer and says so. The research notes behind these quotes
(sources compared release by release, 2020-2024) are kept with the project's statute notes.
"""
from __future__ import annotations

import datetime as dt

from rules.laws.profile import Provision, TextCopy, crs

READ_ON = dt.date(2026, 12, 4)

R80 = TextCopy(
    tag="R80",
    name="Official Code of Colorado Annotated, Release 80 (2022.09), as posted by Public.Resource.Org",
    where="github.com/UniCourt/cic-code-co@e6fdc162a709483b624ebfd27152e3f0f174ad14, "
          "transforms/co/occo/r80/gov.co.crs.title.01.html and .title.31.html",
    current_through="the 2022 regular session",
    read_on=READ_ON,
)
CT24_106 = TextCopy(
    tag="CT24",
    name="casetext.com, Colo. Rev. Stat. section page (only its first ~2,000 characters could be read)",
    where="https://casetext.com/statute/colorado-revised-statutes/title-1-elections/general-primary-recall-and-"
          "congressional-vacancy-elections/article-105-recounts/section-1-105-106-request-for-recount-by-"
          "interested-party-definitions",
    current_through="Chapter 67 of the 2024 Legislative Session",
    read_on=READ_ON,
)
CT24_102 = TextCopy(
    tag="CT24",
    name="casetext.com, Colo. Rev. Stat. section page (only its first ~2,000 characters could be read)",
    where="https://casetext.com/statute/colorado-revised-statutes/title-1-elections/general-primary-recall-and-"
          "congressional-vacancy-elections/article-105-recounts/section-1-105-102-recounts-for-congressional-"
          "state-and-district-offices-state-ballot-questions-and-state-ballot-issues",
    current_through="Chapter 123 of the 2024 Legislative Session",
    read_on=READ_ON,
)
CT24_HOLIDAYS = TextCopy(
    tag="CT24",
    name="casetext.com, Colo. Rev. Stat. 24-11-101 (only its first ~2,000 characters could be read)",
    where="https://casetext.com/statute/colorado-revised-statutes/title-24-government-state/administration/"
          "article-11-holidays/24-11-101-legal-holidays-effect",
    current_through="Chapter 67 of the 2024 Legislative Session",
    read_on=READ_ON,
)
CPL24_103 = TextCopy(
    tag="CPL24",
    name="colorado.public.law, from the official crs2023-title-01.pdf (accessed by that site Oct. 20, 2023)",
    where="https://colorado.public.law/statutes/crs_1-10.5-103",
    current_through="Fall 2024",
    read_on=READ_ON,
)
CPL24_105 = TextCopy(
    tag="CPL24",
    name="colorado.public.law, from the official crs2023-title-01.pdf (accessed by that site Oct. 20, 2023)",
    where="https://colorado.public.law/statutes/crs_1-10.5-105",
    current_through="Fall 2024",
    read_on=READ_ON,
)
ECCTA = TextCopy(
    tag="e-ccta",
    name="Colorado County Treasurers' manual, Title 24 article 11 (undated; no official copy was found)",
    where="https://e-ccta.org/CCTPTA/Treas%20Manual/Title24/ManualTitle24Art11.htm",
    current_through="undated",
    read_on=READ_ON,
)

# 1-1-106: the Uniform Election Code's computation of time (R80; the same in every copy from 2020 to 2024).
UEC_COUNTING = Provision(
    crs("1-1-106", "(1), (2)"),
    "(1) Calendar days shall be used in all computations of time made under the provisions of this code. (2) In "
    "computing any period of days prescribed by this code, the day of the act or event from which the designated "
    "period of days begins to run shall not be included and the last day shall be included. Saturdays, Sundays, and "
    "legal holidays shall be included, except as provided in subsection (4) of this section.",
    R80,
)
UEC_FILING_ROLLOVER = Provision(
    crs("1-1-106", "(4)"),
    "If the last day for any act to be done or the last day of any period is a Saturday, Sunday, or legal holiday "
    "and completion of such act involves a filing or other action during business hours, the period is extended to "
    "include the next day which is not a Saturday, Sunday, or legal holiday.",
    R80,
)
# 2-4-108(2): statutes generally (R80; colorado.public.law "Current through Fall 2024" word for word).
PERIOD_EXTENSION = Provision(
    crs("2-4-108", "(2)"),
    "If the last day of any period is a Saturday, Sunday, or legal holiday, the period is extended to include the "
    "next day which is not a Saturday, Sunday, or legal holiday.",
    R80,
)
LEGAL_HOLIDAYS = Provision(
    crs("24-11-101", "(1)"),
    "... the fourth Thursday in November, commonly called Thanksgiving day; the twenty-fifth day of December, "
    "commonly called Christmas day; and any day appointed or recommended by the governor of this state or the "
    "president of the United States as a day of fasting or prayer or thanksgiving, are hereby declared to be legal "
    "holidays ...",
    CT24_HOLIDAYS,
    confirmed=False,
    note="(2) could be read only to its first sentences: a Sunday holiday is kept on the Monday after; nothing read "
         "moves a Saturday holiday to the Friday before",
)
OFFICE_CLOSED = Provision(
    crs("24-11-110"),
    "If, on any day when the public office concerned is closed, or on a Saturday, any document is required to be "
    "filed with any public office ... or any official or employee of such public office is required to perform any "
    "act or any duty of his office, then any such filing, appearance, return, act, or duty so required or scheduled "
    "shall neither be abated nor defaulted, but the same shall stand continued to the next succeeding full business "
    "day at such public office at the same time and place.",
    ECCTA,
    confirmed=False,
    note="read only in an undated copy (Title 24 is not in the R80 repository)",
)
