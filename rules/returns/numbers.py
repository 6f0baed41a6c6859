"""Reading a vote count from a CSV cell, shared by the CSV formats.

Votes are whole numbers of ballots, so the result is always an `int` and never passes through
float. The common case (plain ASCII digits) is decided by the callers' fast path or the first
test below; everything else is the slow path, where we explain exactly what is wrong.
"""
from __future__ import annotations

import re

from rules.contest import Bound

# More digits than this cannot be a vote count (and int() refuses strings over 4,300 digits with
# an exception we must not leak), so we stop before converting.
MAX_DIGITS = 15

_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")
_FOOTNOTE = re.compile(r"(\d[\d,]*)\*+")
# "12.0" and "12.00" (spreadsheet exports) are whole; "1.000" is not accepted, because in much of the
# world it means one thousand.
_WHOLE_DECIMAL = re.compile(r"(\d[\d,]*)\.0{1,2}")
_FRACTION = re.compile(r"-?[\d,]*\.\d+|-?\d[\d,]*\.")
_NEGATIVE = re.compile(r"-\s*\d[\d,]*")


class CountError(ValueError):
    """The cell is not a whole, non-negative number of votes; `args[0]` says why, for a clerk."""


def is_plain_count(cell: str) -> bool:
    """True for cells like "1234": callers take int(cell) directly (the hot path)."""
    return len(cell) <= MAX_DIGITS and cell.isascii() and cell.isdigit()


def parse_count(cell: str, *, footnotes: bool = False) -> tuple[int, str | None]:
    """Return (votes, note). `note` is None unless the cell was normalised in a way worth telling.

    Accepted: "1234", " 1234 ", "1,234" (thousands separators in the right places), "12.0" or "12.00"
    (a whole number written with a decimal point; noted). With `footnotes`, "0*" reads as 0 (noted).
    Refused with CountError: empty, negative, fractional ("12.5"), anything else.
    """
    text = cell.strip()
    if is_plain_count(text):
        return int(text), None
    if not text:
        raise CountError("is empty; expected a whole number of votes")
    if text.isascii() and text.isdigit():
        return _to_int(text, cell), None
    if _THOUSANDS.fullmatch(text):
        return _to_int(text.replace(",", ""), cell), None
    if footnotes:
        match = _FOOTNOTE.fullmatch(text)
        if match and _valid_digits(match[1]):
            return _to_int(match[1].replace(",", ""), cell), (
                f"{cell.strip()!r} read as {match[1].replace(',', '')} (footnote marker stripped)")
    match = _WHOLE_DECIMAL.fullmatch(text)
    if match and _valid_digits(match[1]):
        return _to_int(match[1].replace(",", ""), cell), f"{cell.strip()!r} read as {match[1].replace(',', '')}"
    if _NEGATIVE.fullmatch(text):
        raise CountError(f"must not be negative (got {_show(cell)})")
    if _FRACTION.fullmatch(text):
        raise CountError(f"must be a whole number of votes (got {_show(cell)})")
    raise CountError(f"is not a whole number of votes (got {_show(cell)})")


def _valid_digits(text: str) -> bool:
    return text.isdigit() or _THOUSANDS.fullmatch(text) is not None


def _to_int(digits: str, cell: str) -> int:
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise CountError(f"is too large to be a number of votes (got {_show(cell)})")
    return int(digits)


def _show(cell: str) -> str:
    """The cell as the user typed it, quoted and cut short so a huge cell cannot flood the message."""
    text = cell.strip()
    return repr(text if len(text) <= 40 else text[:37] + "...")


# ----------------------------------------------------------------------------- cells that hide a count
# Published results hide small counts to protect the secrecy of the ballot ("(< 25)", "***"), and some
# leave a cell empty. Such a cell is not an error in the file: it is a range, and the rules decide only
# what holds for every value in it. Only these forms are read as ranges; anything else is a problem.
_BELOW = re.compile(r"\(?\s*(?:<|fewer than|less than)\s*(\d[\d,]*)\s*\)?", re.I)
_AT_MOST = re.compile(r"\(?\s*(?:<=|\u2264|at most)\s*(\d[\d,]*)\s*\)?", re.I)
_MASKS = re.compile(r"\*{1,5}|\(?s\)?|suppressed|masked|redacted|\(suppressed\)", re.I)


def hidden_count(cell: str, location: str = "") -> Bound | None:
    """The range of a cell that hides its count, or None if the cell is not one of the known forms.

    "(< 25)", "<25", "less than 25" -> 0 to 24; "<= 10" -> 0 to 10; "***", "(s)", "suppressed" and an
    empty cell -> 0 with no upper limit (the file says nothing about how many).
    """
    text = cell.strip()
    if not text:
        return Bound(0, None, cell, location)
    for pattern, below in ((_BELOW, True), (_AT_MOST, False)):
        match = pattern.fullmatch(text)
        if match and _valid_digits(match[1]):
            limit = int(match[1].replace(",", ""))
            if below and limit < 1:
                return None
            return Bound(0, limit - 1 if below else limit, cell, location)
    if _MASKS.fullmatch(text):
        return Bound(0, None, cell, location)
    return None
