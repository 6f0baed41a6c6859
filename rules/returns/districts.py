"""Does this file hold the whole district of a contest, or one county's share of it?

1306(1) compares "the highest number of votes cast in the election" with the next: the whole district's
survey of returns. A county's statement of votes holds only that county's share of a statewide contest,
or of a district that crosses county lines (a congressional, legislative, judicial or regent district,
RTD). Its verdict on such a contest is on that share alone, and can be the opposite of the district's
(Arapahoe's 2020 statement gives the 18th Judicial District Attorney to Padden by 53,074; across the four
counties Kellner won, narrowly enough for a recount). So a reader that knows its file is one county's
(`Report.one_county`) flags each such contest (`Contest.part_of_district`, why), and every verdict on it
says so. Nothing here adds up the other counties or guesses the district's verdict.

Which contests, by the office's name:
- voted on statewide: President (electors), U.S. Senate, Governor and the other state offices, a state
  Amendment, Proposition or Referendum, the Supreme Court and Court of Appeals: this file holds part;
- districts that may cross county lines: U.S. House (Representative to Congress), State Senate, State
  House, State Board of Education and Regent districts, District Attorney and the judicial districts'
  judges, the Regional Transportation District: this file may hold part ("if it does" is said);
- everything else (county offices and questions, municipalities, special districts): not flagged. A
  special district or town can cross county lines too (the file may say so, as Adams County's "REDACTED -
  INCLUDED IN WELD COUNTY TOTALS" does); the flag is only where the office's name tells.
"""
from __future__ import annotations

import re

_STATEWIDE = re.compile(
    r"\b(?:president(?:ial)?|united states senator|u\.?\s?s\.?\s+senat(?:e|or)|governor|lieutenant governor|"
    r"secretary of state|attorney general|state treasurer|amendment\s+[0-9a-z]{1,4}|proposition\s+[0-9a-z]{1,4}|"
    r"referendum\s+[0-9a-z]{1,4}|supreme court|court of appeals)\b", re.I)
_MULTI_COUNTY = re.compile(
    r"\b(?:u\.?\s?s\.?\s+house|united states congress|representative to the .{0,20}congress|congressional district|"
    r"state senat(?:e|or)|state house|state representative|state board of education|regent|district attorney|"
    r"judicial district|district court|district judge|regional transportation district|rtd)\b", re.I)
_COUNTY_OFFICE = re.compile(r"\bcounty (?:commissioner|clerk|treasurer|assessor|sheriff|coroner|surveyor|court)\b", re.I)


def part_of_district(name: str, one_county: str) -> str:
    """Why a contest of a one-county file may hold only part of its district; "" when its name does not tell."""
    if not one_county or _COUNTY_OFFICE.search(name):
        return ""
    if _STATEWIDE.search(name):
        return (f"this file is {one_county}, and this contest is voted on statewide: the verdict is on this "
                "county's share of the votes alone, while 1306(1) compares the whole district's survey of returns")
    if _MULTI_COUNTY.search(name):
        return (f"this file is {one_county}, and this contest's district may extend beyond the county: if it "
                "does, the verdict is on this county's share of the votes alone, while 1306(1) compares the whole "
                "district's survey of returns")
    return ""
