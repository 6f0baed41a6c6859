"""Every format a results file can come in, how each is recognised, and which module reads it.

A reader module provides:
    DESCRIPTION   what its files look like, for "unknown format" messages
    detect(head)  True when `head` (the start of the file) is in this format
    parse(source, report) -> list[Draft]
Detection tries the formats in the order below, most particular first: a Colorado SoS precinct file
also has the columns a looser format would accept; a county's long-form export (`longform`), found by
header words, comes after every format with fixed column names. JSON is NIST; XML is Clarity's detail.xml.
An Excel workbook is read worksheet by worksheet (`workbook`), each detected like a CSV.
Modules are imported when first used, so `check` on a CSV does not load the XML or JSON readers.
"""
from __future__ import annotations

import csv
import importlib
import io
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType

from rules.returns.source import Source

# name -> module, in the order detection tries them.
READERS: dict[str, str] = {
    "sos-precinct": "rules.returns.sos_precinct",
    "clarity-summary": "rules.returns.clarity_summary",
    "corla-tabulate": "rules.returns.corla_tabulate",
    "dominion-sov": "rules.returns.dominion_sov",
    "openelections": "rules.returns.openelections_csv",
    "template": "rules.returns.template_csv",
    "county-export": "rules.returns.longform",
    "clarity-detail": "rules.returns.clarity_detail",
    "nist": "rules.returns.nist_json",
}


@dataclass(frozen=True)
class KnownAs:
    """A format as people know it: what a clerk calls it, and where its files come from (Slack's `/recount help`
    and the upload preview say so; docs/reference/returns-formats.md's table says the same, and tests/docs holds
    the two together)."""

    title: str
    source: str


# name -> how people know it, one for each reader above, in the same order.
KNOWN_AS: dict[str, KnownAs] = {
    "sos-precinct": KnownAs("Colorado SoS precinct results",
                            "the Colorado Secretary of State's precinct-level results"),
    "clarity-summary": KnownAs("Clarity summary.csv",
                               "the Secretary of State's and counties' results pages (Clarity/Scytl)"),
    "corla-tabulate": KnownAs("CORLA tabulate", "the risk-limiting audit; its counts are of the cast vote records, "
                                                "not the canvass, and every verdict says so"),
    "dominion-sov": KnownAs("Dominion statement of votes",
                            "62 of Colorado's 64 counties (Results Tally & Reporting; Adams, Boulder, Clear Creek, "
                            "Jefferson, Larimer, Park as published)"),
    "openelections": KnownAs("OpenElections CSV", "OpenElections Colorado (2002-2024 read)"),
    "template": KnownAs("recount-bot CSV template", "typed by the office"),
    "county-export": KnownAs("county long-form export",
                             "counties' election-management exports (Arapahoe 2010-2020 .xls, Delta)"),
    "clarity-detail": KnownAs("Clarity detail.xml",
                              "the Secretary of State's and counties' results pages (Clarity/Scytl)"),
    "nist": KnownAs("NIST SP 1500-100 JSON", "election systems' ERR exports"),
}
HEAD_RECORDS = 40  # CSV records a detector may look at (Dominion's title rows come before its header)
HEAD_CHARS = 1 << 16


def module(name: str) -> ModuleType:
    return importlib.import_module(READERS[name])



@dataclass(eq=False)
class Head:
    """The start of a file, as detectors look at it."""

    source: Source

    @cached_property
    def text(self) -> str:
        return self.source.head(HEAD_CHARS)

    @cached_property
    def first_char(self) -> str:
        stripped = self.text.lstrip()
        return stripped[:1]

    @cached_property
    def records(self) -> list[list[str]]:
        """The first CSV records that are not blank, cells stripped (empty when the text is not CSV)."""
        out: list[list[str]] = []
        try:
            for cells in csv.reader(io.StringIO(self.text, newline="")):
                if any(c.strip() for c in cells):
                    out.append([c.strip() for c in cells])
                    if len(out) >= HEAD_RECORDS:
                        break
        except csv.Error:
            return out
        return out

    @cached_property
    def header(self) -> set[str]:
        """The first record's cells, casefolded."""
        return {c.casefold() for c in self.records[0]} if self.records else set()
