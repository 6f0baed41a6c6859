"""Reading a survey of returns, in any format an office has (see FORMATS).

    read_returns(data, format=None, seats=None, election_kind=None, file_name=None) -> Returns
    parse_returns(...same...) -> Returns

Pure: bytes or str in (or `Pieces`: a file's bytes a piece at a time, from a function the caller gives, so a
large file is never held whole), `rules.contest.Returns` out; no files, no database, no Slack.

`read_returns` is for checking: it decides what can be decided. Rows that are not votes for a choice
are set aside (`Returns.set_aside`); a contest with a row it cannot read is listed in
`Returns.undecided` with why and where, and every other contest is returned; cells given only as a
range stay ranges (`Contest.uncertain`). It raises `ReturnsError` only when the file as a whole
cannot be read.

`parse_returns` is for recording a survey of returns, which must be complete: it raises
`ReturnsError` listing every problem (row and column, or JSON path) when any contest is undecided,
has a cell that is not an exact count, is a party primary or not depending on a reading the caller
has not chosen, or has seats nobody stated while another plausible number would change its verdict
(`rules.seats`). Either way `Returns.notes` tells the clerk what was normalised.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping

from rules.contest import Returns, Undecided
from rules.returns import nist_json
from rules.returns.build import finish
from rules.returns.limits import DEFAULT_LIMITS, ReadLimits
from rules.returns.options import ElectionKind, ReadOptions
from rules.returns.problems import Problem, Report, ReturnsError
from rules.returns.registry import READERS, Head, module
from rules.returns.source import Pieces, Source, open_source
from rules.returns.workbook import read_workbook
from rules.returns.xlsx import is_workbook
from rules.verdicts import decide_contest

__all__ = ["FORMATS", "ElectionKind", "Pieces", "Problem", "ReadLimits", "ReturnsError", "parse_returns",
           "read_returns"]

FORMATS = tuple(READERS)
_JSON_FORMAT, _XML_FORMAT = "nist", "clarity-detail"


def parse_returns(
    data: bytes | str | Pieces, *, format: str | None = None, seats: Mapping[str, int] | None = None,
    election_kind: ElectionKind | str | None = None, file_name: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Returns:
    """A complete survey of returns, or ReturnsError listing every problem (see the module docstring)."""
    returns, report = _read(data, format, seats, election_kind, file_name, limits)
    problems = report.all_problems() + report.nameless_with_votes
    for contest, unit, choice, bound in report.hidden:
        where = bound.location or f"contest {contest!r}, unit {unit!r}, choice {choice!r}"
        if not bound.written.strip():
            problems.append(Problem(where, "is empty; expected a whole number of votes"))
        else:
            problems.append(Problem(where, f"is {bound.written.strip()!r}, not an exact number of votes; a survey "
                                           "of returns needs every count"))
    for contest in returns.contests:
        if contest.if_primary:
            problems.append(Problem(f"contest {contest.name!r}", "the file does not say whether it is a party "
                                    "primary (one contest per party) or a general election; say which "
                                    "(--election-kind primary or general)"))
        elif not contest.seats_stated:
            held = decide_contest(contest)
            if isinstance(held, Undecided) and held.seats_not_stated:
                problems.append(Problem(f"contest {contest.name!r}", held.reason))
    if problems:
        raise ReturnsError(sorted(problems, key=_row_order))
    return returns


_ROW = re.compile(r"row (\d+)\b")


def _row_order(problem: Problem) -> int:
    """Problems in the order of the rows they name (those naming none first), as a clerk reads the file."""
    match = _ROW.match(problem.location)
    return int(match[1]) if match else -1


def read_returns(
    data: bytes | str | Pieces, *, format: str | None = None, seats: Mapping[str, int] | None = None,
    election_kind: ElectionKind | str | None = None, file_name: str | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> Returns:
    """What the file lets us decide (see the module docstring). `format` is one of FORMATS, or None to
    detect it from the content. `seats` sets the seats of contests where the file does not say; an
    entry naming no contest, or contradicting the file, is a problem. `election_kind` says whether
    the file is a party primary; `file_name` may say it too (the OpenElections naming convention).
    `limits` bounds what the file may take (`rules.returns.limits`); a file over one is refused, naming it."""
    return _read(data, format, seats, election_kind, file_name, limits)[0]


def _read(data, format, seats, election_kind, file_name, limits: ReadLimits = DEFAULT_LIMITS
          ) -> tuple[Returns, Report]:
    report = Report()
    if format is not None and format not in FORMATS:
        raise ReturnsError([Problem("format", f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")])
    if seats is not None and not isinstance(seats, Mapping):
        raise ReturnsError([Problem("seats", "must map contest names to numbers of seats")])
    try:
        kind = ElectionKind(election_kind) if election_kind is not None else None
    except ValueError:
        raise ReturnsError([Problem("election_kind", f"must be primary or general (got {election_kind!r})")]) from None
    options = ReadOptions(seats=seats, election_kind=kind, file_name=file_name)
    if isinstance(data, Pieces):
        if is_workbook(data.head(8)):  # a workbook's zip is read whole: its parts are measured before unpacking
            data = data.read_all()
        else:
            source = open_source(data, report)  # counts the bytes as it settles the encoding
            _check_size(source.size, limits)
    if not isinstance(data, Pieces):
        _check_size(len(data) if not isinstance(data, str) else len(data.encode("utf-8", "surrogatepass")), limits)
        if isinstance(data, (bytes, bytearray, memoryview)) and is_workbook(bytes(data[:8])):
            return _read_workbook(bytes(data), format, seats, options, report, limits)
        source = open_source(data, report)
    if source.is_blank():
        raise ReturnsError([Problem("file", "is empty")])
    document: Any = None
    if format is None:
        format, document = _detect(source)
    try:
        if format == _JSON_FORMAT:
            if document is None:
                document = nist_json.load(source.text(), report)
            drafts = nist_json.parse_document(document, report) if not report.problems else []
        else:
            drafts = module(format).parse(source, report)
        returns = finish(drafts, seats, report, format, options=options,
                         text_has_replacement_character=source.may_hold_replacement_character)
        return returns, report
    except ReturnsError:
        raise
    except Exception as exc:  # a bug of ours must still reach the clerk as a ReturnsError, cause attached
        raise ReturnsError(
            report.problems + [Problem("file", f"could not be read: internal error ({type(exc).__name__}: {exc})")]
        ) from exc


def _check_size(size: int, limits: ReadLimits) -> None:
    if size > limits.max_file_bytes:
        raise ReturnsError([Problem("file", f"is {size / (1 << 20):,.1f} MiB, over the limit of "
                                            f"{limits.max_file_bytes / (1 << 20):,.0f} MiB for a results file "
                                            "(ReadLimits.max_file_bytes)")])


def _read_workbook(data: bytes, format, seats, options, report: Report, limits: ReadLimits) -> tuple[Returns, Report]:
    try:
        book = read_workbook(data, report, limits, format)
        report.raise_if_problems()
        assert book is not None
        returns = finish(book.drafts, seats, report, book.source_format, options=options)
        return dataclasses.replace(returns, sheets=tuple(book.sheets)), report
    except ReturnsError:
        raise
    except Exception as exc:  # a bug of ours must still reach the clerk as a ReturnsError, cause attached
        raise ReturnsError(
            report.problems + [Problem("file", f"could not be read: internal error ({type(exc).__name__}: {exc})")]
        ) from exc


def _formats_described() -> str:
    return "; ".join(f"{module(name).DESCRIPTION} ({name})" for name in READERS)


def _detect(source: Source) -> tuple[str, Any]:
    """The format named by the content, and the parsed JSON document when it is NIST.

    A CSV header naming a format's identifying columns picks that format even when another of its
    required columns is missing, so the clerk is told which column to add ("row 1: missing column
    'votes'") rather than that the format is unknown.
    """
    head = Head(source)
    if head.first_char in ("{", "["):
        scratch = Report()
        document = nist_json.load(source.text(), scratch)
        if isinstance(document, dict) and document.get("@type") == nist_json.REPORT_TYPE:
            return _JSON_FORMAT, document
        found = (f"this looks like JSON, but it {scratch.problems[0].message}" if scratch.problems
                 else "this is JSON without that @type")
        raise ReturnsError([Problem("file", f"unknown format: expected {_formats_described()}; {found}")])
    for name in READERS:
        if name == _JSON_FORMAT:
            continue
        if module(name).detect(head):
            return name, None
    if head.first_char == "<":
        raise ReturnsError([Problem("file", f"unknown format: this is XML, but not Clarity's detail.xml "
                                            f"(<ElectionResult>); expected {_formats_described()}")])
    binary = _binary_kind(head.text)
    if binary:
        raise ReturnsError([Problem("file", f"is {binary}, not a results file: expected {_formats_described()}")])
    header = head.records[0] if head.records else []
    shown = ", ".join(header[:8]) + (", ..." if len(header) > 8 else "")
    shown = shown if len(shown) <= 120 else shown[:117] + "..."
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in shown)  # never raw bytes of the file
    raise ReturnsError([Problem("file", f"unknown format: expected {_formats_described()}; the first row has: {shown}")])


_MAGIC = (("%PDF", "a PDF document"), ("\x89PNG", "a PNG image"), ("\xff\xd8\xff", "a JPEG image"),
          ("GIF8", "a GIF image"), ("\x1f\x8b", "a gzip archive"), ("PK", "a zip archive"), ("{\\rtf", "an RTF document"))


def _binary_kind(text: str) -> str:
    """What a file that is not text is ("a PDF document", "binary data"), or "" for text."""
    for magic, kind in _MAGIC:
        if text.startswith(magic):
            return kind
    sample = text[:4096]
    controls = sum(1 for ch in sample if ch == "\x00" or (not ch.isprintable() and ch not in "\r\n\t"))
    return "binary data (a damaged file, or not a spreadsheet or CSV)" if sample and controls * 20 > len(sample) else ""
