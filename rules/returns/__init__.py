"""Reading a survey of returns: the project's CSV template, OpenElections CSV or NIST SP 1500-100 JSON.

    parse_returns(data, format=None, seats=None) -> Returns

Pure: bytes or str in, `rules.contest.Returns` out; no files, no database, no Slack. Bad input
raises `ReturnsError` listing every problem found (row and column, or JSON path), never anything
else, so a clerk can fix a file in one pass. `Returns.notes` tells the clerk what was normalised.
"""
from __future__ import annotations

import codecs
from typing import Any, Mapping

from rules.contest import Returns
from rules.returns import nist_json, openelections_csv, template_csv
from rules.returns.build import finish
from rules.returns.csv_table import first_record
from rules.returns.problems import Problem, Report, ReturnsError

__all__ = ["FORMATS", "Problem", "ReturnsError", "parse_returns"]

FORMATS = ("template", "openelections", "nist")

_NEEDS = (
    "a CSV whose header has contest, choice and votes (template); "
    "a CSV whose header has county, office, candidate and votes (openelections); "
    f'or NIST SP 1500-100 v2 JSON whose top level has "@type": "{nist_json.REPORT_TYPE}" (nist)'
)
_OPENELECTIONS_HEADER = frozenset({"county", "office", "candidate", "votes"})
_TEMPLATE_HEADER = frozenset({"contest", "choice", "votes"})


def parse_returns(
    data: bytes | str, *, format: str | None = None, seats: Mapping[str, int] | None = None,
) -> Returns:
    """Parse a survey of returns. `format` is one of FORMATS, or None to detect it from the content.

    `seats` sets the number of seats per contest name where the file does not say (OpenElections
    never does); an entry naming no contest, or contradicting the file, is a problem.
    """
    report = Report()
    text = _decode(data, report)
    if not text.strip():
        raise ReturnsError([Problem("file", "is empty")])
    if seats is not None and not isinstance(seats, Mapping):
        raise ReturnsError([Problem("seats", "must map contest names to numbers of seats")])
    document: Any = None
    if format is None:
        format, document = _detect(text)
    elif format not in FORMATS:
        raise ReturnsError([Problem("format", f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")])
    try:
        if format == "nist":
            if document is None:
                document = nist_json.load(text, report)
            drafts = nist_json.parse_document(document, report) if not report.problems else []
        elif format == "openelections":
            drafts = openelections_csv.parse(text, report)
        else:
            drafts = template_csv.parse(text, report)
        return finish(drafts, seats, report, format, text_has_replacement_character="\ufffd" in text)
    except ReturnsError:
        raise
    except Exception as exc:  # a bug of ours must still reach the clerk as a ReturnsError, cause attached
        raise ReturnsError(
            report.problems + [Problem("file", f"could not be read: internal error ({type(exc).__name__}: {exc})")]
        ) from exc


def _decode(data: bytes | str, report: Report) -> str:
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse_returns() takes bytes or str, not {type(data).__name__}")
    raw = bytes(data)
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # Excel's "Unicode text" export
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
        else:
            report.note("the file is UTF-16; read as such")
            return text[1:] if text.startswith("\ufeff") else text
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Spreadsheets on Windows still save "CSV" as cp1252; its 5 unassigned bytes become U+FFFD.
        report.note(f"the file is not valid UTF-8 (byte {exc.start + 1} is not); read as Windows-1252 (cp1252)")
        return raw.decode("cp1252", errors="replace")


def _detect(text: str) -> tuple[str, Any]:
    """The format named by the content, and the parsed JSON document when it is NIST."""
    if text.lstrip()[:1] in ("{", "["):
        scratch = Report()
        document = nist_json.load(text, scratch)
        if isinstance(document, dict) and document.get("@type") == nist_json.REPORT_TYPE:
            return "nist", document
        found = (f"this looks like JSON, but it {scratch.problems[0].message}" if scratch.problems
                 else "this is JSON without that @type")
        raise ReturnsError([Problem("file", f"unknown format: expected {_NEEDS}; {found}")])
    header = first_record(text) or []
    names = {cell.strip().casefold() for cell in header}
    if _OPENELECTIONS_HEADER <= names:
        return "openelections", None
    if _TEMPLATE_HEADER <= names:
        return "template", None
    shown = ", ".join(cell.strip() for cell in header[:8]) + (", ..." if len(header) > 8 else "")
    shown = shown if len(shown) <= 120 else shown[:117] + "..."
    raise ReturnsError([Problem("file", f"unknown format: expected {_NEEDS}; the first row has: {shown}")])
