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

A file on disk need not be held at all: the caller passes `Pieces`, which gives a fresh iterator over its
bytes each time it is called (the command line opens the file again), and every pass reads it piece by piece.
Settling the encoding then reads it once more than from bytes (UTF-8 is valid or not only at the end), never
holding more than a piece.
"""
from __future__ import annotations

import codecs
import io
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterable, Iterator, cast

from rules.returns.problems import Report

REPLACEMENT_CHARACTER = "\ufffd"
_UTF8_REPLACEMENT = REPLACEMENT_CHARACTER.encode("utf-8")
_CP1252_UNASSIGNED = (b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d")  # decoded as U+FFFD with errors="replace"
UTF8_CHECK_CHUNK = 1 << 20  # bytes per step when checking UTF-8, so no decoded copy of the whole file exists


@dataclass(frozen=True, eq=False)
class Pieces:
    """A file's bytes given in pieces, readable as often as needed: `open()` returns a fresh iterator over them.

    The caller does the I/O (rules/ opens no file): the command line passes a function that opens the file and
    yields it a piece at a time, closing it when the iterator ends or is dropped."""

    open: Callable[[], Iterable[bytes]]

    def head(self, size: int) -> bytes:
        """At most the first `size` bytes (fewer only when the file is shorter)."""
        parts, got = [], 0
        pieces = iter(self.open())
        try:
            for piece in pieces:
                parts.append(piece)
                got += len(piece)
                if got >= size:
                    break
        finally:
            _close(pieces)
        return b"".join(parts)[:size]

    def read_all(self) -> bytes:
        """The whole file, for the formats that need it whole (a workbook's zip, a JSON document)."""
        return b"".join(self.open())


def _close(pieces: Iterator) -> None:
    close = getattr(pieces, "close", None)
    if close is not None:
        close()  # a generator holding an open file closes it now, not when it is collected


class _PiecesStream(io.BufferedIOBase):
    """The pieces as a binary stream for `io.TextIOWrapper` (which decodes in C): each `read1` hands over a whole
    piece, uncopied, so the Python code here runs once per piece (1 MiB from the command line), not per 8 KiB."""

    def __init__(self, pieces: Iterable[bytes], skip: int) -> None:
        self._pieces = iter(pieces)
        self._skip = skip  # bytes not part of the text: a UTF-8 byte-order mark
        self._piece, self._at = b"", 0

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:  # type: ignore[override]
        while self._at >= len(self._piece):
            piece = next(self._pieces, None)
            if piece is None:
                return b""
            self._piece, self._at = piece, 0
            if self._skip:
                self._at, self._skip = min(self._skip, len(piece)), max(0, self._skip - len(piece))
        end = len(self._piece) if size is None or size < 0 else self._at + size
        part = self._piece[self._at:end]
        self._at += len(part)
        return part

    def read(self, size: int | None = -1) -> bytes:  # type: ignore[override]
        """What is left, whole (TextIOWrapper reads with read1; this serves a caller that reads everything)."""
        return b"".join(iter(self.read1, b""))

    def close(self) -> None:
        if not self.closed:
            _close(self._pieces)  # type: ignore[arg-type]
        super().close()


@dataclass(frozen=True, eq=False)
class Source:
    data: bytes
    encoding: str
    errors: str = "strict"
    start: int = 0  # bytes to skip: a UTF-8 byte-order mark
    drop_bom_character: bool = False  # drop one U+FEFF at the start of the decoded text
    may_hold_replacement_character: bool = True  # False only when U+FFFD surely is not in the text
    pieces: Pieces | None = None  # when set, the bytes are read from it on every pass and `data` is empty
    streamed_bytes: int = 0  # the size of the file read from `pieces`, counted while settling the encoding

    @property
    def size(self) -> int:
        """The file's size in bytes."""
        return self.streamed_bytes if self.pieces is not None else len(self.data)

    def lines(self) -> Iterator[str]:
        """A fresh iterator over the decoded lines, each ending in "\\n" (the last one may not)."""
        stream: BinaryIO
        if self.pieces is not None:
            stream = cast(BinaryIO, _PiecesStream(self.pieces.open(), self.start))
        else:
            stream = io.BytesIO(self.data)  # shares `data` (exact bytes are not copied)
            if self.start:
                stream.seek(self.start)
        reader = io.TextIOWrapper(stream, encoding=self.encoding, errors=self.errors, newline=None)
        return _without_bom(reader) if self.drop_bom_character else reader

    def text(self) -> str:
        """The whole decoded text, line breaks as written."""
        data = self.pieces.read_all() if self.pieces is not None else self.data
        text = str(memoryview(data)[self.start:], self.encoding, self.errors)
        return text[1:] if self.drop_bom_character and text.startswith("\ufeff") else text

    def is_blank(self) -> bool:
        """True if the text is empty or only white space (reads only up to the first other line)."""
        lines = self.lines()
        try:
            return all(line.isspace() for line in lines)
        finally:
            _close(lines)  # a streamed file is closed now, not when the iterator is collected

    def first_char(self) -> str:
        """The first character that is not white space, or "" (reads only up to its line)."""
        lines = self.lines()
        try:
            for line in lines:
                rest = line.lstrip()
                if rest:
                    return rest[0]
            return ""
        finally:
            _close(lines)

    def head(self, chars: int) -> str:
        """At most the first `chars` characters, line breaks given as "\\n"."""
        lines = self.lines()
        try:
            if isinstance(lines, io.TextIOWrapper):
                return lines.read(chars)
            parts, size = [], 0
            for line in lines:
                parts.append(line)
                size += len(line)
                if size >= chars:
                    break
            return "".join(parts)[:chars]
        finally:
            _close(lines)


def _without_bom(lines: Iterator[str]) -> Iterator[str]:
    first = next(lines, None)
    if first is None:
        return
    yield first[1:] if first.startswith("\ufeff") else first
    yield from lines


def open_source(data: bytes | bytearray | memoryview | str | Pieces, report: Report) -> Source:
    """Settle how to decode `data` (see the module docstring); notes say what was not plain UTF-8."""
    if isinstance(data, Pieces):
        return _open_pieces(data, report)
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


_HEAD_BYTES = 4  # enough for any byte-order mark


def _open_pieces(pieces: Pieces, report: Report) -> Source:
    """`open_source` for a file read in pieces: the same decisions and notes, a piece at a time."""
    head = pieces.head(_HEAD_BYTES)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        replacement, size = _utf16_replacement(pieces)
        if replacement is not None:
            report.note("the file is UTF-16; read as such")
            return Source(b"", "utf-16", drop_bom_character=True, may_hold_replacement_character=replacement,
                          pieces=pieces, streamed_bytes=size)
    start = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
    bad, replacement, unassigned, size = _scan_utf8(pieces, start)
    if bad is None:
        return Source(b"", "utf-8", start=start, may_hold_replacement_character=replacement, pieces=pieces,
                      streamed_bytes=size)
    report.note(f"the file is not valid UTF-8 (byte {bad - start + 1} is not); read as Windows-1252 (cp1252)")
    return Source(b"", "cp1252", "replace", start=start, may_hold_replacement_character=unassigned, pieces=pieces,
                  streamed_bytes=size)


def _utf16_replacement(pieces: Pieces) -> tuple[bool | None, int]:
    """(None if the pieces are not valid UTF-16, else whether the text holds U+FFFD; the bytes read)."""
    decoder = codecs.getincrementaldecoder("utf-16")("strict")
    found, size = False, 0
    try:
        for piece in pieces.open():
            size += len(piece)
            found = found or REPLACEMENT_CHARACTER in decoder.decode(piece)
        found = found or REPLACEMENT_CHARACTER in decoder.decode(b"", True)
    except UnicodeDecodeError:
        return None, size
    return found, size


def _scan_utf8(pieces: Pieces, start: int) -> tuple[int | None, bool, bool, int]:
    """(offset of the first byte that makes the bytes from `start` invalid UTF-8 or None, whether the UTF-8 form of
    U+FFFD occurs, whether a byte cp1252 leaves unassigned occurs, the bytes read), in one pass over the pieces."""
    bad: int | None = None
    replacement = unassigned = False
    pos = 0  # offset of `carry`'s first byte in the file
    carry = b""  # the bytes not yet checked: a character cut by a piece's end, and the skipped byte-order mark
    tail = b""  # the last bytes already scanned, so a U+FFFD cut by a piece's end is found
    size = 0
    for piece in pieces.open():
        if not piece:
            continue
        size += len(piece)
        ascii = piece.isascii()  # nearly every piece: then neither U+FFFD nor a bad byte can be in it
        # (no copy of the piece: a U+FFFD cut by a piece's end is looked for in the few bytes around it; searching
        # every piece cost more than the rest of this pass)
        replacement = replacement or (not ascii and (_UTF8_REPLACEMENT in piece
                                                      or _UTF8_REPLACEMENT in tail + piece[:2]))
        tail = (tail + piece)[-2:] if len(piece) < 2 else piece[-2:]
        if bad is not None:
            unassigned = unassigned or any(byte in piece for byte in _CP1252_UNASSIGNED)
            continue
        block = carry + piece
        skip = min(max(0, start - pos), len(block))  # the byte-order mark is not part of the text
        if block.isascii():
            pos, carry = pos + len(block), b""
            continue
        try:
            _, used = codecs.utf_8_decode(block[skip:], "strict", False)
        except UnicodeDecodeError as exc:
            bad = pos + skip + exc.start
            continue
        used += skip
        pos, carry = pos + used, block[used:]
    if bad is None and carry[max(0, start - pos):]:
        try:
            codecs.utf_8_decode(carry[max(0, start - pos):], "strict", True)
        except UnicodeDecodeError as exc:
            bad = pos + max(0, start - pos) + exc.start
    if bad is not None and not unassigned:  # read as cp1252 (rare): look again for its unassigned bytes
        unassigned = any(byte in piece for piece in pieces.open() for byte in _CP1252_UNASSIGNED)
    return bad, replacement, unassigned, size
