"""The file as given (bytes or str), its encoding settled once, then read lazily as often as needed.

A statewide precinct file can be tens of MiB. Decoding it into one str, normalising its line breaks
into a second, and copying that into an `io.StringIO` (4 bytes per character) held four copies at
once. A `Source` keeps only the bytes the caller already holds (never copied when they are `bytes`;
a str is encoded to UTF-8 once) and decodes them chunk by chunk each time its lines are read
(`io.TextIOWrapper` over an `io.BytesIO` sharing them, all in C):

- lines()    the lines, every line break ("\\r\\n", a lone "\\r" of old Mac files, "\\n") given as "\\n",
             as a CSV reader wants them: a quoted cell spanning lines then holds "\\n" whatever the
             file's style, and only those three break a line (not "\\x0b", "\\x85" or "\\u2028", which
             `str.splitlines` would break at, splitting a record inside a cell);
- text()     the whole text, line breaks as written, for JSON (its error positions count characters);
- is_blank(), first_char(), head()   without decoding more than the start of a normal file.

Decoding, in order: a UTF-16 byte-order mark (Excel's "Unicode text") and valid UTF-16 -> UTF-16,
noted; else UTF-8 without its byte-order mark if valid; else Windows-1252 (cp1252, which spreadsheets
on Windows still write as "CSV"), its five unassigned bytes as U+FFFD, noted with the first bad byte.
"""
from __future__ import annotations

import codecs
import io
from dataclasses import dataclass
from typing import Iterator

from rules.returns.problems import Report

REPLACEMENT_CHARACTER = "\ufffd"
_UTF8_REPLACEMENT = REPLACEMENT_CHARACTER.encode("utf-8")
_CP1252_UNASSIGNED = (b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d")  # decoded as U+FFFD with errors="replace"
UTF8_CHECK_CHUNK = 1 << 20  # bytes per step when checking UTF-8, so no decoded copy of the whole file exists


@dataclass(frozen=True, eq=False)
class Source:
    data: bytes
    encoding: str
    errors: str = "strict"
    start: int = 0  # bytes to skip: a UTF-8 byte-order mark
    drop_bom_character: bool = False  # drop one U+FEFF at the start of the decoded text
    may_hold_replacement_character: bool = True  # False only when U+FFFD surely is not in the text

    def lines(self) -> Iterator[str]:
        """A fresh iterator over the decoded lines, each ending in "\\n" (the last one may not)."""
        stream = io.BytesIO(self.data)  # shares `data` (exact bytes are not copied)
        if self.start:
            stream.seek(self.start)
        reader = io.TextIOWrapper(stream, encoding=self.encoding, errors=self.errors, newline=None)
        return _without_bom(reader) if self.drop_bom_character else reader

    def text(self) -> str:
        """The whole decoded text, line breaks as written."""
        text = str(memoryview(self.data)[self.start:], self.encoding, self.errors)
        return text[1:] if self.drop_bom_character and text.startswith("\ufeff") else text

    def is_blank(self) -> bool:
        """True if the text is empty or only white space (reads only up to the first other line)."""
        return all(line.isspace() for line in self.lines())

    def first_char(self) -> str:
        """The first character that is not white space, or "" (reads only up to its line)."""
        for line in self.lines():
            rest = line.lstrip()
            if rest:
                return rest[0]
        return ""

    def head(self, chars: int) -> str:
        """At most the first `chars` characters, line breaks given as "\\n"."""
        lines = self.lines()
        if isinstance(lines, io.TextIOWrapper):
            return lines.read(chars)
        parts, size = [], 0
        for line in lines:
            parts.append(line)
            size += len(line)
            if size >= chars:
                break
        return "".join(parts)[:chars]


def _without_bom(lines: Iterator[str]) -> Iterator[str]:
    first = next(lines, None)
    if first is None:
        return
    yield first[1:] if first.startswith("\ufeff") else first
    yield from lines


def open_source(data: bytes | bytearray | memoryview | str, report: Report) -> Source:
    """Settle how to decode `data` (see the module docstring); notes say what was not plain UTF-8."""
    if isinstance(data, str):
        # One leading U+FEFF is dropped, as from a UTF-8 file; lone surrogates pass through unchanged.
        raw = data.encode("utf-8", "surrogatepass")
        return Source(raw, "utf-8", "surrogatepass", start=len(codecs.BOM_UTF8) if data.startswith("\ufeff") else 0,
                      may_hold_replacement_character=REPLACEMENT_CHARACTER in data)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse_returns() takes bytes or str, not {type(data).__name__}")
    raw = data if type(data) is bytes else bytes(data)
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = str(raw, "utf-16")
        except UnicodeDecodeError:
            pass
        else:
            report.note("the file is UTF-16; read as such")
            return Source(raw, "utf-16", drop_bom_character=True,
                          may_hold_replacement_character=REPLACEMENT_CHARACTER in text)
    start = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    bad = None if raw.isascii() else _first_invalid_utf8_byte(raw, start)
    if bad is None:
        return Source(raw, "utf-8", start=start, may_hold_replacement_character=_UTF8_REPLACEMENT in raw)
    report.note(f"the file is not valid UTF-8 (byte {bad - start + 1} is not); read as Windows-1252 (cp1252)")
    return Source(raw, "cp1252", "replace", start=start,
                  may_hold_replacement_character=any(byte in raw for byte in _CP1252_UNASSIGNED))


def _first_invalid_utf8_byte(raw: bytes, start: int) -> int | None:
    """The offset of the first byte that makes `raw[start:]` invalid UTF-8, or None if it is valid."""
    view, end, pos = memoryview(raw), len(raw), start
    while pos < end:
        stop = min(pos + UTF8_CHECK_CHUNK, end)
        try:
            _, used = codecs.utf_8_decode(view[pos:stop], "strict", stop == end)
        except UnicodeDecodeError as exc:
            return pos + exc.start
        pos += used  # a character cut by the chunk's end is decoded with the next chunk
    return None
