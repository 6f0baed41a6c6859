"""Reading a survey of returns: the project's CSV template, OpenElections CSV or NIST SP 1500-100 JSON.

    parse_returns(data, format=None, seats=None) -> Returns

Pure: bytes or str in, `rules.contest.Returns` out; no files, no database, no Slack. Bad input
raises `ReturnsError` listing every problem found (row and column, or JSON path), never anything
else, so a clerk can fix a file in one pass. `Returns.notes` tells the clerk what was normalised.
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.contest import Returns
from rules.returns import nist_json, openelections_csv, template_csv
from rules.returns.build import finish
from rules.returns.csv_table import first_record
from rules.returns.problems import Problem, Report, ReturnsError
from rules.returns.source import Source, open_source

__all__ = ["FORMATS", "Problem", "ReturnsError", "parse_returns"]

FORMATS = ("template", "openelections", "nist")

_NEEDS = (
    "a CSV whose header has contest, choice and votes (template); "
    "a CSV whose header has county, office, candidate and votes (openelections); "
    f'or NIST SP 1500-100 v2 JSON whose top level has "@type": "{nist_json.REPORT_TYPE}" (nist)'
)
_OPENELECTIONS_HEADER = frozenset({"county", "office", "candidate", "votes"})
_TEMPLATE_HEADER = frozenset({"contest", "choice", "votes"})
# Columns only that format has: with these, a header missing another required column is still that format.
_OPENELECTIONS_IDENTIFIERS = frozenset({"county", "office", "candidate"})
_TEMPLATE_IDENTIFIERS = frozenset({"contest", "choice"})


def parse_returns(
    data: bytes | str, *, format: str | None = None, seats: Mapping[str, int] | None = None,
) -> Returns:
    """Parse a survey of returns. `format` is one of FORMATS, or None to detect it from the content.

    `seats` sets the number of seats per contest name where the file does not say (OpenElections
    never does); an entry naming no contest, or contradicting the file, is a problem.
    """
    report = Report()
    source = open_source(data, report)
    if source.is_blank():
        raise ReturnsError([Problem("file", "is empty")])
    if seats is not None and not isinstance(seats, Mapping):
        raise ReturnsError([Problem("seats", "must map contest names to numbers of seats")])
    document: Any = None
    if format is None:
        format, document = _detect(source)
    elif format not in FORMATS:
        raise ReturnsError([Problem("format", f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")])
    try:
        if format == "nist":
            if document is None:
                document = nist_json.load(source.text(), report)
            drafts = nist_json.parse_document(document, report) if not report.problems else []
        elif format == "openelections":
            drafts = openelections_csv.parse(source, report)
        else:
            drafts = template_csv.parse(source, report)
        return finish(drafts, seats, report, format,
                      text_has_replacement_character=source.may_hold_replacement_character)
    except ReturnsError:
        raise
    except Exception as exc:  # a bug of ours must still reach the clerk as a ReturnsError, cause attached
        raise ReturnsError(
            report.problems + [Problem("file", f"could not be read: internal error ({type(exc).__name__}: {exc})")]
        ) from exc


def _detect(source: Source) -> tuple[str, Any]:
    """The format named by the content, and the parsed JSON document when it is NIST.

    A CSV header naming a format's identifying columns picks that format even when another of its
    required columns is missing, so the clerk is told which column to add ("row 1: missing column
    'votes'") rather than that the format is unknown.
    """
    if source.first_char() in ("{", "["):
        scratch = Report()
        document = nist_json.load(source.text(), scratch)
        if isinstance(document, dict) and document.get("@type") == nist_json.REPORT_TYPE:
            return "nist", document
        found = (f"this looks like JSON, but it {scratch.problems[0].message}" if scratch.problems
                 else "this is JSON without that @type")
        raise ReturnsError([Problem("file", f"unknown format: expected {_NEEDS}; {found}")])
    header = first_record(source) or []
    names = {cell.strip().casefold() for cell in header}
    if _OPENELECTIONS_HEADER <= names:
        return "openelections", None
    if _TEMPLATE_HEADER <= names:
        return "template", None
    if _OPENELECTIONS_IDENTIFIERS <= names:
        return "openelections", None
    if _TEMPLATE_IDENTIFIERS <= names:
        return "template", None
    shown = ", ".join(cell.strip() for cell in header[:8]) + (", ..." if len(header) > 8 else "")
    shown = shown if len(shown) <= 120 else shown[:117] + "..."
    raise ReturnsError([Problem("file", f"unknown format: expected {_NEEDS}; the first row has: {shown}")])
